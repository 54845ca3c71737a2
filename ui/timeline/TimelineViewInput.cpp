#include "ui/timeline/TimelineView.h"

#include "ui/common/ToolTips.h"
#include "ui/timeline/TimelineViewState.h"

// The timeline's input: zoom and pan, keys, wheel, mouse, tooltips.
namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

TimeMapper TimelineView::mapper() const {
    return m_state->viewport.mapper(timeAreaOf(this, m_state->vbar).width());
}

bool TimelineView::handleKey(int key) {
    if (m_state->input->handleZoomPanKey(key, frame())) {
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
    m_state->input->wheel(event->angleDelta(), event->modifiers(), event->position().x(), frame());
    event->accept();
}

// ---- mouse: the press/drag/select state is TimelineInputHandler's
// --------------------------------

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    const QPoint p = event->position().toPoint();
    m_state->input->setPointer(p);
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (pressRowHeader(p)) {
        return;  // a click collapses or expands the row, a drag moves it (TimelineViewRows.cpp)
    }
    m_state->input->press(p, event->modifiers(), frame());
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint p = event->position().toPoint();
    if (dragRowHeader(p)) {
        m_state->input->setPointer(p);
        return;
    }
    m_state->input->move(p, frame());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint p = event->position().toPoint();
    if (event->button() == Qt::LeftButton && releaseRowHeader(p)) {
        return;
    }
    if (event->button() != Qt::LeftButton ||
        !m_state->input->release(p, event->modifiers(), frame())) {
        QWidget::mouseReleaseEvent(event);
    }
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

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const Flag* flag = event->button() == Qt::LeftButton
                           ? m_state->flags->flagAt(event->position().toPoint(), frame())
                           : nullptr;
    if (!flag) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    m_state->input->cancelPress();  // the second press is the dialog's, not a drag's
    m_state->flags->promptRename(flag->id, this);
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event) {
    m_state->input->leave();  // hides the time cursor
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
