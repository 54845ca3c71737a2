#pragma once

#include <algorithm>

#include <QObject>

#include "model/Time.h"

namespace wl::ui {

// The visible time range [startNs, endNs) shared by one or more TimelineViews, so that two views
// (baseline vs async in Compare) stay aligned on one time scale: zooming or panning one moves the
// other. Lives on the GUI thread; owned through std::shared_ptr by the views that use it.
class TimeScale : public QObject {
    Q_OBJECT
public:
    explicit TimeScale(QObject* parent = nullptr) : QObject(parent) {}

    model::TimeNs startNs() const { return m_startNs; }
    model::TimeNs endNs() const { return m_endNs; }
    model::TimeNs durationNs() const { return m_endNs - m_startNs; }

    // The longest trace shown on this scale: the range never leaves [-slack, span + slack]
    // (slack a tenth of the span, at least 1 us), so zooming out stops a little past the whole
    // trace and panning a little past its ends; without it nothing bounds the range and ~130
    // zoom-outs overflowed 64 bits. Only grows: a scale shared by two views fits the longer.
    void includeSpan(model::TimeNs spanNs) { m_limitSpanNs = std::max(m_limitSpanNs, spanNs); }
    model::TimeNs slackNs() const { return std::max<model::TimeNs>(m_limitSpanNs / 10, 1000); }
    // The widest range setRange allows (no limit before a span is known).
    model::TimeNs maxDurationNs() const {
        return m_limitSpanNs > 0 ? m_limitSpanNs + 2 * slackNs() : model::TimeNs{1} << 60;
    }

    // Sets the range (end is forced > start, and into the limits above); emits rangeChanged only
    // when it changes.
    void setRange(model::TimeNs startNs, model::TimeNs endNs) {
        if (endNs <= startNs) {
            endNs = startNs + 1;
        }
        if (m_limitSpanNs > 0) {
            const model::TimeNs lo = -slackNs();
            const model::TimeNs hi = m_limitSpanNs + slackNs();
            const model::TimeNs duration = std::min(endNs - startNs, hi - lo);
            startNs = std::clamp(startNs, lo, hi - duration);
            endNs = startNs + duration;
        }
        if (startNs == m_startNs && endNs == m_endNs) {
            return;
        }
        m_startNs = startNs;
        m_endNs = endNs;
        emit rangeChanged(m_startNs, m_endNs);
    }

signals:
    void rangeChanged(wl::model::TimeNs startNs, wl::model::TimeNs endNs);

private:
    model::TimeNs m_startNs = 0;
    model::TimeNs m_endNs = 1;
    model::TimeNs m_limitSpanNs = 0;
};

}  // namespace wl::ui
