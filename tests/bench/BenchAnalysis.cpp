// Analysis time on generated traces: the whole analyzeTrace() (busy/idle, gaps and causes,
// overlap, occupancy, statistics, every rule) over about 1M and 10M slices, over the whole trace
// and over windows (a time range, every instance of an NVTX range name).
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

// Over a window: the time range [1/4, 3/4] of the trace (arg 1 = 0), or every instance of the
// NVTX range "compute" (arg 1 = 1: thousands of short disjoint parts, the worst case for
// clipping).
void BM_AnalyzeTraceWindow(benchmark::State& state) {
    const auto trace = traceOf(static_cast<std::size_t>(state.range(0)));
    wl::analysis::WindowRequest request;
    if (state.range(1) == 0) {
        request.kind = wl::analysis::WindowRequest::Kind::Time;
        request.time = {trace->spanNs() / 4, trace->spanNs() * 3 / 4};
    } else {
        request.kind = wl::analysis::WindowRequest::Kind::NvtxRange;
        request.rangeName = "compute";
    }
    std::size_t diagnostics = 0;
    std::size_t parts = 0;
    for (auto _ : state) {
        // Resolving is part of what a window change costs.
        const auto window = wl::analysis::resolveWindow(*trace, request);
        if (!window.ok()) {
            state.SkipWithError(window.error().describe().c_str());
            return;
        }
        const wl::analysis::AnalysisResult r =
            wl::analysis::analyzeTrace(*trace, {}, window.value());
        diagnostics = r.diagnostics.size();
        parts = window.value().parts.size();
        benchmark::DoNotOptimize(r.utilization.busyNs);
    }
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
    state.counters["parts"] = static_cast<double>(parts);
    state.counters["diagnostics"] = static_cast<double>(diagnostics);
}

// 500k GPU ops + their 500k launch calls + syncs + NVTX: about 1.0M slices; 5M ops: about 10M.
BENCHMARK(BM_AnalyzeTrace)->Arg(500'000)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_AnalyzeTrace)->Arg(5'000'000)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_AnalyzeTraceWindow)
    ->Args({500'000, 0})
    ->Args({500'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);
BENCHMARK(BM_AnalyzeTraceWindow)
    ->Args({5'000'000, 0})
    ->Args({5'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
