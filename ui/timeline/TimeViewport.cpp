#include "ui/timeline/TimeViewport.h"

#include <algorithm>
#include <cmath>

namespace wl::ui {

TimeViewport::TimeViewport() : m_scale(std::make_shared<TimeScale>()) {}

void TimeViewport::setScale(std::shared_ptr<TimeScale> scale) {
    m_scale = scale ? std::move(scale) : std::make_shared<TimeScale>();
}

void TimeViewport::includeTrace(model::TimeNs spanNs) {
    m_scale->include(-m_offsetNs, spanNs - m_offsetNs);
}

void TimeViewport::setRange(model::TimeNs startNs, model::TimeNs endNs) {
    if (endNs - startNs < kMinVisibleNs) {
        const model::TimeNs mid = startNs + (endNs - startNs) / 2;
        startNs = mid - kMinVisibleNs / 2;
        endNs = startNs + kMinVisibleNs;
    }
    m_scale->setRange(startNs - m_offsetNs, endNs - m_offsetNs);
}

void TimeViewport::fit(model::TimeNs loNs, model::TimeNs hiNs, model::TimeNs marginNs) {
    setRange(loNs - marginNs, hiNs + marginNs);
}

void TimeViewport::zoomAt(double xPx, int widthPx, double factor) {
    const TimeMapper map = mapper(widthPx);
    const double anchor = map.startNs() + xPx * map.nsPerPx();
    const double newDuration = std::clamp(map.durationNs() * factor, double(kMinVisibleNs),
                                          double(m_scale->maxDurationNs()));
    // Keep the time under the cursor where it is.
    const double newStart = anchor - (anchor - map.startNs()) * (newDuration / map.durationNs());
    const model::TimeNs start = model::TimeNs(std::llround(newStart));
    setRange(start, start + model::TimeNs(std::llround(newDuration)));
}

void TimeViewport::panBy(double fraction) {
    const model::TimeNs shift = model::TimeNs(std::llround(double(durationNs()) * fraction));
    setRange(startNs() + shift, endNs() + shift);
}

void TimeViewport::panToShow(model::TimeNs startNs, model::TimeNs endNs) {
    if (endNs >= this->startNs() && startNs <= this->endNs()) {
        return;
    }
    const model::TimeNs width = durationNs();
    const model::TimeNs start = startNs + (endNs - startNs) / 2 - width / 2;
    setRange(start, start + width);
}

void TimeViewport::reveal(model::TimeNs startNs, model::TimeNs endNs, int widthPx, double minPx,
                          double zoomToPx) {
    const TimeMapper map = mapper(widthPx);
    const model::TimeNs from = this->startNs();
    const model::TimeNs to = this->endNs();
    const model::TimeNs duration = endNs - startNs;
    model::TimeNs width = to - from;
    if (duration > 0 && double(duration) / map.nsPerPx() < minPx) {
        width = std::max<model::TimeNs>(
            kMinVisibleNs,
            model::TimeNs(std::llround(double(duration) * map.widthPx() / zoomToPx)));
    } else if (duration > width) {
        width = duration + duration / 10;  // all of it, as F would show it
    }
    if (width != to - from || startNs < from || endNs > to) {
        const model::TimeNs start = startNs + duration / 2 - width / 2;
        setRange(start, start + width);
    }
}

}  // namespace wl::ui
