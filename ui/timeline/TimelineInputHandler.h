#pragma once

#include <QObject>
#include <QPoint>
#include <optional>

#include "model/Time.h"
#include "ui/timeline/TimeViewport.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineSelection.h"

namespace wl::ui {

// The timeline's pointer and what a press turns into: a click, a drag that pans time and scrolls
// the rows, a drag on the ruler (or with Shift) that selects a time range, and a shift-drag over
// rows that selects those rows with it; the wheel (scroll, Shift pans, Ctrl zooms at the pointer)
// and the zoom and pan keys (W/S/A/D). It moves the viewport and the selection it is given and
// tells the view the rest through signals, so that a test can drive it with synthetic points and a
// TimelineFrame alone. Row headers' presses are TimelineRowHeaders', not this. GUI thread only.
class TimelineInputHandler : public QObject {
    Q_OBJECT
public:
    static constexpr double kKeyZoomFactor = 0.8;   // W: 80% of the range; S: the inverse
    static constexpr double kKeyPanFraction = 0.1;  // A/D: a tenth of the range
    // A held key's repeats step further each time, up to this many steps at once (reached after
    // 4 * (kMaxKeySteps - 1) repeats, about half a second): an 800 ms trace's 1 us kernel is one
    // held W of about 20 repeats away, not 60 presses.
    static constexpr int kMaxKeySteps = 5;

    TimelineInputHandler(TimeViewport& viewport, TimelineSelection& selection,
                         QObject* parent = nullptr);

    // Where the pointer is in widget px; (-1, -1) once it has left the widget.
    QPoint pointerPx() const { return m_pointerPx; }
    void setPointer(QPoint widgetPos) { m_pointerPx = widgetPos; }
    // The time under the pointer, when it is over the time area.
    std::optional<model::TimeNs> pointerTimeNs(const TimelineFrame& frame) const;
    // A press became a drag: the time cursor is hidden while it lasts.
    bool dragging() const { return m_dragging; }

    // W/S zoom at the pointer (else at the middle), A/D pan; false for any other key. A key's
    // auto-repeats (held down) accelerate: 1 + repeats / 4 steps at once, at most kMaxKeySteps.
    bool handleZoomPanKey(int key, const TimelineFrame& frame, bool autoRepeat = false);
    // A left-button press at a widget point (not on a row header).
    void press(QPoint widgetPos, Qt::KeyboardModifiers modifiers, const TimelineFrame& frame);
    // The pointer moved: a hover repaints the time cursor, a press past the drag threshold
    // pans or selects.
    void move(QPoint widgetPos, const TimelineFrame& frame);
    // A left-button release; false when no press of this handler's was in progress. A drag ends
    // its selection (timeRangeSelected); a click on the ruler clears the time selection, or with
    // Ctrl asks for a flag (flagDropRequested); any other click is clicked().
    bool release(QPoint widgetPos, Qt::KeyboardModifiers modifiers, const TimelineFrame& frame);
    // The press is over without a click (a double-click's second press opened a dialog).
    void cancelPress() { m_pressed = false; }
    void leave();
    // The wheel by `angleDelta` (120 a notch) at widget x `widgetX`.
    void wheel(QPoint angleDelta, Qt::KeyboardModifiers modifiers, double widgetX,
               const TimelineFrame& frame);

signals:
    void repaintNeeded();
    void cursorChanged(Qt::CursorShape shape);
    void cursorReset();
    void scrollRequested(int scrollPx);  // the rows' new vertical scroll
    void timeRangeSelected(model::TimeNs startNs, model::TimeNs endNs);
    void timeSelectionCleared();
    void flagDropRequested(model::TimeNs timeNs);  // Ctrl+click on the ruler
    void clicked(QPoint widgetPos);                // select what is there

private:
    TimeViewport& m_viewport;
    TimelineSelection& m_selection;

    int m_heldKey = 0;     // the key whose auto-repeats are counted
    int m_keyRepeats = 0;  // how many in a row
    QPoint m_pointerPx{-1, -1};
    bool m_pressed = false;
    bool m_dragging = false;  // past the drag threshold
    QPoint m_pressPx;
    // The view when pressed: a drag pans from it.
    model::TimeNs m_pressStartNs = 0;
    model::TimeNs m_pressEndNs = 0;
    int m_pressScrollPx = 0;
    // Range selection: a drag that started on the ruler or with Shift, from this time.
    bool m_selectingRange = false;
    model::TimeNs m_rangeAnchorNs = 0;
    // A shift-drag over rows selects those rows too: the content y where it began.
    bool m_selectingRows = false;
    int m_rowsAnchorYPx = 0;
};

}  // namespace wl::ui
