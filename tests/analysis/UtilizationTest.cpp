#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/GpuOps.h"
#include "analysis/LaunchQueue.h"
#include "analysis/Utilization.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

// Stream 1: A [100,200) launched at 10, B [250,350) launched at 220 (after A ended), E [700,800)
// launched at 450 (long before D ended). Stream 2: H2D C [300,400) issued at 240, D [500,600)
// launched at 430. The host waits in cudaStreamSynchronize over [260,420].
model::TracePtr threeGapTrace(bool syncRecord = true) {
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "A");
    t.kernel(1, 250, 350, 220, "B");
    t.copy(2, 300, 400, CopyKind::HostToDevice, 1000, 240, 245);
    t.streamSync(260, 420, syncRecord);
    t.kernel(2, 500, 600, 430, "D");
    t.kernel(1, 700, 800, 450, "E");
    return t.finish();
}

UtilizationResult run(const model::Trace& trace, model::TimeNs thresholdNs,
                      WindowRequest::Kind kind = WindowRequest::Kind::Default) {
    AnalysisOptions o;
    o.gapThresholdNs = thresholdNs;
    WindowRequest request;
    request.kind = kind;
    const AnalysisWindow window = resolveWindow(trace, request).value();
    const GpuOps ops(trace, &window);
    return computeUtilization(trace, ops, window, o);
}

TEST(Utilization, DeviceBusyIsTheUnionOverTheSpan) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    ASSERT_EQ(u.devices.size(), 1u);
    const DeviceUtilization& d = u.devices[0];
    // Union: [100,200) + [250,400) + [500,600) + [700,800) = 100 + 150 + 100 + 100.
    EXPECT_EQ(d.busyNs, 450);
    EXPECT_EQ(d.firstNs, 100);
    EXPECT_EQ(d.lastNs, 800);
    EXPECT_EQ(d.spanNs(), 700);
    EXPECT_EQ(d.idleNs(), 250);
    EXPECT_EQ(d.gapCount, 3u);
    EXPECT_DOUBLE_EQ(d.busyPct(), 100.0 * 450 / 700);
    EXPECT_DOUBLE_EQ(u.busyPct(), 100.0 * 450 / 700);
    EXPECT_EQ(d.opCount, 5u);
}

TEST(Utilization, PerStreamBusyAndSpan) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    ASSERT_EQ(u.devices[0].streams.size(), 2u);
    const StreamUtilization& s1 = u.devices[0].streams[0];
    const StreamUtilization& s2 = u.devices[0].streams[1];
    EXPECT_EQ(s1.streamId, 1);
    EXPECT_EQ(s1.busyNs, 300);
    EXPECT_EQ(s1.spanNs(), 700);
    EXPECT_EQ(s1.opCount, 3u);
    EXPECT_EQ(s2.streamId, 2);
    EXPECT_EQ(s2.busyNs, 200);
    EXPECT_EQ(s2.spanNs(), 300);
    EXPECT_DOUBLE_EQ(s2.busyPct(), 100.0 * 200 / 300);
}

TEST(Utilization, GapsAndTheirCauses) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    std::vector<IdleGap> device;
    std::vector<IdleGap> streams;
    for (const IdleGap& g : u.gaps) {
        (g.streamId == -1 ? device : streams).push_back(g);
    }
    ASSERT_EQ(device.size(), 3u);
    // [200,250): B's launch call [220,225) was still running when A ended, and the host was in no
    // blocking call: the host issued late.
    EXPECT_EQ(device[0].startNs, 200);
    EXPECT_EQ(device[0].durationNs, 50);
    EXPECT_EQ(device[0].cause, GapCause::Host);
    EXPECT_EQ(trace->str(trace->slice(device[0].before).nameId), "A");
    EXPECT_EQ(trace->str(trace->slice(device[0].after).nameId), "B");
    EXPECT_EQ(trace->str(trace->slice(device[0].launch).nameId), "cudaLaunchKernel_v7000");
    EXPECT_FALSE(device[0].reason.valid());
    // [400,500): at 400 the launching thread sat in cudaStreamSynchronize (until 420) and launched
    // D only at 430.
    EXPECT_EQ(device[1].startNs, 400);
    EXPECT_EQ(device[1].durationNs, 100);
    EXPECT_EQ(device[1].cause, GapCause::AfterBlockingCall);
    EXPECT_EQ(trace->str(trace->slice(device[1].reason).nameId), "cudaStreamSynchronize_v3020");
    // [600,700): E's launch returned at 455, before D ended: E was queued and waited.
    EXPECT_EQ(device[2].startNs, 600);
    EXPECT_EQ(device[2].durationNs, 100);
    EXPECT_EQ(device[2].cause, GapCause::GpuWait);
    EXPECT_FALSE(device[2].reason.valid());

    ASSERT_EQ(streams.size(), 3u);
    EXPECT_EQ(streams[0].streamId, 1);  // [200,250)
    EXPECT_EQ(streams[0].cause, GapCause::Host);
    EXPECT_EQ(streams[1].streamId, 1);  // [350,700): E launched at 450, the host in the sync at 350
    EXPECT_EQ(streams[1].startNs, 350);
    EXPECT_EQ(streams[1].durationNs, 350);
    EXPECT_EQ(streams[1].cause, GapCause::AfterBlockingCall);
    EXPECT_EQ(streams[2].streamId, 2);  // [400,500)
    EXPECT_EQ(streams[2].durationNs, 100);
    EXPECT_EQ(streams[2].cause, GapCause::AfterBlockingCall);
}

TEST(Utilization, AStreamWaitingForAnotherThroughAnEventNamesTheOpItWaitedFor) {
    // Stream 2 runs "early", then waits (cudaStreamWaitEvent) for the event recorded on stream 1
    // after "producer"; "consumer" is launched at 300, while the host was still issuing, but
    // could not have started before "producer" ended at 600 anyway.
    test::HandTrace t;
    t.kernel(2, 50, 90, 0, "early");
    t.kernel(1, 100, 600, 10, "producer");
    const std::uint64_t record = t.api("cudaEventRecord", 20, 25);
    t.streamWaitEvent(2, 1, record, 30);
    t.kernel(2, 600, 700, 300, "consumer");
    const auto trace = t.finish();
    ASSERT_EQ(trace->dependencies().size(), 1u);

    const UtilizationResult u = run(*trace, 1);
    const IdleGap* wait = nullptr;
    for (const IdleGap& g : u.gaps) {
        if (g.streamId == 2)
            wait = &g;
    }
    ASSERT_NE(wait, nullptr);
    EXPECT_EQ(wait->startNs, 90);
    EXPECT_EQ(wait->durationNs, 510);
    EXPECT_EQ(wait->cause, GapCause::GpuWait);
    ASSERT_TRUE(wait->waitedFor.valid());
    EXPECT_EQ(trace->str(trace->slice(wait->waitedFor).nameId), "producer");

    // Without the event the same gap is the host's: the launch came late.
    test::HandTrace plain;
    plain.kernel(2, 50, 90, 0, "early");
    plain.kernel(1, 100, 600, 10, "producer");
    plain.kernel(2, 600, 700, 300, "consumer");
    const auto plainTrace = plain.finish();
    for (const IdleGap& g : run(*plainTrace, 1).gaps) {
        if (g.streamId == 2) {
            EXPECT_EQ(g.cause, GapCause::Host);
            EXPECT_FALSE(g.waitedFor.valid());
        }
    }
}

TEST(Utilization, EveryIdleNanosecondGetsOneCause) {
    const auto trace = threeGapTrace();
    // A threshold above every gap lists none, but all idle time is still attributed.
    const UtilizationResult u = run(*trace, 1000);
    EXPECT_TRUE(u.gaps.empty());
    ASSERT_EQ(u.attribution.size(), 1u);
    const IdleAttribution& a = u.attribution[0];
    EXPECT_EQ(a.idleNs, 250);
    EXPECT_EQ(a.ns(GapCause::Host), 50);
    EXPECT_EQ(a.ns(GapCause::AfterBlockingCall), 100);
    EXPECT_EQ(a.ns(GapCause::GpuWait), 100);
    EXPECT_DOUBLE_EQ(a.pct(GapCause::AfterBlockingCall), 40.0);
    EXPECT_EQ(a.hostShortNs, 50);
}

TEST(Utilization, SyncRecordWithoutTheCallIsNotTheLaunchingThreadsWait) {
    // Only the device's synchronisation record, no API call on the launching thread: the thread
    // was not inside a blocking call, so the gap is not blamed on one.
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "A");
    model::SyncDetail sd;
    sd.syncKind = model::SyncKind::StreamSynchronize;
    t.builder().addSync(t.builder().syncTrack(t.builder().gpuProcess(0)), 150, 260, "Stream Sync",
                        0, sd);
    t.kernel(1, 300, 400, 280, "B");
    const auto trace = t.finish();
    const UtilizationResult u = run(*trace, 50);
    ASSERT_FALSE(u.gaps.empty());
    EXPECT_EQ(u.gaps[0].cause, GapCause::Host);
}

TEST(Utilization, CopyThatFinishedBeforeItsCallReturnedIsBlocking) {
    // A pageable cudaMemcpyAsync: the copy [100,200) is done before the call [90,230) returns, so
    // the call waited for it; the next kernel is launched at 240.
    test::HandTrace t;
    t.copy(1, 100, 200, CopyKind::DeviceToHost, 8, 90, 230, "cudaMemcpyAsync_v3020",
           model::MemoryKind::Pageable);
    t.kernel(1, 260, 300, 240, "next");
    const auto trace = t.finish();
    const UtilizationResult u = run(*trace, 10);
    ASSERT_EQ(u.attribution.size(), 1u);
    EXPECT_EQ(u.attribution[0].ns(GapCause::AfterBlockingCall), 60);
    ASSERT_FALSE(u.gaps.empty());
    EXPECT_EQ(trace->str(trace->slice(u.gaps[0].reason).nameId), "cudaMemcpyAsync_v3020");
}

TEST(Utilization, IdleIsChargedToTheInnermostHostRange) {
    // The host runs "Step 1" [0,500) holding "I/O 1" [210,300) and "I/O 2" [620,700) is in
    // "Step 2" [500,800). Kernels: [100,200) launched at 10, [300,400) launched at 305,
    // [700,750) launched at 705.
    test::HandTrace t;
    t.nvtx("Step 1", 0, 500);
    t.nvtx("I/O 1", 210, 300);
    t.nvtx("Step 2", 500, 800);
    t.nvtx("I/O 2", 620, 700);
    t.kernel(1, 100, 200, 10, "a");
    t.kernel(1, 300, 400, 295, "b");
    t.kernel(1, 700, 750, 695, "c");
    const auto trace = t.finish();
    // Over the GPU's work (the default would be the two steps, from 0 to 800).
    const UtilizationResult u = run(*trace, 10, WindowRequest::Kind::WholeTrace);
    // Idle [200,300): 10 ns in "Step 1" then 90 in "I/O 1"; idle [400,700): 100 in "Step 1",
    // 120 in "Step 2", 80 in "I/O 2".
    ASSERT_EQ(u.idleByHostRange.size(), 2u);
    EXPECT_EQ(u.idleByHostRange[0].name, "Step #");
    EXPECT_EQ(u.idleByHostRange[0].idleNs, 230);
    EXPECT_EQ(u.idleByHostRange[0].count, 2u);
    EXPECT_EQ(u.idleByHostRange[1].name, "I/O #");
    EXPECT_EQ(u.idleByHostRange[1].idleNs, 170);
    EXPECT_EQ(u.idleByHostRange[1].count, 2u);
    // When "I/O 2" began (620) the GPU had nothing queued; when "I/O 1" began (210) neither.
    EXPECT_EQ(u.idleByHostRange[1].queuedNs, 0);
    ASSERT_EQ(u.gaps.size(), 4u);  // two device gaps, two stream gaps
    EXPECT_EQ(trace->str(trace->slice(u.gaps[0].hostRange).nameId), "Step 1");
}

TEST(Utilization, WindowCountsTheIdleTimeAtItsEdges) {
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "warmup");
    t.nvtx("Loop", 1'000, 2'000);
    t.kernel(1, 1'200, 1'500, 1'100, "k");
    t.kernel(1, 1'800, 2'300, 1'700, "k");  // runs past the window's end
    const auto trace = t.finish();
    WindowRequest request;
    request.kind = WindowRequest::Kind::NvtxRange;
    request.rangeName = "Loop";
    const AnalysisWindow window = resolveWindow(*trace, request).value();
    EXPECT_EQ(window.durationNs(), 1'000);
    AnalysisOptions o;
    o.gapThresholdNs = 10;
    const GpuOps ops(*trace, &window);
    ASSERT_EQ(ops.all().size(), 2u);  // the warm-up is outside; the last kernel is clipped
    EXPECT_EQ(ops.all()[1].endNs, 2'000);
    const UtilizationResult u = computeUtilization(*trace, ops, window, o);
    ASSERT_EQ(u.devices.size(), 1u);
    EXPECT_EQ(u.devices[0].busyNs, 300 + 200);
    EXPECT_EQ(u.devices[0].spanNs(), 1'000);
    EXPECT_DOUBLE_EQ(u.busyPct(), 50.0);
    // [1000,1200) at the start and [1500,1800) inside.
    std::vector<IdleGap> device;
    for (const IdleGap& g : u.gaps) {
        if (g.streamId == -1) {
            device.push_back(g);
        }
    }
    ASSERT_EQ(device.size(), 2u);
    EXPECT_EQ(device[0].startNs, 1'000);
    EXPECT_EQ(device[0].durationNs, 200);
    EXPECT_EQ(device[1].startNs, 1'500);
    EXPECT_EQ(device[1].durationNs, 300);
    EXPECT_EQ(u.attribution[0].idleNs, 500);
}

TEST(Utilization, WindowOfSeveralPartsSkipsTheTimeBetweenThem) {
    test::HandTrace t;
    t.nvtx("Step", 0, 100);
    t.nvtx("Step", 500, 600);
    t.kernel(1, 20, 80, 10, "k");
    t.kernel(1, 200, 400, 190, "outside");
    t.kernel(1, 550, 650, 540, "k");
    const auto trace = t.finish();
    const AnalysisWindow window =
        resolveWindow(*trace, WindowRequest::nvtx("Step").value()).value();
    ASSERT_EQ(window.parts.size(), 2u);
    const GpuOps ops(*trace, &window);
    AnalysisOptions o;
    o.gapThresholdNs = 1;
    const UtilizationResult u = computeUtilization(*trace, ops, window, o);
    EXPECT_EQ(u.devices[0].spanNs(), 200);
    EXPECT_EQ(u.devices[0].busyNs, 60 + 50);
    // [0,20) and [80,100) in the first part, [500,550) in the second: 90 ns idle.
    EXPECT_EQ(u.attribution[0].idleNs, 90);
}

TEST(Utilization, ThresholdHidesShortGapsButNotTheirIdleTime) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 60);
    std::size_t deviceGaps = 0;
    for (const IdleGap& g : u.gaps) {
        EXPECT_GE(g.durationNs, 60);
        deviceGaps += g.streamId == -1 ? 1 : 0;
    }
    EXPECT_EQ(deviceGaps, 2u);
    EXPECT_EQ(u.gaps.size(), 4u);  // stream 1 loses [200,250) too
    EXPECT_EQ(u.devices[0].busyNs, 450);
    EXPECT_EQ(u.devices[0].gapCount, 3u);
    EXPECT_TRUE(run(*trace, 1000).gaps.empty());
}

TEST(Utilization, NoGpuWorkMeansNothingToReport) {
    test::HandTrace t;
    t.api("cudaMalloc_v3020", 0, 100);
    const auto trace = t.finish();
    const UtilizationResult u = run(*trace, 1);
    EXPECT_TRUE(u.devices.empty());
    EXPECT_TRUE(u.gaps.empty());
    EXPECT_DOUBLE_EQ(u.busyPct(), 0.0);
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_TRUE(r.diagnostics.empty());
}

TEST(Utilization, NumbersThatStandAsWordsFold) {
    EXPECT_EQ(foldDigits("I/O 45"), "I/O #");
    EXPECT_EQ(foldDigits("Compute 1 to 15"), "Compute # to #");
    EXPECT_EQ(foldDigits("step_12"), "step_#");
    EXPECT_EQ(foldDigits("H2D Memory Stream 3"), "H2D Memory Stream #");
    EXPECT_EQ(foldDigits("conv2d"), "conv2d");
    EXPECT_EQ(foldDigits("42"), "#");
    EXPECT_EQ(foldDigits(""), "");
    // A number after '#' folds into it: the PyTorch profiler's steps are one name.
    EXPECT_EQ(foldDigits("ProfilerStep#551"), "ProfilerStep#");
    EXPECT_EQ(foldDigits("Step #3 of 10"), "Step # of #");
    EXPECT_EQ(foldDigits("# 3"), "# #");
}

TEST(Utilization, IdleWhileQueuedWorkWaitsIsNotChargedToHostRanges) {
    // B is launched at 150, inside "Prepare", long before A ends (200): the gap [200,300) is a GPU
    // wait, so "Prepare" (and "Busy", where the host is at 200) gets none of it.
    test::HandTrace t;
    t.nvtx("Prepare", 140, 160);
    t.nvtx("Busy", 170, 400);
    t.kernel(1, 100, 200, 10, "A");
    t.kernel(1, 300, 350, 150, "B");
    const auto trace = t.finish();
    const UtilizationResult u = run(*trace, 10);
    ASSERT_EQ(u.attribution.size(), 1u);
    EXPECT_EQ(u.attribution[0].ns(GapCause::GpuWait), 100);
    EXPECT_TRUE(u.idleByHostRange.empty());
}

}  // namespace
}  // namespace wl::analysis

namespace wl::analysis {
namespace {

TEST(LaunchQueue, DepthAndEmptyShareInsideTheWindow) {
    // A [100,200) launched at 0, B [300,400) launched at 250: one op queued over [100,200) and
    // [250,400), none over [200,250).
    test::HandTrace t;
    t.kernel(1, 100, 200, 0, "A");
    t.kernel(1, 300, 400, 250, "B");
    const auto trace = t.finish();
    const AnalysisWindow window = resolveWindow(*trace, {}).value();
    const auto stats = launchQueueStats(*trace, window);
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].deviceId, 0);
    EXPECT_DOUBLE_EQ(stats[0].maxDepth, 1.0);
    EXPECT_NEAR(stats[0].meanDepth, 250.0 / 300.0, 1e-12);
    EXPECT_NEAR(stats[0].emptyPct, 100.0 * 50.0 / 300.0, 1e-9);
}

}  // namespace
}  // namespace wl::analysis
