// Analysis time on generated traces: the whole analyzeTrace() (busy/idle, gaps and causes,
// overlap, occupancy, statistics, every rule) over about 1M and 10M slices.
#include <benchmark/benchmark.h>

#include "analysis/Analysis.h"
#include "support/TraceFactory.h"

namespace {

wl::model::TracePtr traceOf(std::size_t gpuOps) {
    return wl::test::makeSyntheticTrace(wl::test::gpuOpsSpec(gpuOps));
}

void BM_AnalyzeTrace(benchmark::State& state) {
    const auto trace = traceOf(static_cast<std::size_t>(state.range(0)));
    std::size_t diagnostics = 0;
    for (auto _ : state) {
        const wl::analysis::AnalysisResult r = wl::analysis::analyzeTrace(*trace);
        diagnostics = r.diagnostics.size();
        benchmark::DoNotOptimize(r.utilization.busyNs);
    }
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
    state.counters["diagnostics"] = static_cast<double>(diagnostics);
    state.counters["slices/s"] = benchmark::Counter(static_cast<double>(trace->counts().slices),
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

// 500k GPU ops + their 500k launch calls + syncs + NVTX: about 1.0M slices; 5M ops: about 10M.
BENCHMARK(BM_AnalyzeTrace)->Arg(500'000)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_AnalyzeTrace)->Arg(5'000'000)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
