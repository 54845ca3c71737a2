#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ImportTestHelpers.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"

namespace wl::io {
namespace {

using testing::findSlice;
using testing::loadOk;
using testing::tracksOfKind;

TEST(KinetoImport, HandWrittenFixtureMapsKindsDevicesAndStreams) {
    const auto trace = loadOk("kineto_small.json");
    ASSERT_TRUE(trace);
    const auto& c = trace->counts();
    EXPECT_EQ(c.kernel, 2u);
    EXPECT_EQ(c.memcpy, 1u);
    EXPECT_EQ(c.memset, 1u);
    EXPECT_EQ(c.sync, 2u);
    EXPECT_EQ(c.api, 5u);
    EXPECT_EQ(c.nvtx, 2u);  // user_annotation on the host, gpu_user_annotation on stream 7
    EXPECT_EQ(trace->metadataValue("producer"), "PyTorch profiler (Kineto)");
    EXPECT_EQ(trace->metadataValue("cuda_runtime_version"), "12040");
    // distributedInfo says which rank of which job wrote the file.
    EXPECT_EQ(trace->metadataValue("backend"), "nccl");
    EXPECT_EQ(trace->metadataValue("rank"), "0");
    EXPECT_EQ(trace->metadataValue("world_size"), "1");

    // Origin: baseTimeNanoseconds + the earliest event (900 µs).
    EXPECT_EQ(trace->originNs(), 1'700'000'000'000'000'000 + 900'000);

    // GPU work lands on device 0, streams 7 and 13.
    const auto streams = tracksOfKind(*trace, model::TrackKind::GpuStream);
    std::set<std::int64_t> streamIds;
    for (const auto* s : streams) {
        EXPECT_EQ(s->deviceId, 0);
        streamIds.insert(s->streamId);
    }
    EXPECT_EQ(streamIds, (std::set<std::int64_t>{7, 13}));
    ASSERT_EQ(trace->devices().size(), 1u);
    EXPECT_EQ(trace->devices()[0].name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(trace->devices()[0].smCount, 132);
    EXPECT_EQ(trace->devices()[0].maxWarpsPerSm, 64);  // derived: 2048 / 32

    // Kernel details from Kineto's args.
    const auto gemm = findSlice(*trace, "sm90_xmma_gemm_f32f32");
    ASSERT_TRUE(gemm.valid());
    const auto& gemmSlice = trace->slice(gemm);
    EXPECT_EQ(gemmSlice.kind, model::SliceKind::Kernel);
    EXPECT_EQ(gemmSlice.startNs, 1'020'250 - 900'000);
    EXPECT_EQ(gemmSlice.durationNs, 12'125);
    EXPECT_EQ(gemmSlice.correlationId, 31u);
    const auto* k = trace->kernel(gemmSlice);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->grid, (std::array<std::int32_t, 3>{66, 1, 1}));
    EXPECT_EQ(k->block, (std::array<std::int32_t, 3>{128, 1, 1}));
    EXPECT_EQ(k->registersPerThread, 168);
    EXPECT_EQ(k->staticSharedBytes, 90112);
    EXPECT_EQ(k->warpsPerSm, 2.0f);
    EXPECT_EQ(k->estimatedOccupancyPct, 3.0f);

    // Copy direction and memory kinds from the name.
    const auto copy = findSlice(*trace, "Memcpy DtoH (Device -> Pinned)");
    ASSERT_TRUE(copy.valid());
    const auto* m = trace->memcpy(trace->slice(copy));
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->copyKind, model::CopyKind::DeviceToHost);
    EXPECT_EQ(m->srcKind, model::MemoryKind::Device);
    EXPECT_EQ(m->dstKind, model::MemoryKind::Pinned);
    EXPECT_EQ(m->bytes, 16384u);
    const auto memset = findSlice(*trace, "Memset (Device)");
    ASSERT_TRUE(memset.valid());
    EXPECT_EQ(trace->track(memset.track).streamId, 13);
    ASSERT_NE(trace->memset(trace->slice(memset)), nullptr);
    EXPECT_EQ(trace->memset(trace->slice(memset))->memoryKind, model::MemoryKind::Device);

    // Syncs go to the device's synchronisation row, with Kineto's sync kind.
    const auto ctxSync = findSlice(*trace, "Context Sync");
    ASSERT_TRUE(ctxSync.valid());
    EXPECT_EQ(trace->track(ctxSync.track).kind, model::TrackKind::Sync);
    EXPECT_EQ(trace->sync(trace->slice(ctxSync))->syncKind, model::SyncKind::ContextSynchronize);
    const auto streamSync = findSlice(*trace, "Stream Sync");
    ASSERT_TRUE(streamSync.valid());
    EXPECT_EQ(trace->sync(trace->slice(streamSync))->streamId, 7);

    // Runtime and driver calls on the host thread's API row; CPU ops on a host row.
    const auto launch = findSlice(*trace, "cudaLaunchKernel");
    ASSERT_TRUE(launch.valid());
    EXPECT_EQ(trace->track(launch.track).kind, model::TrackKind::HostApi);
    EXPECT_EQ(trace->track(launch.track).threadId, 100);
    EXPECT_EQ(trace->slice(findSlice(*trace, "cuLaunchKernel")).kind, model::SliceKind::DriverApi);
    const auto mm = findSlice(*trace, "aten::mm");
    ASSERT_TRUE(mm.valid());
    EXPECT_EQ(trace->track(mm.track).kind, model::TrackKind::Host);
    EXPECT_EQ(trace->slice(mm).kind, model::SliceKind::CpuOp);  // Kineto's "cpu_op"
    EXPECT_EQ(c.cpuOp, 1u);
    EXPECT_EQ(trace->str(trace->track(mm.track).nameId), "thread 100 (python3)");
    EXPECT_EQ(trace->slice(findSlice(*trace, "Activity Buffer Request")).kind,
              model::SliceKind::Overhead);

    // Launch arrows: kernel, copy, memset and the driver-launched kernel are linked to their
    // calls; the context sync gets its arrow from the explicit ac2g pair.
    const auto* arrow = trace->flowTo(gemm);
    ASSERT_NE(arrow, nullptr);
    EXPECT_EQ(arrow->from, launch);
    EXPECT_NE(trace->flowTo(copy), nullptr);
    EXPECT_NE(trace->flowTo(memset), nullptr);
    EXPECT_NE(trace->flowTo(findSlice(*trace, "triton_poi_fused_0")), nullptr);
    const auto* syncArrow = trace->flowTo(ctxSync);
    ASSERT_NE(syncArrow, nullptr);
    EXPECT_EQ(syncArrow->from, findSlice(*trace, "cudaDeviceSynchronize"));
    EXPECT_EQ(c.flows, 5u);
}

TEST(KinetoImport, RecordedPyTorchProfilerTrace) {
    // Recorded on an H200 with tests/data/record_pytorch_trace.py (torch 2.11, CUDA 13):
    // 2 steps of randn/matmuls on two streams, pageable and pinned H2D copies, a D2H copy, a
    // CuPy cudaMemsetAsync and torch.cuda.synchronize, inside record_function ranges.
    const auto trace = loadOk("pytorch_small.json.gz");
    ASSERT_TRUE(trace);
    const auto& c = trace->counts();
    EXPECT_EQ(c.kernel, 28u);
    EXPECT_EQ(c.memcpy, 6u);
    EXPECT_EQ(c.memset, 10u);
    EXPECT_EQ(c.sync, 9u);
    EXPECT_EQ(c.api, 70u);
    EXPECT_EQ(c.nvtx, 18u);  // 8 record_function ranges + 10 GPU-side annotation copies
    EXPECT_EQ(trace->metadataValue("producer"), "PyTorch profiler (Kineto)");
    ASSERT_EQ(trace->devices().size(), 1u);
    EXPECT_EQ(trace->devices()[0].name, "NVIDIA H200");
    EXPECT_EQ(trace->devices()[0].smCount, 132);

    std::set<std::int64_t> streams;
    for (const auto* s : tracksOfKind(*trace, model::TrackKind::GpuStream)) {
        EXPECT_EQ(s->deviceId, 0);
        streams.insert(s->streamId);
    }
    EXPECT_EQ(streams, (std::set<std::int64_t>{7, 17}));  // default stream + the side stream

    // Copies: 2 pageable H2D, 2 pinned H2D, 2 D2H (4-byte results back to pageable memory).
    int pageableH2D = 0, pinnedH2D = 0, d2h = 0;
    std::uint64_t flowsToGpuWork = 0, gpuWork = 0;
    for (std::uint32_t ti = 0; ti < trace->tracks().size(); ++ti) {
        const auto& track = trace->tracks()[ti];
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const auto& s = track.slices[i];
            if (const auto* m = trace->memcpy(s)) {
                if (m->copyKind == model::CopyKind::HostToDevice &&
                    m->srcKind == model::MemoryKind::Pageable)
                    ++pageableH2D;
                if (m->copyKind == model::CopyKind::HostToDevice &&
                    m->srcKind == model::MemoryKind::Pinned)
                    ++pinnedH2D;
                if (m->copyKind == model::CopyKind::DeviceToHost)
                    ++d2h;
            }
            if (s.kind == model::SliceKind::Kernel || s.kind == model::SliceKind::Memcpy ||
                s.kind == model::SliceKind::Memset) {
                ++gpuWork;
                EXPECT_NE(s.correlationId, 0u);
                if (const auto* f = trace->flowTo({ti, i})) {
                    ++flowsToGpuWork;
                    EXPECT_EQ(trace->slice(f->from).correlationId, s.correlationId);
                    EXPECT_EQ(trace->track(f->from.track).kind, model::TrackKind::HostApi);
                }
            }
            if (s.kind == model::SliceKind::Kernel) {
                EXPECT_NE(trace->kernel(s), nullptr);
            }
        }
    }
    EXPECT_EQ(pageableH2D, 2);
    EXPECT_EQ(pinnedH2D, 2);
    EXPECT_EQ(d2h, 2);
    // Every kernel, copy and memset is linked to the runtime call that launched it.
    EXPECT_EQ(flowsToGpuWork, gpuWork);
    EXPECT_EQ(gpuWork, 44u);
    // Plus arrows from synchronising calls to their sync records.
    EXPECT_EQ(c.flows, 52u);

    // Annotations: record_function ranges are NVTX-like ranges on the host thread.
    const auto step0 = findSlice(*trace, "step0");
    ASSERT_TRUE(step0.valid());
    EXPECT_EQ(trace->slice(step0).kind, model::SliceKind::Nvtx);
}

TEST(KinetoImport, ConvertedKinetoTraceRoundTripsExactly) {
    const auto trace = loadOk("pytorch_small.json.gz");
    ASSERT_TRUE(trace);
    const std::string first = ChromeTraceWriter(*trace).toString();
    const auto again = ChromeTraceReader().read(first, "converted.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(first, ChromeTraceWriter(*again.value()).toString());
    EXPECT_EQ(again.value()->counts().flows, trace->counts().flows);
}

TEST(KinetoImport, EventWaitsBecomeDependenciesThatSurviveAConversion) {
    // HTA's shape: cudaEventRecord (correlation 20) after "producer" on stream 7; stream 9 waits
    // for that record (cuda_sync "Stream Wait Event", correlation 21) and runs "consumer"; the
    // host's "Event Sync" (correlation 22) waits for it too. An Event Sync with no record (-1)
    // is no dependency.
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 1, "dur": 1, "args": {"correlation": 19}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 5, "tid": 5, "ts": 3, "dur": 1, "args": {"correlation": 20}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": 5, "tid": 5, "ts": 5, "dur": 1, "args": {"correlation": 21}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, "ts": 7, "dur": 1, "args": {"correlation": 23}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventSynchronize", "pid": 5, "tid": 5, "ts": 9, "dur": 40, "args": {"correlation": 22}},
      {"ph": "X", "cat": "kernel", "name": "producer", "pid": 0, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "device": 0, "correlation": 19}},
      {"ph": "X", "cat": "kernel", "name": "consumer", "pid": 0, "tid": 9, "ts": 31, "dur": 10, "args": {"stream": 9, "device": 0, "correlation": 23}},
      {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 9, "ts": 5, "dur": 1, "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 20, "wait_on_cuda_event_id": 3, "stream": 9, "correlation": 21, "device": 0}},
      {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": -1, "ts": 9, "dur": 40, "args": {"cuda_sync_kind": "Event Sync", "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 20, "wait_on_cuda_event_id": 3, "stream": -1, "correlation": 22, "device": 0}},
      {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": -1, "ts": 60, "dur": 1, "args": {"cuda_sync_kind": "Event Sync", "wait_on_stream": -1, "wait_on_cuda_event_record_corr_id": -1, "wait_on_cuda_event_id": 4, "stream": -1, "correlation": 24, "device": 0}}]})";
    auto waits = [](const model::Trace& t) {
        std::set<std::pair<std::string, std::string>> out;
        for (const auto& d : t.dependencies())
            out.emplace(t.str(t.slice(d.from).nameId), t.str(t.slice(d.to).nameId));
        return out;
    };
    const std::set<std::pair<std::string, std::string>> expected{
        {"producer", "consumer"}, {"producer", "cudaEventSynchronize"}};
    const auto first = ChromeTraceReader().read(json, "waits.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    EXPECT_EQ(waits(*first.value()), expected);

    // Exported as arrows of their own category, and rebuilt (not doubled) on reading back.
    const std::string exported = ChromeTraceWriter(*first.value()).toString();
    EXPECT_NE(exported.find(R"("cat":"cuda_dependency")"), std::string::npos);
    EXPECT_NE(exported.find(R"("wait_on_cuda_event_record_corr_id":20)"), std::string::npos);
    const auto again = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(waits(*again.value()), expected);
    EXPECT_EQ(again.value()->counts().dependencies, 2u);
    // The launch queue is made from the events, never written.
    EXPECT_EQ(exported.find("Launch queue"), std::string::npos);
    ASSERT_EQ(again.value()->counters().size(), 1u);
    EXPECT_TRUE(again.value()->counters()[0].derived);
    EXPECT_EQ(again.value()->counts().flows, first.value()->counts().flows);
}

TEST(KinetoImport, MemoryEventsOfACudaDeviceMakeItsDeviceMemoryRow) {
    // profile_memory=True: "[memory]" instants with the caching allocator's totals. Host memory
    // (Device Type 0) makes no row; CUDA device 1's does, under GPU 1.
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "device": 1, "correlation": 3}},
      {"ph": "i", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 2, "args": {"Device Type": 0, "Device Id": -1, "Bytes": 4}},
      {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 5, "args": {"Device Type": 1, "Device Id": 1, "Addr": 139926520725504, "Bytes": 4096, "Total Allocated": 4096, "Total Reserved": 2097152}},
      {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 40, "args": {"Device Type": 1, "Device Id": 1, "Addr": 139926520725504, "Bytes": -4096, "Total Allocated": 0, "Total Reserved": 2097152}}]})";
    auto rows = [](const model::Trace& t) {
        std::map<std::string, std::vector<double>> out;
        for (const auto& c : t.counters()) {
            if (t.str(c.nameId) != "Device memory")
                continue;
            EXPECT_TRUE(c.derived);
            EXPECT_EQ(c.deviceId, 1);
            for (const auto& sample : c.samples)
                out[std::string(t.str(c.seriesId))].push_back(sample.value);
        }
        return out;
    };
    const std::map<std::string, std::vector<double>> expected{
        {"memory in use", {4096, 0}}, {"memory reserved", {2097152, 2097152}}};
    const auto first = ChromeTraceReader().read(json, "memory.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    EXPECT_EQ(rows(*first.value()), expected);
    EXPECT_EQ(first.value()->counts().counterSamples, 0u);  // derived: not what was recorded
    // The instants keep every arg; the row is made again from them, never written.
    const std::string exported = ChromeTraceWriter(*first.value()).toString();
    EXPECT_EQ(exported.find("Device memory"), std::string::npos);
    EXPECT_NE(exported.find(R"("Total Reserved":2097152)"), std::string::npos);
    const auto again = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(rows(*again.value()), expected);
}

TEST(KinetoImport, GraphNodesSurviveAConversionAndOverlapWithoutAWarning) {
    // Two nodes of one graph launch (correlation 8) overlap on stream 7.
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 5, "tid": 5, "ts": 1, "dur": 2, "args": {"correlation": 8}},
      {"ph": "X", "cat": "kernel", "name": "node_a", "pid": 0, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "device": 0, "correlation": 8, "graph id": 4, "graph node id": 40}},
      {"ph": "X", "cat": "kernel", "name": "node_b", "pid": 0, "tid": 7, "ts": 15, "dur": 20, "args": {"stream": 7, "device": 0, "correlation": 8, "graph id": 4, "graph node id": 41}}]})";
    const auto first = ChromeTraceReader().read(json, "graph.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    EXPECT_TRUE(first.value()->diagnostics().warnings.empty());
    EXPECT_EQ(first.value()->counts().flows, 2u);  // the launch call to each node
    const std::string exported = ChromeTraceWriter(*first.value()).toString();
    EXPECT_NE(exported.find(R"("graph id":4,"graph node id":41)"), std::string::npos);
    const auto again = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_TRUE(again.value()->diagnostics().warnings.empty());
    EXPECT_EQ(exported, ChromeTraceWriter(*again.value()).toString());
    const auto node = findSlice(*again.value(), "node_b");
    ASSERT_TRUE(node.valid());
    const auto* k = again.value()->kernel(again.value()->slice(node));
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->graph.graphId, 4u);
    EXPECT_EQ(k->graph.nodeId, 41u);
}

TEST(KinetoImport, RankOfAJobSurvivesAConversion) {
    // A rank-3 trace of an 8-rank job, read and written again: the exported distributedInfo
    // still says rank 3 of 8, as numbers, written as Kineto wrote it (HTA finds the rank with
    // the pattern "rank":\s+(\d+)).
    const std::string json = R"({"distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
        "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                         "ts": 10, "dur": 5, "args": {"stream": 7, "device": 0}}]})";
    const auto first = ChromeTraceReader().read(json, "rank3.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    EXPECT_EQ(first.value()->metadataValue("rank"), "3");
    const std::string exported = ChromeTraceWriter(*first.value()).toString();
    EXPECT_NE(exported.find(R"("distributedInfo":{"backend": "nccl", "rank": 3, "world_size": 8})"),
              std::string::npos)
        << exported.substr(0, 600);
    const auto second = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(second.ok()) << second.error().describe();
    EXPECT_EQ(second.value()->metadataValue("rank"), "3");
    EXPECT_EQ(second.value()->metadataValue("world_size"), "8");
}

TEST(KinetoImport, NvtxPayloadAndCategoryNameSurviveAConversion) {
    const std::string json = R"({"traceEvents": [
        {"ph": "X", "cat": "gpu_user_annotation", "name": "Batch", "pid": 1, "tid": 1, "ts": 10,
         "dur": 5, "args": {"category": 7, "category name": "I/O", "payload": 4096}}]})";
    const auto first = ChromeTraceReader().read(json, "nvtx.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    const auto again = ChromeTraceReader().read(ChromeTraceWriter(*first.value()).toString(), "x");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    const model::Trace& t = *again.value();
    const model::NvtxDetail* n = nullptr;
    for (const auto& track : t.tracks()) {
        for (const auto& s : track.slices) {
            n = n != nullptr ? n : t.nvtx(s);
        }
    }
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->category, 7);
    EXPECT_EQ(t.str(n->categoryNameId), "I/O");
    ASSERT_TRUE(n->hasPayload);
    EXPECT_EQ(n->payload, 4096.0);
}

TEST(KinetoImport, WhichProcessAndGpuOfAJobSurvivesAConversion) {
    // What `record` writes so traces of one job's processes and hosts can be matched and put on
    // one time axis: host, pid, clock pairs, and each device's UUID and PCI bus id.
    const std::string json = R"({"distributedInfo": {"rank": 1, "host": "node7", "pid": 4242,
            "clock_sync_start": "1764000000000000000,5000", "clock_sync_end": "1764000001000000000,1000005000"},
        "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "uuid": "GPU-8f2c0102-abcd-0011-2233-445566778899",
                              "pciBusId": "0000:1b:00.0"}],
        "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
                         "ts": 10, "dur": 5, "args": {"stream": 7, "device": 0}}]})";
    const auto first = ChromeTraceReader().read(json, "rank1.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    const std::string exported = ChromeTraceWriter(*first.value()).toString();
    const auto second = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(second.ok()) << second.error().describe();
    const model::Trace& t = *second.value();
    EXPECT_EQ(t.metadataValue("host"), "node7");
    EXPECT_EQ(t.metadataValue("pid"), "4242");
    EXPECT_EQ(t.metadataValue("clock_sync_start"), "1764000000000000000,5000");
    EXPECT_EQ(t.metadataValue("clock_sync_end"), "1764000001000000000,1000005000");
    ASSERT_NE(t.device(0), nullptr);
    EXPECT_EQ(t.device(0)->uuid, "GPU-8f2c0102-abcd-0011-2233-445566778899");
    EXPECT_EQ(t.device(0)->pciBusId, "0000:1b:00.0");
    // Kineto readers (HTA) find them in distributedInfo, as the file wrote it.
    EXPECT_NE(exported.find(R"("clock_sync_start": "1764000000000000000,5000")"),
              std::string::npos);
}

// The profiler's own events, on the pseudo-processes it writes them to: one group of their own,
// each row named for what it holds; the GPUs it only names (metadata for pids 1..7) make none.
TEST(KinetoImport, TheProfilersOwnEventsAreAGroupOfTheirOwn) {
    const std::string json = R"js({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 100, "tid": 100, "ts": 1000, "dur": 50},
  {"ph": "X", "cat": "overhead", "name": "Command Buffer Full", "pid": -1, "tid": 0, "ts": 1010, "dur": 400},
  {"ph": "X", "cat": "Trace", "ts": 900, "dur": 700, "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "process_sort_index", "ph": "M", "ts": 900, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 900},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 1600},
  {"name": "process_name", "ph": "M", "ts": 900, "pid": 100, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_name", "ph": "M", "ts": 900, "pid": 0, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_name", "ph": "M", "ts": 900, "pid": 1, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_name", "ph": "M", "ts": 900, "pid": 7, "tid": 0, "args": {"name": "python3"}}
]})js";
    const auto read = ChromeTraceReader().read(json, "profiler.json");
    ASSERT_TRUE(read.ok()) << read.error().describe();
    const model::Trace& trace = *read.value();
    std::vector<std::string> processes;
    for (const auto& p : trace.processes())
        processes.emplace_back(trace.str(p.nameId));
    EXPECT_EQ(processes, (std::vector<std::string>{"python3", "PyTorch profiler"}));
    const model::Process& profiler = trace.processes()[1];
    EXPECT_TRUE(model::isSyntheticId(profiler.pid));  // sorted and folded with named processes

    std::map<std::string, std::vector<std::string>> rows;  // row -> its slices
    for (const auto& t : trace.tracks()) {
        if (t.process != 1)
            continue;
        EXPECT_EQ(t.kind, model::TrackKind::Host);
        EXPECT_EQ(model::threadIdText(t.threadId), "");  // no thread number it does not have
        for (const auto& s : t.slices)
            rows[std::string(trace.str(t.nameId))].emplace_back(trace.str(s.nameId));
    }
    EXPECT_EQ(rows, (std::map<std::string, std::vector<std::string>>{
                        {"Profiling spans", {"PyTorch Profiler (0)"}},
                        {"Markers", {"Iteration Start: PyTorch Profiler", "Record Window End"}},
                        {"CUPTI overhead", {"Command Buffer Full"}}}));

    // Each is written back on the row and with the category the profiler gave it.
    const std::string exported = ChromeTraceWriter(trace).toString();
    EXPECT_NE(exported.find(R"js("cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans",)js"
                            R"js("tid":"PyTorch Profiler")js"),
              std::string::npos);
    EXPECT_NE(exported.find(R"js("name":"Command Buffer Full","pid":-1,"tid":0)js"),
              std::string::npos);
    EXPECT_NE(exported.find(R"js("name":"Record Window End","pid":"","tid":"")js"),
              std::string::npos);
    const auto again = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(again.value()->processes().size(), 2u);
}

}  // namespace
}  // namespace wl::io
