#include <gtest/gtest.h>

#include "model/GpuActivity.h"

namespace wl::model {
namespace {

TEST(GpuActivity, NamesAndTheirInverse) {
    MemcpyDetail copy;
    copy.copyKind = CopyKind::HostToDevice;
    copy.srcKind = MemoryKind::Pageable;
    copy.dstKind = MemoryKind::Device;
    const std::string name = copyActivityName(copy);
    EXPECT_EQ(name, "Memcpy HtoD (Pageable -> Device)");
    const CopyNameParts parts = parseCopyName(name);
    EXPECT_EQ(parts.direction, "HtoD");
    EXPECT_EQ(parts.src, "Pageable");
    EXPECT_EQ(parts.dst, "Device");
    copy.copyKind = CopyKind::PeerToPeer;
    copy.srcDevice = 0;
    copy.dstDevice = 1;
    EXPECT_EQ(copyActivityName(copy), "Memcpy PtoP (GPU 0 -> GPU 1)");
    MemsetDetail memset;
    memset.memoryKind = MemoryKind::Device;
    EXPECT_EQ(parseMemsetName(memsetActivityName(memset)), "Device");
    EXPECT_EQ(copyKindFromCuptiCode(8), CopyKind::DeviceToDevice);
    EXPECT_EQ(copyKindFromCuptiCode(11), CopyKind::HostToDevice);  // Nsight's unified memory
    EXPECT_EQ(syncKindFromCuptiCode(2), SyncKind::StreamWaitEvent);
}

// A synchronisation that only names its context and event learns its device, the stream the
// event was recorded on and the record, from the other activities.
TEST(GpuActivity, SyncsAreJoinedWithEventsAndContexts) {
    TraceBuilder builder;
    GpuActivityMapper mapper(builder);
    KernelActivity kernel;
    kernel.startNs = 100;
    kernel.endNs = 200;
    kernel.name = "k";
    kernel.place = {-1, 1, 9, 5, 10};
    mapper.add(kernel);  // context 9 is on GPU 1
    CudaEventActivity event;
    event.place = {-1, 1, 9, 5, 11};
    event.eventId = 3;
    event.eventRecordId = 77;
    mapper.add(event);
    SyncActivity sync;
    sync.startNs = 150;
    sync.endNs = 250;
    sync.deviceKnown = false;
    sync.place.contextId = 9;
    sync.place.correlationId = 12;
    sync.detail.syncKind = SyncKind::EventSynchronize;
    sync.eventId = 3;
    sync.eventRecordId = 77;
    mapper.add(sync);
    mapper.complete();
    const auto trace = builder.finalize();
    bool found = false;
    for (const Track& t : trace->tracks()) {
        if (t.kind != TrackKind::Sync)
            continue;
        found = true;
        EXPECT_EQ(t.deviceId, 1);
        const SyncDetail* d = trace->sync(t.slices.front());
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->streamId, 5);
        EXPECT_EQ(d->recordStreamId, 5);
        EXPECT_EQ(d->recordCorrelationId, 11u);
        EXPECT_EQ(trace->str(t.slices.front().nameId), "Event Sync");
    }
    EXPECT_TRUE(found);
}

// GPU work of two processes with the same correlation ids: each finds its own call.
TEST(GpuActivity, CorrelationIsPerProcess) {
    TraceBuilder builder;
    GpuActivityMapper::Options options;
    options.gpuRowsPerProcess = true;
    GpuActivityMapper mapper(builder, options);
    for (const std::int64_t pid : {100, 200}) {
        ApiActivity call;
        call.startNs = pid * 10;
        call.endNs = pid * 10 + 5;
        call.pid = pid;
        call.tid = pid + 1;
        call.name = "cudaLaunchKernel";
        call.correlationId = 7;
        mapper.add(mapper.apiRow(builder.hostProcess(pid), pid + 1), call);
        KernelActivity kernel;
        kernel.startNs = pid * 10 + 10;
        kernel.endNs = pid * 10 + 20;
        kernel.name = "k";
        kernel.place = {pid, 0, 1, 13, 7};
        mapper.add(kernel);
    }
    const auto trace = builder.finalize();
    ASSERT_EQ(trace->flows().size(), 2u);
    for (const Flow& f : trace->flows()) {
        const Process& host = trace->processes()[trace->tracks()[f.from.track].process];
        const Process& gpu = trace->processes()[trace->tracks()[f.to.track].process];
        EXPECT_EQ(host.pid, gpu.ownerPid);
    }
}

}  // namespace
}  // namespace wl::model
