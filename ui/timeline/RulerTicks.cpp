#include "ui/timeline/RulerTicks.h"

#include <cmath>

namespace wl::ui {

RulerTicks computeRulerTicks(const TimeMapper& mapper, double minSpacingPx,
                             model::TimeNs originNs) {
    RulerTicks out;
    const double minStep = std::max(1.0, mapper.nsPerPx() * minSpacingPx);
    double power = std::pow(10.0, std::floor(std::log10(minStep)));
    model::TimeNs step = 0;
    for (;;) {
        for (double m : {1.0, 2.0, 5.0}) {
            if (m * power >= minStep - 1e-9) {
                step = static_cast<model::TimeNs>(std::llround(m * power));
                break;
            }
        }
        if (step > 0) {
            break;
        }
        power *= 10.0;
    }
    out.stepNs = step;
    // First origin + multiple of step at or after the start (floor division that works for
    // negatives).
    const model::TimeNs fromOrigin = mapper.startNs() - originNs;
    model::TimeNs first = originNs + fromOrigin / step * step;
    if (first < mapper.startNs()) {
        first += step;
    }
    for (model::TimeNs t = first; t <= mapper.endNs(); t += step) {
        out.ticksNs.push_back(t);
    }
    return out;
}

}  // namespace wl::ui
