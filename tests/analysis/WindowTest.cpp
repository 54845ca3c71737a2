#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

TEST(Window, ATrainingLoopsIterationsAreTheDefaultWindow) {
    // Set-up, warm-up steps numbered below 0, then "step 0".."step 2", and a kernel launched in
    // the last step that runs after its host range ends.
    test::HandTrace t;
    t.nvtx("init", 0, 1'000);
    t.nvtx("step -1", 1'000, 2'000);
    t.nvtx("step 0", 3'000, 4'000);
    t.nvtx("step 1", 4'000, 5'000);
    t.nvtx("step 2", 5'000, 6'000);
    t.nvtx("Memcpy 3", 5'100, 5'200);  // a number, but not a loop word
    t.kernel(1, 500, 900, 400, "setup");
    t.kernel(1, 5'900, 7'500, 5'500, "last");
    const auto trace = t.finish();
    const auto w = resolveWindow(*trace);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().source, WindowSource::Iterations);
    EXPECT_EQ(w.value().name, "step #");
    EXPECT_EQ(w.value().instance, 3);
    ASSERT_EQ(w.value().parts.size(), 1u);
    EXPECT_EQ(w.value().parts[0].startNs, 3'000);  // not the warm-up, not the set-up
    EXPECT_EQ(w.value().parts[0].endNs, 7'500);    // the last step's GPU work
    EXPECT_EQ(describeWindow(w.value()), "3 iterations 'step #' (4.5 \u00b5s)");
    EXPECT_STREQ(toString(w.value().source), "iterations");
    // Other spellings; one instance is not a loop.
    for (const char* name : {"ProfilerStep#7", "Iteration_7", "iter 7", "batch7", "epoch: 7"}) {
        test::HandTrace u;
        std::string second(name);
        second.back() = '8';
        u.nvtx(name, 0, 10);
        u.nvtx(second, 10, 20);
        u.kernel(1, 0, 5, -1);
        EXPECT_EQ(resolveWindow(*u.finish()).value().source, WindowSource::Iterations) << name;
    }
    test::HandTrace once;
    once.nvtx("step 0", 0, 10);
    once.kernel(1, 0, 5, -1);
    EXPECT_EQ(resolveWindow(*once.finish()).value().source, WindowSource::Trace);
    // A capture range wins over iterations.
    test::HandTrace captured;
    captured.nvtx("step 0", 0, 10);
    captured.nvtx("step 1", 10, 20);
    captured.api("cudaProfilerStart", 12, 13);
    captured.kernel(1, 14, 16, -1);
    captured.api("cudaProfilerStop", 18, 19);
    EXPECT_EQ(resolveWindow(*captured.finish()).value().source, WindowSource::Capture);
}

TEST(WindowRequest, ParsesRangeNamesAndInstances) {
    auto all = WindowRequest::nvtx("Loop");
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->rangeName, "Loop");
    EXPECT_EQ(all->instance, 0);
    auto third = WindowRequest::nvtx("I/O 45#3");
    ASSERT_TRUE(third.ok());
    EXPECT_EQ(third->rangeName, "I/O 45");
    EXPECT_EQ(third->instance, 3);
    // A name ending in "#digits" keeps them when an instance follows.
    auto hashName = WindowRequest::nvtx("Step#2#1");
    ASSERT_TRUE(hashName.ok());
    EXPECT_EQ(hashName->rangeName, "Step#2");
    EXPECT_EQ(hashName->instance, 1);
    EXPECT_FALSE(WindowRequest::nvtx("Loop#0").ok());
    EXPECT_FALSE(WindowRequest::nvtx("").ok());
    EXPECT_FALSE(WindowRequest::nvtx("#2").ok());
}

TEST(WindowRequest, ParsesMillisecondsExactly) {
    auto w = WindowRequest::timeMs("120.5:410");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->time.startNs, 120'500'000);
    EXPECT_EQ(w->time.endNs, 410'000'000);
    auto fine = WindowRequest::timeMs("0.000001:.5");
    ASSERT_TRUE(fine.ok());
    EXPECT_EQ(fine->time.startNs, 1);
    EXPECT_EQ(fine->time.endNs, 500'000);
    EXPECT_FALSE(WindowRequest::timeMs("5:5").ok());
    EXPECT_FALSE(WindowRequest::timeMs("9:5").ok());
    EXPECT_FALSE(WindowRequest::timeMs("abc").ok());
    EXPECT_FALSE(WindowRequest::timeMs("1:2x").ok());
    const auto error = WindowRequest::timeMs("1-2");
    ASSERT_FALSE(error.ok());
    EXPECT_NE(error.error().message.find("START_MS:END_MS"), std::string::npos);
}

model::TracePtr loopTrace() {
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "warmup");
    t.nvtx("Loop", 1'000, 2'000);
    t.nvtx("Loop", 3'000, 3'500);
    t.kernel(1, 1'100, 1'900, 1'050, "k");
    t.kernel(1, 3'100, 3'400, 3'050, "k");
    return t.finish();
}

TEST(Window, WholeTraceIsFirstToLastGpuOp) {
    const auto trace = loopTrace();
    const auto w = resolveWindow(*trace, {});
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::Trace);
    ASSERT_EQ(w->parts.size(), 1u);
    EXPECT_EQ(w->parts[0], (model::TimeRange{100, 3'400}));
    EXPECT_EQ(describeWindow(*w), "whole trace");
}

TEST(Window, NvtxInstancesAndTheirUnion) {
    const auto trace = loopTrace();
    const auto second = resolveWindow(*trace, WindowRequest::nvtx("Loop#2").value());
    ASSERT_TRUE(second.ok());
    ASSERT_EQ(second->parts.size(), 1u);
    EXPECT_EQ(second->parts[0], (model::TimeRange{3'000, 3'500}));
    EXPECT_EQ(describeWindow(*second), "'Loop' #2 (500 ns)");
    const auto every = resolveWindow(*trace, WindowRequest::nvtx("Loop").value());
    ASSERT_TRUE(every.ok());
    EXPECT_EQ(every->parts.size(), 2u);
    EXPECT_EQ(every->durationNs(), 1'500);

    const auto missing = resolveWindow(*trace, WindowRequest::nvtx("loop").value());
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("ranges it has: 'Loop'"), std::string::npos)
        << missing.error().message;
    const auto past = resolveWindow(*trace, WindowRequest::nvtx("Loop#3").value());
    ASSERT_FALSE(past.ok());
    EXPECT_NE(past.error().message.find("has 2 instances"), std::string::npos);
}

TEST(Window, AnalysisOfOneInstanceLeavesTheWarmUpOut) {
    const auto trace = loopTrace();
    const AnalysisResult whole = analyzeTrace(*trace);
    const AnalysisResult loop = analyzeTrace(
        *trace, {}, resolveWindow(*trace, WindowRequest::nvtx("Loop#1").value()).value());
    // Whole trace: 100 + 800 + 300 busy over 3300 ns. Loop #1: 800 of 1000.
    EXPECT_DOUBLE_EQ(whole.gpuBusyPct(), 100.0 * 1'200 / 3'300);
    EXPECT_DOUBLE_EQ(loop.gpuBusyPct(), 80.0);
    ASSERT_EQ(loop.statistics.kernels.size(), 1u);
    EXPECT_EQ(loop.statistics.kernels[0].name, "k");
    EXPECT_EQ(loop.statistics.kernels[0].count, 1u);
}

TEST(Window, EveryInstanceOfANumberedRangeIsEveryNumber) {
    // "Analyse every 'ProfilerStep#4'" from the range's menu: every step, not the one.
    test::HandTrace t;
    for (int i = 0; i < 6; ++i) {
        t.nvtx("ProfilerStep#" + std::to_string(i), i * 1'000, i * 1'000 + 800);
        t.kernel(1, i * 1'000 + 100, i * 1'000 + 500, -1);
    }
    t.nvtx("ProfilerStepper", 6'000, 6'500);  // another name that starts alike
    const auto trace = t.finish();
    const WindowRequest every = WindowRequest::everyInstanceOf("ProfilerStep#4");
    EXPECT_EQ(every.kind, WindowRequest::Kind::NvtxRange);
    EXPECT_EQ(every.rangeName, "ProfilerStep#");
    EXPECT_EQ(every.instance, 0);
    const auto w = resolveWindow(*trace, every);
    ASSERT_TRUE(w.ok()) << w.error().message;
    EXPECT_EQ(w->parts.size(), 6u);
    EXPECT_EQ(w->durationNs(), 6 * 800);
    EXPECT_EQ(describeWindow(*w), "every 'ProfilerStep#' (6 spans, 4.8 \u00b5s)");
    // A name without numbers is taken as it is.
    const WindowRequest plain = WindowRequest::everyInstanceOf("ProfilerStepper");
    EXPECT_EQ(plain.rangeName, "ProfilerStepper");
    EXPECT_EQ(resolveWindow(*trace, plain)->parts.size(), 1u);
}

TEST(Window, CaptureRangeFromProfilerCallsIsTheDefault) {
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "setup");
    t.api("cudaProfilerStart_v4000", 900, 1'000);
    t.kernel(1, 1'100, 1'900, 1'050, "timed");
    t.api("cudaProfilerStop_v4000", 2'000, 2'050);
    t.kernel(1, 2'100, 2'200, 2'060, "teardown");
    const auto trace = t.finish();
    const auto ranges = captureRanges(*trace);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0], (model::TimeRange{1'000, 2'000}));
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_EQ(r.window().source, WindowSource::Capture);
    EXPECT_DOUBLE_EQ(r.gpuBusyPct(), 80.0);
    EXPECT_EQ(describeWindow(r.window()), "capture range (1.0 µs)");

    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    EXPECT_EQ(resolveWindow(*trace, whole)->source, WindowSource::Trace);
}

TEST(Window, CaptureWindowsCarriedByTheTraceWin) {
    test::HandTrace t;
    t.builder().addCaptureWindow(1'000, 1'500);
    t.api("cudaProfilerStart_v4000", 0, 10);
    t.kernel(1, 1'100, 1'400, 1'050, "timed");
    const auto trace = t.finish();
    const auto ranges = captureRanges(*trace);
    ASSERT_EQ(ranges.size(), 1u);
    EXPECT_EQ(ranges[0], (model::TimeRange{1'000, 1'500}));
    WindowRequest capture;
    capture.kind = WindowRequest::Kind::Capture;
    EXPECT_TRUE(resolveWindow(*trace, capture).ok());
    EXPECT_FALSE(resolveWindow(*loopTrace(), capture).ok());
}

TEST(Window, TimeRangeIsClippedToTheTrace) {
    const auto trace = loopTrace();
    WindowRequest r = WindowRequest::timeMs("0:1").value();
    const auto w = resolveWindow(*trace, r);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->parts[0], (model::TimeRange{0, trace->spanNs()}));
    r.time = {trace->spanNs() + 10, trace->spanNs() + 20};
    EXPECT_FALSE(resolveWindow(*trace, r).ok());
}

TEST(Window, NvtxInstanceNumberCountsInStartOrder) {
    const auto trace = loopTrace();
    std::int32_t seen = 0;
    for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
        if (trace->track(t).kind != model::TrackKind::Nvtx) {
            continue;
        }
        for (std::uint32_t i = 0; i < trace->track(t).slices.size(); ++i) {
            const model::Slice& s = trace->track(t).slices[i];
            EXPECT_EQ(nvtxInstanceNumber(*trace, {t, i}), s.startNs == 1'000 ? 1 : 2);
            ++seen;
        }
    }
    EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace wl::analysis
