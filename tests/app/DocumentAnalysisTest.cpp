// The window's analysis of a selection carries the rest of the area-selection summary (the slice
// summary and the top-down tree) for the Statistics dock, computed on the same worker.
#include <gtest/gtest.h>

#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "app/gui/DocumentAnalysis.h"

namespace wl::app {
namespace {

TEST(DocumentAnalysis, ASelectionCarriesItsSliceSummaryAndTopDownTree) {
    test::HandTrace t;
    t.nvtx("step", 0, 1'000);
    t.kernel(1, 200, 500, 100, "k");  // launched inside "step" at [100, 105)
    t.kernel(1, 600, 900, 550, "k");
    const auto trace = t.finish();

    analysis::WindowRequest request;
    request.kind = analysis::WindowRequest::Kind::Selection;
    request.time = {0, 550};
    const auto analysis = analyzeDocument(*trace, {}, request);
    ASSERT_NE(analysis->result, nullptr);
    const analysis::Statistics& s = analysis->result->statistics;
    // In [0, 550): the first kernel whole, the NVTX range's first 550 ns, the first launch.
    ASSERT_FALSE(s.slices.rows.empty());
    EXPECT_EQ(s.slices.rows.front().kind, analysis::SummaryKind::Nvtx);
    EXPECT_EQ(s.slices.rows.front().totalNs, 550);
    EXPECT_EQ(s.slices.slices, 3u);
    ASSERT_EQ(s.topDown.nodes.size(), 1u);
    EXPECT_EQ(s.topDown.nodes[0].gpuNs, 300);
}

}  // namespace
}  // namespace wl::app
