#pragma once

#include <QString>

#include "model/Time.h"

namespace wl::ui {

// Human-readable times for tooltips, the ruler and details: "850 ns", "12.4 µs", "3.07 ms",
// "1.250 s". Three significant digits for durations.
QString formatDuration(model::TimeNs durationNs);

// A ruler label for time `ns` when ticks are `stepNs` apart: the unit follows the step, with just
// enough decimals to tell neighbouring ticks apart ("1200.2 ms").
QString formatTickLabel(model::TimeNs ns, model::TimeNs stepNs);

}  // namespace wl::ui
