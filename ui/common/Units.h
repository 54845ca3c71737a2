#pragma once

#include <QString>
#include <cstdint>
#include <string_view>

#include "model/Time.h"

namespace wl::ui::units {

// Human-readable durations, times, sizes and rates for the panels: Qt strings of the one
// formatter (analysis/Format.h), so every panel and the analysis' messages use the same units.
// Inputs are integers in model units (ns, bytes).

// "850 ns", "12.3 µs", "4.21 ms", "1.503 s".
QString duration(model::TimeNs ns);
// A point in time since the trace origin, always in ms with µs precision: "12.345678 ms".
QString timestamp(model::TimeNs ns);
// "512 B", "64.0 KB", "400.0 MB", "1.50 GB" (decimal, as the GB/s of rates).
QString bytes(std::uint64_t bytes);
// Throughput of `bytes` moved in `ns` in GB/s (1e9 bytes/s), as decimal() writes numbers: "806.6
// GB/s", "0.0051 GB/s" (8 bytes in 1.6 µs, never "0.0"); "n/a" when ns <= 0.
QString gbPerSecond(std::uint64_t bytes, model::TimeNs ns);
// "12.3%", "0.024%" (small shares keep their digits: a non-zero share never reads "0.000%").
QString percent(double pct);
// A value with one decimal, and with as many as keep two significant digits when it is under 1
// ("12.3", "0.50", "0.024"; a producer's small estimate must not read as "0.0"); "0" for 0.
QString decimal(double value);
// 1234567 -> "1,234,567".
QString grouped(std::int64_t value);
// A counter's value with its unit: bytes as bytes() does ("2.0 MB"), anything else as the number
// with `decimals` and the unit ("42 ops", "87.50 %").
QString counterValue(double value, std::string_view unit, int decimals);

}  // namespace wl::ui::units
