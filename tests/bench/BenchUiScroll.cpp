// What a frame of the timeline costs while the user scrolls its rows vertically, on a real
// PyTorch profiler trace (Holistic Trace Analysis' hta_df_index_resolver.json.gz from the external
// traces: 151k slices, 115 MB of JSON) opened as the ranks of a job: the trace once per rank, 8
// ranks, merged as File > Open Rank Traces merges them (1.2M slices, a process group per rank),
// so that there are rows to scroll through. At the view the job opens on (its dense span) and with
// the whole job in view, the view (1920x1080) is scrolled one wheel notch a frame, down to the
// bottom of its rows and back up, and rendered into an offscreen QImage each time. Nothing moves
// in time, so nothing a frame draws from has changed but the scroll.
//
//   build/<dir>/tests/BenchUiScroll --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true
#include <QApplication>
#include <QImage>
#include <QWheelEvent>

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "QtBenchmarkMain.h"
#include "io/TraceFile.h"
#include "model/TraceMerge.h"
#include "ui/timeline/TimelineView.h"

namespace {

constexpr int kRanks = 8;

const std::string kPyTorchTrace =
    std::string(WARPLINE_EXTERNAL_TRACES_DIR) + "/hta_df_index_resolver.json.gz";

// The job, or why there is none: the trace once per rank, merged as loadRankJob merges the
// traces it read (each its own rank, on one clock). The trace names its own rank, which a real
// job's files would not share, so the ranks are given here instead of read.
const wl::model::Result<wl::model::TracePtr>& job() {
    static const wl::model::Result<wl::model::TracePtr> merged =
        []() -> wl::model::Result<wl::model::TracePtr> {
        auto loaded = wl::io::loadTrace(kPyTorchTrace);
        if (!loaded.ok())
            return loaded.error();
        std::vector<wl::model::MergeInput> inputs;
        for (int r = 0; r < kRanks; ++r)
            inputs.push_back({loaded.value(), "rank " + std::to_string(r), 0, r});
        return wl::model::mergeTraces(std::move(inputs));
    }();
    return merged;
}

// One notch of the wheel over the rows: 3 lanes (60 px) down (`down`) or up.
void wheelNotch(wl::ui::TimelineView& view, bool down) {
    const QPointF at(view.headerWidthPx() + 100, 200);
    QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, down ? -120 : 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
}

// Arg: 0 = the view the trace opens on (its dense span), 1 = the whole trace.
void BM_VerticalScrollFrame(benchmark::State& state) {
    if (!job().ok()) {
        state.SkipWithError(job().error().describe().c_str());
        return;
    }
    const wl::model::TracePtr trace = job().value();
    wl::ui::TimelineView view;
    view.resize(1920, 1080);
    view.setTrace(trace);
    view.setAllGroupsCollapsed(false);  // every row: the most to scroll through
    if (state.range(0) == 1)
        view.fitAll();
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    view.render(&image);  // the first frame at this range
    // Notches from the top to the bottom of the rows.
    const int notches = view.layout().totalHeightPx() / 60 + 1;
    int step = 0;
    const std::uint64_t builtBefore = view.drawListBuilds();
    for (auto _ : state) {
        wheelNotch(view, step % (2 * notches) < notches);
        ++step;
        view.render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    // Rows' draw lists built while scrolling: each row once, the first time it comes into view
    // (none after the first pass down), where every frame built every visible row before.
    state.counters["row_lists_built"] = double(view.drawListBuilds() - builtBefore);
    state.counters["frames"] = double(step);
    state.counters["slices"] = double(trace->counts().slices);
    state.counters["rows"] = double(view.layout().rows().size());
    state.counters["content_px"] = double(view.layout().totalHeightPx());
}

BENCHMARK(BM_VerticalScrollFrame)->Arg(0)->Arg(1)->ArgName("whole")->Unit(benchmark::kMillisecond);

}  // namespace

WARPLINE_QT_BENCHMARK_MAIN();
