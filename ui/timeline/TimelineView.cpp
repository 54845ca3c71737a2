#include "ui/timeline/TimelineView.h"

#include "ui/timeline/TimelineViewState.h"

namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    QFont base = font();
    base.setPointSizeF(9.0);
    setFont(base);
    QFont label = base;
    label.setPointSizeF(8.0);
    m_state = std::make_unique<State>(label);
    State& s = *m_state;
    s.input = std::make_unique<TimelineInputHandler>(s.viewport, s.selection, this);
    connect(s.input.get(), &TimelineInputHandler::repaintNeeded, this, [this] { update(); });
    connect(s.input.get(), &TimelineInputHandler::cursorChanged, this,
            [this](Qt::CursorShape shape) { setCursor(shape); });
    connect(s.input.get(), &TimelineInputHandler::cursorReset, this, [this] { unsetCursor(); });
    connect(s.input.get(), &TimelineInputHandler::scrollRequested, this,
            [this](int scrollPx) { m_state->vbar->setValue(scrollPx); });
    connect(s.input.get(), &TimelineInputHandler::timeRangeSelected, this,
            &TimelineView::timeRangeSelected);
    connect(s.input.get(), &TimelineInputHandler::timeSelectionCleared, this,
            &TimelineView::timeSelectionCleared);
    connect(s.input.get(), &TimelineInputHandler::flagDropRequested, this,
            [this](model::TimeNs t) { dropFlag(t); });
    connect(s.input.get(), &TimelineInputHandler::clicked, this, [this](QPoint at) {
        const HitResult hit = hitAt(at);
        selectSlice(hit.kind == HitResult::Kind::Slice ? hit.slice : model::SliceRef{});
    });
    // Key M drops a flag at the pointer, and the measure is taken around it, when it is over the
    // time area.
    s.flags = std::make_unique<TimelineFlagsController>(
        s.viewport, s.selection, [this] { return m_state->input->pointerTimeNs(frame()); }, this);
    connect(m_state->flags.get(), &TimelineFlagsController::changed, this, [this] { update(); });
    connect(m_state->flags.get(), &TimelineFlagsController::measureChanged, this,
            &TimelineView::measureChanged);
    m_state->vbar = new QScrollBar(Qt::Vertical, this);
    connect(m_state->vbar, &QScrollBar::valueChanged, this, [this] { update(); });
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(kHeaderWidthPx + 200, kRulerHeightPx + kLegendLineHeightPx + kLegendPadPx + 60);
    setTimeScale(std::make_shared<TimeScale>());
}

TimelineView::~TimelineView() = default;

// ---- geometry ----------------------------------------------------------------------------------

int TimelineView::headerWidthPx() const {
    return kHeaderWidthPx;
}

const TimelineLayout& TimelineView::layout() const {
    return m_state->rows.layout();
}

// ---- trace, overlays, range --------------------------------------------------------------------

void TimelineView::setTrace(model::TracePtr trace) {
    State& s = *m_state;
    const bool hadSelection = s.selection.slice.valid();
    s.trace = std::move(trace);
    s.selection.slice = {};
    s.rows.setTrace(s.trace.get());
    s.selection.time.reset();  // times of the previous trace
    s.selection.analysisWindow.clear();
    s.selection.search.reset();        // slices of the previous trace
    s.flags->setTrace(s.trace.get());  // times of the previous trace
    // Overlays address slices of the previous trace: they go with it.
    s.overlays.build(s.trace.get(), {});
    ++s.overlayVersion;
    s.counters.build(s.trace.get());
    s.lanes.build(s.trace.get());
    s.drawLists.invalidate();
    rebuildLayout();
    s.vbar->setValue(0);
    if (s.trace) {
        s.viewport.includeTrace(s.trace->spanNs());
    }
    fitDense();
    if (hadSelection) {
        emit sliceSelected({});
    }
    m_state->flags->updateMeasure();
    update();
}

model::TracePtr TimelineView::trace() const {
    return m_state->trace;
}

void TimelineView::setFullKernelNames(bool full) {
    State& s = *m_state;
    if (full == s.overlays.fullKernelNames()) {
        return;
    }
    s.overlays.setFullKernelNames(full);
    s.drawLists.invalidate();  // the labels change, nothing else
    update();
}

bool TimelineView::fullKernelNames() const {
    return m_state->overlays.fullKernelNames();
}

void TimelineView::setShowDependencies(bool show) {
    if (show != m_state->showDependencies) {
        m_state->showDependencies = show;
        update();
    }
}

bool TimelineView::showDependencies() const {
    return m_state->showDependencies;
}

void TimelineView::setOverlays(TimelineOverlays overlays) {
    State& s = *m_state;
    s.overlays.build(s.trace.get(), std::move(overlays));
    ++s.overlayVersion;
    rebuildLayout();  // the device idle-gap rows depend on the overlays
    update();
}

const TimelineOverlays& TimelineView::overlays() const {
    return m_state->overlays.overlays();
}

model::TimeNs TimelineView::visibleStartNs() const {
    return m_state->viewport.startNs();
}

model::TimeNs TimelineView::visibleEndNs() const {
    return m_state->viewport.endNs();
}

void TimelineView::setVisibleRange(model::TimeNs startNs, model::TimeNs endNs) {
    m_state->viewport.setRange(startNs, endNs);
}

void TimelineView::fitAll() {
    const model::Trace* trace = m_state->trace.get();
    const model::TimeNs span = trace ? std::max<model::TimeNs>(trace->spanNs(), 1000) : 1000000;
    m_state->viewport.fit(0, span, std::max<model::TimeNs>(span / 100, 1));
}

void TimelineView::fitDense() {
    const model::Trace* trace = m_state->trace.get();
    if (!trace) {
        fitAll();
        return;
    }
    const model::TimeRange dense = denseSpan(*trace);
    const model::TimeNs span = std::max<model::TimeNs>(dense.durationNs(), 1000);
    m_state->viewport.fit(dense.startNs, dense.startNs + span,
                          std::max<model::TimeNs>(span / 100, 1));
}

void TimelineView::fitSelection() {
    const State& s = *m_state;
    if (!s.trace || !s.selection.slice.valid()) {
        fitAll();
        return;
    }
    const model::Slice& slice = s.trace->slice(s.selection.slice);
    m_state->viewport.fit(slice.startNs, slice.endNs(),
                          std::max<model::TimeNs>(slice.durationNs / 10, 50));
}

void TimelineView::zoomToSlices(const std::vector<model::SliceRef>& refs) {
    const State& s = *m_state;
    if (!s.trace || refs.empty()) {
        return;
    }
    model::TimeNs lo = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs hi = std::numeric_limits<model::TimeNs>::min();
    bool any = false;
    for (const model::SliceRef& ref : refs) {
        if (!isValidRef(ref)) {
            continue;
        }
        const model::Slice& slice = s.trace->slice(ref);
        lo = std::min(lo, slice.startNs);
        hi = std::max(hi, slice.endNs());
        any = true;
    }
    if (!any) {
        return;
    }
    selectSlice(refs.front());
    m_state->viewport.fit(lo, hi, std::max<model::TimeNs>((hi - lo) / 20, 50));
}

void TimelineView::setTimeScale(std::shared_ptr<TimeScale> scale) {
    State& s = *m_state;
    if (s.scaleConnection) {
        disconnect(s.scaleConnection);
    }
    s.viewport.setScale(std::move(scale));
    if (s.trace) {
        s.viewport.includeTrace(s.trace->spanNs());
    }
    s.scaleConnection = connect(s.viewport.scale().get(), &TimeScale::rangeChanged, this, [this] {
        update();
        emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
    });
    update();
}

std::shared_ptr<TimeScale> TimelineView::timeScale() const {
    return m_state->viewport.scale();
}

void TimelineView::setTimeOffsetNs(model::TimeNs offsetNs) {
    State& s = *m_state;
    if (offsetNs == s.viewport.offsetNs()) {
        return;
    }
    s.viewport.setOffsetNs(offsetNs);
    if (s.trace) {
        s.viewport.includeTrace(s.trace->spanNs());
    }
    update();
    emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
}

model::TimeNs TimelineView::timeOffsetNs() const {
    return m_state->viewport.offsetNs();
}

// ---- selection ---------------------------------------------------------------------------------

bool TimelineView::isValidRef(model::SliceRef ref) const {
    const model::Trace* trace = m_state->trace.get();
    return trace && ref.valid() && ref.track < trace->tracks().size() &&
           ref.index < trace->track(ref.track).slices.size();
}

void TimelineView::selectSlice(model::SliceRef ref) {
    State& s = *m_state;
    if (!isValidRef(ref)) {
        ref = {};
    }
    if (ref.valid()) {
        // Open whatever hides the slice, then bring its lane into view.
        const model::Slice& slice = s.trace->slice(ref);
        if (s.rows.unfoldFor(ref.track, slice.depth)) {
            rebuildLayout();
        }
        if (s.rows.layout().rowOfTrack(ref.track) < 0) {
            unhideRowOf(ref.track);  // the user arranged it away; what they asked for shows it
        }
        const int row = s.rows.layout().rowOfTrack(ref.track);
        if (const std::optional<int> y = s.rows.layout().laneY(row, slice.depth)) {
            const int viewH = timeAreaOf(this, s.vbar).height();
            const int scroll = s.vbar->value();
            // The top band may hold a group's sticky title, which would cover the lane.
            const int visibleTop = scroll > 0 ? scroll + TimelineLayout::kProcessHeightPx : 0;
            if (*y < visibleTop || *y + TimelineLayout::kLaneHeightPx > scroll + viewH) {
                s.vbar->setValue(std::max(0, *y - viewH / 3));
            }
        }
        // And into the visible time, at the same zoom ("Launched by" in the details may point
        // far away).
        s.viewport.panToShow(slice.startNs, slice.endNs());
    }
    if (ref == s.selection.slice) {
        return;
    }
    s.selection.slice = ref;
    update();
    emit sliceSelected(ref);
}

void TimelineView::revealProcess(model::ProcessIndex process) {
    State& s = *m_state;
    if (!s.trace || process >= s.trace->processes().size())
        return;
    if (s.rows.unfoldProcess(process))
        rebuildLayout();
    for (const TimelineRow& row : s.rows.layout().rows()) {
        if (row.kind == RowKind::Process && row.process == process) {
            s.vbar->setValue(row.yPx);
            break;
        }
    }
    update();
}

model::SliceRef TimelineView::selectedSlice() const {
    return m_state->selection.slice;
}

void TimelineView::revealSlice(model::SliceRef ref) {
    if (!isValidRef(ref)) {
        selectSlice({});
        return;
    }
    const model::Slice& slice = m_state->trace->slice(ref);
    m_state->viewport.reveal(slice.startNs, slice.endNs(), timeAreaOf(this, m_state->vbar).width(),
                             kMinRevealPx, kRevealWidthPx);
    selectSlice(ref);  // its row into view; the time needs no more panning
}

bool TimelineView::followRelation(Relation relation) {
    const State& s = *m_state;
    if (!s.trace || !s.selection.slice.valid()) {
        return false;
    }
    model::SliceRef target;
    switch (relation) {
        case Relation::Launch:
            target = FlowNavigation::launchPartner(*s.trace, s.selection.slice);
            break;
        case Relation::WaitedFor:
            target = FlowNavigation::waitedFor(*s.trace, s.selection.slice);
            break;
        case Relation::AwaitedBy:
            target = FlowNavigation::awaitedBy(*s.trace, s.selection.slice);
            break;
    }
    if (!isValidRef(target)) {
        return false;
    }
    revealSlice(target);
    return true;
}

void TimelineView::setSearchMatches(SearchMatchesPtr matches) {
    m_state->selection.search = std::move(matches);
    update();
}

const SearchMatchesPtr& TimelineView::searchMatches() const {
    return m_state->selection.search;
}

std::vector<QRect> TimelineView::searchMatchRects() const {
    const State& s = *m_state;
    std::vector<QRect> out;
    if (!s.trace || !s.selection.search || s.selection.search->empty()) {
        return out;
    }
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    const int scroll = s.vbar->value();
    for (const SearchMatches::Lane& lane : s.selection.search->lanes()) {
        const int row = s.rows.layout().rowOfTrack(lane.track);
        const std::optional<int> y =
            row >= 0 ? s.rows.layout().laneY(row, lane.depth) : std::nullopt;
        if (!y || *y - scroll + TimelineLayout::kLaneHeightPx < 0 || *y - scroll > area.height()) {
            continue;
        }
        const int top = *y - scroll;
        const std::vector<model::Slice>& slices = s.trace->track(lane.track).slices;
        // A lane's slices do not overlap: their ends are sorted like their starts.
        auto it = std::partition_point(lane.indices.begin(), lane.indices.end(),
                                       [&](auto i) { return slices[i].endNs() < map.startNs(); });
        // At most one outline per pixel: pixel-bounded like the rest of the frame.
        while (it != lane.indices.end() && slices[*it].startNs <= map.endNs()) {
            const model::Slice& slice = slices[*it];
            const double x0 = std::clamp(map.xForNs(slice.startNs), -4.0, area.width() + 4.0);
            const double x1 = std::clamp(map.xForNs(slice.endNs()), -4.0, area.width() + 4.0);
            const int left = int(std::floor(x0));
            const int widthPx = std::max(3, int(std::ceil(x1)) - left);
            out.emplace_back(left, top + 1, widthPx, TimelineLayout::kLaneHeightPx - 2);
            const model::TimeNs nextNs = map.nsForX(left + widthPx + 1);
            it = std::partition_point(it + 1, lane.indices.end(),
                                      [&](auto i) { return slices[i].startNs < nextNs; });
        }
    }
    return out;
}

void TimelineView::rebuildLayout() {
    State& s = *m_state;
    s.rows.rebuild(s.overlays.devicesWithGaps());
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    State& s = *m_state;
    const int viewH = std::max(1, height() - kRulerHeightPx - legendHeightPx(this));
    const int maxScroll = std::max(0, s.rows.layout().totalHeightPx() - viewH);
    s.vbar->setRange(0, maxScroll);
    s.vbar->setPageStep(viewH);
    s.vbar->setSingleStep(TimelineLayout::kLaneHeightPx);
    s.vbar->setVisible(maxScroll > 0);
    const int barW = s.vbar->sizeHint().width();
    s.vbar->setGeometry(width() - barW, kRulerHeightPx, barW, viewH);
}

std::optional<model::TimeRange> TimelineView::timeSelection() const {
    return m_state->selection.time;
}

const std::vector<model::TrackIndex>& TimelineView::selectedTracks() const {
    return m_state->selection.tracks;
}

void TimelineView::setTimeSelection(std::optional<model::TimeRange> range) {
    m_state->selection.time = range;
    m_state->selection.tracks.clear();  // every row
    m_state->flags->updateMeasure();
    update();
}

void TimelineView::setAnalysisWindow(std::vector<model::TimeRange> parts) {
    m_state->selection.analysisWindow = std::move(parts);
    update();
}

// ---- flags (TimelineFlagsController) -----------------------------------------------------------

const FlagSet& TimelineView::flags() const {
    return m_state->flags->flags();
}

int TimelineView::dropFlag(model::TimeNs timeNs, QString name) {
    return m_state->flags->drop(timeNs, std::move(name));
}

void TimelineView::markFlags() {
    m_state->flags->mark();
}

bool TimelineView::renameFlag(int id, const QString& name) {
    return m_state->flags->rename(id, name);
}

bool TimelineView::removeFlag(int id) {
    return m_state->flags->remove(id);
}

void TimelineView::clearFlags() {
    m_state->flags->clear();
}

void TimelineView::setReferenceFlag(std::optional<int> id) {
    m_state->flags->setReference(id);
}

bool TimelineView::jumpToFlag(bool forward) {
    return m_state->flags->jump(forward);
}

QString TimelineView::measureText() const {
    return m_state->flags->measureText();
}

RulerOrigin TimelineView::currentRulerOrigin() const {
    const TimeMapper map = mapper();
    return m_state->flags->rulerOrigin(map, m_state->flags->rulerTicks(map));
}

TimelineFrame TimelineView::frame() const {
    const State& s = *m_state;
    return {size(),        timeAreaOf(this, s.vbar), mapper(), s.vbar->value(), font(),
            s.trace.get(), &s.rows.layout()};
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateScrollBar();
}

}  // namespace wl::ui
