#include "ui/timeline/TimelineView.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/common/ToolTips.h"
#include "ui/common/Units.h"
#include "ui/style/Palette.h"
#include "ui/timeline/DenseSpan.h"
#include "ui/timeline/FlowNavigation.h"
#include "ui/timeline/TimelineToolTips.h"

namespace wl::ui {

using namespace timeline_geometry;

namespace {

// revealSlice: a slice narrower than this is zoomed to kRevealWidthPx, so it can be seen and
// clicked; a wider one keeps the user's zoom.
constexpr double kMinRevealPx = 4.0;
constexpr double kRevealWidthPx = 60.0;

QFont withPointSize(QFont font, double pointSize) {
    font.setPointSizeF(pointSize);
    return font;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent),
      m_labelFont(withPointSize(font(), 8.0)),
      m_drawLists(m_labelFont),
      m_rowPainter(m_labelFont) {
    setFont(withPointSize(font(), 9.0));
    m_vbar = new QScrollBar(Qt::Vertical, this);
    connect(m_vbar, &QScrollBar::valueChanged, this, [this] { update(); });
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(kHeaderWidthPx + 200, kRulerHeightPx + kLegendLineHeightPx + kLegendPadPx + 60);
    wireCollaborators();
    setTimeScale(std::make_shared<TimeScale>());
}

TimelineView::~TimelineView() = default;

// What the collaborators ask of the widget: repaint, a cursor, a scroll, a layout, a signal.
void TimelineView::wireCollaborators() {
    const auto repaint = [this] { update(); };
    const auto setCursorShape = [this](Qt::CursorShape shape) { setCursor(shape); };
    const auto resetCursor = [this] { unsetCursor(); };
    connect(&m_input, &TimelineInputHandler::repaintNeeded, this, repaint);
    connect(&m_input, &TimelineInputHandler::cursorChanged, this, setCursorShape);
    connect(&m_input, &TimelineInputHandler::cursorReset, this, resetCursor);
    connect(&m_input, &TimelineInputHandler::scrollRequested, m_vbar, &QScrollBar::setValue);
    connect(&m_input, &TimelineInputHandler::timeRangeSelected, this,
            &TimelineView::timeRangeSelected);
    connect(&m_input, &TimelineInputHandler::timeSelectionCleared, this,
            &TimelineView::timeSelectionCleared);
    connect(&m_input, &TimelineInputHandler::flagDropRequested, this,
            [this](model::TimeNs t) { m_flags.drop(t); });
    connect(&m_input, &TimelineInputHandler::clicked, this, [this](QPoint at) {
        const HitResult hit = hitAt(at);
        selectSlice(hit.kind == HitResult::Kind::Slice ? hit.slice : model::SliceRef{});
    });
    connect(&m_flags, &TimelineFlagsController::changed, this, repaint);
    connect(&m_flags, &TimelineFlagsController::measureChanged, this,
            &TimelineView::measureChanged);
    connect(&m_rowHeaders, &TimelineRowHeaders::relayoutNeeded, this, [this] {
        rebuildLayout();
        update();
    });
    connect(&m_rowHeaders, &TimelineRowHeaders::arrangementChanged, this,
            &TimelineView::arrangementChanged);
    connect(&m_rowHeaders, &TimelineRowHeaders::repaintNeeded, this, repaint);
    connect(&m_rowHeaders, &TimelineRowHeaders::cursorChanged, this, setCursorShape);
    connect(&m_rowHeaders, &TimelineRowHeaders::cursorReset, this, resetCursor);
}

// ---- geometry ----------------------------------------------------------------------------------

int TimelineView::headerWidthPx() const {
    return kHeaderWidthPx;
}

const TimelineLayout& TimelineView::layout() const {
    return m_rows.layout();
}

// ---- trace, overlays, range --------------------------------------------------------------------

void TimelineView::setTrace(model::TracePtr trace) {
    const bool hadSelection = m_selection.slice.valid();
    m_trace = std::move(trace);
    m_selection.slice = {};
    m_rows.setTrace(m_trace.get());
    m_selection.time.reset();  // times of the previous trace
    m_selection.analysisWindow.clear();
    m_selection.search.reset();       // slices of the previous trace
    m_flags.setTrace(m_trace.get());  // times of the previous trace
    m_rowHeaders.setTrace(m_trace.get());
    // Overlays address slices of the previous trace: they go with it.
    m_overlays.build(m_trace.get(), {});
    ++m_overlayVersion;
    m_counters.build(m_trace.get());
    m_lanes.build(m_trace.get());
    m_drawLists.invalidate();
    rebuildLayout();
    m_vbar->setValue(0);
    if (m_trace) {
        m_viewport.includeTrace(m_trace->spanNs());
    }
    fitDense();
    if (hadSelection) {
        emit sliceSelected({});
    }
    m_flags.updateMeasure();
    update();
}

model::TracePtr TimelineView::trace() const {
    return m_trace;
}

void TimelineView::setFullKernelNames(bool full) {
    if (full == m_overlays.fullKernelNames()) {
        return;
    }
    m_overlays.setFullKernelNames(full);
    m_drawLists.invalidate();  // the labels change, nothing else
    update();
}

bool TimelineView::fullKernelNames() const {
    return m_overlays.fullKernelNames();
}

void TimelineView::setShowDependencies(bool show) {
    if (show != m_showDependencies) {
        m_showDependencies = show;
        update();
    }
}

bool TimelineView::showDependencies() const {
    return m_showDependencies;
}

void TimelineView::setOverlays(TimelineOverlays overlays) {
    m_overlays.build(m_trace.get(), std::move(overlays));
    ++m_overlayVersion;
    rebuildLayout();  // the device idle-gap rows depend on the overlays
    update();
}

const TimelineOverlays& TimelineView::overlays() const {
    return m_overlays.overlays();
}

model::TimeNs TimelineView::visibleStartNs() const {
    return m_viewport.startNs();
}

model::TimeNs TimelineView::visibleEndNs() const {
    return m_viewport.endNs();
}

void TimelineView::setVisibleRange(model::TimeNs startNs, model::TimeNs endNs) {
    m_viewport.setRange(startNs, endNs);
}

void TimelineView::fitAll() {
    const model::Trace* trace = m_trace.get();
    const model::TimeNs span = trace ? std::max<model::TimeNs>(trace->spanNs(), 1000) : 1000000;
    m_viewport.fit(0, span, std::max<model::TimeNs>(span / 100, 1));
}

void TimelineView::fitDense() {
    const model::Trace* trace = m_trace.get();
    if (!trace) {
        fitAll();
        return;
    }
    const model::TimeRange dense = denseSpan(*trace);
    const model::TimeNs span = std::max<model::TimeNs>(dense.durationNs(), 1000);
    m_viewport.fit(dense.startNs, dense.startNs + span, std::max<model::TimeNs>(span / 100, 1));
}

void TimelineView::fitSelection() {
    if (!m_trace || !m_selection.slice.valid()) {
        fitAll();
        return;
    }
    const model::Slice& slice = m_trace->slice(m_selection.slice);
    m_viewport.fit(slice.startNs, slice.endNs(),
                   std::max<model::TimeNs>(slice.durationNs / 10, 50));
}

void TimelineView::zoomToSlices(const std::vector<model::SliceRef>& refs) {
    if (!m_trace || refs.empty()) {
        return;
    }
    model::TimeNs lo = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs hi = std::numeric_limits<model::TimeNs>::min();
    bool any = false;
    for (const model::SliceRef& ref : refs) {
        if (!isValidRef(ref)) {
            continue;
        }
        const model::Slice& slice = m_trace->slice(ref);
        lo = std::min(lo, slice.startNs);
        hi = std::max(hi, slice.endNs());
        any = true;
    }
    if (!any) {
        return;
    }
    selectSlice(refs.front());
    m_viewport.fit(lo, hi, std::max<model::TimeNs>((hi - lo) / 20, 50));
}

void TimelineView::setTimeScale(std::shared_ptr<TimeScale> scale) {
    if (m_scaleConnection) {
        disconnect(m_scaleConnection);
    }
    m_viewport.setScale(std::move(scale));
    if (m_trace) {
        m_viewport.includeTrace(m_trace->spanNs());
    }
    m_scaleConnection = connect(m_viewport.scale().get(), &TimeScale::rangeChanged, this, [this] {
        update();
        emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
    });
    update();
}

std::shared_ptr<TimeScale> TimelineView::timeScale() const {
    return m_viewport.scale();
}

void TimelineView::setTimeOffsetNs(model::TimeNs offsetNs) {
    if (offsetNs == m_viewport.offsetNs()) {
        return;
    }
    m_viewport.setOffsetNs(offsetNs);
    if (m_trace) {
        m_viewport.includeTrace(m_trace->spanNs());
    }
    update();
    emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
}

model::TimeNs TimelineView::timeOffsetNs() const {
    return m_viewport.offsetNs();
}

// ---- selection ---------------------------------------------------------------------------------

bool TimelineView::isValidRef(model::SliceRef ref) const {
    const model::Trace* trace = m_trace.get();
    return trace && ref.valid() && ref.track < trace->tracks().size() &&
           ref.index < trace->track(ref.track).slices.size();
}

void TimelineView::selectSlice(model::SliceRef ref) {
    if (!isValidRef(ref)) {
        ref = {};
    }
    if (ref.valid()) {
        // Open whatever hides the slice, then bring its lane into view.
        const model::Slice& slice = m_trace->slice(ref);
        if (m_rows.unfoldFor(ref.track, slice.depth)) {
            rebuildLayout();
        }
        if (m_rows.layout().rowOfTrack(ref.track) < 0) {
            m_rowHeaders.unhideRowOf(
                ref.track);  // the user arranged it away; what they asked for shows it
        }
        const int row = m_rows.layout().rowOfTrack(ref.track);
        if (const std::optional<int> y = m_rows.layout().laneY(row, slice.depth)) {
            const int viewH = timeArea().height();
            const int scroll = m_vbar->value();
            // The top band may hold a group's sticky title, which would cover the lane.
            const int visibleTop = scroll > 0 ? scroll + TimelineLayout::kProcessHeightPx : 0;
            if (*y < visibleTop || *y + TimelineLayout::kLaneHeightPx > scroll + viewH) {
                m_vbar->setValue(std::max(0, *y - viewH / 3));
            }
        }
        // And into the visible time, at the same zoom ("Launched by" in the details may point
        // far away).
        m_viewport.panToShow(slice.startNs, slice.endNs());
    }
    if (ref == m_selection.slice) {
        return;
    }
    m_selection.slice = ref;
    update();
    emit sliceSelected(ref);
}

void TimelineView::revealProcess(model::ProcessIndex process) {
    if (!m_trace || process >= m_trace->processes().size())
        return;
    if (m_rows.unfoldProcess(process))
        rebuildLayout();
    for (const TimelineRow& row : m_rows.layout().rows()) {
        if (row.kind == RowKind::Process && row.process == process) {
            m_vbar->setValue(row.yPx);
            break;
        }
    }
    update();
}

model::SliceRef TimelineView::selectedSlice() const {
    return m_selection.slice;
}

void TimelineView::revealSlice(model::SliceRef ref) {
    if (!isValidRef(ref)) {
        selectSlice({});
        return;
    }
    const model::Slice& slice = m_trace->slice(ref);
    m_viewport.reveal(slice.startNs, slice.endNs(), timeArea().width(), kMinRevealPx,
                      kRevealWidthPx);
    selectSlice(ref);  // its row into view; the time needs no more panning
}

bool TimelineView::followRelation(Relation relation) {
    if (!m_trace || !m_selection.slice.valid()) {
        return false;
    }
    model::SliceRef target;
    switch (relation) {
        case Relation::Launch:
            target = FlowNavigation::launchPartner(*m_trace, m_selection.slice);
            break;
        case Relation::WaitedFor:
            target = FlowNavigation::waitedFor(*m_trace, m_selection.slice);
            break;
        case Relation::AwaitedBy:
            target = FlowNavigation::awaitedBy(*m_trace, m_selection.slice);
            break;
    }
    if (!isValidRef(target)) {
        return false;
    }
    revealSlice(target);
    return true;
}

void TimelineView::setSearchMatches(SearchMatchesPtr matches) {
    m_selection.search = std::move(matches);
    update();
}

const SearchMatchesPtr& TimelineView::searchMatches() const {
    return m_selection.search;
}

std::vector<QRect> TimelineView::searchMatchRects() const {
    return m_framePainter.searchMatchRects(frame());
}

void TimelineView::rebuildLayout() {
    m_rows.rebuild(m_overlays.devicesWithGaps());
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    const int viewH = std::max(1, height() - kRulerHeightPx - legendHeightPx(font(), width()));
    const int maxScroll = std::max(0, m_rows.layout().totalHeightPx() - viewH);
    m_vbar->setRange(0, maxScroll);
    m_vbar->setPageStep(viewH);
    m_vbar->setSingleStep(TimelineLayout::kLaneHeightPx);
    m_vbar->setVisible(maxScroll > 0);
    const int barW = m_vbar->sizeHint().width();
    m_vbar->setGeometry(width() - barW, kRulerHeightPx, barW, viewH);
}

std::optional<model::TimeRange> TimelineView::timeSelection() const {
    return m_selection.time;
}

const std::vector<model::TrackIndex>& TimelineView::selectedTracks() const {
    return m_selection.tracks;
}

void TimelineView::setTimeSelection(std::optional<model::TimeRange> range) {
    m_selection.time = range;
    m_selection.tracks.clear();  // every row
    m_flags.updateMeasure();
    update();
}

void TimelineView::setAnalysisWindow(std::vector<model::TimeRange> parts) {
    m_selection.analysisWindow = std::move(parts);
    update();
}

// ---- flags (TimelineFlagsController) -----------------------------------------------------------

const FlagSet& TimelineView::flags() const {
    return m_flags.flags();
}

int TimelineView::dropFlag(model::TimeNs timeNs, QString name) {
    return m_flags.drop(timeNs, std::move(name));
}

void TimelineView::markFlags() {
    m_flags.mark();
}

bool TimelineView::renameFlag(int id, const QString& name) {
    return m_flags.rename(id, name);
}

bool TimelineView::removeFlag(int id) {
    return m_flags.remove(id);
}

void TimelineView::clearFlags() {
    m_flags.clear();
}

void TimelineView::setReferenceFlag(std::optional<int> id) {
    m_flags.setReference(id);
}

bool TimelineView::jumpToFlag(bool forward) {
    return m_flags.jump(forward);
}

QString TimelineView::measureText() const {
    return m_flags.measureText();
}

RulerOrigin TimelineView::currentRulerOrigin() const {
    const TimeMapper map = mapper();
    return m_flags.rulerOrigin(map, m_flags.rulerTicks(map));
}

QRect TimelineView::timeArea() const {
    const int barW = m_vbar->isHidden() ? 0 : m_vbar->width();
    return QRect(kHeaderWidthPx, kRulerHeightPx, std::max(1, width() - kHeaderWidthPx - barW),
                 std::max(1, height() - kRulerHeightPx - legendHeightPx(font(), width())));
}

TimeMapper TimelineView::mapper() const {
    return m_viewport.mapper(timeArea().width());
}

TimelineFrame TimelineView::frame() const {
    return {size(), timeArea(), mapper(), m_vbar->value(), font(), m_trace.get(), &m_rows.layout()};
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateScrollBar();
}

// ---- input: TimelineInputHandler, TimelineRowHeaders and the flags take the events --------------

bool TimelineView::handleKey(int key) {
    if (m_input.handleZoomPanKey(key, frame())) {
        return true;  // W/S zoom at the pointer, A/D pan
    }
    switch (key) {
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
            return m_flags.handleKey(key);  // M, '.', ','
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
    m_input.wheel(event->angleDelta(), event->modifiers(), event->position().x(), frame());
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    const QPoint p = event->position().toPoint();
    m_input.setPointer(p);
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (m_rowHeaders.press(p, frame())) {
        return;  // a click collapses or expands the row, a drag moves it
    }
    m_input.press(p, event->modifiers(), frame());
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint p = event->position().toPoint();
    if (m_rowHeaders.drag(p, frame())) {
        m_input.setPointer(p);
        return;
    }
    m_input.move(p, frame());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint p = event->position().toPoint();
    if (event->button() == Qt::LeftButton && m_rowHeaders.release(p, frame())) {
        return;
    }
    if (event->button() != Qt::LeftButton || !m_input.release(p, event->modifiers(), frame())) {
        QWidget::mouseReleaseEvent(event);
    }
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    if (m_rowHeaders.contextMenu(event->pos(), event->globalPos(), frame(), this)) {
        event->accept();
        return;
    }
    if (m_flags.showRulerMenu(event->pos(), event->globalPos(), frame(), this)) {
        event->accept();
        return;
    }
    const HitResult hit = hitAt(event->pos());
    if (hit.kind != HitResult::Kind::Slice) {
        QWidget::contextMenuEvent(event);
        return;
    }
    selectSlice(hit.slice);
    emit sliceContextMenuRequested(hit.slice, event->globalPos());
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const Flag* flag = event->button() == Qt::LeftButton
                           ? m_flags.flagAt(event->position().toPoint(), frame())
                           : nullptr;
    if (!flag) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    m_input.cancelPress();  // the second press is the dialog's, not a drag's
    m_flags.promptRename(flag->id, this);
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event) {
    m_input.leave();  // hides the time cursor
    QWidget::leaveEvent(event);
}

HitResult TimelineView::hitAt(QPoint widgetPos) const {
    const QRect area = timeArea();
    if (!m_trace || !area.contains(widgetPos)) {
        return {};
    }
    return hitTest(*m_trace, m_rows.layout(), &m_overlays, mapper(), widgetPos.x() - area.left(),
                   widgetPos.y() - area.top() + m_vbar->value());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) {
        const bool handled = QWidget::event(event);
        switch (event->type()) {  // the pointer, a drag's selection: what is measured
            case QEvent::MouseMove:
            case QEvent::MouseButtonRelease:
            case QEvent::Leave:
            case QEvent::KeyPress:
                m_flags.updateMeasure();
                break;
            default:
                break;
        }
        return handled;
    }
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint p = help->pos();
    QString text = m_flags.toolTipAt(p, frame());  // a flag's pennant on the ruler
    if (!text.isEmpty()) {
    } else if (m_trace && p.x() < kHeaderWidthPx && p.y() >= kRulerHeightPx) {
        const int row = m_rows.layout().rowAt(frame().contentYAt(p.y()));
        if (row >= 0)
            text = rowHeaderTooltip(m_rows.layout().rows()[std::size_t(row)]);
    } else if (const HitResult hit = hitAt(p); hit.kind != HitResult::Kind::None) {
        text = hitTooltip(*m_trace, m_rows.layout(), m_overlays, hit);
    }
    return showToolTipOrHide(help, text, this);
}

// ---- painting: the layers in order (TimelineFramePainter, TimelinePainter, the flags) -----------

DrawListCache& TimelineView::drawLists() const {
    const QRect area = timeArea();
    const TimeMapper map = mapper();
    DrawListRequest request;
    request.trace = m_trace.get();
    request.layout = &m_rows.layout();
    request.overlays = &m_overlays;
    request.counters = &m_counters;
    request.lanes = &m_lanes;
    request.mapper = map;
    m_drawLists.setInputs(request, {m_trace.get(), m_rows.version(), m_overlayVersion,
                                    map.startNs(), map.endNs(), area.width()});
    return m_drawLists;
}

DrawList TimelineView::currentDrawList() const {
    return drawLists().frame(m_vbar->value(), timeArea().height());
}

std::uint64_t TimelineView::drawListBuilds() const {
    return m_drawLists.buildCount();
}

// Each visible row's list where its row is now: a scroll moves them, builds none.
void TimelineView::paintDrawLists(QPainter& p, const QRect& area) const {
    DrawListCache& lists = drawLists();
    const int scroll = m_vbar->value();
    const auto [first, last] = lists.rowsIn(scroll, area.height());
    for (int r = first; r < last; ++r) {
        const DrawList& list = lists.row(r);
        if (list.empty()) {
            continue;
        }
        const int dy = m_rows.layout().rows()[std::size_t(r)].yPx - scroll;
        p.translate(0, dy);
        m_rowPainter.paint(p, list);
        p.translate(0, -dy);
    }
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), QColor::fromRgb(Palette::kBackground));
    const TimelineFrame f = frame();
    const RulerTicks ticks = m_flags.rulerTicks(f.map);
    const RulerOrigin origin = m_flags.rulerOrigin(f.map, ticks);
    if (!m_trace) {
        m_framePainter.paintRuler(p, f, ticks, origin);
        m_framePainter.paintNoTrace(p, f);
        m_framePainter.paintLegend(p, f);
        return;
    }
    m_framePainter.paintRowBackgrounds(p, f, ticks);
    p.save();
    p.setClipRect(f.timeArea);
    p.translate(f.timeArea.topLeft());
    paintDrawLists(p, f.timeArea);
    m_framePainter.paintOverRows(p, f, m_showDependencies);
    p.restore();

    m_framePainter.paintHeaders(p, f);
    int stickyTopPx = 0;
    const int sticky = m_rowHeaders.stickyGroupRow(f.scrollPx, &stickyTopPx);
    m_framePainter.paintRowArrangement(p, f, sticky, stickyTopPx, m_rowHeaders.dropLineYPx());
    m_framePainter.paintRuler(p, f, ticks, origin);
    m_flags.paint(p, f);  // under the selection's duration
    m_framePainter.paintTimeRanges(p, f);
    if (!m_input.dragging()) {
        m_framePainter.paintTimeCursor(p, f, m_input.pointerPx());
    }
    m_framePainter.paintLegend(p, f);
}

// ---- rows the user arranges (TimelineRowHeaders) -----------------------------------------------

void TimelineView::setArrangement(RowArrangement arrangement) {
    m_rowHeaders.setArrangement(std::move(arrangement));
}

const RowArrangement& TimelineView::arrangement() const {
    return m_rows.arrangement();
}

void TimelineView::applyRowAction(RowAction action, int rowIndex) {
    m_rowHeaders.applyRowAction(action, rowIndex);
}

void TimelineView::showHiddenRow(const QString& identity) {
    m_rowHeaders.showHiddenRow(identity);
}

void TimelineView::setAllGroupsCollapsed(bool collapsed) {
    m_rowHeaders.setAllGroupsCollapsed(collapsed);
}

QMenu* TimelineView::rowHeaderMenu(int rowIndex, QWidget* parent) {
    return m_rowHeaders.menu(rowIndex, parent);
}

int TimelineView::headerRowAt(QPoint widgetPos) const {
    return m_rowHeaders.headerRowAt(widgetPos, m_vbar->value());
}

int TimelineView::stickyGroupRow(int* topPx) const {
    return m_rowHeaders.stickyGroupRow(m_vbar->value(), topPx);
}

}  // namespace wl::ui
