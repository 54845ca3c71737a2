#include "ui/timeline/TimelineView.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>

#include "ui/common/ToolTips.h"
#include "ui/style/Palette.h"

namespace wl::ui {

using namespace timeline_geometry;

namespace {

QFont withPointSize(QFont font, double pointSize) {
    font.setPointSizeF(pointSize);
    return font;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), m_content(withPointSize(font(), 8.0)) {
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
        const HitResult hit = m_content.hitAt(frame(), at);
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

// ---- trace, overlays, time range ----------------------------------------------------------------

void TimelineView::setTrace(model::TracePtr trace) {
    const bool hadSelection = m_selection.slice.valid();
    m_content.setTrace(std::move(trace));  // the overlays go with the previous trace
    const model::Trace* shown = m_content.trace().get();
    // The selection, the search's matches and the flags address the previous trace.
    m_selection.slice = {};
    m_selection.clearTime();  // the time and the rows selected with it
    m_selection.analysisWindow.clear();
    m_selection.search.reset();
    m_flags.setTrace(shown);
    m_rowHeaders.setTrace(shown);
    updateScrollBar();
    m_vbar->setValue(0);
    if (shown) {
        m_viewport.includeTrace(shown->spanNs());
    }
    fitDense();
    if (hadSelection) {
        emit sliceSelected({});
    }
    m_flags.updateMeasure();
    update();
}

void TimelineView::setFullKernelNames(bool full) {
    if (m_content.setFullKernelNames(full)) {
        update();
    }
}

void TimelineView::setShowDependencies(bool show) {
    if (m_content.setShowDependencies(show)) {
        update();
    }
}

void TimelineView::setOverlays(TimelineOverlays overlays) {
    m_content.setOverlays(std::move(overlays));
    updateScrollBar();  // the rows were laid out again: idle-gap rows come and go
    update();
}

void TimelineView::setVisibleRange(model::TimeNs startNs, model::TimeNs endNs) {
    m_viewport.setRange(startNs, endNs);
}

void TimelineView::setTimeScale(std::shared_ptr<TimeScale> scale) {
    // The previous scale, maybe still another view's, no longer moves this one.
    disconnect(m_viewport.scale().get(), nullptr, this, nullptr);
    m_viewport.setScale(std::move(scale));
    if (const model::Trace* shown = m_content.trace().get()) {
        m_viewport.includeTrace(shown->spanNs());
    }
    connect(m_viewport.scale().get(), &TimeScale::rangeChanged, this, [this] {
        update();
        emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
    });
    update();
}

void TimelineView::setTimeOffsetNs(model::TimeNs offsetNs) {
    if (offsetNs == m_viewport.offsetNs()) {
        return;
    }
    m_viewport.setOffsetNs(offsetNs);
    if (const model::Trace* shown = m_content.trace().get()) {
        m_viewport.includeTrace(shown->spanNs());
    }
    update();
    emit visibleRangeChanged(visibleStartNs(), visibleEndNs());
}

// ---- where the view goes (TimelineNavigator) ----------------------------------------------------

void TimelineView::fitAll() {
    m_navigator.fitAll();
}

void TimelineView::fitDense() {
    m_navigator.fitDense();
}

void TimelineView::fitSelection() {
    m_navigator.fitSlice(m_selection.slice);
}

void TimelineView::zoomToSlices(const std::vector<model::SliceRef>& refs) {
    const std::optional<model::TimeRange> span = m_navigator.spanOf(refs);
    if (!span) {
        return;
    }
    selectSlice(refs.front());
    m_navigator.fitSpan(*span);
}

void TimelineView::selectSlice(model::SliceRef ref) {
    if (!m_content.isValidRef(ref)) {
        ref = {};
    }
    if (ref.valid()) {
        m_navigator.openRowsOf(ref);
        if (const auto scroll =
                m_navigator.scrollToShow(ref, m_vbar->value(), timeArea().height())) {
            m_vbar->setValue(*scroll);
        }
        m_navigator.panToShow(ref);  // at the same zoom
    }
    if (ref == m_selection.slice) {
        return;
    }
    m_selection.slice = ref;
    update();
    emit sliceSelected(ref);
}

void TimelineView::revealSlice(model::SliceRef ref) {
    m_navigator.revealTime(ref, timeArea().width());
    selectSlice(ref);  // its row into view (an invalid ref clears); the time needs no more panning
}

void TimelineView::revealProcess(model::ProcessIndex process) {
    if (const std::optional<int> titleYPx = m_navigator.openProcess(process)) {
        m_vbar->setValue(*titleYPx);
        update();
    }
}

bool TimelineView::followRelation(Relation relation) {
    const model::SliceRef target = m_navigator.relationTarget(m_selection.slice, relation);
    if (!target.valid()) {
        return false;
    }
    revealSlice(target);
    return true;
}

// ---- marks: search matches, time selection, analysis window -------------------------------------

void TimelineView::setSearchMatches(SearchMatchesPtr matches) {
    m_selection.search = std::move(matches);
    update();
}

std::vector<QRect> TimelineView::searchMatchRects() const {
    return m_framePainter.searchMatchRects(frame());
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

// ---- flags and row headers at this view's frame and scroll --------------------------------------

RulerOrigin TimelineView::currentRulerOrigin() const {
    const TimeMapper map = mapper();
    return m_flags.rulerOrigin(map, m_flags.rulerTicks(map));
}

int TimelineView::headerRowAt(QPoint widgetPos) const {
    return m_rowHeaders.headerRowAt(widgetPos, m_vbar->value());
}

int TimelineView::stickyGroupRow(int* topPx) const {
    return m_rowHeaders.stickyGroupRow(m_vbar->value(), topPx);
}

// ---- geometry: the time area and the rows' scroll -----------------------------------------------

void TimelineView::rebuildLayout() {
    m_content.relayout();
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    const int viewH = std::max(1, height() - kRulerHeightPx - legendHeightPx(font(), width()));
    const int maxScroll = std::max(0, m_content.layout().totalHeightPx() - viewH);
    m_vbar->setRange(0, maxScroll);
    m_vbar->setPageStep(viewH);
    m_vbar->setSingleStep(TimelineLayout::kLaneHeightPx);
    m_vbar->setVisible(maxScroll > 0);
    const int barW = m_vbar->sizeHint().width();
    m_vbar->setGeometry(width() - barW, kRulerHeightPx, barW, viewH);
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
    return {size(),
            timeArea(),
            mapper(),
            m_vbar->value(),
            font(),
            m_content.trace().get(),
            &m_content.layout()};
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateScrollBar();
}

// ---- input: TimelineInputHandler, TimelineRowHeaders and the flags take the events --------------

bool TimelineView::handleKey(int key, bool autoRepeat) {
    // The window's menu shortcuts bring W/S/A/D here without their key events: a key that comes
    // again within a keyboard's auto-repeat interval is held down.
    constexpr qint64 kRepeatWithinMs = 120;
    const bool held = autoRepeat || (key == m_lastKey && m_keyClock.isValid() &&
                                     m_keyClock.elapsed() < kRepeatWithinMs);
    m_lastKey = key;
    m_keyClock.restart();
    if (m_input.handleZoomPanKey(key, frame(), held)) {
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
        !handleKey(event->key(), event->isAutoRepeat())) {
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
    const HitResult hit = m_content.hitAt(frame(), event->pos());
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
    const TimelineFrame f = frame();
    QString text = m_flags.toolTipAt(help->pos(), f);  // a flag's pennant on the ruler
    if (text.isEmpty()) {
        text = m_content.toolTipAt(f, help->pos());  // a row header, a slice, a gap, a counter
    }
    return showToolTipOrHide(help, text, this);
}

// ---- painting: the layers in order (TimelineFramePainter, TimelineContent, the flags) -----------

DrawList TimelineView::currentDrawList() const {
    return m_content.drawList(frame());
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), QColor::fromRgb(Palette::kBackground));
    const TimelineFrame f = frame();
    const RulerTicks ticks = m_flags.rulerTicks(f.map);
    const RulerOrigin origin = m_flags.rulerOrigin(f.map, ticks);
    if (!f.trace) {
        m_framePainter.paintRuler(p, f, ticks, origin);
        m_framePainter.paintNoTrace(p, f);
        m_framePainter.paintLegend(p, f);
        return;
    }
    m_framePainter.paintRowBackgrounds(p, f, ticks);
    p.save();
    p.setClipRect(f.timeArea);
    p.translate(f.timeArea.topLeft());
    m_content.paintRows(p, f);
    m_framePainter.paintOverRows(p, f, m_content.showDependencies());
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

}  // namespace wl::ui
