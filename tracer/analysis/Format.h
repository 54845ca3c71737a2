#pragma once

#include <cstdint>
#include <string>

#include "model/Time.h"

namespace wl::analysis {

// Human-readable quantities: the one formatter of durations, sizes and rates, for the analysis'
// messages, the text report and every panel of the window (ui::units wraps these), so that one
// unit system is seen everywhere: sizes in decimal units (1 KB = 1,000 bytes), as the GB/s of the
// rates are (1e9 bytes/s), so a size divided by a time reads as the rate shown beside it.
std::string formatDuration(model::TimeNs ns);  // "850 ns", "12.3 µs", "4.56 ms", "1.234 s"
std::string formatBytes(std::uint64_t bytes);  // "512 B", "64.0 KB", "400.0 MB" (1e3 steps)
std::string formatPercent(double pct);         // "12.3%"
std::string formatRate(double gbPerSecond);    // "11.8 GB/s"

}  // namespace wl::analysis
