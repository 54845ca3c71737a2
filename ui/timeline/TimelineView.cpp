#include "ui/timeline/TimelineView.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_set>
#include <utility>

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "ui/details/Units.h"
#include "ui/style/Palette.h"
#include "ui/timeline/Arrows.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/DenseSpan.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/FlowNavigation.h"
#include "ui/timeline/HitTester.h"
#include "ui/timeline/LaneIndex.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/SliceText.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimelineLayout.h"
#include "ui/timeline/TimelinePainter.h"

namespace wl::ui {

namespace {

constexpr int kHeaderWidthPx = 240;
constexpr int kRulerHeightPx = 30;
constexpr int kLegendLineHeightPx = 20;
constexpr int kLegendPadPx = 4;
constexpr double kKeyZoomFactor = 0.8;  // W: 80% of the range; S: the inverse
constexpr double kKeyPanFraction = 0.1;
constexpr int kDragThresholdPx = 3;
// revealSlice: a slice narrower than this is zoomed to kRevealWidthPx, so it can be seen and
// clicked; a wider one keeps the user's zoom.
constexpr double kMinRevealPx = 4.0;
constexpr double kRevealWidthPx = 60.0;

// The frame's inputs that the draw list depends on: the list is rebuilt only when one changes.
struct CacheKey {
    const model::Trace* trace = nullptr;
    std::uint64_t layoutVersion = 0;
    std::uint64_t overlayVersion = 0;
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    int widthPx = 0;
    int scrollYPx = 0;
    int heightPx = 0;
    friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

}  // namespace

struct TimelineView::State {
    explicit State(const QFont& base) : labelFont(base), builder(labelFont), painter(labelFont) {}

    model::TracePtr trace;
    OverlayIndex overlays;
    CounterSummary counters;
    LaneIndex lanes;
    TimelineLayout layout;
    std::unordered_set<std::uint64_t> collapsed;
    std::uint64_t layoutVersion = 0;
    std::uint64_t overlayVersion = 0;

    TimeViewport viewport;
    QMetaObject::Connection scaleConnection;
    model::SliceRef selected;
    QScrollBar* vbar = nullptr;

    QFont labelFont;
    DrawListBuilder builder;
    TimelinePainter painter;
    std::optional<CacheKey> cacheKey;
    DrawList cached;

    QPoint mousePos{-1, -1};
    bool pressed = false;
    bool dragging = false;
    QPoint pressPos;
    model::TimeNs pressStartNs = 0;
    model::TimeNs pressEndNs = 0;
    int pressScroll = 0;

    // Range selection: a drag that started on the ruler or with Shift.
    bool selectingRange = false;
    bool showDependencies = true;  // View > Dependencies
    model::TimeNs rangeAnchorNs = 0;
    std::optional<model::TimeRange> timeSelection;
    std::vector<model::TimeRange> analysisWindow;
    SearchMatchesPtr search;
};

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    QFont base = font();
    base.setPointSizeF(9.0);
    setFont(base);
    QFont label = base;
    label.setPointSizeF(8.0);
    m_state = std::make_unique<State>(label);
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

namespace {

QFont legendFont(const QWidget* w) {
    QFont small = w->font();
    small.setPointSizeF(8.0);
    return small;
}

// One legend entry placed: its left edge and its line.
struct LegendItem {
    const Palette::LegendEntry* entry;
    int x;
    int line;
};

// The legend in as many lines as the width needs, so that a narrow window (1024 px with the
// docks) cuts no entry off.
std::vector<LegendItem> legendItems(const QWidget* w) {
    static const std::vector<Palette::LegendEntry> entries = Palette::legend();
    const QFontMetrics fm(legendFont(w));
    std::vector<LegendItem> out;
    int x = 8;
    int line = 0;
    for (const Palette::LegendEntry& e : entries) {
        const int itemW = 16 + fm.horizontalAdvance(e.label);
        if (x > 8 && x + itemW > w->width() - 4) {
            x = 8;
            ++line;
        }
        out.push_back({&e, x, line});
        x += itemW + 14;
    }
    return out;
}

int legendHeightPx(const QWidget* w) {
    const std::vector<LegendItem> items = legendItems(w);
    const int lines = items.empty() ? 1 : items.back().line + 1;
    return lines * kLegendLineHeightPx + kLegendPadPx;
}

QRect timeAreaOf(const QWidget* w, const QScrollBar* bar) {
    const int barW = bar->isHidden() ? 0 : bar->width();
    return QRect(kHeaderWidthPx, kRulerHeightPx, std::max(1, w->width() - kHeaderWidthPx - barW),
                 std::max(1, w->height() - kRulerHeightPx - legendHeightPx(w)));
}

}  // namespace

int TimelineView::headerWidthPx() const {
    return kHeaderWidthPx;
}

const TimelineLayout& TimelineView::layout() const {
    return m_state->layout;
}

// ---- trace, overlays, range --------------------------------------------------------------------

void TimelineView::setTrace(model::TracePtr trace) {
    State& s = *m_state;
    const bool hadSelection = s.selected.valid();
    s.trace = std::move(trace);
    s.selected = {};
    s.collapsed.clear();
    if (s.trace) {
        // Producers' bookkeeping processes (Kineto's "Spans", "Traces") start folded.
        for (model::ProcessIndex p : TimelineLayout::foldedAtOpen(*s.trace)) {
            s.collapsed.insert(TimelineLayout::processKey(p));
        }
    }
    s.timeSelection.reset();  // times of the previous trace
    s.analysisWindow.clear();
    s.search.reset();  // slices of the previous trace
    // Overlays address slices of the previous trace: they go with it.
    s.overlays.build(s.trace.get(), {});
    ++s.overlayVersion;
    s.counters.build(s.trace.get());
    s.lanes.build(s.trace.get());
    s.cacheKey.reset();
    rebuildLayout();
    s.vbar->setValue(0);
    if (s.trace) {
        s.viewport.includeTrace(s.trace->spanNs());
    }
    fitDense();
    if (hadSelection) {
        emit sliceSelected({});
    }
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
    s.cacheKey.reset();  // the labels change, nothing else
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
    if (!s.trace || !s.selected.valid()) {
        fitAll();
        return;
    }
    const model::Slice& slice = s.trace->slice(s.selected);
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
        const model::Track& track = s.trace->track(ref.track);
        const model::Slice& slice = s.trace->slice(ref);
        bool changedLayout = s.collapsed.erase(TimelineLayout::processKey(track.process)) > 0;
        if (slice.depth > 0) {
            changedLayout |= s.collapsed.erase(TimelineLayout::trackKey(ref.track)) > 0;
        }
        if (changedLayout) {
            rebuildLayout();
        }
        const int row = s.layout.rowOfTrack(ref.track);
        if (const std::optional<int> y = s.layout.laneY(row, slice.depth)) {
            const int viewH = timeAreaOf(this, s.vbar).height();
            const int scroll = s.vbar->value();
            if (*y < scroll || *y + TimelineLayout::kLaneHeightPx > scroll + viewH) {
                s.vbar->setValue(std::max(0, *y - viewH / 3));
            }
        }
        // And into the visible time, at the same zoom ("Launched by" in the details may point
        // far away).
        s.viewport.panToShow(slice.startNs, slice.endNs());
    }
    if (ref == s.selected) {
        return;
    }
    s.selected = ref;
    update();
    emit sliceSelected(ref);
}

model::SliceRef TimelineView::selectedSlice() const {
    return m_state->selected;
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
    if (!s.trace || !s.selected.valid()) {
        return false;
    }
    model::SliceRef target;
    switch (relation) {
        case Relation::Launch:
            target = FlowNavigation::launchPartner(*s.trace, s.selected);
            break;
        case Relation::WaitedFor:
            target = FlowNavigation::waitedFor(*s.trace, s.selected);
            break;
        case Relation::AwaitedBy:
            target = FlowNavigation::awaitedBy(*s.trace, s.selected);
            break;
    }
    if (!isValidRef(target)) {
        return false;
    }
    revealSlice(target);
    return true;
}

void TimelineView::setSearchMatches(SearchMatchesPtr matches) {
    m_state->search = std::move(matches);
    update();
}

const SearchMatchesPtr& TimelineView::searchMatches() const {
    return m_state->search;
}

std::vector<QRect> TimelineView::searchMatchRects() const {
    const State& s = *m_state;
    std::vector<QRect> out;
    if (!s.trace || !s.search || s.search->empty()) {
        return out;
    }
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    const int scroll = s.vbar->value();
    for (const SearchMatches::Lane& lane : s.search->lanes()) {
        const int row = s.layout.rowOfTrack(lane.track);
        const std::optional<int> y = row >= 0 ? s.layout.laneY(row, lane.depth) : std::nullopt;
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

void TimelineView::paintSearchMatches(QPainter& p) const {
    const std::vector<QRect> rects = searchMatchRects();
    if (rects.empty()) {
        return;
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor::fromRgb(Palette::kSearchMatch), 2));
    for (const QRect& r : rects) {
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

void TimelineView::rebuildLayout() {
    State& s = *m_state;
    s.layout.build(s.trace.get(), s.collapsed, s.overlays.devicesWithGaps());
    ++s.layoutVersion;
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    State& s = *m_state;
    const int viewH = std::max(1, height() - kRulerHeightPx - legendHeightPx(this));
    const int maxScroll = std::max(0, s.layout.totalHeightPx() - viewH);
    s.vbar->setRange(0, maxScroll);
    s.vbar->setPageStep(viewH);
    s.vbar->setSingleStep(TimelineLayout::kLaneHeightPx);
    s.vbar->setVisible(maxScroll > 0);
    const int barW = s.vbar->sizeHint().width();
    s.vbar->setGeometry(width() - barW, kRulerHeightPx, barW, viewH);
}

// ---- zoom and pan ------------------------------------------------------------------------------

TimeMapper TimelineView::mapper() const {
    return m_state->viewport.mapper(timeAreaOf(this, m_state->vbar).width());
}

void TimelineView::zoomAt(double xPx, double factor) {
    m_state->viewport.zoomAt(xPx, timeAreaOf(this, m_state->vbar).width(), factor);
}

void TimelineView::panBy(double fraction) {
    m_state->viewport.panBy(fraction);
}

double TimelineView::cursorXInTimeArea() const {
    const QRect area = timeAreaOf(this, m_state->vbar);
    const QPoint p = m_state->mousePos;
    if (area.contains(p)) {
        return p.x() - area.left();
    }
    return area.width() / 2.0;
}

bool TimelineView::handleKey(int key) {
    switch (key) {
        case Qt::Key_W:
            zoomAt(cursorXInTimeArea(), kKeyZoomFactor);
            return true;
        case Qt::Key_S:
            zoomAt(cursorXInTimeArea(), 1.0 / kKeyZoomFactor);
            return true;
        case Qt::Key_A:
            panBy(-kKeyPanFraction);
            return true;
        case Qt::Key_D:
            panBy(kKeyPanFraction);
            return true;
        case Qt::Key_F:
            fitSelection();
            return true;
        case Qt::Key_0:
            fitAll();
            return true;
        case Qt::Key_Escape:
            selectSlice({});
            return true;
        case Qt::Key_L:
            followRelation(Relation::Launch);
            return true;
        case Qt::Key_BracketLeft:
            followRelation(Relation::WaitedFor);
            return true;
        case Qt::Key_BracketRight:
            followRelation(Relation::AwaitedBy);
            return true;
        default:
            return false;
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier) ||
        !handleKey(event->key())) {
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    State& s = *m_state;
    const QPoint delta = event->angleDelta();
    const QRect area = timeAreaOf(this, s.vbar);
    if (event->modifiers() & Qt::ControlModifier) {
        const double x = std::clamp(event->position().x() - area.left(), 0.0, double(area.width()));
        // 120 units a notch; one notch zooms by the same step as one W press.
        zoomAt(x, std::pow(kKeyZoomFactor, delta.y() / 120.0));
    } else if ((event->modifiers() & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        panBy(-kKeyPanFraction * d / 120.0);
    } else {
        s.vbar->setValue(s.vbar->value() - delta.y() * 3 * TimelineLayout::kLaneHeightPx / 120);
    }
    event->accept();
}

// ---- mouse -------------------------------------------------------------------------------------

void TimelineView::mousePressEvent(QMouseEvent* event) {
    State& s = *m_state;
    setFocus(Qt::MouseFocusReason);
    const QPoint p = event->position().toPoint();
    s.mousePos = p;
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (p.x() < kHeaderWidthPx && p.y() >= kRulerHeightPx) {
        // A click on a row header collapses or expands it.
        const int row = s.layout.rowAt(p.y() - kRulerHeightPx + s.vbar->value());
        if (row >= 0 && s.layout.rows()[std::size_t(row)].collapsible) {
            const std::uint64_t key = s.layout.rows()[std::size_t(row)].key;
            if (!s.collapsed.erase(key)) {
                s.collapsed.insert(key);
            }
            rebuildLayout();
            update();
        }
        return;
    }
    s.pressed = true;
    s.dragging = false;
    s.selectingRange = s.trace && p.x() >= kHeaderWidthPx &&
                       (p.y() < kRulerHeightPx || (event->modifiers() & Qt::ShiftModifier));
    s.rangeAnchorNs = nsAtX(p.x());
    s.pressPos = p;
    s.pressStartNs = visibleStartNs();
    s.pressEndNs = visibleEndNs();
    s.pressScroll = s.vbar->value();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    State& s = *m_state;
    const QPoint p = event->position().toPoint();
    const bool wasInside = timeAreaOf(this, s.vbar).contains(s.mousePos);
    s.mousePos = p;
    if (!s.pressed) {
        // The time cursor follows the pointer; the draw list is cached, so this repaints
        // without rebuilding anything.
        if (wasInside || timeAreaOf(this, s.vbar).contains(p)) {
            update();
        }
        return;
    }
    const QPoint d = p - s.pressPos;
    if (!s.dragging && d.manhattanLength() < kDragThresholdPx) {
        return;
    }
    s.dragging = true;
    if (s.selectingRange) {
        const model::TimeNs t = nsAtX(p.x());
        s.timeSelection =
            model::TimeRange{std::min(s.rangeAnchorNs, t), std::max(s.rangeAnchorNs, t)};
        setCursor(Qt::IBeamCursor);
        update();
        return;
    }
    setCursor(Qt::ClosedHandCursor);
    // Drag pans time with the pointer and scrolls rows vertically.
    const double nsPerPx =
        double(s.pressEndNs - s.pressStartNs) / std::max(1, timeAreaOf(this, s.vbar).width());
    const model::TimeNs shift = model::TimeNs(std::llround(d.x() * nsPerPx));
    setVisibleRange(s.pressStartNs - shift, s.pressEndNs - shift);
    s.vbar->setValue(s.pressScroll - d.y());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    State& s = *m_state;
    if (event->button() != Qt::LeftButton || !s.pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    s.pressed = false;
    unsetCursor();
    const bool selecting = std::exchange(s.selectingRange, false);
    if (s.dragging) {
        s.dragging = false;
        if (selecting) {
            if (s.timeSelection && !s.timeSelection->empty()) {
                emit timeRangeSelected(s.timeSelection->startNs, s.timeSelection->endNs);
            } else {
                s.timeSelection.reset();
            }
            update();
        }
        return;
    }
    if (selecting && event->position().y() < kRulerHeightPx) {
        // A click on the ruler clears the time selection.
        if (s.timeSelection) {
            s.timeSelection.reset();
            update();
            emit timeSelectionCleared();
        }
        return;
    }
    // A click: select what is under the pointer (or clear the selection on empty space).
    const HitResult hit = hitAt(event->position().toPoint());
    selectSlice(hit.kind == HitResult::Kind::Slice ? hit.slice : model::SliceRef{});
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    const HitResult hit = hitAt(event->pos());
    if (hit.kind != HitResult::Kind::Slice) {
        QWidget::contextMenuEvent(event);
        return;
    }
    selectSlice(hit.slice);
    emit sliceContextMenuRequested(hit.slice, event->globalPos());
    event->accept();
}

model::TimeNs TimelineView::nsAtX(int widgetX) const {
    const TimeMapper map = mapper();
    const double x = std::clamp(double(widgetX - kHeaderWidthPx), 0.0, double(map.widthPx()));
    return std::clamp<model::TimeNs>(map.nsForX(x), 0,
                                     m_state->trace ? m_state->trace->spanNs() : 0);
}

std::optional<model::TimeRange> TimelineView::timeSelection() const {
    return m_state->timeSelection;
}

void TimelineView::setTimeSelection(std::optional<model::TimeRange> range) {
    m_state->timeSelection = range;
    update();
}

void TimelineView::setAnalysisWindow(std::vector<model::TimeRange> parts) {
    m_state->analysisWindow = std::move(parts);
    update();
}

void TimelineView::leaveEvent(QEvent* event) {
    m_state->mousePos = QPoint(-1, -1);
    update();  // hide the time cursor
    QWidget::leaveEvent(event);
}

HitResult TimelineView::hitAt(QPoint widgetPos) const {
    const State& s = *m_state;
    const QRect area = timeAreaOf(this, s.vbar);
    if (!s.trace || !area.contains(widgetPos)) {
        return {};
    }
    return hitTest(*s.trace, s.layout, &s.overlays, mapper(), widgetPos.x() - area.left(),
                   widgetPos.y() - area.top() + s.vbar->value());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) {
        return QWidget::event(event);
    }
    const State& s = *m_state;
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint p = help->pos();
    QString text;
    if (s.trace && p.x() < kHeaderWidthPx && p.y() >= kRulerHeightPx) {
        const int row = s.layout.rowAt(p.y() - kRulerHeightPx + s.vbar->value());
        if (row >= 0) {
            const TimelineRow& r = s.layout.rows()[std::size_t(row)];
            text = r.title.toHtmlEscaped();
            if (r.kind == RowKind::Track && r.laneCount > 1) {
                text += QStringLiteral("<br>%1 lanes%2")
                            .arg(r.laneCount)
                            .arg(r.collapsed ? QStringLiteral(" (collapsed: click to expand)")
                                             : QStringLiteral(" (click to collapse)"));
            }
        }
    } else {
        const HitResult hit = hitAt(p);
        switch (hit.kind) {
            case HitResult::Kind::Slice:
                text = sliceTooltip(*s.trace, hit.slice, s.overlays.badge(hit.slice));
                break;
            case HitResult::Kind::Gap: {
                const TimelineOverlays& o = s.overlays.overlays();
                const GapOverlay& gap = o.gaps[hit.gap];
                text = gapTooltip(gap, o.gapDetails ? o.gapDetails(*s.trace, gap) : gap.tooltip);
                break;
            }
            case HitResult::Kind::Counter: {
                const TimelineRow& r = s.layout.rows()[std::size_t(hit.row)];
                const model::CounterTrack& c = s.trace->counters()[r.counter];
                text = QStringLiteral("<b>%1</b><br>%2 at %3")
                           .arg(r.title.toHtmlEscaped())
                           .arg(units::counterValue(hit.counterValue, s.trace->str(c.unitId),
                                                    c.derived ? 0 : 2))
                           .arg(formatDuration(hit.timeNs));
                if (const std::string_view about = s.trace->str(c.descriptionId); !about.empty())
                    text += QStringLiteral("<br><br>%1")
                                .arg(QString::fromUtf8(about.data(), qsizetype(about.size()))
                                         .toHtmlEscaped());
                break;
            }
            case HitResult::Kind::None:
                break;
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateScrollBar();
}

// ---- painting ----------------------------------------------------------------------------------

const DrawList& TimelineView::drawList() const {
    State& s = *m_state;
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    const CacheKey key{s.trace.get(), s.layoutVersion, s.overlayVersion, map.startNs(),
                       map.endNs(),   area.width(),    s.vbar->value(),  area.height()};
    if (!s.cacheKey || !(*s.cacheKey == key)) {
        DrawListRequest request;
        request.trace = s.trace.get();
        request.layout = &s.layout;
        request.overlays = &s.overlays;
        request.counters = &s.counters;
        request.lanes = &s.lanes;
        request.mapper = map;
        request.scrollYPx = s.vbar->value();
        request.viewportHeightPx = area.height();
        s.cached = s.builder.build(request);
        s.cacheKey = key;
    }
    return s.cached;
}

void TimelineView::paintEvent(QPaintEvent*) {
    const State& s = *m_state;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), QColor::fromRgb(Palette::kBackground));
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    const RulerTicks ticks = computeRulerTicks(map);

    if (!s.trace) {
        paintRuler(p, map, ticks);
        p.setPen(QColor::fromRgb(Palette::kRulerText));
        p.drawText(area, Qt::AlignCenter, tr("No trace loaded"));
        paintLegend(p);
        return;
    }

    paintRowBackgrounds(p, area);
    // Faint grid lines at the ruler's ticks, under the slices.
    p.setPen(QColor::fromRgb(Palette::kGridLine));
    for (model::TimeNs t : ticks.ticksNs) {
        const int x = area.left() + int(std::lround(map.xForNs(t)));
        p.drawLine(x, area.top(), x, area.bottom());
    }

    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    s.painter.paint(p, drawList());
    paintSearchMatches(p);
    paintDependencies(p, map);
    paintSelection(p, map);
    p.restore();

    paintHeaders(p, area);
    paintRuler(p, map, ticks);
    paintTimeRanges(p, area, map);
    paintTimeCursor(p, area, map);
    paintLegend(p);
}

void TimelineView::paintRowBackgrounds(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    for (int ri = std::max(0, s.layout.rowAt(scroll)); ri < int(s.layout.rows().size()); ++ri) {
        const TimelineRow& row = s.layout.rows()[std::size_t(ri)];
        const int y = area.top() + row.yPx - scroll;
        if (y > area.bottom()) {
            break;
        }
        const QRect band(0, y, area.right() + 1, row.heightPx);
        if (row.kind == RowKind::Process) {
            p.fillRect(band, QColor::fromRgb(Palette::kProcessBand));
        } else if (ri % 2 == 0) {  // by row index, so stripes do not swap while scrolling
            p.fillRect(band.adjusted(kHeaderWidthPx, 0, 0, 0),
                       QColor::fromRgb(Palette::kRowStripe));
        }
    }
}

void TimelineView::paintHeaders(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    p.save();
    p.setClipRect(QRect(0, area.top(), kHeaderWidthPx, area.height()));
    p.fillRect(QRect(0, area.top(), kHeaderWidthPx, area.height()),
               QColor::fromRgb(Palette::kHeaderBackground));
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics normalMetrics(font());
    const QFontMetrics boldMetrics(bold);
    for (int ri = std::max(0, s.layout.rowAt(scroll)); ri < int(s.layout.rows().size()); ++ri) {
        const TimelineRow& row = s.layout.rows()[std::size_t(ri)];
        const int y = area.top() + row.yPx - scroll;
        if (y > area.bottom()) {
            break;
        }
        const bool process = row.kind == RowKind::Process;
        if (process) {
            p.fillRect(QRect(0, y, kHeaderWidthPx, row.heightPx),
                       QColor::fromRgb(Palette::kProcessBand));
        }
        int x = 6 + row.indent * 14;
        const int lineH = process ? row.heightPx
                                  : std::min(row.heightPx, TimelineLayout::kLaneHeightPx +
                                                               2 * TimelineLayout::kRowPaddingPx);
        if (row.collapsible) {
            // A small triangle: pointing right when collapsed, down when open.
            const int cx = x + 4;
            const int cy = y + lineH / 2;
            QPolygon arrow;
            if (row.collapsed) {
                arrow << QPoint(cx - 3, cy - 5) << QPoint(cx + 3, cy) << QPoint(cx - 3, cy + 5);
            } else {
                arrow << QPoint(cx - 5, cy - 3) << QPoint(cx + 5, cy - 3) << QPoint(cx, cy + 3);
            }
            p.setPen(Qt::NoPen);
            p.setBrush(QColor::fromRgb(Palette::kHeaderText));
            p.drawPolygon(arrow);
        }
        x += 14;
        QString title = row.title;
        if (row.kind == RowKind::Track && row.laneCount > 1 && row.collapsed) {
            title += QStringLiteral("  (%1 lanes)").arg(row.laneCount);
        }
        const QFontMetrics& fm = process ? boldMetrics : normalMetrics;
        p.setFont(process ? bold : font());
        p.setPen(QColor::fromRgb(Palette::kHeaderText));
        p.drawText(QRect(x, y, kHeaderWidthPx - x - 6, lineH), Qt::AlignVCenter | Qt::AlignLeft,
                   fm.elidedText(title, Qt::ElideRight, kHeaderWidthPx - x - 6));
        if (row.kind == RowKind::Counter) {
            // The row's scale, top right of its header: what a full-height column means.
            const model::CounterTrack& c = s.trace->counters()[row.counter];
            const std::string_view unit = s.trace->str(c.unitId);
            QFont small = font();
            small.setPointSizeF(7.5);
            p.setFont(small);
            p.setPen(QColor(0x6a, 0x75, 0x80));
            p.drawText(
                QRect(x, y + lineH - 4, kHeaderWidthPx - x - 8, row.heightPx - lineH),
                Qt::AlignTop | Qt::AlignLeft,
                unit == "B"
                    ? tr("scale %1 – %2")
                          .arg(units::counterValue(s.counters.minValue(row.counter), unit, 0))
                          .arg(units::counterValue(s.counters.scaleMax(row.counter), unit, 0))
                    : tr("scale %1 – %2 %3")
                          .arg(s.counters.minValue(row.counter), 0, 'g', 3)
                          .arg(s.counters.scaleMax(row.counter), 0, 'g', 4)
                          .arg(QString::fromUtf8(unit.data(), qsizetype(unit.size()))));
        }
        // Separator under each row.
        p.setPen(QColor::fromRgb(Palette::kGridLine));
        p.drawLine(0, y + row.heightPx - 1, kHeaderWidthPx, y + row.heightPx - 1);
    }
    p.restore();
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(kHeaderWidthPx - 1, area.top(), kHeaderWidthPx - 1, area.bottom());
}

void TimelineView::paintRuler(QPainter& p, const TimeMapper& map, const RulerTicks& ticks) const {
    const QRect ruler(0, 0, width(), kRulerHeightPx);
    p.fillRect(ruler, QColor::fromRgb(Palette::kRulerBackground));
    p.setFont(font());
    p.setPen(QColor::fromRgb(Palette::kRulerText));
    // Over the header column: the visible duration.
    p.drawText(QRect(8, 0, kHeaderWidthPx - 16, kRulerHeightPx), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Visible: %1").arg(formatDuration(map.durationNs())));
    p.save();
    p.setClipRect(QRect(kHeaderWidthPx, 0, map.widthPx(), kRulerHeightPx));
    const model::TimeNs magnitude = std::max(std::abs(map.startNs()), std::abs(map.endNs()));
    for (model::TimeNs t : ticks.ticksNs) {
        const int x = kHeaderWidthPx + int(std::lround(map.xForNs(t)));
        p.drawLine(x, kRulerHeightPx - 10, x, kRulerHeightPx - 1);
        // Minor ticks at fifths of the step.
        for (int k = 1; k < 5; ++k) {
            const int xm = kHeaderWidthPx + int(std::lround(map.xForNs(t + ticks.stepNs * k / 5)));
            p.drawLine(xm, kRulerHeightPx - 4, xm, kRulerHeightPx - 1);
        }
        p.drawText(QRect(x + 3, 2, 200, kRulerHeightPx - 12), Qt::AlignLeft | Qt::AlignVCenter,
                   formatTickLabel(t, ticks.stepNs, magnitude));
    }
    if (!ticks.ticksNs.empty()) {
        // Minor ticks before the first major tick.
        const model::TimeNs t = ticks.ticksNs.front() - ticks.stepNs;
        for (int k = 1; k < 5; ++k) {
            const int xm = kHeaderWidthPx + int(std::lround(map.xForNs(t + ticks.stepNs * k / 5)));
            p.drawLine(xm, kRulerHeightPx - 4, xm, kRulerHeightPx - 1);
        }
    }
    p.restore();
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(0, kRulerHeightPx - 1, width(), kRulerHeightPx - 1);
}

void TimelineView::paintLegend(QPainter& p) const {
    const int heightPx = legendHeightPx(this);
    const QRect legend(0, height() - heightPx, width(), heightPx);
    p.fillRect(legend, QColor::fromRgb(Palette::kRulerBackground));
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(legend.topLeft(), legend.topRight());
    p.setFont(legendFont(this));
    const QFontMetrics fm(p.font());
    for (const LegendItem& item : legendItems(this)) {
        const Palette::LegendEntry& e = *item.entry;
        const int x = item.x;
        const int cy = legend.top() + kLegendPadPx / 2 + item.line * kLegendLineHeightPx +
                       kLegendLineHeightPx / 2;
        const QRect swatch(x, cy - 6, 12, 12);
        if (e.color == Palette::kLowFillMark) {
            TimelinePainter::paintLowFillMark(p, QPoint(x + 2, cy - 4));
        } else if (e.hatched) {
            p.fillRect(swatch, QBrush(QColor::fromRgb(e.color), Qt::BDiagPattern));
            p.setPen(QColor::fromRgb(e.color));
            p.setBrush(Qt::NoBrush);
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        } else {
            p.fillRect(swatch, QColor::fromRgb(e.color));
        }
        p.setPen(QColor::fromRgb(Palette::kRulerText));
        p.drawText(QPoint(x + 16, cy + fm.ascent() / 2 - 1), e.label);
    }
}

void TimelineView::paintTimeRanges(QPainter& p, const QRect& area, const TimeMapper& map) const {
    const State& s = *m_state;
    const auto xOf = [&](model::TimeNs t) {
        return area.left() +
               int(std::lround(std::clamp(map.xForNs(t), -1.0, double(area.width() + 1))));
    };
    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), area.bottom() + 1));
    // The analysis window: a bar along the ruler's foot over each part.
    for (const model::TimeRange& part : s.analysisWindow) {
        const int x0 = xOf(part.startNs);
        const int x1 = xOf(part.endNs);
        if (x1 < area.left() || x0 > area.right()) {
            continue;
        }
        p.fillRect(QRect(x0, kRulerHeightPx - 5, std::max(1, x1 - x0), 4),
                   QColor::fromRgb(Palette::kAnalysisWindow));
    }
    // The time selection: a translucent band over the rows, its duration on the ruler.
    if (s.timeSelection && !s.timeSelection->empty()) {
        const int x0 = xOf(s.timeSelection->startNs);
        const int x1 = xOf(s.timeSelection->endNs);
        QColor band = QColor::fromRgb(Palette::kAnalysisWindow);
        band.setAlpha(40);
        p.fillRect(QRect(x0, area.top(), std::max(1, x1 - x0), area.height()), band);
        p.setPen(QColor::fromRgb(Palette::kAnalysisWindow));
        p.drawLine(x0, 0, x0, area.bottom());
        p.drawLine(x1, 0, x1, area.bottom());
        const QString label = formatDuration(s.timeSelection->durationNs());
        const QFontMetrics fm(font());
        QRect box(0, 2, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 10);
        box.moveLeft(std::clamp((x0 + x1) / 2 - box.width() / 2, area.left(),
                                std::max(area.left(), area.right() - box.width())));
        p.fillRect(box, QColor::fromRgb(Palette::kAnalysisWindow));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

std::optional<QRectF> TimelineView::sliceRect(model::SliceRef ref, const TimeMapper& map) const {
    const State& s = *m_state;
    const model::Slice& slice = s.trace->slice(ref);
    const std::optional<int> y = s.layout.laneY(s.layout.rowOfTrack(ref.track), slice.depth);
    if (!y) {
        return std::nullopt;
    }
    // Far-off coordinates are clamped: QPainter works in ints underneath.
    const double x0 = std::clamp(map.xForNs(slice.startNs), -1e5, 1e5);
    const double x1 = std::clamp(map.xForNs(slice.endNs()), -1e5, 1e5);
    return QRectF(x0, *y - s.vbar->value() + 1, std::max(x1 - x0, 2.0),
                  TimelineLayout::kLaneHeightPx - 2);
}

// Waits through CUDA events: from the end of the op waited for to the start of the waiter.
void TimelineView::paintDependencies(QPainter& p, const TimeMapper& map) const {
    const State& s = *m_state;
    auto paintOne = [&](const model::Dependency& d, double widthPx) {
        const std::optional<QRectF> from = sliceRect(d.from, map);
        const std::optional<QRectF> to = sliceRect(d.to, map);
        if (from && to) {
            const QRectF fromEnd(from->right(), from->top(), 0, from->height());
            paintArrow(p, fromEnd, *to, QColor::fromRgb(Palette::kDependencyArrow), widthPx);
        }
    };
    if (s.showDependencies) {
        constexpr std::size_t kMaxArrows = 2000;
        for (const model::Dependency& d :
             dependenciesInView(*s.trace, visibleStartNs(), visibleEndNs(), kMaxArrows)) {
            paintOne(d, 1.2);
        }
    }
    // The selected op's own waits stand out, shown or not.
    if (s.selected.valid()) {
        for (const model::Dependency& d : s.trace->dependenciesTo(s.selected))
            paintOne(d, 2.4);
        for (const model::Dependency& d : s.trace->dependenciesFrom(s.selected))
            paintOne(d, 2.4);
    }
}

void TimelineView::paintSelection(QPainter& p, const TimeMapper& map) const {
    const State& s = *m_state;
    if (!s.selected.valid()) {
        return;
    }
    const std::optional<QRectF> selected = sliceRect(s.selected, map);
    if (selected) {
        const QRect r = selected->toAlignedRect();
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 1));
        p.drawRect(r.adjusted(-2, -2, 1, 1));
        p.setPen(QPen(QColor::fromRgb(Palette::kSelection), 2));
        p.drawRect(r.adjusted(-1, -1, 0, 0));
    }
    // The launch arrow: from the API call to its GPU work, whichever end is selected.
    const model::Flow* flow = s.trace->flowTo(s.selected);
    if (!flow) {
        flow = s.trace->flowFrom(s.selected);
    }
    if (!flow) {
        return;
    }
    const std::optional<QRectF> from = sliceRect(flow->from, map);
    const std::optional<QRectF> to = sliceRect(flow->to, map);
    if (from && to) {
        paintArrow(p, *from, *to, QColor::fromRgb(Palette::kFlowArrow), 1.6);
    }
}

void TimelineView::paintTimeCursor(QPainter& p, const QRect& area, const TimeMapper& map) const {
    const State& s = *m_state;
    if (s.dragging || !area.contains(s.mousePos)) {
        return;
    }
    // A thin line through the rows and the pointer's time in the ruler.
    const int x = s.mousePos.x();
    p.setPen(QColor(0x30, 0x3a, 0x46, 150));
    p.drawLine(x, area.top(), x, area.bottom());
    const QString label = formatDuration(map.nsForX(x - area.left()));
    const QFontMetrics fm(font());
    QRect box(0, 3, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 8);
    box.moveLeft(std::min(x + 4, area.right() - box.width()));
    p.fillRect(box, QColor(0x30, 0x3a, 0x46));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

}  // namespace wl::ui
