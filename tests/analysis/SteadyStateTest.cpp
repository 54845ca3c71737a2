#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/Window.h"
#include "model/TraceMerge.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

constexpr model::TimeNs kUs = model::kNsPerUs;
constexpr model::TimeNs kMs = model::kNsPerMs;

// A heat-diffusion loop on thrust in the tutorial's exercise form. Start-up: thrust fills a device
// buffer and waits for it, the host fills its own buffers for 30 ms and uploads them. Then three
// write steps: a blocking D2H copy of the grid, 200 kernels launched well ahead, and the file
// write on the host (15 ms), during which the GPU runs out of work. Tear-down: one checksum
// kernel after the last write.
struct HeatLoop {
    static constexpr int kWriteSteps = 3;
    static constexpr int kKernelsPerStep = 200;
    static constexpr model::TimeNs kStepNs = 15'200 * kUs;
    static constexpr model::TimeNs kLoopStartNs = 30'300 * kUs;

    model::TracePtr trace;
    model::TimeNs lastKernelEndNs = 0;

    HeatLoop() {
        test::HandTrace t;
        t.kernel(1, 10 * kUs, 30 * kUs, 0, "thrust::fill_kernel<double>");
        t.streamSync(6 * kUs, 35 * kUs);
        t.copy(1, 30'100 * kUs, 30'200 * kUs, CopyKind::HostToDevice, 1 << 20, 30'050 * kUs,
               30'210 * kUs, "cudaMemcpy_v3020");
        model::TimeNs at = kLoopStartNs;
        for (int step = 0; step < kWriteSteps; ++step, at += kStepNs) {
            t.copy(1, at + 10 * kUs, at + 110 * kUs, CopyKind::DeviceToHost, 1 << 20, at,
                   at + 112 * kUs, "cudaMemcpy_v3020");
            for (int i = 0; i < kKernelsPerStep; ++i) {
                const model::TimeNs startNs = at + 120 * kUs + i * 50 * kUs;
                t.kernel(1, startNs, startNs + 50 * kUs, at + 112 * kUs + i * kUs,
                         "thrust::for_each_kernel<heat_step>");
                lastKernelEndNs = startNs + 50 * kUs;
            }
        }
        t.kernel(1, at + 10 * kUs, at + 30 * kUs, at, "checksum");
        trace = t.finish();
    }
};

TEST(SteadyState, AHeatLoopLeavesOutItsStartUpAndTearDown) {
    const HeatLoop heat;
    const auto w = resolveWindow(*heat.trace);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::SteadyState);
    EXPECT_STREQ(toString(w->source), "steady_state");
    ASSERT_EQ(w->parts.size(), 1u);
    // From the first write step's copy (the D2H copies repeat: three of them) to the last kernel.
    EXPECT_EQ(w->parts[0].startNs, HeatLoop::kLoopStartNs + 10 * kUs);
    EXPECT_EQ(w->parts[0].endNs, heat.lastKernelEndNs);
    EXPECT_EQ(describeWindow(*w), "steady state (40.51 ms)");
    ASSERT_EQ(w->leftOut.size(), 2u);
    EXPECT_EQ(w->leftOut[0].kind, LeftOut::Kind::StartUp);
    EXPECT_EQ(w->leftOut[0].range, (model::TimeRange{10 * kUs, HeatLoop::kLoopStartNs + 10 * kUs}));
    EXPECT_EQ(describeLeftOut(w->leftOut[0]),
              "start-up: 30.30 ms before the steady state, not analysed");
    EXPECT_EQ(w->leftOut[1].kind, LeftOut::Kind::TearDown);
    EXPECT_EQ(describeLeftOut(w->leftOut[1]),
              "tear-down: 5.11 ms after the steady state, not analysed");

    // Inside: the GPU waits for the file writes (the host's), and for 10 us after each blocking
    // copy. The start-up gap (after thrust's wait) is no longer the headline.
    const AnalysisResult r = analyzeTrace(*heat.trace);
    EXPECT_EQ(r.window().source, WindowSource::SteadyState);
    ASSERT_EQ(r.utilization.attribution.size(), 1u);
    const IdleAttribution& a = r.utilization.attribution[0];
    EXPECT_EQ(a.ns(GapCause::AfterBlockingCall), 3 * 10 * kUs);
    EXPECT_EQ(a.ns(GapCause::Host), 2 * (HeatLoop::kStepNs - 10'110 * kUs));
    EXPECT_EQ(a.ns(GapCause::GpuWait), 0);
    EXPECT_FALSE(r.fired(RuleId::SyncApiInLoop));

    // --whole-trace still measures everything, start-up included.
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const auto all = resolveWindow(*heat.trace, whole);
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->source, WindowSource::Trace);
    EXPECT_TRUE(all->leftOut.empty());
    EXPECT_EQ(all->parts[0].startNs, 10 * kUs);
}

// The same loop in the tutorial's solution form: each step's copy runs on a stream of its own
// while the kernels go on, the file write overlaps the compute, and the host waits for the
// compute stream only before the next step.
model::TracePtr heatSolution() {
    test::HandTrace t;
    t.kernel(1, 10 * kUs, 30 * kUs, 0, "thrust::fill_kernel<double>");
    t.streamSync(6 * kUs, 35 * kUs);
    t.copy(1, 30'100 * kUs, 30'200 * kUs, CopyKind::HostToDevice, 1 << 20, 30'050 * kUs,
           30'060 * kUs);
    model::TimeNs at = HeatLoop::kLoopStartNs;
    for (int step = 0; step < 4; ++step, at += 10'060 * kUs) {
        t.copy(2, at + 10 * kUs, at + 110 * kUs, CopyKind::DeviceToHost, 1 << 20, at, at + 5 * kUs);
        for (int i = 0; i < 200; ++i) {
            const model::TimeNs startNs = at + 10 * kUs + i * 50 * kUs;
            t.kernel(1, startNs, startNs + 50 * kUs, at + 5 * kUs + i * 100, "heat_step");
        }
        t.streamSync(at + 300 * kUs, at + 10'015 * kUs);
    }
    return t.finish();
}

TEST(SteadyState, TheSolutionsStartUpGapIsNoLongerItsHeadline) {
    const auto trace = heatSolution();
    AnalysisOptions o;
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    // Over the whole trace, the wait before the 30 ms of host fills is most of the idle time: the
    // GPU's idle time leads, and sync-api-in-loop is the first cause after it.
    const AnalysisResult all = analyzeTrace(*trace, o, resolveWindow(*trace, whole).value());
    ASSERT_GE(all.diagnostics.size(), 2u);
    EXPECT_EQ(all.diagnostics.front().rule, RuleId::GpuGap);
    EXPECT_EQ(all.diagnostics[1].rule, RuleId::SyncApiInLoop);
    EXPECT_EQ(all.diagnostics[1].severity, Severity::Warning);
    // In the steady state the GPU is busy but for 50 us between steps: the same waits are
    // information.
    const AnalysisResult steady = analyzeTrace(*trace, o);
    EXPECT_EQ(steady.window().source, WindowSource::SteadyState);
    EXPECT_GT(steady.gpuBusyPct(), 99.0);
    ASSERT_TRUE(steady.fired(RuleId::SyncApiInLoop));
    for (const Diagnostic& d : steady.diagnostics) {
        if (d.rule == RuleId::SyncApiInLoop || d.rule == RuleId::GpuGap) {
            EXPECT_EQ(d.severity, Severity::Info) << d.message;
        }
    }
}

// A PyTorch training loop with no markers: the weights are uploaded (blocking copies), then 4.7 s
// of one-off start-up (data loading, library initialisation) pass before 50 steps of one batch
// upload, ten small kernels launched one by one from Python, and a loss read back with a wait.
model::TracePtr markerlessTrainingLoop(model::TimeNs& loopStartNs, model::TimeNs& loopEndNs) {
    test::HandTrace t;
    for (int i = 0; i < 6; ++i) {
        const model::TimeNs at = i * 100 * kUs;
        t.copy(1, at + 10 * kUs, at + 60 * kUs, CopyKind::HostToDevice, 4 << 20, at, at + 65 * kUs,
               "cudaMemcpy_v3020");
    }
    model::TimeNs at = 4'700 * kMs + 600 * kUs;
    loopStartNs = at + 10 * kUs;
    for (int step = 0; step < 50; ++step, at += 1'100 * kUs) {
        t.copy(1, at + 10 * kUs, at + 30 * kUs, CopyKind::HostToDevice, 1 << 20, at, at + 12 * kUs);
        for (int k = 0; k < 10; ++k) {
            const model::TimeNs launchNs = at + 50 * kUs + k * 100 * kUs;
            t.kernel(1, launchNs + 10 * kUs, launchNs + 15 * kUs, launchNs,
                     "op_" + std::to_string(k));
        }
        t.copy(1, at + 1'010 * kUs, at + 1'012 * kUs, CopyKind::DeviceToHost, 4, at + 1'000 * kUs,
               at + 1'001 * kUs);
        t.streamSync(at + 1'001 * kUs, at + 1'013 * kUs, false);
        loopEndNs = at + 1'012 * kUs;
    }
    return t.finish();
}

TEST(SteadyState, AMarkerlessTrainingLoopLeavesOutItsSlowStartEvenThoughItsCopiesRepeat) {
    model::TimeNs loopStartNs = 0;
    model::TimeNs loopEndNs = 0;
    const auto trace = markerlessTrainingLoop(loopStartNs, loopEndNs);
    const auto w = resolveWindow(*trace);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::SteadyState);
    ASSERT_EQ(w->parts.size(), 1u);
    // The weight uploads share the batches' "Memcpy HtoD" name, but hold no step of the loop.
    EXPECT_EQ(w->parts[0], (model::TimeRange{loopStartNs, loopEndNs}));
    ASSERT_EQ(w->leftOut.size(), 1u);
    EXPECT_EQ(w->leftOut[0].kind, LeftOut::Kind::StartUp);
    EXPECT_EQ(w->leftOut[0].range, (model::TimeRange{10 * kUs, loopStartNs}));

    const AnalysisResult r = analyzeTrace(*trace);
    // Per step: 72 us busy of 1.1 ms, and most of the idle time is Python between launches.
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * 72 / 1'100, 0.1);
    const IdleAttribution& a = r.utilization.attribution[0];
    EXPECT_GT(a.pct(GapCause::Host), 85.0);
    EXPECT_TRUE(r.fired(RuleId::LaunchBound));
}

TEST(SteadyState, WorkThatDoesNotRepeatIsAnalysedWhole) {
    test::HandTrace t;
    t.copy(1, 0, 100, CopyKind::HostToDevice, 1'000, 0, 110, "cudaMemcpy_v3020");
    t.kernel(1, 200, 300, 150, "a");
    t.kernel(1, 5'000, 5'100, 4'000, "b");
    t.copy(1, 5'200, 5'300, CopyKind::DeviceToHost, 1'000, 5'150, 5'310, "cudaMemcpy_v3020");
    const auto w = resolveWindow(*t.finish());
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::Trace);
    EXPECT_TRUE(w->leftOut.empty());
}

TEST(SteadyState, ALoopThatIsTheWholeTraceIsCalledTheWholeTrace) {
    test::HandTrace t;
    for (int i = 0; i < 5; ++i) {
        t.kernel(1, i * 1'000, i * 1'000 + 500, -1, "k");
    }
    EXPECT_EQ(resolveWindow(*t.finish())->source, WindowSource::Trace);
}

TEST(SteadyState, MarkedWindowsComeFirst) {
    // The heat loop's ops with iterations marked: the iterations win, as a capture range would.
    test::HandTrace t;
    t.kernel(1, 0, 10, -1, "setup");
    for (int i = 0; i < 4; ++i) {
        t.nvtx("step " + std::to_string(i), 1'000 + i * 1'000, 2'000 + i * 1'000);
        t.kernel(1, 1'100 + i * 1'000, 1'600 + i * 1'000, -1, "k");
    }
    EXPECT_EQ(resolveWindow(*t.finish())->source, WindowSource::Iterations);
}

TEST(Window, IterationsLeaveOutAWarmUpStepFarLongerThanTheOthers) {
    // A PyTorch profiler trace: ProfilerStep#0 is a 652 ms warm-up, steps 1-5 take 2-6 ms.
    test::HandTrace t;
    const model::TimeNs durationsNs[] = {652 * kMs, 2 * kMs, 6 * kMs, 3 * kMs, 4 * kMs, 2 * kMs};
    model::TimeNs at = 10 * kMs;
    model::TimeNs step1Ns = 0;
    for (int i = 0; i < 6; ++i) {
        if (i == 1) {
            step1Ns = at;
        }
        t.nvtx("ProfilerStep#" + std::to_string(i), at, at + durationsNs[i]);
        t.kernel(1, at + kUs, at + durationsNs[i] - kUs, at, "step_kernel");
        at += durationsNs[i];
    }
    const auto trace = t.finish();
    const auto w = resolveWindow(*trace);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::Iterations);
    EXPECT_EQ(w->instance, 5);
    ASSERT_EQ(w->parts.size(), 1u);
    EXPECT_EQ(w->parts[0], (model::TimeRange{step1Ns, at}));
    ASSERT_EQ(w->leftOut.size(), 1u);
    EXPECT_EQ(w->leftOut[0].kind, LeftOut::Kind::WarmUp);
    EXPECT_EQ(w->leftOut[0].name, "ProfilerStep#0");
    EXPECT_EQ(describeLeftOut(w->leftOut[0]),
              "warm-up: 'ProfilerStep#0' (652.00 ms) left out of the iterations");
    EXPECT_EQ(describeWindow(*w), "5 iterations 'ProfilerStep#' (17.00 ms)");

    // Steps of one kind of length keep every one; two iterations always remain.
    test::HandTrace even;
    for (int i = 0; i < 4; ++i) {
        even.nvtx("step " + std::to_string(i), i * 1'000, i * 1'000 + (i == 0 ? 4'000 : 1'000));
    }
    even.kernel(1, 0, 10, -1);
    EXPECT_TRUE(resolveWindow(*even.finish())->leftOut.empty());
    test::HandTrace two;
    two.nvtx("step 0", 0, 100'000);
    two.nvtx("step 1", 100'000, 101'000);
    two.kernel(1, 0, 10, -1);
    EXPECT_TRUE(resolveWindow(*two.finish())->leftOut.empty());
}

TEST(SteadyState, RanksOnOneClockHaveTheSteadyStateOfTheirWorkAndRanksAlignedByARangeNone) {
    // Two ranks running the heat loop at once (a torchrun job recorded on one host).
    const auto job = [](std::map<std::string, std::string> metadata) {
        std::vector<model::MergeInput> inputs;
        for (std::int32_t rank : {0, 1}) {
            model::MergeInput in;
            in.trace = HeatLoop().trace;
            in.rank = rank;
            inputs.push_back(std::move(in));
        }
        auto merged = model::mergeTraces(std::move(inputs), metadata);
        EXPECT_TRUE(merged.ok());
        return merged.value();
    };
    const auto w = steadyStateWindow(*job({}));
    ASSERT_TRUE(w.has_value());
    ASSERT_EQ(w->leftOut.size(), 2u);
    EXPECT_EQ(describeLeftOut(w->leftOut[0]),
              "start-up: 30.30 ms before the steady state, not analysed");
    // Aligned by a range, the ranks' loops fall on one another by choice, not by clock.
    EXPECT_FALSE(steadyStateWindow(*job({{"rank alignment mode", "range"}})).has_value());
    EXPECT_FALSE(steadyStateWindow(*job({{"rank alignment mode", "start"}})).has_value());
    EXPECT_TRUE(steadyStateWindow(*job({{"rank alignment mode", "wall_clock"}})).has_value());
}

}  // namespace
}  // namespace wl::analysis
