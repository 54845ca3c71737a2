// Frame cost of the timeline: draw-list build + paint of a 1920x1080 view into an offscreen QImage,
// uncached (the visible range moves by a nanosecond every frame, so every frame rebuilds), for
// synthetic traces of 1M and 10M slices at full view and zoomed in (1/50 and 1/2000 of the trace);
// plus the trace's memory.
//
//   build/<dir>/tests/BenchPaint --benchmark_min_time=2
#include <map>
#include <memory>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include "QtBenchmarkMain.h"
#include "support/TraceFactory.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/LaneIndex.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/TimelineLayout.h"
#include "ui/timeline/TimelinePainter.h"
#include "ui/timeline/TimelineView.h"

namespace {

using wl::model::TimeNs;
using wl::model::TracePtr;

// Synthetic traces with about `slices` slices: half GPU work on 8 streams, half the API calls that
// launched it. Built once per size and kept for the whole run.
TracePtr traceOf(std::size_t slices) {
    static std::map<std::size_t, TracePtr> cache;
    auto& trace = cache[slices];
    if (!trace) {
        wl::test::SyntheticTraceSpec spec;
        const std::size_t gpuOps = slices / 2;
        spec.kernels = gpuOps * 80 / 100;
        spec.memcpys = gpuOps * 16 / 100;
        spec.memsets = gpuOps - spec.kernels - spec.memcpys - 64;
        spec.syncs = 64;
        spec.nvtxRanges = 2'000;
        spec.counterSamples = 100'000;
        spec.streams = 8;
        trace = wl::test::makeSyntheticTrace(spec);
    }
    return trace;
}

// Visible range: 1/zoom of the trace around the middle: 1 = the whole trace, 50 = slices about
// a pixel wide (the most items), 2000 = individual slices with labels.
std::pair<TimeNs, TimeNs> rangeFor(const wl::model::Trace& trace, std::int64_t zoom) {
    const TimeNs span = trace.spanNs();
    if (zoom <= 1) {
        return {0, span};
    }
    const TimeNs width = std::max<TimeNs>(span / zoom, 1000);
    return {span / 2 - width / 2, span / 2 + width / 2};
}

// The whole widget (headers, ruler, rows, legend) rendered into a QImage, every frame rebuilt.
void BM_ViewFrame(benchmark::State& state) {
    const TracePtr trace = traceOf(std::size_t(state.range(0)));
    const std::int64_t zoom = state.range(1);
    wl::ui::TimelineView view;
    view.resize(1920, 1080);
    view.setTrace(trace);
    const auto [start, end] = rangeFor(*trace, zoom);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    std::uint64_t items = 0;
    TimeNs jitter = 0;
    for (auto _ : state) {
        jitter ^= 1;  // a new range each frame: no cached geometry
        view.setVisibleRange(start + jitter, end + jitter);
        view.render(&image);
        items = view.currentDrawList().sliceItemCount();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["slices"] = double(trace->counts().slices);
    state.counters["visible"] = double(view.currentDrawList().visibleSlices);
    state.counters["items"] = double(items);
    state.counters["labels"] = double(view.currentDrawList().labels.size());
}

// The draw list alone, and the painter alone, to see where a frame's time goes.
void BM_DrawListBuild(benchmark::State& state) {
    const TracePtr trace = traceOf(std::size_t(state.range(0)));
    const std::int64_t zoom = state.range(1);
    wl::ui::OverlayIndex overlays;
    overlays.build(trace.get(), {});
    wl::ui::CounterSummary counters;
    counters.build(trace.get());
    wl::ui::LaneIndex lanes;
    lanes.build(trace.get());
    wl::ui::TimelineLayout layout;
    layout.build(trace.get(), {}, {});
    const auto [start, end] = rangeFor(*trace, zoom);
    const wl::ui::DrawListBuilder builder{QFont()};
    wl::ui::DrawListRequest request;
    request.trace = trace.get();
    request.layout = &layout;
    request.overlays = &overlays;
    request.counters = &counters;
    request.lanes = &lanes;
    request.mapper = wl::ui::TimeMapper(start, end, 1920 - 240);
    request.viewportHeightPx = 1080 - 54;
    std::size_t items = 0;
    for (auto _ : state) {
        const wl::ui::DrawList list = builder.build(request);
        items = list.sliceItemCount();
        benchmark::DoNotOptimize(items);
    }
    state.counters["items"] = double(items);
}

void BM_PaintOnly(benchmark::State& state) {
    const TracePtr trace = traceOf(std::size_t(state.range(0)));
    const std::int64_t zoom = state.range(1);
    wl::ui::OverlayIndex overlays;
    overlays.build(trace.get(), {});
    wl::ui::CounterSummary counters;
    counters.build(trace.get());
    wl::ui::LaneIndex lanes;
    lanes.build(trace.get());
    wl::ui::TimelineLayout layout;
    layout.build(trace.get(), {}, {});
    const auto [start, end] = rangeFor(*trace, zoom);
    wl::ui::DrawListRequest request;
    request.trace = trace.get();
    request.layout = &layout;
    request.overlays = &overlays;
    request.counters = &counters;
    request.lanes = &lanes;
    request.mapper = wl::ui::TimeMapper(start, end, 1920 - 240);
    request.viewportHeightPx = 1080 - 54;
    const wl::ui::DrawList list = wl::ui::DrawListBuilder(QFont()).build(request);
    const wl::ui::TimelinePainter painter{QFont()};
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        image.fill(Qt::white);
        QPainter p(&image);
        p.translate(240, 30);
        painter.paint(p, list);
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
}

// Heap bytes of the trace itself (Trace::memoryBytes()), per slice.
void BM_TraceMemory(benchmark::State& state) {
    const TracePtr trace = traceOf(std::size_t(state.range(0)));
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = trace->memoryBytes();
        benchmark::DoNotOptimize(bytes);
    }
    wl::ui::LaneIndex lanes;
    lanes.build(trace.get());
    state.counters["MiB"] = double(bytes) / (1024.0 * 1024.0);
    state.counters["bytes_per_slice"] = double(bytes) / double(trace->counts().slices);
    // What the view adds per trace for drawing: the coarse lane index.
    state.counters["lane_index_MiB"] = double(lanes.memoryBytes()) / (1024.0 * 1024.0);
}

void sizes(benchmark::internal::Benchmark* b) {
    for (std::int64_t n : {1'000'000, 10'000'000}) {
        for (std::int64_t zoom : {1, 50, 2000}) {
            b->Args({n, zoom});
        }
    }
    b->ArgNames({"slices", "zoom"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_ViewFrame)->Apply(sizes);
BENCHMARK(BM_DrawListBuild)->Apply(sizes);
BENCHMARK(BM_PaintOnly)->Apply(sizes);
BENCHMARK(BM_TraceMemory)->Arg(1'000'000)->Arg(10'000'000)->Iterations(1);

}  // namespace

WARPLINE_QT_BENCHMARK_MAIN();
