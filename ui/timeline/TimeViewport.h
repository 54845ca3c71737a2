#pragma once

#include <memory>

#include "model/Time.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimeScale.h"

namespace wl::ui {

// What one timeline view shows of time, and the zoom, pan and fit arithmetic on it, apart from
// the widget so that it can be tested alone (as Qt Creator's zoom control is).
//
// The visible range lives in a TimeScale, which Compare's two views share so that they zoom and
// pan together. A view sees the scale through its offset: trace time = scale time + offsetNs.
// With offsets of each trace's analysis-window start, two traces are compared aligned at their
// windows' starts instead of at their first events. Every time in this interface is trace time.
// GUI thread only (TimeScale is a QObject).
class TimeViewport {
public:
    // The narrowest range shown: 20 ns over the whole width.
    static constexpr model::TimeNs kMinVisibleNs = 20;

    TimeViewport();

    // Shares `scale` (null: a scale of its own). The range is the scale's, not changed here.
    void setScale(std::shared_ptr<TimeScale> scale);
    const std::shared_ptr<TimeScale>& scale() const { return m_scale; }
    // Trace time at scale time 0. Changing it keeps the scale's range, so what is shown moves:
    // set it before fitting.
    void setOffsetNs(model::TimeNs offsetNs) { m_offsetNs = offsetNs; }
    model::TimeNs offsetNs() const { return m_offsetNs; }
    // A trace spanning [0, spanNs] is shown: the scale's limits take it in at this offset.
    void includeTrace(model::TimeNs spanNs);

    model::TimeNs startNs() const { return m_scale->startNs() + m_offsetNs; }
    model::TimeNs endNs() const { return m_scale->endNs() + m_offsetNs; }
    model::TimeNs durationNs() const { return m_scale->durationNs(); }
    TimeMapper mapper(int widthPx) const { return TimeMapper(startNs(), endNs(), widthPx); }

    // Shows [startNs, endNs), widened about its middle to kMinVisibleNs and clamped by the scale.
    void setRange(model::TimeNs startNs, model::TimeNs endNs);
    // Shows [loNs, hiNs] with `marginNs` on each side.
    void fit(model::TimeNs loNs, model::TimeNs hiNs, model::TimeNs marginNs);
    // Zooms by `factor` (< 1 in, > 1 out) keeping the time at pixel `xPx` of a time area
    // `widthPx` wide where it is on screen; the duration stays within the scale's limits.
    void zoomAt(double xPx, int widthPx, double factor);
    // Pans by a fraction of the visible duration (negative: to earlier times).
    void panBy(double fraction);
    // At the same zoom, centres [startNs, endNs] when none of it is in view.
    void panToShow(model::TimeNs startNs, model::TimeNs endNs);
    // Makes [startNs, endNs] visible in a time area `widthPx` wide: zoomed in to `zoomToPx`
    // pixels when it would be narrower than `minPx` (so it can be seen), out when it is longer
    // than the view, and centred when it was not wholly in view. The zoom is kept when the whole
    // range can be seen at it.
    void reveal(model::TimeNs startNs, model::TimeNs endNs, int widthPx, double minPx,
                double zoomToPx);

private:
    std::shared_ptr<TimeScale> m_scale;
    model::TimeNs m_offsetNs = 0;
};

}  // namespace wl::ui
