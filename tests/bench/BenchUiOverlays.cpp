// Building the timeline's overlays (idle gaps, per-kernel warp badges) from an analysis of about
// 1M slices: the window does this off the UI thread for every document it opens.
#include <benchmark/benchmark.h>

#include "analysis/Analysis.h"
#include "support/TraceFactory.h"
#include "ui/analysis/AnalysisOverlays.h"

namespace {

void BM_MakeOverlays(benchmark::State& state) {
    const auto trace = wl::test::makeSyntheticTrace(
        wl::test::gpuOpsSpec(static_cast<std::size_t>(state.range(0))));
    const wl::analysis::AnalysisResult result = wl::analysis::analyzeTrace(*trace);
    std::size_t badges = 0;
    for (auto _ : state) {
        const wl::ui::TimelineOverlays overlays = wl::ui::makeOverlays(*trace, result);
        badges = overlays.kernelBadges->size();
        benchmark::DoNotOptimize(overlays.gaps.data());
    }
    state.counters["kernel badges"] = static_cast<double>(badges);
}

// 500k GPU ops (400k kernels) + their launch calls: about 1.0M slices.
BENCHMARK(BM_MakeOverlays)->Arg(500'000)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
