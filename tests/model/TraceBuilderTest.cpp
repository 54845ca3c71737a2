#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "model/TraceBuilder.h"
#include "support/TraceFactory.h"

using namespace wl::model;

namespace {

KernelDetail kernelDetail() {
    KernelDetail k;
    k.grid = {1280, 1, 1};
    k.block = {256, 1, 1};
    k.registersPerThread = 32;
    return k;
}

}  // namespace

TEST(StringTable, InternsOnceAndKeepsViewsValid) {
    StringTable table;
    EXPECT_EQ(table.get(0), "");
    const StringId a = table.intern("partial_reduce");
    for (int i = 0; i < 100000; ++i)
        table.intern("name" + std::to_string(i));
    EXPECT_EQ(table.intern("partial_reduce"), a);
    EXPECT_EQ(table.get(a), "partial_reduce");
    EXPECT_EQ(table.intern(""), 0u);
    EXPECT_EQ(table.size(), 100002u);
}

TEST(TraceBuilder, RebasesToEarliestEventAndComputesSpan) {
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto stream = b.gpuStreamTrack(gpu, 7);
    b.addKernel(stream, 5'000'000'100, 5'000'000'400, "k", 0, kernelDetail());
    b.addKernel(stream, 5'000'000'000, 5'000'000'050, "k", 0, kernelDetail());
    const auto trace = b.finalize();
    EXPECT_EQ(trace->originNs(), 5'000'000'000);
    EXPECT_EQ(trace->spanNs(), 400);
    ASSERT_EQ(trace->tracks().size(), 1u);
    const Track& t = trace->track(0);
    ASSERT_EQ(t.slices.size(), 2u);
    EXPECT_EQ(t.slices[0].startNs, 0);
    EXPECT_EQ(t.slices[1].startNs, 100);
    EXPECT_EQ(t.slices[1].durationNs, 300);
    EXPECT_EQ(t.laneCount(), 1u);
    EXPECT_EQ(trace->counts().kernel, 2u);
    EXPECT_EQ(trace->kernel(t.slices[0])->grid[0], 1280);
    EXPECT_EQ(trace->str(t.nameId), "Stream 7");
}

TEST(TraceBuilder, NestsRangesIntoDepthLanes) {
    TraceBuilder b;
    const auto host = b.hostProcess(42, "app");
    const auto nvtx = b.nvtxTrack(host, 1);
    // Given out of order on purpose.
    b.addNvtx(nvtx, 20, 30, "inner", {});
    b.addNvtx(nvtx, 0, 100, "outer", {});
    b.addNvtx(nvtx, 22, 25, "innermost", {});
    b.addNvtx(nvtx, 40, 60, "second", {});
    const auto trace = b.finalize();
    const Track& t = trace->track(0);
    ASSERT_EQ(t.laneCount(), 3u);
    ASSERT_EQ(t.lane(0).size(), 1u);
    EXPECT_EQ(trace->str(t.lane(0)[0].nameId), "outer");
    ASSERT_EQ(t.lane(1).size(), 2u);
    EXPECT_EQ(trace->str(t.lane(1)[0].nameId), "inner");
    EXPECT_EQ(trace->str(t.lane(1)[1].nameId), "second");
    ASSERT_EQ(t.lane(2).size(), 1u);
    EXPECT_EQ(trace->str(t.lane(2)[0].nameId), "innermost");
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 0u);
}

TEST(TraceBuilder, SpillsOverlapsThatDoNotNestAndCountsThem) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto track = b.hostTrack(host, 1);
    b.addSlice(track, 0, 100, "a", SliceKind::Other);
    b.addSlice(track, 50, 150, "b", SliceKind::Other);  // overlaps a, does not nest
    b.addSlice(track, 10, 20, "c", SliceKind::Other);   // nests in a
    const auto trace = b.finalize();
    const Track& t = trace->track(0);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 1u);
    EXPECT_EQ(trace->diagnostics().warningCount, 1u);
    ASSERT_EQ(t.laneCount(), 3u);  // a | c | b spilled below the nested lanes
    EXPECT_EQ(trace->str(t.lane(2)[0].nameId), "b");
    EXPECT_TRUE(t.lane(2)[0].flags & kSliceSpilled);
    // Lanes never hold overlapping slices.
    for (std::uint32_t d = 0; d < t.laneCount(); ++d) {
        auto lane = t.lane(d);
        for (std::size_t i = 1; i < lane.size(); ++i)
            EXPECT_LE(lane[i - 1].endNs(), lane[i].startNs);
    }
}

TEST(TraceBuilder, AsyncRangesTakeFirstFitLanesWithoutDiagnostics) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto track = b.nvtxAsyncTrack(host, "dom");
    b.addNvtx(track, 0, 100, "a", {});
    b.addNvtx(track, 50, 150, "b", {});
    b.addNvtx(track, 120, 130, "c", {});
    const auto trace = b.finalize();
    const Track& t = trace->track(0);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 0u);
    ASSERT_EQ(t.laneCount(), 2u);
    EXPECT_EQ(t.lane(0).size(), 2u);  // a, c
    EXPECT_EQ(trace->str(t.nameId), "NVTX dom ranges");
}

TEST(TraceBuilder, LinksLaunchesToGpuWorkByCorrelationId) {
    TraceBuilder b;
    const auto host = b.hostProcess(100, "app");
    const auto api = b.hostApiTrack(host, 100);
    const auto gpu = b.gpuProcess(1);
    const auto s1 = b.gpuStreamTrack(gpu, 13);
    ApiDetail runtime;
    ApiDetail driver;
    driver.apiKind = ApiKind::Driver;
    b.addApi(api, 0, 50, "cudaLaunchKernel", 7, runtime);
    b.addApi(api, 10, 40, "cuLaunchKernel", 7, driver);
    b.addKernel(s1, 60, 90, "k", 7, kernelDetail());
    b.addMemcpy(s1, 95, 99, "Memcpy HtoD", 8, {});  // no launcher: no flow
    const auto trace = b.finalize();
    ASSERT_EQ(trace->flows().size(), 1u);
    const Flow& f = trace->flows()[0];
    EXPECT_EQ(f.id, 7u);
    EXPECT_EQ(trace->slice(f.from).kind, SliceKind::RuntimeApi);
    EXPECT_EQ(trace->slice(f.to).kind, SliceKind::Kernel);
    EXPECT_EQ(trace->flowTo(f.to), &f);
    EXPECT_EQ(trace->flowFrom(f.from), &f);
    EXPECT_EQ(trace->counts().flows, 1u);
    // Host process sorts before the GPU process.
    EXPECT_EQ(trace->processes()[0].deviceId, -1);
    EXPECT_EQ(trace->processes()[1].deviceId, 1);
}

TEST(TraceBuilder, GpuProcessesOfDifferentOwnersStayApartOnOneOrdinal) {
    TraceBuilder b;
    // Without an owner: one process per ordinal, found again, as before.
    const auto plain = b.gpuProcess(0, "GPU 0");
    EXPECT_EQ(b.gpuProcess(0), plain);
    const auto ofA = b.gpuProcess(0, "GPU 0 · a", 4300);
    const auto ofB = b.gpuProcess(0, "GPU 0 · b", 4242);
    EXPECT_NE(ofA, plain);
    EXPECT_NE(ofA, ofB);
    EXPECT_EQ(b.gpuProcess(0, {}, 4300), ofA);
    b.gpuStreamTrack(ofA, 7);
    b.gpuStreamTrack(ofB, 7);
    b.gpuStreamTrack(plain, 7);
    const auto trace = b.finalize();
    ASSERT_EQ(trace->processes().size(), 3u);
    // By ordinal, then owner (none first).
    EXPECT_EQ(trace->processes()[0].ownerPid, -1);
    EXPECT_EQ(trace->processes()[1].ownerPid, 4242);
    EXPECT_EQ(trace->str(trace->processes()[1].nameId), "GPU 0 · b");
    EXPECT_EQ(trace->processes()[2].ownerPid, 4300);
    ASSERT_EQ(trace->tracks().size(), 3u);
    for (const Track& t : trace->tracks())
        EXPECT_EQ(t.deviceId, 0);  // the CUDA ordinal, whoever owns the process
    EXPECT_EQ(trace->tracks()[2].process, 2u);
}

TEST(TraceBuilder, FlowAnchorIsATimeThatBindsBackToTheSlice) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto track = b.hostTrack(host, 1);
    b.addSlice(track, 0, 100, "parent", SliceKind::Other);
    b.addSlice(track, 0, 30, "child", SliceKind::Other);  // starts with its parent
    b.addSlice(track, 31, 50, "second child", SliceKind::Other);
    b.addSlice(track, 40, 45, "grandchild", SliceKind::Other);
    b.addSlice(track, 200, 300, "covered", SliceKind::Other);
    b.addSlice(track, 200, 300, "cover", SliceKind::Other);  // same interval: nests inside
    b.addSlice(track, 400, 400, "mark", SliceKind::Instant);
    const auto trace = b.finalize();
    const Track& t = trace->track(0);
    const auto anchor = [&](std::string_view name) {
        for (const Slice& s : t.slices) {
            if (trace->str(s.nameId) == name)
                return TraceBuilder::flowAnchorNs(t, s);
        }
        return std::optional<TimeNs>(-1);
    };
    EXPECT_EQ(anchor("parent"), 51);  // past both children (and the grandchild)
    EXPECT_EQ(anchor("child"), 0);
    EXPECT_EQ(anchor("second child"), 31);
    EXPECT_EQ(anchor("grandchild"), 40);
    EXPECT_EQ(anchor("covered"), std::nullopt);
    EXPECT_EQ(anchor("cover"), 200);
    EXPECT_EQ(anchor("mark"), 400);
}

TEST(TraceBuilder, ResolvesExplicitFlowsToEnclosingSlicesAndDeduplicates) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto thread = b.hostTrack(host, 1);
    const auto gpu = b.gpuProcess(0);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    b.addSlice(thread, 0, 100, "outer", SliceKind::Other);
    b.addSlice(thread, 10, 20, "launch", SliceKind::RuntimeApi, 3);
    b.addKernel(stream, 200, 300, "k", 3, kernelDetail());
    b.addFlow(3, thread, 15, stream, 200);    // same link as the correlation id: kept once
    b.addFlow(9, thread, 50, stream, 250);    // outer -> k
    b.addFlow(10, thread, 500, stream, 250);  // lands nowhere
    const auto trace = b.finalize();
    ASSERT_EQ(trace->flows().size(), 2u);
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[0].from).nameId), "outer");
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[1].from).nameId), "launch");
    EXPECT_EQ(trace->diagnostics().warningCount, 1u);
}

TEST(TraceBuilder, ClampsReversedTimestampsAndCountsThem) {
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto stream = b.gpuStreamTrack(gpu, 1);
    b.addKernel(stream, 100, 90, "k", 0, kernelDetail());
    const auto trace = b.finalize();
    EXPECT_EQ(trace->diagnostics().invalidTimestamps, 1u);
    EXPECT_EQ(trace->track(0).slices[0].durationNs, 0);
}

TEST(TraceBuilder, OrdersTracksDeterministicallyWhateverTheInputOrder) {
    auto build = [](bool reversed) {
        TraceBuilder b;
        const auto gpu = b.gpuProcess(0);
        const auto host = b.hostProcess(5);
        if (reversed) {
            b.syncTrack(gpu);
            b.gpuStreamTrack(gpu, 20);
            b.gpuStreamTrack(gpu, 7);
            b.nvtxTrack(host, 5);
            b.hostApiTrack(host, 5);
        } else {
            b.hostApiTrack(host, 5);
            b.nvtxTrack(host, 5);
            b.gpuStreamTrack(gpu, 7);
            b.gpuStreamTrack(gpu, 20);
            b.syncTrack(gpu);
        }
        return b.finalize();
    };
    const auto a = build(false);
    const auto r = build(true);
    ASSERT_EQ(a->tracks().size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(a->str(a->tracks()[i].nameId), r->str(r->tracks()[i].nameId));
        EXPECT_EQ(a->tracks()[i].sortIndex, r->tracks()[i].sortIndex);
    }
    EXPECT_EQ(a->tracks()[0].kind, TrackKind::HostApi);
    EXPECT_EQ(a->tracks()[2].streamId, 7);
    EXPECT_EQ(a->tracks()[4].kind, TrackKind::Sync);
}

TEST(TraceBuilder, CountersAreSortedRebasedAndCounted) {
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto c = b.counterTrack(gpu, "GPU metrics", "warp occupancy %", "%");
    b.addCounterSample(c, 1'000'200, 50.0);
    b.addCounterSample(c, 1'000'100, 25.0);
    EXPECT_EQ(b.counterTrack(gpu, "GPU metrics", "warp occupancy %"), c);
    const auto trace = b.finalize();
    ASSERT_EQ(trace->counters().size(), 1u);
    const auto& samples = trace->counters()[0].samples;
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0].timestampNs, 0);
    EXPECT_DOUBLE_EQ(samples[0].value, 25.0);
    EXPECT_EQ(trace->counts().counterSamples, 2u);
    EXPECT_EQ(trace->str(trace->counters()[0].unitId), "%");
}

TEST(TraceBuilder, LaunchQueueCountsOpsLaunchedAndNotYetFinished) {
    // Three kernels launched at 0, 10 and 20 (calls of 5 ns) on two streams of GPU 0; they run
    // [100,200), [150,300) and [300,400). A kernel without a launch call does not count.
    TraceBuilder b;
    b.setKeepTimes(true);
    const auto host = b.hostProcess(1);
    const auto api = b.hostApiTrack(host, 1);
    const auto gpu = b.gpuProcess(0);
    b.addApi(api, 0, 5, "cudaLaunchKernel", 1, {});
    b.addApi(api, 10, 15, "cudaLaunchKernel", 2, {});
    b.addApi(api, 20, 25, "cudaLaunchKernel", 3, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 200, "a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 8), 150, 300, "b", 2, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 300, 400, "c", 3, {});
    b.addKernel(b.gpuStreamTrack(gpu, 9), 500, 600, "unlaunched", 0, {});
    const auto trace = b.finalize();
    ASSERT_EQ(trace->counters().size(), 1u);
    const CounterTrack& q = trace->counters()[0];
    EXPECT_TRUE(q.derived);
    EXPECT_EQ(trace->str(q.nameId), "Launch queue");
    EXPECT_EQ(trace->str(q.unitId), "ops");
    EXPECT_FALSE(trace->str(q.descriptionId).empty());
    EXPECT_EQ(q.deviceId, 0);
    std::vector<std::pair<TimeNs, double>> steps;
    for (const auto& sample : q.samples)
        steps.emplace_back(sample.timestampNs, sample.value);
    // At 300 "b" ends and nothing starts: one op ("c") remains.
    EXPECT_EQ(steps, (std::vector<std::pair<TimeNs, double>>{
                         {0, 1}, {10, 2}, {20, 3}, {200, 2}, {300, 1}, {400, 0}}));
    EXPECT_EQ(trace->counts().counterSamples, 0u);  // nothing recorded
}

TEST(TraceBuilder, NvtxRangesAreProjectedOntoTheGpuWorkTheyLaunched) {
    // Thread 1's range "step" [0,30] launches at 0 and 10 (its nested "inner" [9,12] the second);
    // the kernels run [100,200) and [150,300). "idle" [40,50] launches nothing.
    TraceBuilder b;
    b.setKeepTimes(true);
    const auto host = b.hostProcess(1);
    const auto api = b.hostApiTrack(host, 1);
    const auto nvtx = b.nvtxTrack(host, 1);
    const auto gpu = b.gpuProcess(0);
    NvtxDetail red;
    red.colorArgb = 0xffff0000u;
    b.addNvtx(nvtx, 0, 30, "step", red);
    b.addNvtx(nvtx, 9, 12, "inner", {});
    b.addNvtx(nvtx, 40, 50, "idle", {});
    b.addApi(api, 0, 5, "cudaLaunchKernel", 1, {});
    b.addApi(api, 10, 11, "cudaLaunchKernel", 2, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 200, "a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 8), 150, 300, "b", 2, {});
    const auto trace = b.finalize();
    const Track* projection = nullptr;
    for (const auto& track : trace->tracks()) {
        if (track.kind == TrackKind::NvtxProjection)
            projection = &track;
    }
    ASSERT_NE(projection, nullptr);
    EXPECT_EQ(projection->deviceId, 0);
    EXPECT_EQ(trace->processes()[projection->process].deviceId, 0);
    EXPECT_EQ(trace->str(projection->nameId), "NVTX on the GPU (thread 1)");
    ASSERT_EQ(projection->slices.size(), 2u);
    const Slice& step = projection->slices[0];
    EXPECT_EQ(trace->str(step.nameId), "step");
    EXPECT_EQ(step.startNs, 100);
    EXPECT_EQ(step.endNs(), 300);
    ASSERT_NE(trace->nvtx(step), nullptr);
    EXPECT_EQ(trace->nvtx(step)->colorArgb, 0xffff0000u);  // the host range's colour
    const Slice& inner = projection->slices[1];
    EXPECT_EQ(trace->str(inner.nameId), "inner");
    EXPECT_EQ(inner.startNs, 150);
    EXPECT_EQ(inner.endNs(), 300);
    EXPECT_EQ(trace->counts().nvtx, 3u);  // only what was recorded
}

TEST(TraceBuilder, NodesOfOneGraphLaunchOverlapWithoutAWarning) {
    // One cudaGraphLaunch (correlation 5) runs two nodes at once on stream 7; later two unrelated
    // kernels (correlations 6 and 7) overlap there too, which is a producer's error.
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    KernelDetail node;
    node.graph = {2, 11};
    b.addKernel(stream, 100, 200, "a", 5, node);
    node.graph = {2, 12};
    b.addKernel(stream, 150, 250, "b", 5, node);
    b.addKernel(stream, 300, 400, "c", 6, {});
    b.addKernel(stream, 350, 450, "d", 7, {});
    const auto trace = b.finalize();
    const Track& t = trace->tracks()[0];
    EXPECT_EQ(t.laneCount(), 2u);  // both overlaps get a lane of their own
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 1u);
    ASSERT_EQ(trace->diagnostics().warnings.size(), 1u);
    EXPECT_EQ(trace->diagnostics().warnings[0], spilledOverlapWarning(1, "Stream 7"));
    for (const Slice& s : t.slices) {
        const std::string_view name = trace->str(s.nameId);
        EXPECT_EQ(unexpectedOverlap(s), name == "d") << name;
        if (name == "b") {
            ASSERT_NE(trace->kernel(s), nullptr);
            EXPECT_EQ(trace->kernel(s)->graph.graphId, 2u);
            EXPECT_EQ(trace->kernel(s)->graph.nodeId, 12u);
        }
    }
}

TEST(TraceBuilder, GraphLaunchesGetARowUnderTheirStream) {
    const auto trace = wl::test::makeGraphLaunchTrace();
    const Track* launches = nullptr;
    const Track* streamTrack = nullptr;
    for (const Track& t : trace->tracks()) {
        if (t.kind == TrackKind::GraphLaunches)
            launches = &t;
        if (t.kind == TrackKind::GpuStream)
            streamTrack = &t;
    }
    ASSERT_NE(launches, nullptr);
    ASSERT_NE(streamTrack, nullptr);
    EXPECT_EQ(launches->process, streamTrack->process);
    EXPECT_EQ(launches->streamId, 7);
    EXPECT_EQ(launches->sortIndex, streamTrack->sortIndex);
    EXPECT_EQ(trace->str(launches->nameId), "Graph launches (stream 7)");
    ASSERT_EQ(launches->slices.size(), 2u);
    EXPECT_EQ(trace->str(launches->slices[0].nameId), "graph 4 · launch 1 of 2 · 2 nodes");
    EXPECT_EQ(trace->str(launches->slices[1].nameId), "graph 4 · launch 2 of 2 · 2 nodes");
    // From the first node's start to the last node's end.
    EXPECT_EQ(launches->slices[0].startNs, 100);
    EXPECT_EQ(launches->slices[0].endNs(), 200);
    EXPECT_EQ(launches->slices[1].startNs, 300);
    EXPECT_EQ(launches->slices[1].endNs(), 400);
    // Derived: not counted as recorded slices, no warnings, nothing spilled.
    EXPECT_EQ(trace->counts().slices, 6u);
    EXPECT_EQ(launches->laneCount(), 1u);
    EXPECT_TRUE(trace->diagnostics().warnings.empty());
}

TEST(TraceBuilder, KeepsSliceSmall) {
    EXPECT_LE(sizeof(Slice), 40u);
}

TEST(TraceBuilder, CaptureWindowsAreRebasedSortedAndMerged) {
    TraceBuilder b;
    const auto p = b.gpuProcess(0);
    const auto stream = b.gpuStreamTrack(p, 7);
    b.addKernel(stream, 1'000, 2'000, "k", 0, kernelDetail());
    b.addCaptureWindow(9'000, 12'000);
    b.addCaptureWindow(1'500, 3'000);
    b.addCaptureWindow(2'500, 4'000);  // overlaps the one before: merged
    b.addCaptureWindow(6'000, 5'000);  // reversed: swapped
    const auto trace = b.finalize();
    const auto windows = trace->captureWindows();
    ASSERT_EQ(windows.size(), 3u);
    EXPECT_EQ(windows[0], (TimeRange{500, 3'000}));
    EXPECT_EQ(windows[1], (TimeRange{4'000, 5'000}));
    EXPECT_EQ(windows[2], (TimeRange{8'000, 11'000}));
    EXPECT_EQ(windows[2].durationNs(), 3'000);
}
