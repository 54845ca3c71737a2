#pragma once

#include <cstdint>

namespace wl::model {

// One unit everywhere in the model: signed 64-bit nanoseconds since the trace origin. Only io/
// converts to other units, and exactly (integer arithmetic).
using TimeNs = std::int64_t;

inline constexpr TimeNs kNsPerUs = 1'000;
inline constexpr TimeNs kNsPerMs = 1'000'000;
inline constexpr TimeNs kNsPerSecond = 1'000'000'000;

}  // namespace wl::model
