// The Summary of a real trace (analysis::computeSummary: iterations and their parts, utilisation
// over time, operators, memory, ranks), after the analysis it starts from, over the default window
// and over the whole trace; beside them the whole analysis (analyzeTrace) of the same window, which
// the window computes first in the same worker job, and the kernel table alone
// (computeStatistics, which the Summary's kernel figures made longer).
//
//   BenchSummary [TRACE] [--benchmark_...]
//
// TRACE: a trace file (JSON, .json.gz, an Nsight Systems export), else $WARPLINE_SUMMARY_TRACE,
// else Holistic Trace Analysis' hta_df_index_resolver.json.gz from the external traces. It is
// loaded once, before the timings. Arg 2 of each benchmark is a generated trace of about 1M slices
// instead (support/TraceFactory gpuOpsSpec(500'000), its whole span).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/GpuOps.h"
#include "analysis/Summary.h"
#include "io/TraceFile.h"
#include "support/TraceFactory.h"

namespace {

std::string g_path;
wl::model::TracePtr g_loaded;

// Arg 0: the loaded trace's default window; 1: its whole trace; 2: the generated trace, whole.
const wl::model::Trace& traceOf(int which) {
    if (which == 2) {
        static const wl::model::TracePtr generated =
            wl::test::makeSyntheticTrace(wl::test::gpuOpsSpec(500'000));
        return *generated;
    }
    return *g_loaded;
}

wl::analysis::AnalysisWindow windowOf(int which) {
    wl::analysis::WindowRequest request;
    if (which != 0)
        request.kind = wl::analysis::WindowRequest::Kind::WholeTrace;
    const auto window = wl::analysis::resolveWindow(traceOf(which), request);
    return window.ok() ? window.value() : wl::analysis::AnalysisWindow{};
}

void counters(benchmark::State& state, const wl::model::Trace& trace,
              const wl::analysis::AnalysisWindow& window) {
    state.counters["slices"] = static_cast<double>(trace.counts().slices);
    state.counters["window_ms"] = static_cast<double>(window.durationNs()) / 1e6;
    state.SetLabel(wl::analysis::describeWindow(window));
}

// Arg: 0 the default window, 1 the whole trace.
void BM_Summary(benchmark::State& state) {
    const wl::model::Trace& trace = traceOf(static_cast<int>(state.range(0)));
    const wl::analysis::AnalysisWindow window = windowOf(static_cast<int>(state.range(0)));
    const wl::analysis::AnalysisResult result = wl::analysis::analyzeTrace(trace, {}, window);
    std::size_t iterations = 0;
    std::size_t operators = 0;
    for (auto _ : state) {
        const auto summary = wl::analysis::computeSummary(trace, result);
        iterations = summary->iterations.size();
        operators = summary->operators.byName.size();
        benchmark::DoNotOptimize(summary->utilization.busyPct.data());
    }
    counters(state, trace, window);
    state.counters["iterations"] = static_cast<double>(iterations);
    state.counters["operators"] = static_cast<double>(operators);
}

void BM_AnalyzeTrace(benchmark::State& state) {
    const wl::model::Trace& trace = traceOf(static_cast<int>(state.range(0)));
    const wl::analysis::AnalysisWindow window = windowOf(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const wl::analysis::AnalysisResult r = wl::analysis::analyzeTrace(trace, {}, window);
        benchmark::DoNotOptimize(r.utilization.busyNs);
    }
    counters(state, trace, window);
}

void BM_KernelTable(benchmark::State& state) {
    const wl::model::Trace& trace = traceOf(static_cast<int>(state.range(0)));
    const wl::analysis::AnalysisWindow window = windowOf(static_cast<int>(state.range(0)));
    const wl::analysis::GpuOps ops(trace, &window);
    for (auto _ : state) {
        const wl::analysis::Statistics s = wl::analysis::computeStatistics(trace, ops, window);
        benchmark::DoNotOptimize(s.kernels.data());
    }
    counters(state, trace, window);
}

BENCHMARK(BM_Summary)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_AnalyzeTrace)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_KernelTable)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

int main(int argc, char** argv) {
    // The trace: the first argument that is no benchmark flag, else the environment, else the
    // external traces' PyTorch profiler trace.
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        if (g_path.empty() && std::string(argv[i]).rfind("--", 0) != 0) {
            g_path = argv[i];
        } else {
            rest.push_back(argv[i]);
        }
    }
    if (g_path.empty()) {
        const char* env = std::getenv("WARPLINE_SUMMARY_TRACE");
        g_path = env != nullptr && *env != '\0'
                     ? env
                     : std::string(WARPLINE_EXTERNAL_TRACES_DIR) + "/hta_df_index_resolver.json.gz";
    }
    const auto start = std::chrono::steady_clock::now();
    auto loaded = wl::io::loadTrace(g_path);
    if (!loaded.ok()) {
        std::fprintf(stderr, "BenchSummary: %s\n", loaded.error().describe().c_str());
        return 2;
    }
    g_loaded = loaded.value();
    std::fprintf(stderr, "BenchSummary: %s: %llu slices, loaded in %.2f s\n", g_path.c_str(),
                 static_cast<unsigned long long>(g_loaded->counts().slices),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    int count = static_cast<int>(rest.size());
    benchmark::Initialize(&count, rest.data());
    if (benchmark::ReportUnrecognizedArguments(count, rest.data()))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
