#pragma once

#include <algorithm>
#include <cmath>

#include "model/Time.h"

namespace wl::ui {

// Maps nanoseconds to pixels of the time area and back for one visible range and width. A value
// type, cheap to copy; x = 0 is the left edge of the time area.
class TimeMapper {
public:
    TimeMapper() = default;
    TimeMapper(model::TimeNs startNs, model::TimeNs endNs, int widthPx)
        : m_startNs(startNs),
          m_endNs(std::max(endNs, startNs + 1)),
          m_widthPx(std::max(widthPx, 1)),
          m_nsPerPx(double(m_endNs - m_startNs) / m_widthPx) {}

    model::TimeNs startNs() const { return m_startNs; }
    model::TimeNs endNs() const { return m_endNs; }
    model::TimeNs durationNs() const { return m_endNs - m_startNs; }
    int widthPx() const { return m_widthPx; }
    double nsPerPx() const { return m_nsPerPx; }

    double xForNs(model::TimeNs ns) const { return double(ns - m_startNs) / m_nsPerPx; }
    model::TimeNs nsForX(double x) const {
        return m_startNs + static_cast<model::TimeNs>(std::llround(x * m_nsPerPx));
    }
    // The time at which pixel column `px` begins (fractional ns, for exact boundary tests).
    double pixelStartNs(int px) const { return double(m_startNs) + px * m_nsPerPx; }

private:
    model::TimeNs m_startNs = 0;
    model::TimeNs m_endNs = 1;
    int m_widthPx = 1;
    double m_nsPerPx = 1.0;
};

}  // namespace wl::ui
