// What the window does on a real PyTorch profiler trace of 151k slices, 115 MB of JSON
// (Holistic Trace Analysis' hta_df_index_resolver.json.gz, from the external traces): a Find
// query, the events table's list and a click on a column header to sort it, the timeline's
// layout of every row, and the overview strip's density. Each runs on a worker (Find, Events) or
// once per trace (overview) in the window; the one-second budget is for each.
#include <benchmark/benchmark.h>

#include <string>

#include "io/TraceFile.h"
#include "ui/find/SliceSearch.h"
#include "ui/find/SliceSort.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/TimelineLayout.h"

namespace {

const std::string kPyTorchTrace =
    std::string(WARPLINE_EXTERNAL_TRACES_DIR) + "/hta_df_index_resolver.json.gz";

const wl::model::Trace* pytorchTrace() {
    static const wl::model::TracePtr trace = [] {
        auto loaded = wl::io::loadTrace(kPyTorchTrace);
        return loaded.ok() ? loaded.value() : nullptr;
    }();
    return trace.get();
}

template <typename Run>
void onTrace(benchmark::State& state, Run run) {
    const wl::model::Trace* trace = pytorchTrace();
    if (!trace) {
        state.SkipWithError(("cannot read " + kPyTorchTrace).c_str());
        return;
    }
    for (auto _ : state)
        run(state, *trace);
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
}

void find(benchmark::State& state, const wl::ui::SearchQuery& query) {
    onTrace(state, [&](benchmark::State& s, const wl::model::Trace& trace) {
        const wl::ui::SearchMatchesPtr m = wl::ui::SliceSearch::run(trace, query);
        s.counters["matches"] = static_cast<double>(m->size());
        benchmark::DoNotOptimize(m.get());
    });
}

// Every ATen op (about half the slices).
void BM_FindAten(benchmark::State& state) {
    find(state, {QStringLiteral("aten::")});
}
// Every slice: the worst case.
void BM_FindEverything(benchmark::State& state) {
    find(state, {QStringLiteral("."), true});
}

void BM_EventsCollect(benchmark::State& state) {
    onTrace(state, [](benchmark::State& s, const wl::model::Trace& trace) {
        const auto all = wl::ui::SliceSort::collect(trace, std::nullopt);
        s.counters["rows"] = static_cast<double>(all.size());
        benchmark::DoNotOptimize(all.data());
    });
}

// Arg: the column clicked (SliceTableModel::Column).
void BM_EventsSort(benchmark::State& state) {
    const auto column = static_cast<wl::ui::SliceTableModel::Column>(state.range(0));
    onTrace(state, [column](benchmark::State&, const wl::model::Trace& trace) {
        static const wl::ui::SliceList all = wl::ui::SliceSort::collect(trace, std::nullopt);
        const auto sorted = wl::ui::SliceSort::sorted(trace, all, column, Qt::DescendingOrder);
        benchmark::DoNotOptimize(sorted.data());
    });
}

void BM_TimelineLayout(benchmark::State& state) {
    onTrace(state, [](benchmark::State& s, const wl::model::Trace& trace) {
        wl::ui::TimelineLayout layout;
        layout.build(&trace, {}, {});
        s.counters["rows"] = static_cast<double>(layout.rows().size());
        benchmark::DoNotOptimize(layout.totalHeightPx());
    });
}

void BM_OverviewDensity(benchmark::State& state) {
    onTrace(state, [](benchmark::State&, const wl::model::Trace& trace) {
        const wl::ui::OverviewDensity d =
            wl::ui::overviewDensity(trace, wl::ui::OverviewStrip::kBuckets);
        benchmark::DoNotOptimize(d.values.data());
    });
}

BENCHMARK(BM_FindAten)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FindEverything)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EventsCollect)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EventsSort)
    ->Arg(wl::ui::SliceTableModel::kStart)
    ->Arg(wl::ui::SliceTableModel::kDuration)
    ->Arg(wl::ui::SliceTableModel::kName)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineLayout)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OverviewDensity)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
