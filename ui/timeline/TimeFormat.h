#pragma once

#include <QString>

#include "model/Time.h"

namespace wl::ui {

// A duration for tooltips and the ruler, as the one formatter writes it (analysis/Format.h):
// "850 ns", "12.4 µs", "3.07 ms", "1.250 s".
QString formatDuration(model::TimeNs durationNs);

// A ruler label for time `ns` when ticks are `stepNs` apart and the largest label is about
// `magnitudeNs`: one unit for the whole ruler (the largest the labels reach, "2 ms"), with just
// enough decimals to tell neighbouring ticks apart; a smaller unit when that needs more than
// three decimals ("1200.2 ms" rather than "1.2002 s").
QString formatTickLabel(model::TimeNs ns, model::TimeNs stepNs, model::TimeNs magnitudeNs);

}  // namespace wl::ui
