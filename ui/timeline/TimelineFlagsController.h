#pragma once

#include <QFont>
#include <QObject>
#include <QPoint>
#include <QRect>
#include <QString>
#include <functional>
#include <optional>
#include <utility>

#include "model/Time.h"
#include "model/Trace.h"
#include "ui/timeline/Flags.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimeViewport.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineSelection.h"

class QPainter;
class QWidget;

namespace wl::ui {

// The timeline's flags, as the user handles them: dropping one (at a time, at the pointer, at a
// time selection's edges), renaming, removing, jumping to the next or previous one, the reference
// flag the ruler counts from, the measure line between flags, and the pennants on the ruler (their
// hit test, tooltip, menu and painting). FlagSet is the plain list; this adds the view's
// behaviour around it, apart from the widget so that a test can drive it with a viewport and a
// selection alone. GUI thread only.
class TimelineFlagsController : public QObject {
    Q_OBJECT
public:
    // Asks where the pointer is in time: nullopt when it is not over the time area. Key M drops a
    // flag there and the measure is taken between the flags either side of it.
    using PointerTime = std::function<std::optional<model::TimeNs>()>;

    // Jumps move `viewport`; `selection` is read (its time range and slice).
    TimelineFlagsController(TimeViewport& viewport, const TimelineSelection& selection,
                            PointerTime pointerNs, QObject* parent = nullptr);

    // Flags belong to a trace: a new one (null: none) clears them.
    void setTrace(const model::Trace* trace);

    const FlagSet& flags() const { return m_flags; }
    int drop(model::TimeNs timeNs, QString name = {});  // returns its id
    // Key M: flags at a time selection's edges, else one at the pointer, else at the selected
    // slice's start, else at the view's middle. Nothing without a trace.
    void mark();
    bool rename(int id, const QString& name);  // false for a blank name or an unknown id
    bool remove(int id);
    void clear();
    void setReference(std::optional<int> id);
    // Centres the next (forward) or previous flag from the view's middle, or from the flag last
    // jumped to while the view is still where that jump left it; false when there is none.
    bool jump(bool forward);
    // M, '.' and ','; false for any other key.
    bool handleKey(int key);

    // "Flag 1 → Flag 2: 12.4 ms   ·   Selection 3 ms: ..." (empty: nothing to measure).
    QString measureText() const;
    // Takes the measure again and signals measureChanged when its text changed.
    void updateMeasure();

    // The ruler: ticks on round offsets from the reference flag when one is set, and where the
    // labels count from.
    RulerTicks rulerTicks(const TimeMapper& map) const;
    RulerOrigin rulerOrigin(const TimeMapper& map, const RulerTicks& ticks) const;

    // The flag whose pennant (or pole) is at a widget point on the ruler; null when none.
    const Flag* flagAt(QPoint widgetPos, const TimelineFrame& frame) const;
    // Its name, time (from the reference flag) and time from the flag before it; empty off flags.
    QString toolTipAt(QPoint widgetPos, const TimelineFrame& frame) const;
    // Asks for a new name in a dialog over `parent`.
    void promptRename(int id, QWidget* parent);
    // The ruler's context menu at a widget point (rename, remove, reference, drop, remove all);
    // false, and no menu, off the ruler.
    bool showRulerMenu(QPoint widgetPos, QPoint globalPos, const TimelineFrame& frame,
                       QWidget* parent);
    // The pennants on the ruler and a line through the rows for each flag.
    void paint(QPainter& p, const TimelineFrame& frame) const;

signals:
    void changed();  // the flags changed: repaint
    void measureChanged(const QString& text);

private:
    void changedNow();  // the measure again, then changed()

    TimeViewport& m_viewport;
    const TimelineSelection& m_selection;
    PointerTime m_pointerNs;
    const model::Trace* m_trace = nullptr;
    FlagSet m_flags;
    // The flag last jumped to and the view it left, so that `.` goes on from it while the view
    // stays there (clamped at the trace's ends the view's middle is not the flag).
    std::optional<int> m_jumpedFlag;
    std::pair<model::TimeNs, model::TimeNs> m_jumpedViewNs{0, 0};
    QString m_measure;
};

}  // namespace wl::ui
