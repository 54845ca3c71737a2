#pragma once

#include <vector>

#include "model/Time.h"
#include "ui/timeline/TimeMapper.h"

namespace wl::ui {

// Tick positions for the time ruler: steps of 1, 2 or 5 times a power of ten, chosen so ticks
// are at least `minSpacingPx` apart, at `originNs` plus multiples of the step (a reference flag's
// time, so that ticks counted from it read round). Pure function of the mapper.
struct RulerTicks {
    model::TimeNs stepNs = 1;
    std::vector<model::TimeNs> ticksNs;  // originNs + multiples of stepNs inside the visible range
};

RulerTicks computeRulerTicks(const TimeMapper& mapper, double minSpacingPx = 90.0,
                             model::TimeNs originNs = 0);

}  // namespace wl::ui
