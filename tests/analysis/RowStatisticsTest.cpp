// The area-selection summary: each row's ops, busy time and copies inside a window, and totals.
#include <gtest/gtest.h>

#include "HandTrace.h"
#include "SelectionWindow.h"
#include "analysis/Analysis.h"
#include "analysis/GpuOps.h"
#include "analysis/RowStatistics.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

// Stream 1: kernel [0, 100), copy HtoD [100, 300) of 2,000 bytes. Stream 2: kernel [50, 250),
// kernel [400, 500). Host: the launches and the copy call (cudaMemcpyAsync [90, 95)).
model::TracePtr twoStreams() {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1);
    t.copy(1, 100, 300, CopyKind::HostToDevice, 2'000, 90, 95);
    t.kernel(2, 50, 250, -1);
    t.kernel(2, 400, 500, 380);  // launched by cudaLaunchKernel [380, 385)
    return t.finish();
}

AnalysisWindow timeWindow(const model::Trace& trace, model::TimeNs from, model::TimeNs to) {
    WindowRequest request;
    request.kind = WindowRequest::Kind::Selection;
    request.time = {from, to};
    auto window = resolveWindow(trace, request);
    EXPECT_TRUE(window.ok());
    return window.value();
}

const RowStats* rowOf(const RowSummary& s, model::TrackIndex track) {
    for (const RowStats& r : s.rows)
        if (r.track == track)
            return &r;
    return nullptr;
}

using test::streamTrack;

TEST(RowSummary, ExactPerRowAndInTotal) {
    const auto trace = twoStreams();
    // [80, 420): stream 1's kernel from 80, its whole copy; stream 2's first kernel, 20 ns of its
    // second; the host's copy call and the kernel launch at 380.
    const AnalysisWindow window = timeWindow(*trace, 80, 420);
    const RowSummary s = rowSummary(*trace, GpuOps(*trace, &window), window);

    const RowStats* s1 = rowOf(s, streamTrack(*trace, 1));
    ASSERT_NE(s1, nullptr);
    EXPECT_EQ(s1->ops, 2u);
    EXPECT_EQ(s1->kernels, 1u);
    EXPECT_EQ(s1->copies, 1u);
    EXPECT_EQ(s1->busyNs, 220);  // [80, 300)
    EXPECT_EQ(s1->copyBytes, 2'000u);
    EXPECT_EQ(s1->copyNs, 200);
    EXPECT_DOUBLE_EQ(s1->copyGbPerSecond(), 10.0);

    const RowStats* s2 = rowOf(s, streamTrack(*trace, 2));
    ASSERT_NE(s2, nullptr);
    EXPECT_EQ(s2->ops, 2u);
    EXPECT_EQ(s2->kernels, 2u);
    EXPECT_EQ(s2->busyNs, 190);  // [80, 250) and [400, 420)
    EXPECT_EQ(s2->copyBytes, 0u);

    // The GPU total is the union: [80, 300) and [400, 420), not the 440 ns sum.
    EXPECT_EQ(s.gpuTotal.busyNs, 240);
    EXPECT_EQ(s.gpuTotal.ops, 4u);
    EXPECT_EQ(s.gpuTotal.kernels, 3u);
    EXPECT_EQ(s.gpuTotal.copyBytes, 2'000u);

    // The host thread: the copy call [90, 95) and the launch [380, 385) are in; nothing else.
    ASSERT_EQ(s.rows.size(), 3u);
    const RowStats& host = s.rows.back();
    EXPECT_EQ(trace->track(host.track).kind, model::TrackKind::HostApi);
    EXPECT_EQ(host.ops, 2u);
    EXPECT_EQ(host.busyNs, 10);
    EXPECT_EQ(s.hostTotal.ops, 2u);
    EXPECT_EQ(s.hostTotal.busyNs, 10);
}

TEST(RowSummary, RowsWithNothingInTheWindowAreLeftOut) {
    const auto trace = twoStreams();
    const AnalysisWindow window = timeWindow(*trace, 420, 480);
    const RowSummary s = rowSummary(*trace, GpuOps(*trace, &window), window);
    ASSERT_EQ(s.rows.size(), 1u);  // stream 2's second kernel; no host call, nothing on stream 1
    EXPECT_EQ(s.rows[0].track, streamTrack(*trace, 2));
    EXPECT_EQ(s.rows[0].busyNs, 60);
    EXPECT_EQ(s.gpuTotal.busyNs, 60);
    EXPECT_EQ(s.hostTotal.ops, 0u);
}

TEST(RowSummary, ASelectionOfSomeRowsSumsOnlyThem) {
    const auto trace = twoStreams();
    WindowRequest request;
    request.kind = WindowRequest::Kind::Selection;
    request.time = {80, 420};
    request.tracks = {streamTrack(*trace, 2), streamTrack(*trace, 2)};  // repeated: once
    const auto window = resolveWindow(*trace, request);
    ASSERT_TRUE(window.ok());
    EXPECT_EQ(window.value().tracks.size(), 1u);
    EXPECT_EQ(describeWindow(window.value()), "selection 80 ns to 420 ns (340 ns), 1 row");
    const RowSummary s = rowSummary(*trace, GpuOps(*trace, &window.value()), window.value());
    ASSERT_EQ(s.rows.size(), 1u);  // stream 2 only: neither stream 1 nor the host thread
    EXPECT_EQ(s.rows[0].track, streamTrack(*trace, 2));
    EXPECT_EQ(s.gpuTotal.busyNs, 190);
    EXPECT_EQ(s.gpuTotal.ops, 2u);
    EXPECT_EQ(s.gpuTotal.copyBytes, 0u);
    EXPECT_EQ(s.hostTotal.ops, 0u);
}

TEST(RowSummary, ASelectionOfOneStreamGivesOneSetOfFigures) {
    // A shift-drag inside stream 2's row: the busy share, the kernels table, the row summary and
    // the idle time all describe stream 2 (two kernels, 190 ns busy of 340 ns), not the GPU.
    const auto trace = twoStreams();
    WindowRequest request;
    request.kind = WindowRequest::Kind::Selection;
    request.time = {80, 420};
    request.tracks = {streamTrack(*trace, 2)};
    const auto window = resolveWindow(*trace, request);
    ASSERT_TRUE(window.ok());
    const AnalysisResult r = analyzeTrace(*trace, {}, window.value());
    ASSERT_EQ(r.utilization.devices.size(), 1u);
    EXPECT_EQ(r.utilization.devices[0].busyNs, 190);
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * 190 / 340, 1e-9);
    EXPECT_EQ(r.statistics.rows.gpuTotal.busyNs, r.utilization.devices[0].busyNs);
    std::uint64_t kernels = 0;
    for (const KernelStats& k : r.statistics.kernels) {
        kernels += k.count;
    }
    EXPECT_EQ(kernels, 2u);
    EXPECT_EQ(r.statistics.copyBytes, 0u);  // stream 1's copy is not in the selection
    // A selection of host rows only does not narrow the GPU's work.
    request.tracks = {};
    for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
        if (trace->track(t).kind == model::TrackKind::HostApi) {
            request.tracks.push_back(t);
        }
    }
    ASSERT_FALSE(request.tracks.empty());
    const AnalysisResult host = analyzeTrace(*trace, {}, resolveWindow(*trace, request).value());
    EXPECT_EQ(host.utilization.devices[0].busyNs, 240);  // both streams: [80, 300) and [400, 420)
}

TEST(RowSummary, AnOpCutByTwoPartsCountsOnce) {
    // Every instance of an NVTX range: two parts, [0, 60) and [200, 260), both inside the copy.
    test::HandTrace t;
    t.copy(1, 0, 300, CopyKind::DeviceToHost, 3'000, -1, -1);
    t.nvtx("step", 0, 60);
    t.nvtx("step", 200, 260);
    const auto trace = t.finish();
    WindowRequest request;
    request.kind = WindowRequest::Kind::NvtxRange;
    request.rangeName = "step";
    const auto window = resolveWindow(*trace, request);
    ASSERT_TRUE(window.ok()) << window.error().message;
    const RowSummary s = rowSummary(*trace, GpuOps(*trace, &window.value()), window.value());
    ASSERT_EQ(s.rows.size(), 1u);
    EXPECT_EQ(s.rows[0].ops, 1u);
    EXPECT_EQ(s.rows[0].copies, 1u);
    EXPECT_EQ(s.rows[0].copyBytes, 3'000u);
    EXPECT_EQ(s.rows[0].busyNs, 120);
    EXPECT_EQ(s.rows[0].copyNs, 120);
}

}  // namespace
}  // namespace wl::analysis
