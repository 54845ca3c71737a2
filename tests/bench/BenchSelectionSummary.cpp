// The summary of an area selection over the whole trace, as the Statistics dock's "Summary" page
// shows it: the slice summary (every kind of slice by name) and the top-down tree (nested NVTX
// ranges and CPU ops with the GPU time they launched). On a PyTorch profiler trace of 150k slices
// (Holistic Trace Analysis' hta_df_index_resolver.json.gz, from the external traces) and on a
// generated trace of about 1M slices; the whole analysis of the same window beside them, which
// the window computes in the same worker job.
#include <benchmark/benchmark.h>

#include <string>

#include "analysis/Analysis.h"
#include "analysis/SliceSummary.h"
#include "analysis/TopDown.h"
#include "io/TraceFile.h"
#include "support/TraceFactory.h"

namespace {

const std::string kPyTorchTrace =
    std::string(WARPLINE_EXTERNAL_TRACES_DIR) + "/hta_df_index_resolver.json.gz";

// Loaded once (a missing file: null, and every benchmark on it says so).
wl::model::TracePtr traceOf(int which) {
    static const wl::model::TracePtr pytorch = [] {
        auto loaded = wl::io::loadTrace(kPyTorchTrace);
        return loaded.ok() ? loaded.value() : nullptr;
    }();
    static const wl::model::TracePtr generated =
        wl::test::makeSyntheticTrace(wl::test::gpuOpsSpec(500'000));
    return which == 0 ? pytorch : generated;
}

// A selection of the whole trace (every row), as a drag from its start to its end gives.
wl::analysis::AnalysisWindow wholeTrace(const wl::model::Trace& trace) {
    wl::analysis::WindowRequest request;
    request.kind = wl::analysis::WindowRequest::Kind::Selection;
    request.time = {0, trace.spanNs()};
    return wl::analysis::resolveWindow(trace, request).value();
}

template <typename Run>
void onWholeTrace(benchmark::State& state, Run run) {
    const wl::model::TracePtr trace = traceOf(static_cast<int>(state.range(0)));
    if (!trace) {
        state.SkipWithError(("cannot read " + kPyTorchTrace).c_str());
        return;
    }
    const wl::analysis::AnalysisWindow window = wholeTrace(*trace);
    for (auto _ : state)
        run(state, *trace, window);
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
}

void BM_SliceSummary(benchmark::State& state) {
    onWholeTrace(state, [](benchmark::State& s, const wl::model::Trace& trace,
                           const wl::analysis::AnalysisWindow& window) {
        const wl::analysis::SliceSummary summary = wl::analysis::sliceSummary(trace, window);
        s.counters["lines"] = static_cast<double>(summary.rows.size());
        benchmark::DoNotOptimize(summary.rows.data());
    });
}

void BM_TopDown(benchmark::State& state) {
    onWholeTrace(state, [](benchmark::State& s, const wl::model::Trace& trace,
                           const wl::analysis::AnalysisWindow& window) {
        const wl::analysis::TopDown tree = wl::analysis::topDown(trace, window);
        s.counters["nodes"] = static_cast<double>(tree.nodes.size());
        benchmark::DoNotOptimize(tree.nodes.data());
    });
}

// The rest of what the worker does for the same selection (busy/idle, statistics, rules).
void BM_AnalyzeSelection(benchmark::State& state) {
    onWholeTrace(state, [](benchmark::State&, const wl::model::Trace& trace,
                           const wl::analysis::AnalysisWindow& window) {
        const wl::analysis::AnalysisResult r = wl::analysis::analyzeTrace(trace, {}, window);
        benchmark::DoNotOptimize(r.utilization.busyNs);
    });
}

// Arg 0: the PyTorch profiler trace; 1: the generated one.
BENCHMARK(BM_SliceSummary)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopDown)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AnalyzeSelection)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
