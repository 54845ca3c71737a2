#include "analysis/CaptureRange.h"

#include <gtest/gtest.h>

#include "HandTrace.h"

namespace wl::analysis {
namespace {

TEST(CaptureRange, ParsesNsightSystemsSpellings) {
    auto none = parseCaptureRange("", "", "", "");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->active());
    auto api = parseCaptureRange("cudaProfilerApi", "repeat", "", "");
    ASSERT_TRUE(api.ok());
    EXPECT_EQ(api->trigger, CaptureRange::Trigger::ProfilerApi);
    EXPECT_TRUE(api->repeat);
    auto nvtx = parseCaptureRange("nvtx:solve@physics", "stop", "2", "0.5");
    ASSERT_TRUE(nvtx.ok());
    EXPECT_EQ(nvtx->trigger, CaptureRange::Trigger::Nvtx);
    EXPECT_EQ(nvtx->nvtxName, "solve");
    EXPECT_EQ(nvtx->nvtxDomain, "physics");
    EXPECT_FALSE(nvtx->repeat);
    EXPECT_EQ(nvtx->delayNs, 2'000'000'000);
    EXPECT_EQ(nvtx->durationNs, 500'000'000);
    EXPECT_EQ(nvtx->describe(),
              "NVTX range 'solve' of domain 'physics', first range; after "
              "2.000 s; for 500.00 ms");

    const auto bad = parseCaptureRange("cudaProfilerAPI", "", "", "");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("none, cudaProfilerApi, nvtx:NAME"), std::string::npos);
    EXPECT_FALSE(parseCaptureRange("nvtx:", "", "", "").ok());
    EXPECT_FALSE(parseCaptureRange("cudaProfilerApi", "again", "", "").ok());
    EXPECT_FALSE(parseCaptureRange("none", "repeat", "", "").ok()) << "an end needs a range";
    EXPECT_FALSE(parseCaptureRange("", "", "-1", "").ok());
    EXPECT_FALSE(parseCaptureRange("", "", "2s", "").ok());
    EXPECT_FALSE(parseCaptureRange("", "", "", "0").ok());
}

// Warm-up, then two profiled parts between cudaProfilerStart/Stop, each with its NVTX range.
model::TracePtr profiledTrace() {
    test::HandTrace t;
    t.kernel(1, 100, 200, 50, "warmup");
    t.api("cudaProfilerStart_v4000", 1'000, 1'010);
    t.nvtx("solve", 1'020, 1'500);
    t.kernel(1, 1'300, 2'600, 1'100, "solve_kernel");  // runs past the stop
    t.api("cudaProfilerStop_v4000", 1'600, 1'610);
    t.kernel(1, 3'000, 3'100, 2'900, "between");
    t.api("cudaProfilerStart_v4000", 4'000, 4'010);
    t.nvtx("solve", 4'020, 4'500);
    t.kernel(1, 4'100, 4'200, 4'050, "solve_kernel");
    t.api("cudaProfilerStop_v4000", 4'600, 4'610);
    return t.finish();
}

TEST(CaptureRange, ProfilerSpansReachTheWorkLaunchedInside) {
    const auto trace = profiledTrace();
    const auto spans = profilerApiSpans(*trace, trace->spanNs());
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].startNs, 1'010);
    EXPECT_EQ(spans[0].endNs, 2'600);  // the stop came at 1'600; its kernel ran to 2'600
    EXPECT_EQ(spans[1].startNs, 4'010);
    EXPECT_EQ(spans[1].endNs, 4'600);
}

TEST(CaptureRange, FirstOrEveryWindowCutByDelayAndDuration) {
    const auto trace = profiledTrace();
    CaptureRange first;
    first.trigger = CaptureRange::Trigger::ProfilerApi;
    auto windows = captureWindows(*trace, first, 0, trace->spanNs());
    ASSERT_EQ(windows.size(), 1u);
    EXPECT_EQ(windows[0].endNs, 2'600);

    CaptureRange every = first;
    every.repeat = true;
    EXPECT_EQ(captureWindows(*trace, every, 0, trace->spanNs()).size(), 2u);
    every.delayNs = 3'000;  // the first span is over by then
    windows = captureWindows(*trace, every, 0, trace->spanNs());
    ASSERT_EQ(windows.size(), 1u);
    EXPECT_EQ(windows[0].startNs, 4'010);

    CaptureRange nvtx;
    nvtx.trigger = CaptureRange::Trigger::Nvtx;
    nvtx.nvtxName = "solve";
    nvtx.repeat = true;
    windows = captureWindows(*trace, nvtx, 0, trace->spanNs());
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_EQ(windows[0].startNs, 1'020);
    EXPECT_EQ(windows[0].endNs, 2'600);
    nvtx.nvtxDomain = "other";
    EXPECT_TRUE(captureWindows(*trace, nvtx, 0, trace->spanNs()).empty());

    CaptureRange timed;
    timed.delayNs = 500;
    timed.durationNs = 1'000;
    windows = captureWindows(*trace, timed, 100, trace->spanNs());
    ASSERT_EQ(windows.size(), 1u);
    EXPECT_EQ(windows[0].startNs, 600);
    EXPECT_EQ(windows[0].endNs, 1'600);
}

}  // namespace
}  // namespace wl::analysis
