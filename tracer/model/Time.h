#pragma once

#include <cstdint>

namespace wl::model {

// One unit everywhere in the model: signed 64-bit nanoseconds since the trace origin. Only io/
// converts to other units, and exactly (integer arithmetic).
using TimeNs = std::int64_t;

inline constexpr TimeNs kNsPerUs = 1'000;
inline constexpr TimeNs kNsPerMs = 1'000'000;
inline constexpr TimeNs kNsPerSecond = 1'000'000'000;

// A half-open time interval [startNs, endNs) in trace time.
struct TimeRange {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    TimeNs durationNs() const { return endNs > startNs ? endNs - startNs : 0; }
    bool empty() const { return endNs <= startNs; }
    bool operator==(const TimeRange&) const = default;
};

}  // namespace wl::model
