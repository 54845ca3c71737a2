#include "ui/timeline/TimelineView.h"

#include "ui/common/ToolTips.h"
#include "ui/timeline/TimelineViewState.h"

// The timeline's input: zoom and pan, keys, wheel, mouse, tooltips.
namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

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
            return m_state->flags->handleKey(key);  // M, '.', ','
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
    if (pressRowHeader(p)) {
        return;  // a click collapses or expands the row, a drag moves it (TimelineViewRows.cpp)
    }
    s.pressed = true;
    s.dragging = false;
    s.selectingRange = s.trace && p.x() >= kHeaderWidthPx &&
                       (p.y() < kRulerHeightPx || (event->modifiers() & Qt::ShiftModifier));
    s.rangeAnchorNs = nsAtX(p.x());
    s.selectingRows = s.selectingRange && p.y() >= kRulerHeightPx;
    s.rowsAnchorYPx = p.y() - kRulerHeightPx + s.vbar->value();
    s.selection.tracks.clear();
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
    if (dragRowHeader(p)) {
        return;
    }
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
        s.selection.time =
            model::TimeRange{std::min(s.rangeAnchorNs, t), std::max(s.rangeAnchorNs, t)};
        if (s.selectingRows)
            s.selection.selectRowsBetween(*s.trace, s.rows.layout(), s.rowsAnchorYPx,
                                          p.y() - kRulerHeightPx + s.vbar->value());
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
    if (event->button() == Qt::LeftButton && releaseRowHeader(event->position().toPoint())) {
        return;
    }
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
            if (s.selection.time && !s.selection.time->empty()) {
                emit timeRangeSelected(s.selection.time->startNs, s.selection.time->endNs);
            } else {
                s.selection.clearTime();
            }
            update();
        }
        return;
    }
    if (selecting && event->position().y() < kRulerHeightPx &&
        (event->modifiers() & Qt::ControlModifier)) {
        dropFlag(nsAtX(event->position().toPoint().x()));  // Ctrl+click on the ruler
        return;
    }
    if (selecting && event->position().y() < kRulerHeightPx) {
        // A click on the ruler clears the time selection.
        if (s.selection.time) {
            s.selection.clearTime();
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
    if (rowHeaderContextMenu(event)) {
        return;
    }
    if (m_state->flags->showRulerMenu(event->pos(), event->globalPos(), frame(), this)) {
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

model::TimeNs TimelineView::nsAtX(int widgetX) const {
    const TimeMapper map = mapper();
    const double x = std::clamp(double(widgetX - kHeaderWidthPx), 0.0, double(map.widthPx()));
    return std::clamp<model::TimeNs>(map.nsForX(x), 0,
                                     m_state->trace ? m_state->trace->spanNs() : 0);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const Flag* flag = event->button() == Qt::LeftButton
                           ? m_state->flags->flagAt(event->position().toPoint(), frame())
                           : nullptr;
    if (!flag) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    m_state->pressed = false;  // the second press is the dialog's, not a drag's
    m_state->flags->promptRename(flag->id, this);
    event->accept();
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
    return hitTest(*s.trace, s.rows.layout(), &s.overlays, mapper(), widgetPos.x() - area.left(),
                   widgetPos.y() - area.top() + s.vbar->value());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) {
        const bool handled = QWidget::event(event);
        switch (event->type()) {  // the pointer, a drag's selection: what is measured
            case QEvent::MouseMove:
            case QEvent::MouseButtonRelease:
            case QEvent::Leave:
            case QEvent::KeyPress:
                m_state->flags->updateMeasure();
                break;
            default:
                break;
        }
        return handled;
    }
    const State& s = *m_state;
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint p = help->pos();
    QString text = s.flags->toolTipAt(p, frame());
    if (!text.isEmpty()) {
        // A flag's pennant on the ruler.
    } else if (s.trace && p.x() < kHeaderWidthPx && p.y() >= kRulerHeightPx) {
        const int row = s.rows.layout().rowAt(p.y() - kRulerHeightPx + s.vbar->value());
        if (row >= 0) {
            const TimelineRow& r = s.rows.layout().rows()[std::size_t(row)];
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
                const TimelineRow& r = s.rows.layout().rows()[std::size_t(hit.row)];
                const model::CounterTrack& c = s.trace->counters()[r.counter];
                text = QStringLiteral("<b>%1</b><br>%2 at %3")
                           .arg(r.title.toHtmlEscaped())
                           .arg(units::counterValue(hit.counterValue, s.trace->str(c.unitId),
                                                    c.derived ? 0 : 2))
                           .arg(units::duration(hit.timeNs));
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
    return showToolTipOrHide(help, text, this);
}

}  // namespace wl::ui
