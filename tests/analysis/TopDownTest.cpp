// The top-down tree of an area selection: nested NVTX ranges and CPU ops of each host thread,
// merged by name path, with the GPU time their CUDA calls launched.
#include <gtest/gtest.h>

#include "HandTrace.h"
#include "SelectionWindow.h"
#include "analysis/TopDown.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

// "step/forward/aten::mm" as the names of the path from a root to `node`.
std::string pathOf(const model::Trace& trace, const TopDown& tree, std::uint32_t node) {
    std::string path(trace.str(tree.nodes[node].nameId));
    for (std::uint32_t p = tree.nodes[node].parent; p != kNoTopDownNode; p = tree.nodes[p].parent)
        path = std::string(trace.str(tree.nodes[p].nameId)) + "/" + path;
    return path;
}

const TopDownNode* nodeAt(const model::Trace& trace, const TopDown& tree, std::string_view path) {
    for (std::uint32_t i = 0; i < tree.nodes.size(); ++i)
        if (pathOf(trace, tree, i) == path)
            return &tree.nodes[i];
    return nullptr;
}

// Thread 1: NVTX "step" [0, 1000) holding "forward" [100, 500) and "backward" [500, 900); the
// CPU op "aten::mm" [150, 300) inside forward (another row of the thread). Launches: at 200 (in
// aten::mm) a kernel of 100 ns, at 600 (in backward) a kernel of 200 ns, at 1100 (outside every
// range) a kernel of 50 ns.
void addStep(test::HandTrace& t, model::TimeNs at) {
    t.nvtx("step", at, at + 1000);
    t.nvtx("forward", at + 100, at + 500);
    t.nvtx("backward", at + 500, at + 900);
    model::TraceBuilder& b = t.builder();
    b.addSlice(b.hostTrack(b.hostProcess(100), 1), at + 150, at + 300, "aten::mm",
               model::SliceKind::Other);
    t.kernel(1, at + 300, at + 400, at + 200, "gemm");
    t.kernel(1, at + 700, at + 900, at + 600, "gemm_backward");
}

model::TracePtr oneStep() {
    test::HandTrace t;
    addStep(t, 0);
    t.kernel(1, 1200, 1250, 1100, "tail");
    return t.finish();
}

TEST(TopDown, NestedRangesCarryTheGpuTimeTheirCallsLaunched) {
    const auto trace = oneStep();
    const TopDown tree = topDown(*trace, test::selectionOf({{0, 2000}}));
    ASSERT_EQ(tree.nodes.size(), 4u);
    ASSERT_EQ(tree.rootCount, 1u);

    const TopDownNode* step = nodeAt(*trace, tree, "step");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->kind, SummaryKind::Nvtx);
    EXPECT_EQ(step->count, 1u);
    EXPECT_EQ(step->hostNs, 1000);
    EXPECT_EQ(step->gpuNs, 300);  // inclusive: both kernels launched inside it
    EXPECT_EQ(step->gpuOps, 2u);
    EXPECT_EQ(step->childCount, 2u);

    const TopDownNode* mm = nodeAt(*trace, tree, "step/forward/aten::mm");
    ASSERT_NE(mm, nullptr);
    EXPECT_EQ(mm->kind, SummaryKind::CpuOp);
    EXPECT_EQ(mm->hostNs, 150);
    EXPECT_EQ(mm->gpuNs, 100);
    EXPECT_EQ(nodeAt(*trace, tree, "step/forward")->gpuNs, 100);
    EXPECT_EQ(nodeAt(*trace, tree, "step/backward")->gpuNs, 200);
    EXPECT_EQ(nodeAt(*trace, tree, "step/backward")->hostNs, 400);

    // The launch at 1100 lies outside every range.
    EXPECT_EQ(tree.gpuNs, 350);
    EXPECT_EQ(tree.gpuOps, 3u);
    EXPECT_EQ(tree.outsideGpuNs, 50);
    EXPECT_EQ(tree.outsideGpuOps, 1u);
}

TEST(TopDown, SiblingsAreContiguousLongestFirstAndPointToTheirParent) {
    test::HandTrace t;
    t.nvtx("init", 0, 50);
    t.nvtx("step", 100, 1100);
    t.nvtx("short", 200, 300);
    t.nvtx("long", 400, 800);
    t.kernel(1, 500, 600, 450, "k");
    const auto trace = t.finish();
    const TopDown tree = topDown(*trace, test::selectionOf({{0, 2000}}));
    ASSERT_EQ(tree.nodes.size(), 4u);
    for (std::uint32_t i = 0; i < tree.nodes.size(); ++i) {
        const TopDownNode& n = tree.nodes[i];
        for (std::uint32_t c = n.firstChild; c < n.firstChild + n.childCount; ++c)
            EXPECT_EQ(tree.nodes[c].parent, i);
        EXPECT_EQ(n.parent == kNoTopDownNode, i < tree.rootCount);
    }
    ASSERT_EQ(tree.rootCount, 2u);
    EXPECT_EQ(trace->str(tree.nodes[0].nameId), "step");
    EXPECT_EQ(trace->str(tree.nodes[1].nameId), "init");
    const TopDownNode& step = tree.nodes[0];
    ASSERT_EQ(step.childCount, 2u);
    EXPECT_EQ(trace->str(tree.nodes[step.firstChild].nameId), "long");
    EXPECT_EQ(tree.nodes[step.firstChild].gpuNs, 100);
    EXPECT_EQ(trace->str(tree.nodes[step.firstChild + 1].nameId), "short");
}

TEST(TopDown, InstancesOfOnePathAreOneNode) {
    test::HandTrace t;
    addStep(t, 0);
    addStep(t, 2000);
    const auto trace = t.finish();
    const TopDown tree = topDown(*trace, test::selectionOf({{0, 4000}}));
    ASSERT_EQ(tree.nodes.size(), 4u);
    const TopDownNode* step = nodeAt(*trace, tree, "step");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->count, 2u);
    EXPECT_EQ(step->hostNs, 2000);
    EXPECT_EQ(step->gpuNs, 600);
    EXPECT_EQ(nodeAt(*trace, tree, "step/forward/aten::mm")->count, 2u);
}

TEST(TopDown, RangesOnTheGpuAreNotCountedAgain) {
    test::HandTrace t;
    addStep(t, 0);
    // A producer's annotation of the step on the GPU's row.
    model::TraceBuilder& b = t.builder();
    b.addNvtx(b.nvtxTrack(b.gpuProcess(0), 7), 300, 900, "step", {});
    const auto trace = t.finish();
    // finalize() projected the host's ranges on the GPU too.
    ASSERT_FALSE(
        trace->track(test::firstTrackOf(*trace, model::TrackKind::NvtxProjection)).slices.empty());
    const TopDown tree = topDown(*trace, test::selectionOf({{0, 2000}}));
    ASSERT_EQ(tree.rootCount, 1u);
    EXPECT_EQ(tree.nodes.size(), 4u);
    EXPECT_EQ(nodeAt(*trace, tree, "step")->count, 1u);
    EXPECT_EQ(nodeAt(*trace, tree, "step")->gpuNs, 300);
}

TEST(TopDown, ClippedToTheWindowWithTheCallsInsideIt) {
    const auto trace = oneStep();
    // [550, 1150): step and backward in part; forward and aten::mm not at all; the launches at 600
    // and 1100 (their kernels whole, though the one at 1200 runs after the window).
    const TopDown tree = topDown(*trace, test::selectionOf({{550, 1150}}));
    ASSERT_EQ(tree.nodes.size(), 2u);
    EXPECT_EQ(nodeAt(*trace, tree, "step")->hostNs, 450);
    EXPECT_EQ(nodeAt(*trace, tree, "step/backward")->hostNs, 350);
    EXPECT_EQ(nodeAt(*trace, tree, "step/backward")->gpuNs, 200);
    EXPECT_EQ(nodeAt(*trace, tree, "step/forward"), nullptr);
    EXPECT_EQ(tree.outsideGpuNs, 50);
    EXPECT_EQ(tree.gpuNs, 250);
    // A call that started before the window ([200, 205) from 203) launched before it: out.
    const TopDown late = topDown(*trace, test::selectionOf({{203, 2000}}));
    EXPECT_EQ(nodeAt(*trace, late, "step/forward/aten::mm")->gpuNs, 0);
    EXPECT_EQ(late.gpuNs, 250);
}

TEST(TopDown, ASelectionOfTheNvtxRowLeavesTheCpuOpsOut) {
    const auto trace = oneStep();
    const TopDown tree = topDown(
        *trace,
        test::selectionOf({{0, 2000}}, {test::firstTrackOf(*trace, model::TrackKind::Nvtx)}));
    ASSERT_EQ(tree.nodes.size(), 3u);
    EXPECT_EQ(nodeAt(*trace, tree, "step/forward/aten::mm"), nullptr);
    // The launch inside aten::mm is now forward's own, though the API row is not selected.
    EXPECT_EQ(nodeAt(*trace, tree, "step/forward")->gpuNs, 100);
    // Only the CUDA API row: no ranges, no tree.
    EXPECT_TRUE(
        topDown(*trace, test::selectionOf({{0, 2000}},
                                          {test::firstTrackOf(*trace, model::TrackKind::HostApi)}))
            .nodes.empty());
}

TEST(TopDown, AGraphLaunchCountsEveryNodeItRan) {
    test::HandTrace t;
    t.nvtx("replay", 0, 100);
    const std::uint64_t launch = t.api("cudaGraphLaunch_v10000", 10, 20);
    t.builder().addKernel(t.stream(1), 30, 60, "node_a", launch, {});
    t.builder().addKernel(t.stream(1), 60, 100, "node_b", launch, {});
    const auto trace = t.finish();
    const TopDown tree = topDown(*trace, test::selectionOf({{0, 200}}));
    ASSERT_EQ(tree.nodes.size(), 1u);
    EXPECT_EQ(tree.nodes[0].gpuOps, 2u);
    EXPECT_EQ(tree.nodes[0].gpuNs, 70);
}

}  // namespace
}  // namespace wl::analysis
