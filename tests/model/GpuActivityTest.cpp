#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

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

// Migrations and page faults go to their GPU's unified-memory rows, one per kind; CPU page faults
// to the host process's; GPU page faults the driver serviced together become one counted event.
TEST(GpuActivity, UnifiedMemoryRowsAndFaultBatches) {
    TraceBuilder builder;
    GpuActivityMapper mapper(builder);
    const ProcessIndex host = builder.hostProcess(4242, "app");
    UnifiedMemoryActivity htod;
    htod.startNs = 100;
    htod.endNs = 300;
    htod.place.deviceId = 1;
    htod.detail.kind = UnifiedMemoryKind::MigrationHtoD;
    htod.detail.bytes = 2 << 20;
    htod.detail.address = 0x7f0000000000;
    htod.detail.srcDevice = kUnifiedMemoryCpu;
    htod.detail.dstDevice = 1;
    htod.detail.cause = UnifiedMemoryCause::Coherence;
    mapper.add(htod);
    // Three faults of one batch (same start and end), then one of the next batch.
    UnifiedMemoryActivity fault;
    fault.place.deviceId = 1;
    fault.detail.kind = UnifiedMemoryKind::GpuPageFault;
    fault.detail.access = UnifiedMemoryAccess::Read;
    fault.detail.srcDevice = 1;
    for (const std::uint64_t address : {0x3000u, 0x1000u, 0x2000u}) {
        fault.startNs = 50;
        fault.endNs = 90;
        fault.detail.address = address;
        fault.detail.faultCount = 1;
        mapper.add(fault);
    }
    fault.startNs = 400;
    fault.endNs = 420;
    fault.detail.address = 0x9000;
    fault.detail.faultCount = 2;
    fault.detail.access = UnifiedMemoryAccess::Write;
    mapper.add(fault);
    UnifiedMemoryActivity cpuFault;
    cpuFault.startNs = 10;
    cpuFault.endNs = 10;
    cpuFault.place.deviceId = -1;
    cpuFault.hostProcess = host;
    cpuFault.detail.kind = UnifiedMemoryKind::CpuPageFault;
    cpuFault.detail.faultCount = 1;
    cpuFault.detail.pc = 0x401000;
    mapper.add(cpuFault);
    mapper.complete();
    const auto trace = builder.finalize();
    EXPECT_EQ(trace->counts().unifiedMemory, 4u);

    std::map<UnifiedMemoryKind, const Track*> rows;
    for (const Track& t : trace->tracks()) {
        if (t.kind == TrackKind::UnifiedMemory)
            rows[t.unifiedMemoryKind] = &t;
    }
    ASSERT_EQ(rows.size(), 3u);
    const Track& migrations = *rows.at(UnifiedMemoryKind::MigrationHtoD);
    EXPECT_EQ(migrations.deviceId, 1);
    EXPECT_EQ(trace->processes()[migrations.process].deviceId, 1);
    EXPECT_EQ(trace->str(migrations.nameId), "Unified memory HtoD");
    ASSERT_EQ(migrations.slices.size(), 1u);
    EXPECT_EQ(trace->str(migrations.slices[0].nameId), "Migration HtoD");
    const UnifiedMemoryDetail* m = trace->unifiedMemory(migrations.slices[0]);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->bytes, 2u << 20);
    EXPECT_EQ(m->cause, UnifiedMemoryCause::Coherence);
    EXPECT_EQ(m->dstDevice, 1);

    const Track& faults = *rows.at(UnifiedMemoryKind::GpuPageFault);
    EXPECT_EQ(faults.process, migrations.process);
    ASSERT_EQ(faults.slices.size(), 2u);
    std::vector<UnifiedMemoryDetail> batches;
    for (const Slice& s : faults.slices)
        batches.push_back(*trace->unifiedMemory(s));
    std::sort(batches.begin(), batches.end(),
              [](const auto& a, const auto& b) { return a.address < b.address; });
    EXPECT_EQ(batches[0].faultCount, 3u);
    EXPECT_EQ(batches[0].address, 0x1000u);  // the lowest page of the batch
    EXPECT_EQ(batches[0].access, UnifiedMemoryAccess::Read);
    EXPECT_EQ(batches[1].faultCount, 2u);
    EXPECT_EQ(batches[1].access, UnifiedMemoryAccess::Write);

    const Track& cpu = *rows.at(UnifiedMemoryKind::CpuPageFault);
    EXPECT_EQ(cpu.process, host);
    EXPECT_EQ(cpu.deviceId, -1);
    ASSERT_EQ(cpu.slices.size(), 1u);
    EXPECT_EQ(cpu.slices[0].durationNs, 0);
    EXPECT_EQ(trace->unifiedMemory(cpu.slices[0])->pc, 0x401000u);
}

TEST(GpuActivity, UnifiedMemoryNamesAndTheirInverse) {
    for (auto k = static_cast<int>(UnifiedMemoryKind::MigrationHtoD);
         k <= static_cast<int>(UnifiedMemoryKind::RemoteMap); ++k) {
        const auto kind = static_cast<UnifiedMemoryKind>(k);
        EXPECT_EQ(unifiedMemoryKindFromString(toString(kind)), kind) << toString(kind);
    }
    for (auto c = static_cast<int>(UnifiedMemoryCause::User);
         c <= static_cast<int>(UnifiedMemoryCause::OutOfMemory); ++c) {
        const auto cause = static_cast<UnifiedMemoryCause>(c);
        EXPECT_EQ(unifiedMemoryCauseFromString(toString(cause)), cause) << toString(cause);
    }
    for (auto a = static_cast<int>(UnifiedMemoryAccess::Read);
         a <= static_cast<int>(UnifiedMemoryAccess::Prefetch); ++a) {
        const auto access = static_cast<UnifiedMemoryAccess>(a);
        EXPECT_EQ(unifiedMemoryAccessFromString(toString(access)), access) << toString(access);
    }
    EXPECT_EQ(unifiedMemoryKindFromString("migration sideways"), UnifiedMemoryKind::Unknown);
    EXPECT_STREQ(unifiedMemoryEventName(UnifiedMemoryKind::GpuPageFault), "GPU page fault");
    EXPECT_STREQ(unifiedMemoryTrackName(UnifiedMemoryKind::MigrationDtoH), "Unified memory DtoH");
}

}  // namespace
}  // namespace wl::model
