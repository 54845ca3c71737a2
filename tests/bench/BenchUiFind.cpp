// Find by name on a trace of about 10M slices (5M GPU ops with their launch calls, 100k NVTX
// ranges of distinct names): what the Find panel's worker does for one query, on one core.
#include <benchmark/benchmark.h>

#include "support/TraceFactory.h"
#include "ui/find/SliceSearch.h"

namespace {

const wl::model::Trace& tenMillionSlices() {
    static const wl::model::TracePtr trace =
        wl::test::makeSyntheticTrace(wl::test::gpuOpsSpec(5'000'000));
    return *trace;
}

void runSearch(benchmark::State& state, const wl::ui::SearchQuery& query) {
    const wl::model::Trace& trace = tenMillionSlices();
    std::size_t matches = 0;
    for (auto _ : state) {
        const wl::ui::SearchMatchesPtr m = wl::ui::SliceSearch::run(trace, query);
        matches = m->size();
        benchmark::DoNotOptimize(m.get());
    }
    state.counters["slices"] = static_cast<double>(trace.counts().slices);
    state.counters["matches"] = static_cast<double>(matches);
}

// One kernel name of six: about 700k matches on 4 streams.
void BM_FindSubstring(benchmark::State& state) {
    runSearch(state, {QStringLiteral("normalize")});
}
// Two kernel names by regular expression, anchored on the short names.
void BM_FindRegex(benchmark::State& state) {
    runSearch(state, {QStringLiteral("^(normalize|reduce)_kernel$"), true});
}
// One NVTX range among 100k distinct names: nearly all the time is the scan.
void BM_FindRare(benchmark::State& state) {
    runSearch(state, {QStringLiteral("iteration 4242"), false, true});
}
// Every slice matches: the worst case (the merge of every lane into time order).
void BM_FindEverything(benchmark::State& state) {
    runSearch(state, {QStringLiteral("."), true});
}

BENCHMARK(BM_FindSubstring)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindRegex)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindRare)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindEverything)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
