// The analysis on a trace recorded by another tool (the PyTorch profiler's Kineto JSON): the same
// numbers must hold together as on our own runs.
#include <gtest/gtest.h>

#include "analysis/Analysis.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::analysis {
namespace {

TEST(ImportedTrace, KinetoTraceAnalysesConsistently) {
    auto loaded = io::loadTrace(test::dataPath("pytorch_small.json.gz"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    // By default the two profiled steps ("step0", "step1": iterations), to the end of their GPU
    // work; here the whole trace, whose statistics must account for every kernel and copy.
    const AnalysisResult steps = analyzeTrace(trace);
    EXPECT_EQ(steps.window().source, WindowSource::Iterations);
    EXPECT_EQ(steps.window().name, "step#");
    EXPECT_EQ(steps.window().instance, 2);
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const AnalysisResult r =
        analyzeTrace(trace, AnalysisOptions{}, resolveWindow(trace, whole).value());

    // Device limits come from the trace's deviceProperties.
    ASSERT_EQ(r.limits.size(), 1u);
    EXPECT_TRUE(r.limitsFor(0).known);
    EXPECT_EQ(r.limitsFor(0).source, "trace");
    EXPECT_EQ(r.limitsFor(0).smCount, trace.devices().front().smCount);

    // Statistics account for every kernel and copy of the trace.
    std::uint64_t kernels = 0;
    model::TimeNs kernelNs = 0;
    for (const KernelStats& k : r.statistics.kernels) {
        kernels += k.count;
        kernelNs += k.totalNs;
        EXPECT_LE(k.minNs, k.meanNs);
        EXPECT_LE(k.meanNs, k.maxNs);
    }
    EXPECT_EQ(kernels, trace.counts().kernel);
    EXPECT_EQ(kernelNs, r.statistics.kernelTotalNs);
    std::uint64_t copies = 0;
    std::uint64_t pageable = 0;
    for (const CopyStats& c : r.statistics.copies) {
        copies += c.count;
        pageable += c.pageableCount;
    }
    EXPECT_EQ(copies, trace.counts().memcpy);

    // Busy time: between the union of kernels and the span; idle gaps fit in the idle time.
    ASSERT_EQ(r.utilization.devices.size(), 1u);
    const DeviceUtilization& d = r.utilization.devices.front();
    EXPECT_GE(d.busyNs, r.overlap.kernelNs);
    EXPECT_LE(d.busyNs, d.spanNs());
    model::TimeNs listedIdle = 0;
    for (const IdleGap& g : r.utilization.gaps) {
        EXPECT_GE(g.durationNs, r.options.gapThresholdNs);
        EXPECT_GE(g.startNs, d.firstNs);
        EXPECT_LE(g.endNs(), d.lastNs);
        listedIdle += g.streamId == -1 ? g.durationNs : 0;
        if (g.cause == GapCause::AfterBlockingCall) {
            EXPECT_TRUE(g.reason.valid());
        }
    }
    EXPECT_LE(listedIdle, d.idleNs());

    // The profiler's pageable copies are found, as many as the statistics count.
    if (pageable > 0) {
        const auto found = r.findings(RuleId::PageableMemcpy);
        ASSERT_EQ(found.size(), 1u);
        EXPECT_EQ(found.front()->count, pageable);
    }
    // Launch flows from Kineto's ac2g events tie gaps to the calls that launched the work after
    // them, so gaps are blamed on a host that launched late.
    bool lateLaunch = false;
    for (const IdleGap& g : r.utilization.gaps) {
        lateLaunch = lateLaunch || (g.cause == GapCause::Host && g.launch.valid());
    }
    EXPECT_TRUE(lateLaunch);
}

}  // namespace
}  // namespace wl::analysis
