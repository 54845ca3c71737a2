#pragma once

#include <cstdint>
#include <string>

#include "model/Time.h"

namespace wl::analysis {

// Human-readable quantities for messages, tables and the text report.
std::string formatDuration(model::TimeNs ns);  // "850 ns", "12.3 us", "4.56 ms", "1.234 s"
std::string formatBytes(std::uint64_t bytes);  // "512 B", "64.0 KB", "400.0 MB" (1e3 steps)
std::string formatPercent(double pct);         // "12.3%"
std::string formatRate(double gbPerSecond);    // "11.8 GB/s"

}  // namespace wl::analysis
