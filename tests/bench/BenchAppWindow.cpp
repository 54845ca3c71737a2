// What the window does when the user picks another analysis window (drags on the ruler, chooses
// "Analyse this range"): resolve the window, analyse it and build the timeline overlays
// (app::analyzeDocument, on a worker thread, given the analysis the document already has so its
// warp badges are kept), on a trace of about 1M slices whose 400k kernels each have a launch
// configuration of their own. The budget for this is 200 ms.
#include <benchmark/benchmark.h>

#include "app/gui/DocumentAnalysis.h"
#include "support/TraceFactory.h"

namespace {

using wl::analysis::WindowRequest;

// Arg 0: a tenth of the trace (a typical ruler selection); 1: every NVTX "compute" range (5k
// parts); 2: the default window (the whole trace) with no earlier analysis, as when a trace
// opens, for reference.
void BM_AnalyzeDocumentWindow(benchmark::State& state) {
    const auto trace = wl::test::makeSyntheticTrace(wl::test::gpuOpsSpec(500'000));
    WindowRequest request;
    if (state.range(0) == 0) {
        request.kind = WindowRequest::Kind::Selection;
        request.time = {trace->spanNs() / 2, trace->spanNs() / 2 + trace->spanNs() / 10};
    } else if (state.range(0) == 1) {
        request.kind = WindowRequest::Kind::NvtxRange;
        request.rangeName = "compute";
    }
    const auto opened = state.range(0) == 2 ? nullptr : wl::app::analyzeDocument(*trace, {});
    std::size_t diagnostics = 0;
    for (auto _ : state) {
        const auto doc = wl::app::analyzeDocument(*trace, {}, request, opened);
        diagnostics = doc->result->diagnostics.size();
        benchmark::DoNotOptimize(doc->overlays.gaps.data());
    }
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
    state.counters["diagnostics"] = static_cast<double>(diagnostics);
}

BENCHMARK(BM_AnalyzeDocumentWindow)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
