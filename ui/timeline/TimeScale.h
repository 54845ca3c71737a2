#pragma once

#include <algorithm>

#include <QObject>

#include "model/Time.h"

namespace wl::ui {

// The visible time range [startNs, endNs) shared by one or more TimelineViews, so that two views
// (two traces in Compare) stay aligned on one time scale: zooming or panning one moves the
// other. Its times are the views' common axis; each view maps them to its own trace's times with
// its TimeViewport's offset. Lives on the GUI thread; owned through std::shared_ptr by the
// viewports that use it.
class TimeScale : public QObject {
    Q_OBJECT
public:
    explicit TimeScale(QObject* parent = nullptr) : QObject(parent) {}

    model::TimeNs startNs() const { return m_startNs; }
    model::TimeNs endNs() const { return m_endNs; }
    model::TimeNs durationNs() const { return m_endNs - m_startNs; }

    // Part of the axis a trace occupies: the range never leaves the union of what was included,
    // widened by a slack of a tenth of it (at least 1 us), so zooming out stops a little past the
    // whole trace and panning a little past its ends; without a limit ~130 zoom-outs overflowed
    // 64 bits. Only grows: a scale shared by two views fits both.
    void include(model::TimeNs loNs, model::TimeNs hiNs) {
        if (m_hasLimits) {
            m_limitLoNs = std::min(m_limitLoNs, loNs);
            m_limitHiNs = std::max(m_limitHiNs, hiNs);
        } else {
            m_limitLoNs = loNs;
            m_limitHiNs = std::max(hiNs, loNs);
            m_hasLimits = true;
        }
    }
    model::TimeNs slackNs() const {
        return std::max<model::TimeNs>((m_limitHiNs - m_limitLoNs) / 10, 1000);
    }
    // The widest range setRange allows (no limit before anything is included).
    model::TimeNs maxDurationNs() const {
        return m_hasLimits ? m_limitHiNs - m_limitLoNs + 2 * slackNs() : model::TimeNs{1} << 60;
    }

    // Sets the range (end is forced > start, and into the limits above); emits rangeChanged only
    // when it changes.
    void setRange(model::TimeNs startNs, model::TimeNs endNs) {
        if (endNs <= startNs) {
            endNs = startNs + 1;
        }
        if (m_hasLimits) {
            const model::TimeNs lo = m_limitLoNs - slackNs();
            const model::TimeNs hi = m_limitHiNs + slackNs();
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
    bool m_hasLimits = false;
    model::TimeNs m_limitLoNs = 0;
    model::TimeNs m_limitHiNs = 0;
};

}  // namespace wl::ui
