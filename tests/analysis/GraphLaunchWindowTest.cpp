#include <gtest/gtest.h>

#include <string>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

constexpr model::TimeNs kUs = model::kNsPerUs;
constexpr model::TimeNs kMs = model::kNsPerMs;

// A training step captured as a CUDA graph and replayed, as torch.cuda.graph runs it: three eager
// warm-up steps of the step's three kernels, the capture and instantiation, 40 ms of lazy module
// loading, then kReplays launches of the graph (one every 300 us; each runs the three kernels,
// 60 us each, 20 us after the call).
struct ReplayLoop {
    static constexpr int kWarmUpSteps = 3;
    static constexpr int kReplays = 50;
    static constexpr model::TimeNs kPeriodNs = 300 * kUs;
    static constexpr model::TimeNs kReplaysNs = 60 * kMs;
    static constexpr model::TimeNs kKernelNs = 60 * kUs;

    test::HandTrace t;
    model::TrackIndex stream = t.stream(7);

    explicit ReplayLoop(std::uint32_t graphId = 2, model::TimeNs firstLaunchExtraNs = 0) {
        const char* names[] = {"gemm", "relu", "sgd"};
        for (int step = 0; step < kWarmUpSteps; ++step) {
            for (int k = 0; k < 3; ++k) {
                const model::TimeNs at = step * kMs + k * 100 * kUs;
                t.kernel(7, at + 10 * kUs, at + 10 * kUs + kKernelNs, at, names[k]);
            }
        }
        t.api("cudaStreamBeginCapture_v10000", 5 * kMs, 5 * kMs + 10 * kUs);
        t.api("cudaStreamEndCapture_v10000", 6 * kMs, 6 * kMs + 10 * kUs);
        t.api("cudaGraphInstantiateWithFlags_v11040", 7 * kMs, 8 * kMs);
        t.builder().addSlice(t.builder().hostApiTrack(0, 1), 10 * kMs, 50 * kMs, "Module loading",
                             model::SliceKind::Overhead);
        for (int i = 0; i < kReplays; ++i) {
            const model::TimeNs extra = i == 0 ? firstLaunchExtraNs : 0;
            const model::TimeNs at = kReplaysNs + i * kPeriodNs + (i == 0 ? 0 : firstLaunchExtraNs);
            const std::uint64_t launch = t.api("cudaGraphLaunch_v10000", at, at + 15 * kUs);
            for (int k = 0; k < 3; ++k) {
                model::KernelDetail d;
                d.graph.graphId = graphId;
                d.graph.nodeId = static_cast<std::uint64_t>(k + 1);
                const model::TimeNs start = at + extra + 20 * kUs + k * kKernelNs;
                t.builder().addKernel(stream, start, start + kKernelNs, names[k], launch, d);
            }
        }
    }

    static model::TimeNs firstNodeNs() { return kReplaysNs + 20 * kUs; }
    static model::TimeNs lastNodeEndNs(model::TimeNs firstLaunchExtraNs = 0) {
        return kReplaysNs + firstLaunchExtraNs + (kReplays - 1) * kPeriodNs + 20 * kUs +
               3 * kKernelNs;
    }
};

TEST(GraphLaunchWindow, TheReplaysOfACapturedStepAreTheIterations) {
    ReplayLoop loop;
    const auto trace = loop.t.finish();
    const auto w = resolveWindow(*trace);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::GraphLaunches);
    EXPECT_EQ(w->name, "CUDA graph 2");
    EXPECT_EQ(w->instance, ReplayLoop::kReplays);
    ASSERT_EQ(w->parts.size(), 1u);
    EXPECT_EQ(w->parts[0],
              (model::TimeRange{ReplayLoop::firstNodeNs(), ReplayLoop::lastNodeEndNs()}));
    EXPECT_EQ(describeWindow(*w), "50 launches of CUDA graph 2 (14.88 ms)");
    // The eager warm-up, the capture and the module loading are start-up.
    ASSERT_EQ(w->leftOut.size(), 1u);
    EXPECT_EQ(w->leftOut[0].kind, LeftOut::Kind::StartUp);
    EXPECT_EQ(w->leftOut[0].range, (model::TimeRange{10 * kUs, ReplayLoop::firstNodeNs()}));
    EXPECT_EQ(describeLeftOut(w->leftOut[0]),
              "start-up: 60.01 ms before the graph launches, not analysed");

    // The replays keep the GPU busy 180 of every 300 us; the start-up's 60 ms of mostly idle GPU
    // would have made the loop look host-bound.
    const AnalysisResult r = analyzeTrace(*trace, {}, *w);
    ASSERT_EQ(r.utilization.devices.size(), 1u);
    EXPECT_EQ(r.utilization.devices[0].busyNs, ReplayLoop::kReplays * 3 * ReplayLoop::kKernelNs);
}

TEST(GraphLaunchWindow, WithoutGraphIdsAGraphIsKnownByWhatItsLaunchesRun) {
    // Kineto writes no graph id: the launches of one graph run the same number of ops, starting
    // with the same kernel.
    ReplayLoop loop(0);
    const auto w = resolveWindow(*loop.t.finish());
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::GraphLaunches);
    EXPECT_EQ(w->name, "CUDA graph");
    EXPECT_EQ(w->instance, ReplayLoop::kReplays);
    EXPECT_EQ(w->startNs(), ReplayLoop::firstNodeNs());
}

TEST(GraphLaunchWindow, AFirstLaunchThatUploadsTheGraphIsWarmUp) {
    // The first launch uploads the executable graph (10 ms before its nodes run).
    ReplayLoop loop(2, 10 * kMs);
    const auto w = resolveWindow(*loop.t.finish());
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::GraphLaunches);
    EXPECT_EQ(w->instance, ReplayLoop::kReplays - 1);
    ASSERT_EQ(w->leftOut.size(), 2u);
    EXPECT_EQ(w->leftOut[1].kind, LeftOut::Kind::WarmUp);
    EXPECT_EQ(w->leftOut[1].name, "launch 1 of CUDA graph 2");
    EXPECT_EQ(w->startNs(), ReplayLoop::kReplaysNs + 10 * kMs + ReplayLoop::kPeriodNs + 20 * kUs);
    EXPECT_EQ(w->endNs(), ReplayLoop::lastNodeEndNs(10 * kMs));
}

TEST(GraphLaunchWindow, GraphsLaunchedAFewTimesEachAreNoLoop) {
    // NVIDIA's simpleCudaGraphs: four graphs made in four ways, each launched 3 times.
    test::HandTrace few;
    for (std::uint32_t graph = 1; graph <= 4; ++graph) {
        for (int i = 0; i < 3; ++i) {
            const model::TimeNs at = (graph * 3 + i) * kMs;
            const std::uint64_t launch = few.api("cudaGraphLaunch", at, at + 10 * kUs);
            model::KernelDetail d;
            d.graph.graphId = graph;
            few.builder().addKernel(few.stream(1), at + 20 * kUs, at + 90 * kUs, "k", launch, d);
        }
    }
    EXPECT_FALSE(graphLaunchWindow(*few.finish()).has_value());
}

TEST(GraphLaunchWindow, TwoGraphsLaunchedOncePerStepAreOneLoop) {
    // A compiled model's forward and backward graphs, one launch of each per step; an eager step
    // before them.
    test::HandTrace t;
    t.kernel(1, 0, 100 * kUs, -1, "eager");
    for (int step = 0; step < 20; ++step) {
        for (std::uint32_t graph : {3u, 4u}) {
            const model::TimeNs at = kMs + step * 400 * kUs + (graph - 3) * 200 * kUs;
            const std::uint64_t launch = t.api("cudaGraphLaunch", at, at + 10 * kUs);
            model::KernelDetail d;
            d.graph.graphId = graph;
            t.builder().addKernel(t.stream(1), at + 20 * kUs, at + 150 * kUs,
                                  graph == 3 ? "forward" : "backward", launch, d);
        }
    }
    const auto w = graphLaunchWindow(*t.finish());
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->name, "CUDA graphs 3, 4");
    EXPECT_EQ(w->instance, 20);
    EXPECT_EQ(w->startNs(), kMs + 20 * kUs);
    EXPECT_EQ(w->endNs(), kMs + 19 * 400 * kUs + 200 * kUs + 150 * kUs);
}

TEST(GraphLaunchWindow, NvtxIterationsComeFirst) {
    ReplayLoop marked;
    for (int step = 0; step < 5; ++step) {
        const model::TimeNs at = ReplayLoop::kReplaysNs + step * 10 * ReplayLoop::kPeriodNs;
        marked.t.nvtx("step " + std::to_string(step), at, at + 10 * ReplayLoop::kPeriodNs);
    }
    const auto w = resolveWindow(*marked.t.finish());
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w->source, WindowSource::Iterations);
}

}  // namespace
}  // namespace wl::analysis
