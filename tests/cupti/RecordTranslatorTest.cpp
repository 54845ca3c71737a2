#include "cupti/RecordTranslator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include <set>
#include <string>
#include <vector>

#include "CuptiRecords.h"

namespace wl::cupti {
namespace {

using namespace wl::cupti::test;
using model::SliceKind;
using model::TrackKind;

constexpr std::uint32_t kLaunchCbid = 211;
constexpr std::uint32_t kMemcpyCbid = 31;

std::string fakeApiName(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        switch (id) {
            case kLaunchCbid:
                return "cudaLaunchKernel";
            case kMemcpyCbid:
                return "cudaMemcpy";
            case 300:
                return "cudaLaunchKernel_ptsz";
            case 301:
                return "cudaStreamCreateWithFlags";
            case 302:
                return "cudaEventSynchronize";
            default:
                return {};
        }
    }
    return id == 307 ? "cuLaunchKernel" : "";
}

class RecordTranslatorTest : public ::testing::Test {
protected:
    RecordTranslator translator{&fakeApiName};

    template <class T>
    void feed(const T& record) {
        translator.translate(asActivity(record));
    }

    model::TracePtr finish() {
        translator.complete();
        return translator.builder().finalize();
    }

    static std::vector<const model::Track*> tracksOf(const model::Trace& trace, TrackKind kind) {
        std::vector<const model::Track*> out;
        for (const auto& track : trace.tracks()) {
            if (track.kind == kind) {
                out.push_back(&track);
            }
        }
        return out;
    }
};

TEST_F(RecordTranslatorTest, KernelLaunchBecomesGpuSliceWithDetailAndFlow) {
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunchCbid, 1000, 1500, 11));
    feed(apiRecord(CUPTI_ACTIVITY_KIND_DRIVER, 307, 1100, 1400, 12));
    feed(kernelRecord("_Z14partial_reducePKfPfm", 2000, 5000, 11));
    auto trace = finish();

    const auto streams = tracksOf(*trace, TrackKind::GpuStream);
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0]->deviceId, 0);
    EXPECT_EQ(streams[0]->streamId, 7);
    ASSERT_EQ(streams[0]->slices.size(), 1u);
    const model::Slice& kernel = streams[0]->slices[0];
    EXPECT_EQ(kernel.kind, SliceKind::Kernel);
    EXPECT_EQ(trace->str(kernel.nameId), "partial_reduce(float const*, float*, unsigned long)");
    EXPECT_EQ(kernel.durationNs, 3000);
    EXPECT_EQ(kernel.correlationId, 11u);
    const model::KernelDetail* detail = trace->kernel(kernel);
    ASSERT_NE(detail, nullptr);
    EXPECT_EQ(detail->grid[0], 1280);
    EXPECT_EQ(detail->block[0], 256);
    EXPECT_EQ(detail->registersPerThread, 32);
    EXPECT_EQ(detail->staticSharedBytes, 1024);
    EXPECT_EQ(detail->dynamicSharedBytes, 512);

    const auto api = tracksOf(*trace, TrackKind::HostApi);
    ASSERT_EQ(api.size(), 1u);
    ASSERT_EQ(api[0]->slices.size(), 2u);
    bool sawRuntime = false;
    bool sawDriver = false;
    for (const auto& s : api[0]->slices) {
        if (s.kind == SliceKind::RuntimeApi) {
            sawRuntime = true;
            EXPECT_EQ(trace->str(s.nameId), "cudaLaunchKernel");
            EXPECT_EQ(s.depth, 0);
            ASSERT_NE(trace->api(s), nullptr);
            EXPECT_EQ(trace->api(s)->callbackId, kLaunchCbid);
        } else {
            sawDriver = true;
            EXPECT_EQ(s.kind, SliceKind::DriverApi);
            EXPECT_EQ(trace->str(s.nameId), "cuLaunchKernel");
            EXPECT_EQ(s.depth, 1);  // nested inside the runtime call
        }
    }
    EXPECT_TRUE(sawRuntime && sawDriver);

    ASSERT_EQ(trace->flows().size(), 1u);
    const model::Flow& flow = trace->flows()[0];
    EXPECT_EQ(flow.id, 11u);
    EXPECT_EQ(trace->slice(flow.from).kind, SliceKind::RuntimeApi);
    EXPECT_EQ(trace->slice(flow.to).kind, SliceKind::Kernel);
    EXPECT_EQ(trace->diagnostics().warningCount, 0u);
}

TEST_F(RecordTranslatorTest, CopiesCarryDirectionMemoryKindsAndBytes) {
    feed(memcpyRecord(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 4096, 100, 200, 1));
    feed(memcpyRecord(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                      CUPTI_ACTIVITY_MEMORY_KIND_PINNED, 8192, 300, 450, 2));
    feed(memsetRecord(1 << 20, 0, 500, 600, 3));
    feed(peerRecord(0, 1, 1 << 16, 700, 800, 4));
    auto trace = finish();

    int checked = 0;
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            if (s.kind == SliceKind::Memcpy) {
                const auto* m = trace->memcpy(s);
                ASSERT_NE(m, nullptr);
                if (s.correlationId == 1) {
                    EXPECT_EQ(m->copyKind, model::CopyKind::HostToDevice);
                    EXPECT_EQ(m->srcKind, model::MemoryKind::Pageable);
                    EXPECT_EQ(m->dstKind, model::MemoryKind::Device);
                    EXPECT_EQ(m->bytes, 4096u);
                    EXPECT_EQ(trace->str(s.nameId), "Memcpy HtoD (Pageable -> Device)");
                } else if (s.correlationId == 2) {
                    EXPECT_EQ(m->copyKind, model::CopyKind::DeviceToHost);
                    EXPECT_EQ(m->dstKind, model::MemoryKind::Pinned);
                    EXPECT_EQ(m->bytes, 8192u);
                } else {
                    EXPECT_EQ(s.correlationId, 4u);
                    EXPECT_EQ(m->copyKind, model::CopyKind::PeerToPeer);
                    EXPECT_EQ(m->srcDevice, 0);
                    EXPECT_EQ(m->dstDevice, 1);
                }
                ++checked;
            } else if (s.kind == SliceKind::Memset) {
                const auto* m = trace->memset(s);
                ASSERT_NE(m, nullptr);
                EXPECT_EQ(m->bytes, 1u << 20);
                EXPECT_EQ(m->memoryKind, model::MemoryKind::Device);
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 4);
    EXPECT_EQ(trace->counts().memcpy, 3u);
    EXPECT_EQ(trace->counts().memset, 1u);
}

TEST_F(RecordTranslatorTest, SynchronisationsLandOnTheirDeviceWithStreamAndEvent) {
    feed(contextRecord(5, 1));  // context 5 lives on GPU 1
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, 100, 900, 21, 13,
                    CUPTI_SYNCHRONIZATION_INVALID_VALUE, 5));
    feed(eventRecord(77, 14, 22));
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, 1000, 1200, 23,
                    CUPTI_SYNCHRONIZATION_INVALID_VALUE, 77, 5));
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, 1300, 1400, 24,
                    CUPTI_SYNCHRONIZATION_INVALID_VALUE, CUPTI_SYNCHRONIZATION_INVALID_VALUE, 5));
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 1500, 1510, 25, 13, 77,
                    5));
    auto trace = finish();

    const auto syncs = tracksOf(*trace, TrackKind::Sync);
    ASSERT_EQ(syncs.size(), 1u);
    EXPECT_EQ(syncs[0]->deviceId, 1);
    ASSERT_EQ(syncs[0]->slices.size(), 4u);
    std::vector<model::SyncKind> kinds;
    for (const auto& s : syncs[0]->slices) {
        const auto* d = trace->sync(s);
        ASSERT_NE(d, nullptr);
        kinds.push_back(d->syncKind);
        switch (d->syncKind) {
            case model::SyncKind::StreamSynchronize:
                EXPECT_EQ(d->streamId, 13);
                EXPECT_EQ(trace->str(s.nameId), "Stream Sync");
                break;
            case model::SyncKind::EventSynchronize:
                EXPECT_EQ(d->eventId, 77u);
                EXPECT_EQ(d->streamId, 14);  // the stream the event was recorded on
                break;
            case model::SyncKind::ContextSynchronize:
                EXPECT_EQ(d->streamId, -1);
                break;
            case model::SyncKind::StreamWaitEvent:
                EXPECT_EQ(d->streamId, 13);
                EXPECT_EQ(d->eventId, 77u);
                break;
            default:
                ADD_FAILURE() << "unexpected sync kind";
        }
    }
    EXPECT_EQ(kinds.size(), 4u);
}

TEST_F(RecordTranslatorTest, EventWaitsNameTheOpTheyWaitFor) {
    // Stream 13 runs "producer" (correlation 10), then the event is recorded on it (11, record 5);
    // stream 14 waits for it (12) and runs "consumer" (13); the host waits for it too (14). The
    // event is recorded again after "late" (15, record 6): only record 5 is waited for.
    feed(kernelRecord("producer", 100, 500, 10, 13));
    feed(kernelRecord("consumer", 510, 800, 13, 14));
    feed(kernelRecord("late", 600, 700, 15, 13));
    feed(eventRecord(77, 13, 11, 5));
    feed(eventRecord(77, 13, 16, 6));
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, 60, 61, 12, 14, 77, 1,
                    5));
    feed(syncRecord(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, 70, 505, 14,
                    CUPTI_SYNCHRONIZATION_INVALID_VALUE, 77, 1, 5));
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 302, 70, 505, 14));
    auto trace = finish();

    auto name = [&](model::SliceRef ref) {
        return std::string(trace->str(trace->slice(ref).nameId));
    };
    const auto deps = trace->dependencies();
    ASSERT_EQ(deps.size(), 2u);
    std::vector<std::string> waiters;
    for (const auto& d : deps) {
        EXPECT_EQ(name(d.from), "producer");
        EXPECT_EQ(trace->slice(d.via).kind, SliceKind::Sync);
        const auto* sync = trace->sync(trace->slice(d.via));
        ASSERT_NE(sync, nullptr);
        EXPECT_EQ(sync->recordStreamId, 13);
        EXPECT_EQ(sync->recordCorrelationId, 11u);
        waiters.push_back(name(d.to));
    }
    std::sort(waiters.begin(), waiters.end());
    EXPECT_EQ(waiters, (std::vector<std::string>{"consumer", "cudaEventSynchronize"}));
    EXPECT_EQ(trace->counts().dependencies, 2u);
    EXPECT_EQ(trace->dependenciesFrom(deps[0].from).size(), 2u);
    EXPECT_EQ(trace->dependenciesTo(deps[0].to).size(), 1u);
}

TEST_F(RecordTranslatorTest, GraphNodesKeepTheirGraphAndNodeIds) {
    auto k = kernelRecord("node_kernel", 100, 200, 40, 13);
    k.graphId = 3;
    k.graphNodeId = 77;
    feed(k);
    auto m = memsetRecord(4096, 0, 210, 220, 40, 13);
    m.graphId = 3;
    m.graphNodeId = 78;
    feed(m);
    auto trace = finish();
    int seen = 0;
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            if (const auto* kd = trace->kernel(s)) {
                EXPECT_EQ(kd->graph.graphId, 3u);
                EXPECT_EQ(kd->graph.nodeId, 77u);
                ++seen;
            } else if (const auto* md = trace->memset(s)) {
                EXPECT_EQ(md->graph.graphId, 3u);
                EXPECT_EQ(md->graph.nodeId, 78u);
                ++seen;
            }
        }
    }
    EXPECT_EQ(seen, 2);
}

TEST_F(RecordTranslatorTest, MemoryOperationsMakeTheDeviceMemoryRow) {
    // cudaMalloc 1 MiB, cudaMallocAsync 4 KiB from a pool of 2 MiB, cudaFree of memory allocated
    // before recording began (not counted), then both released.
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 20, 100, 110, 50));
    feed(memoryRecord(false, 0x1000, 1 << 20, 105, 50));
    feed(memoryRecord(false, 0x8000, 4096, 200, 51, 2 << 20));
    feed(memoryRecord(true, 0x7777, 999, 250, 52));
    feed(memoryRecord(true, 0x1000, 1 << 20, 300, 53));
    feed(memoryRecord(true, 0x8000, 4096, 400, 54, 2 << 20));
    auto trace = finish();

    const auto memoryTracks = tracksOf(*trace, TrackKind::Memory);
    ASSERT_EQ(memoryTracks.size(), 1u);
    ASSERT_EQ(memoryTracks[0]->slices.size(), 5u);
    EXPECT_EQ(trace->counts().memory, 5u);
    const model::Slice& first = memoryTracks[0]->slices[0];
    const model::MemoryDetail* alloc = trace->memory(first);
    ASSERT_NE(alloc, nullptr);
    EXPECT_EQ(alloc->op, model::MemoryOp::Allocation);
    EXPECT_EQ(alloc->bytes, 1u << 20);
    EXPECT_EQ(alloc->address, 0x1000u);
    EXPECT_EQ(alloc->memoryKind, model::MemoryKind::Device);
    EXPECT_FALSE(alloc->fromPool);
    EXPECT_EQ(alloc->streamId, -1);
    // The cudaMalloc call links to its allocation, and that is no launch: no launch queue.
    const auto memoryTrackIndex =
        static_cast<std::uint32_t>(memoryTracks[0] - trace->tracks().data());
    const model::Flow* flow = trace->flowTo({memoryTrackIndex, 0});
    ASSERT_NE(flow, nullptr);
    EXPECT_EQ(trace->slice(flow->from).correlationId, 50u);
    const model::MemoryDetail* pooled = trace->memory(memoryTracks[0]->slices[1]);
    ASSERT_NE(pooled, nullptr);
    EXPECT_TRUE(pooled->fromPool);
    EXPECT_EQ(pooled->streamId, 7);
    EXPECT_EQ(pooled->poolReservedBytes, 2u << 20);

    const model::CounterTrack* inUse = nullptr;
    const model::CounterTrack* pools = nullptr;
    for (const auto& c : trace->counters()) {
        EXPECT_NE(trace->str(c.nameId), "Launch queue");
        if (trace->str(c.nameId) != "Device memory")
            continue;
        EXPECT_TRUE(c.derived);
        (trace->str(c.seriesId) == "memory in use" ? inUse : pools) = &c;
    }
    ASSERT_NE(inUse, nullptr);
    ASSERT_NE(pools, nullptr);
    std::vector<double> values;
    for (const auto& sample : inUse->samples)
        values.push_back(sample.value);
    // The release of unknown memory changes nothing; the row ends where it began.
    const std::vector<double> expected = {1 << 20, (1 << 20) + 4096, 4096, 0};
    EXPECT_EQ(values, expected);
    ASSERT_FALSE(pools->samples.empty());
    EXPECT_EQ(pools->samples.back().value, double(2 << 20));
}

NvtxRange nvtxRange(std::uint64_t start, std::uint64_t end, std::string name,
                    std::string domain = {}, std::int64_t tid = 100) {
    NvtxRange r;
    r.startNs = start;
    r.endNs = end;
    r.name = std::move(name);
    r.domain = std::move(domain);
    r.pid = 1;
    r.tid = tid;
    r.endTid = tid;
    return r;
}

TEST_F(RecordTranslatorTest, UnifiedMemoryCountersMakeTheirRows) {
    constexpr std::uint32_t kCpu = CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID;
    // A 2 MiB migration to GPU 1 caused by a page fault, 64 KiB back to the host on eviction.
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
                             2 << 20, 1000, 3000, 0x7f0000200000, kCpu, 1,
                             CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE));
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
                             64 << 10, 4000, 4100, 0x7f0000400000, 1, kCpu,
                             CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION));
    // Two faults of one batch on GPU 1 (one page with 3 fault groups), a write.
    for (const std::uint64_t page : {0x7f0000201000ull, 0x7f0000200000ull}) {
        feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
                                 page == 0x7f0000200000ull ? 3 : 1, 900, 2900, page, 1, 0,
                                 CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE));
    }
    // A CPU page fault: no end, the pc in its value.
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
                             0x401234, 5000, 0, 0x7f0000200000, 0, 0));
    // Thrashing of GPUs 0 and 1 (a mask), throttling of the CPU, a remote map for a policy.
    auto thrashing = unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING, 4096,
                                         6000, 0, 0x7f0000200000, 3, 0);
    thrashing.processors[0] = 0b110;
    feed(thrashing);
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING, 0, 7000, 7500,
                             0x7f0000200000, 0, 0, CUPTI_ACTIVITY_FLAG_THROTTLING_IN_CPU));
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP, 8192, 8000, 0,
                             0x7f0000200000, kCpu, 1,
                             CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_POLICY));
    auto trace = finish();
    EXPECT_EQ(trace->counts().unifiedMemory, 7u);  // the two faults are one batch
    EXPECT_EQ(trace->diagnostics().unknownRecords, 0u);
    EXPECT_EQ(trace->diagnostics().invalidTimestamps, 0u);

    std::map<model::UnifiedMemoryKind, std::pair<const model::Track*, const model::Slice*>> rows;
    for (const model::Track* track : tracksOf(*trace, TrackKind::UnifiedMemory)) {
        ASSERT_EQ(track->slices.size(), 1u) << trace->str(track->nameId);
        rows[track->unifiedMemoryKind] = {track, &track->slices[0]};
    }
    ASSERT_EQ(rows.size(), 7u);
    const auto detail = [&](model::UnifiedMemoryKind kind) {
        return trace->unifiedMemory(*rows.at(kind).second);
    };
    const auto deviceOf = [&](model::UnifiedMemoryKind kind) {
        return trace->processes()[rows.at(kind).first->process].deviceId;
    };
    using K = model::UnifiedMemoryKind;
    const model::UnifiedMemoryDetail* htod = detail(K::MigrationHtoD);
    EXPECT_EQ(deviceOf(K::MigrationHtoD), 1);
    EXPECT_EQ(htod->bytes, 2u << 20);
    EXPECT_EQ(htod->address, 0x7f0000200000u);
    EXPECT_EQ(htod->srcDevice, model::kUnifiedMemoryCpu);
    EXPECT_EQ(htod->dstDevice, 1);
    EXPECT_EQ(htod->cause, model::UnifiedMemoryCause::Coherence);
    EXPECT_EQ(rows.at(K::MigrationHtoD).second->durationNs, 2000);
    EXPECT_EQ(deviceOf(K::MigrationDtoH), 1);  // the GPU that gave the pages up
    EXPECT_EQ(detail(K::MigrationDtoH)->cause, model::UnifiedMemoryCause::Eviction);

    const model::UnifiedMemoryDetail* fault = detail(K::GpuPageFault);
    EXPECT_EQ(deviceOf(K::GpuPageFault), 1);
    EXPECT_EQ(fault->faultCount, 4u);
    EXPECT_EQ(fault->address, 0x7f0000200000u);
    EXPECT_EQ(fault->access, model::UnifiedMemoryAccess::Write);
    EXPECT_EQ(rows.at(K::GpuPageFault).second->durationNs, 2000);

    const model::Track& cpu = *rows.at(K::CpuPageFault).first;
    EXPECT_EQ(trace->processes()[cpu.process].deviceId, -1);
    EXPECT_EQ(trace->processes()[cpu.process].pid, 4242);
    EXPECT_EQ(rows.at(K::CpuPageFault).second->durationNs, 0);
    EXPECT_EQ(detail(K::CpuPageFault)->pc, 0x401234u);

    EXPECT_EQ(deviceOf(K::Thrashing), 1);  // the lowest GPU of the mask
    EXPECT_EQ(rows.at(K::Thrashing).second->durationNs, 0);
    EXPECT_EQ(deviceOf(K::Throttling), -1);  // the CPU's
    EXPECT_EQ(rows.at(K::Throttling).second->durationNs, 500);
    EXPECT_EQ(deviceOf(K::RemoteMap), 1);
    EXPECT_EQ(detail(K::RemoteMap)->cause, model::UnifiedMemoryCause::Policy);
}

TEST_F(RecordTranslatorTest, UnifiedMemoryRecordsWithoutTimeAreCounted) {
    feed(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD, 4096,
                             0, 0, 0x1000, CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID, 0));
    auto trace = finish();
    EXPECT_EQ(trace->counts().unifiedMemory, 0u);
    EXPECT_EQ(trace->diagnostics().invalidTimestamps, 1u);
}

TEST_F(RecordTranslatorTest, NvtxPayloadsAndCategoryNamesAreKept) {
    NvtxCapture capture;
    NvtxRange batch = nvtxRange(100, 400, "Batch");
    batch.colorArgb = 0xFF00FF00u;
    batch.category = 7;
    batch.categoryName = "I/O";
    batch.hasPayload = true;
    batch.payload = 4096;
    capture.ranges.push_back(batch);
    translator.addNvtx(capture);
    auto trace = finish();
    const model::NvtxDetail* n = nullptr;
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            if (trace->str(s.nameId) == "Batch") {
                n = trace->nvtx(s);
            }
        }
    }
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->category, 7);
    EXPECT_EQ(trace->str(n->categoryNameId), "I/O");
    EXPECT_EQ(n->colorArgb, 0xFF00FF00u);
    EXPECT_TRUE(n->hasPayload);
    EXPECT_EQ(n->payload, 4096.0);
}

TEST_F(RecordTranslatorTest, NvtxRangesNestPerThreadAndDomainWithColours) {
    NvtxCapture capture;
    capture.ranges.push_back(nvtxRange(100, 400, "Loop"));
    capture.ranges.back().colorArgb = 0xFF00FF00u;
    capture.ranges.push_back(nvtxRange(200, 300, "Step 0 to 15"));
    capture.ranges.push_back(nvtxRange(150, 250, "Compute", "physics"));
    capture.ranges.back().colorArgb = 0xFFFF0000u;
    capture.ranges.push_back(nvtxRange(260, 260, "checkpoint"));
    capture.ranges.back().mark = true;
    translator.addNvtx(capture);
    auto trace = finish();

    const auto nvtx = tracksOf(*trace, TrackKind::Nvtx);
    ASSERT_EQ(nvtx.size(), 2u);  // default domain and "physics" on thread 100
    int seen = 0;
    for (const model::Track* track : nvtx) {
        const std::string domain(trace->str(track->domainId));
        for (const auto& s : track->slices) {
            const std::string name(trace->str(s.nameId));
            const auto* d = trace->nvtx(s);
            ASSERT_NE(d, nullptr);
            EXPECT_EQ(trace->str(d->domainId), domain);
            if (name == "Loop") {
                EXPECT_EQ(s.depth, 0);
                EXPECT_EQ(d->colorArgb, 0xFF00FF00u);
                EXPECT_EQ(s.durationNs, 300);
            } else if (name == "Step 0 to 15") {
                EXPECT_EQ(s.depth, 1);
                EXPECT_EQ(d->colorArgb, 0u);
            } else if (name == "Compute") {
                EXPECT_EQ(domain, "physics");
                EXPECT_EQ(d->colorArgb, 0xFFFF0000u);
            } else {
                EXPECT_EQ(name, "checkpoint");
                EXPECT_EQ(domain, "");
                EXPECT_EQ(s.durationNs, 0);
            }
            ++seen;
        }
    }
    EXPECT_EQ(seen, 4);
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 0u);
}

TEST_F(RecordTranslatorTest, StartEndRangesGoToTheAsyncTrackAndLostEndsAreCounted) {
    NvtxCapture capture;
    // Started on thread 100, ended on thread 200.
    capture.ranges.push_back(nvtxRange(100, 900, "request"));
    capture.ranges.back().startEnd = true;
    capture.ranges.back().endTid = 200;
    // Same thread, but a start/end range: it may overlap the thread's push/pop ranges.
    capture.ranges.push_back(nvtxRange(200, 300, "upload"));
    capture.ranges.back().startEnd = true;
    capture.neverEnded = 1;
    capture.unmatchedEnds = 1;
    capture.warnings = {"NVTX range \"open\" was started and never ended (thread 100)",
                        "NVTX pop without a push on thread 100"};
    translator.addNvtx(capture);
    auto trace = finish();

    const auto async = tracksOf(*trace, TrackKind::NvtxAsync);
    ASSERT_EQ(async.size(), 1u);
    ASSERT_EQ(async[0]->slices.size(), 2u);
    EXPECT_TRUE(tracksOf(*trace, TrackKind::Nvtx).empty());
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 2u);
    const auto& warnings = trace->diagnostics().warnings;
    EXPECT_NE(std::find(warnings.begin(), warnings.end(), capture.warnings[0]), warnings.end());
    EXPECT_NE(std::find(warnings.begin(), warnings.end(), capture.warnings[1]), warnings.end());
}

TEST_F(RecordTranslatorTest, NvtxNamesNameThreadStreamAndDeviceRows) {
    NvtxCapture capture;
    capture.ranges.push_back(nvtxRange(100, 200, "step", {}, 100));
    capture.threadNames[100] = "loader";
    capture.streamNames[13] = "copies";
    capture.deviceNames[0] = "trainer";
    capture.otherNames = {"event 0x10: done"};
    translator.addNvtx(capture);
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunchCbid, 100, 150, 5));
    feed(kernelRecord("k", 300, 400, 5, 13));
    feed(deviceRecord(0, "Fake H200"));
    auto trace = finish();

    const auto nvtx = tracksOf(*trace, TrackKind::Nvtx);
    ASSERT_EQ(nvtx.size(), 1u);
    EXPECT_EQ(trace->str(nvtx[0]->nameId), "NVTX: loader (tid 100)");
    const auto streams = tracksOf(*trace, TrackKind::GpuStream);
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(trace->str(streams[0]->nameId), "copies (stream 13)");
    bool gpuNamed = false;
    for (const auto& process : trace->processes()) {
        gpuNamed |= trace->str(process.nameId) == "GPU 0: trainer (Fake H200)";
    }
    EXPECT_TRUE(gpuNamed);
    EXPECT_EQ(trace->metadataValue("nvtx resource names"), "event 0x10: done");
}

TEST_F(RecordTranslatorTest, OnlyDevicesWithWorkHaveRows) {
    feed(deviceRecord(0, "Fake H200"));
    feed(deviceRecord(1, "Fake H200"));  // CUPTI describes every device, used or not
    feed(kernelRecord("k", 300, 400, 5, 13, 0));
    EXPECT_TRUE(translator.ranWorkOn(0));
    EXPECT_FALSE(translator.ranWorkOn(1));
    auto trace = finish();
    std::set<int> groups;
    for (const auto& process : trace->processes()) {
        if (process.deviceId >= 0) {
            groups.insert(process.deviceId);
        }
    }
    EXPECT_EQ(groups, (std::set<int>{0}));
}

TEST_F(RecordTranslatorTest, ThreadsAndStreamsAreNamed) {
    feed(threadNameRecord(100, "loader"));
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 301, 10, 20, 30));  // cudaStreamCreateWithFlags
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 300, 30, 40, 31));  // cudaLaunchKernel_ptsz
    feed(streamRecord(7, CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL, 0));
    feed(streamRecord(13, CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING, 30));
    feed(streamRecord(14, CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT, 31));
    feed(streamNameRecord(15, "copy stream"));
    feed(kernelRecord("a", 100, 200, 0, 7));
    feed(kernelRecord("b", 100, 200, 0, 13));
    feed(kernelRecord("c", 100, 200, 31, 14));
    feed(kernelRecord("d", 100, 200, 0, 15));
    auto trace = finish();

    std::map<std::int64_t, std::string> names;
    for (const auto* track : tracksOf(*trace, TrackKind::GpuStream)) {
        names[track->streamId] = std::string(trace->str(track->nameId));
    }
    EXPECT_EQ(names[7], "Default stream (legacy, 7)");
    EXPECT_EQ(names[13], "Stream 13");
    EXPECT_EQ(names[14], "Default stream (per-thread, 14)");
    EXPECT_EQ(names[15], "copy stream (stream 15)");
    const auto api = tracksOf(*trace, TrackKind::HostApi);
    ASSERT_EQ(api.size(), 1u);
    EXPECT_EQ(trace->str(api[0]->nameId), "CUDA API: loader (tid 100)");
}

TEST_F(RecordTranslatorTest, BadTimestampsTruncatedStringsAndUnknownKindsAreDiagnosed) {
    feed(kernelRecord("reversed", 5000, 4000, 1));  // ends before it starts: clamped
    feed(kernelRecord("no time", 0, 4000, 2));      // no timestamp: skipped
    const std::string longName(RecordTranslator::kMaxStringBytes + 500, 'k');
    feed(kernelRecord(longName.c_str(), 6000, 7000, 3));
    auto unknown = zeroed<CUpti_ActivityAPI>();
    unknown.kind = CUPTI_ACTIVITY_KIND_PCIE;
    feed(unknown);
    feed(unknown);
    translator.addDroppedRecords(17);
    auto trace = finish();

    const auto& diag = trace->diagnostics();
    EXPECT_EQ(diag.invalidTimestamps, 2u);
    EXPECT_EQ(diag.truncatedStrings, 1u);
    EXPECT_EQ(diag.unknownRecords, 2u);
    EXPECT_EQ(diag.droppedRecords, 17u);
    EXPECT_TRUE(diag.lostData());
    EXPECT_GE(diag.warnings.size(),
              4u);  // reversed, missing, truncated, unknown kind (once), dropped
    EXPECT_EQ(trace->counts().kernel, 2u);
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            if (trace->str(s.nameId) == "reversed") {
                EXPECT_EQ(s.durationNs, 0);
            } else {
                EXPECT_EQ(trace->str(s.nameId).size(), RecordTranslator::kMaxStringBytes);
            }
        }
    }
}

TEST_F(RecordTranslatorTest, AKernelThatDidNotFinishIsNamedInAWarningOnce) {
    // simpleAssert's shape: the asserting kernel comes back without timestamps, twice launched.
    feed(kernelRecord("testKernel", 0, 0, 1));
    feed(kernelRecord("testKernel", 0, 0, 2));
    auto trace = finish();
    const auto& diag = trace->diagnostics();
    EXPECT_EQ(diag.invalidTimestamps, 2u);
    EXPECT_EQ(trace->counts().kernel, 0u);
    std::size_t named = 0;
    for (const std::string& w : diag.warnings) {
        named += w.rfind("kernel testKernel (GPU ", 0) == 0 &&
                 w.find("did not finish") != std::string::npos;
    }
    EXPECT_EQ(named, 1u);
}

TEST_F(RecordTranslatorTest, DevicesSayWhichPhysicalGpuTheyWere) {
    auto device = deviceRecord(0, "NVIDIA H200");
    const unsigned char uuid[16] = {0x8f, 0x2c, 0x01, 0x02, 0xab, 0xcd, 0x00, 0x11,
                                    0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};
    std::memcpy(device.uuid.bytes, uuid, sizeof(uuid));
    feed(device);
    feed(deviceRecord(1, "NVIDIA H200"));  // no UUID reported
    model::DeviceProperties pci;
    pci.id = 0;
    pci.pciBusId = "0000:1b:00.0";
    translator.addRuntimeDeviceProperties(pci);
    auto trace = finish();
    ASSERT_NE(trace->device(0), nullptr);
    EXPECT_EQ(trace->device(0)->uuid, "GPU-8f2c0102-abcd-0011-2233-445566778899");
    EXPECT_EQ(trace->device(0)->pciBusId, "0000:1b:00.0");
    EXPECT_EQ(trace->device(0)->smCount, 132);  // the rest is still CUPTI's
    ASSERT_NE(trace->device(1), nullptr);
    EXPECT_TRUE(trace->device(1)->uuid.empty());
}

TEST_F(RecordTranslatorTest, EachDeviceGetsItsOwnProcessAndProperties) {
    feed(deviceRecord(1, "NVIDIA H200"));
    feed(kernelRecord("on_gpu1", 100, 200, 1, 20, 1));
    feed(kernelRecord("on_gpu2", 100, 200, 2, 21, 2));
    model::DeviceProperties runtime;
    runtime.id = 1;
    runtime.name = "from runtime";
    runtime.memoryBusWidthBits = 6144;
    runtime.sharedMemoryPerBlockOptinBytes = 232448;
    translator.addRuntimeDeviceProperties(runtime);
    EXPECT_EQ(translator.devices(), (std::vector<int>{1, 2}));
    auto trace = finish();

    std::vector<std::int32_t> gpuProcesses;
    for (const auto& p : trace->processes()) {
        if (p.deviceId >= 0) {
            gpuProcesses.push_back(p.deviceId);
        }
    }
    std::sort(gpuProcesses.begin(), gpuProcesses.end());
    EXPECT_EQ(gpuProcesses, (std::vector<std::int32_t>{1, 2}));  // no device 0 invented
    const model::DeviceProperties* d1 = trace->device(1);
    ASSERT_NE(d1, nullptr);
    EXPECT_EQ(d1->name, "NVIDIA H200");  // CUPTI's record wins where it has a value
    EXPECT_EQ(d1->smCount, 132);
    EXPECT_EQ(d1->maxWarpsPerSm, 64);
    EXPECT_EQ(d1->maxThreadsPerSm, 2048);
    EXPECT_EQ(d1->memoryBusWidthBits, 6144);  // only the runtime knows
    EXPECT_EQ(d1->sharedMemoryPerBlockOptinBytes, 232448);
    EXPECT_EQ(d1->computeMajor, 9);
    EXPECT_NEAR(d1->memoryBandwidthGBps, 3352.0, 1e-6);
}

TEST_F(RecordTranslatorTest, OverheadGoesToItsOwnHostTrack) {
    feed(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunchCbid, 100, 200, 1));
    feed(overheadRecord(120, 180));
    auto trace = finish();
    int overheads = 0;
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            if (s.kind == SliceKind::Overhead) {
                ++overheads;
                EXPECT_EQ(track.kind, TrackKind::Host);
                EXPECT_EQ(trace->str(s.nameId), "CUPTI buffer flush");
            }
        }
    }
    EXPECT_EQ(overheads, 1);
}

}  // namespace
}  // namespace wl::cupti

namespace wl::cupti {
namespace {

// CUPTI names callbacks with a version ("cudaMemcpy_v3020"): recordings carry the API's name as
// users know it, and Details the versioned one.
TEST(RecordTranslatorNames, ApiCallsLoseCuptisVersionSuffix) {
    RecordTranslator translator{[](CUpti_CallbackDomain, CUpti_CallbackId id) -> std::string {
        return id == kMemcpyCbid ? "cudaMemcpy_v3020" : "cudaLaunchKernel_ptsz_v7000";
    }};
    translator.translate(
        asActivity(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kMemcpyCbid, 10, 20, 1)));
    translator.translate(asActivity(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 300, 30, 40, 2)));
    translator.complete();
    const auto trace = translator.builder().finalize();
    std::vector<std::pair<std::string, std::string>> names;
    for (const auto& track : trace->tracks()) {
        for (const auto& s : track.slices) {
            const model::ApiDetail* a = trace->api(s);
            ASSERT_NE(a, nullptr);
            names.emplace_back(trace->str(s.nameId), trace->str(a->versionedNameId));
        }
    }
    EXPECT_EQ(names, (std::vector<std::pair<std::string, std::string>>{
                         {"cudaMemcpy", "cudaMemcpy_v3020"},
                         {"cudaLaunchKernel_ptsz", "cudaLaunchKernel_ptsz_v7000"}}));
}

}  // namespace
}  // namespace wl::cupti
