// Find by name and the events table on a trace of about 10M slices (5M GPU ops with their launch
// calls, 100k NVTX ranges of distinct names): what the Find panel's worker does for one query,
// and what the events table's worker does to list every slice and to sort it, on one core.
#include <benchmark/benchmark.h>

#include "support/TraceFactory.h"
#include "ui/find/SliceSearch.h"
#include "ui/find/SliceSort.h"

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

// Every slice of the trace in time order: the events table's rows before any sort.
void BM_EventsCollect(benchmark::State& state) {
    const wl::model::Trace& trace = tenMillionSlices();
    std::size_t rows = 0;
    for (auto _ : state) {
        const auto all = wl::ui::SliceSort::collect(trace, std::nullopt);
        rows = all.size();
        benchmark::DoNotOptimize(all.data());
    }
    state.counters["rows"] = static_cast<double>(rows);
}

// A click on a column header: the whole trace's rows sorted by that column.
void BM_EventsSort(benchmark::State& state) {
    const wl::model::Trace& trace = tenMillionSlices();
    static const wl::ui::SliceList all = wl::ui::SliceSort::collect(trace, std::nullopt);
    const auto column = static_cast<wl::ui::SliceTableModel::Column>(state.range(0));
    const Qt::SortOrder order =
        column == wl::ui::SliceTableModel::kDuration || column == wl::ui::SliceTableModel::kBytes
            ? Qt::DescendingOrder
            : Qt::AscendingOrder;
    for (auto _ : state) {
        const auto sorted = wl::ui::SliceSort::sorted(trace, all, column, order);
        benchmark::DoNotOptimize(sorted.data());
    }
    state.counters["rows"] = static_cast<double>(all.size());
}

BENCHMARK(BM_FindSubstring)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindRegex)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindRare)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_FindEverything)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_EventsCollect)->Unit(benchmark::kMillisecond)->MinTime(2.0);
// Columns: 1 duration (longest first), 2 row, 3 name, 4 bytes (biggest first).
BENCHMARK(BM_EventsSort)
    ->Arg(wl::ui::SliceTableModel::kDuration)
    ->Arg(wl::ui::SliceTableModel::kRow)
    ->Arg(wl::ui::SliceTableModel::kName)
    ->Arg(wl::ui::SliceTableModel::kBytes)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
