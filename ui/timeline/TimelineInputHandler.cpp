#include "ui/timeline/TimelineInputHandler.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wl::ui {

using namespace timeline_geometry;

TimelineInputHandler::TimelineInputHandler(TimeViewport& viewport, TimelineSelection& selection,
                                           QObject* parent)
    : QObject(parent), m_viewport(viewport), m_selection(selection) {}

std::optional<model::TimeNs> TimelineInputHandler::pointerTimeNs(const TimelineFrame& frame) const {
    if (!frame.timeArea.contains(m_pointerPx))
        return std::nullopt;
    return frame.timeAtX(m_pointerPx.x());
}

bool TimelineInputHandler::handleZoomPanKey(int key, const TimelineFrame& frame, bool autoRepeat) {
    if (key != Qt::Key_W && key != Qt::Key_S && key != Qt::Key_A && key != Qt::Key_D)
        return false;
    m_keyRepeats = autoRepeat && key == m_heldKey ? m_keyRepeats + 1 : 0;
    m_heldKey = key;
    const double steps = std::min(1.0 + m_keyRepeats / 4.0, double(kMaxKeySteps));
    const QRect& area = frame.timeArea;
    const double anchorX =
        area.contains(m_pointerPx) ? m_pointerPx.x() - area.left() : area.width() / 2.0;
    const double zoom = std::pow(kKeyZoomFactor, steps);
    // Panning keeps a little of the view in sight whatever the speed.
    const double pan = std::min(kKeyPanFraction * steps, 0.5);
    switch (key) {
        case Qt::Key_W:
            m_viewport.zoomAt(anchorX, area.width(), zoom);
            break;
        case Qt::Key_S:
            m_viewport.zoomAt(anchorX, area.width(), 1.0 / zoom);
            break;
        case Qt::Key_A:
            m_viewport.panBy(-pan);
            break;
        default:
            m_viewport.panBy(pan);
            break;
    }
    return true;
}

void TimelineInputHandler::press(QPoint p, Qt::KeyboardModifiers modifiers,
                                 const TimelineFrame& frame) {
    m_pointerPx = p;
    m_pressed = true;
    m_dragging = false;
    m_selectingRange = frame.trace && p.x() >= kHeaderWidthPx &&
                       (p.y() < kRulerHeightPx || (modifiers & Qt::ShiftModifier));
    m_rangeAnchorNs = frame.timeAtX(p.x());
    m_selectingRows = m_selectingRange && p.y() >= kRulerHeightPx;
    m_rowsAnchorYPx = frame.contentYAt(p.y());
    m_selection.tracks.clear();
    m_pressPx = p;
    m_pressStartNs = m_viewport.startNs();
    m_pressEndNs = m_viewport.endNs();
    m_pressScrollPx = frame.scrollPx;
}

void TimelineInputHandler::move(QPoint p, const TimelineFrame& frame) {
    const bool wasInside = frame.timeArea.contains(m_pointerPx);
    m_pointerPx = p;
    if (!m_pressed) {
        // The time cursor follows the pointer; the draw lists are cached, so this repaints
        // without rebuilding anything.
        if (wasInside || frame.timeArea.contains(p))
            emit repaintNeeded();
        return;
    }
    const QPoint d = p - m_pressPx;
    if (!m_dragging && d.manhattanLength() < kDragThresholdPx)
        return;
    m_dragging = true;
    if (m_selectingRange) {
        const model::TimeNs t = frame.timeAtX(p.x());
        m_selection.time =
            model::TimeRange{std::min(m_rangeAnchorNs, t), std::max(m_rangeAnchorNs, t)};
        if (m_selectingRows && frame.trace && frame.layout)
            m_selection.selectRowsBetween(*frame.trace, *frame.layout, m_rowsAnchorYPx,
                                          frame.contentYAt(p.y()));
        emit cursorChanged(Qt::IBeamCursor);
        emit repaintNeeded();
        return;
    }
    emit cursorChanged(Qt::ClosedHandCursor);
    // A drag pans time with the pointer and scrolls the rows vertically.
    const double nsPerPx =
        double(m_pressEndNs - m_pressStartNs) / std::max(1, frame.timeArea.width());
    const model::TimeNs shift = model::TimeNs(std::llround(d.x() * nsPerPx));
    m_viewport.setRange(m_pressStartNs - shift, m_pressEndNs - shift);
    emit scrollRequested(m_pressScrollPx - d.y());
}

bool TimelineInputHandler::release(QPoint p, Qt::KeyboardModifiers modifiers,
                                   const TimelineFrame& frame) {
    if (!m_pressed)
        return false;
    m_pressed = false;
    emit cursorReset();
    const bool selecting = std::exchange(m_selectingRange, false);
    if (std::exchange(m_dragging, false)) {
        if (selecting) {
            if (m_selection.time && !m_selection.time->empty())
                emit timeRangeSelected(m_selection.time->startNs, m_selection.time->endNs);
            else
                m_selection.clearTime();
            emit repaintNeeded();
        }
        return true;
    }
    if (selecting && p.y() < kRulerHeightPx && (modifiers & Qt::ControlModifier)) {
        emit flagDropRequested(frame.timeAtX(p.x()));
        return true;
    }
    if (selecting && p.y() < kRulerHeightPx) {
        // A click on the ruler clears the time selection.
        if (m_selection.time) {
            m_selection.clearTime();
            emit repaintNeeded();
            emit timeSelectionCleared();
        }
        return true;
    }
    emit clicked(p);  // select what is under the pointer, or clear the selection
    return true;
}

void TimelineInputHandler::leave() {
    m_pointerPx = QPoint(-1, -1);
    emit repaintNeeded();  // hide the time cursor
}

void TimelineInputHandler::wheel(QPoint delta, Qt::KeyboardModifiers modifiers, double widgetX,
                                 const TimelineFrame& frame) {
    const QRect& area = frame.timeArea;
    if (modifiers & Qt::ControlModifier) {
        const double x = std::clamp(widgetX - area.left(), 0.0, double(area.width()));
        // 120 units a notch; one notch zooms by the same step as one W press.
        m_viewport.zoomAt(x, area.width(), std::pow(kKeyZoomFactor, delta.y() / 120.0));
    } else if ((modifiers & Qt::ShiftModifier) || delta.x() != 0) {
        const int d = delta.x() != 0 ? delta.x() : delta.y();
        m_viewport.panBy(-kKeyPanFraction * d / 120.0);
    } else {
        emit scrollRequested(frame.scrollPx - delta.y() * 3 * TimelineLayout::kLaneHeightPx / 120);
    }
}

}  // namespace wl::ui
