#pragma once

#include <cstdint>
#include <string>

#include "model/Result.h"

namespace wl::workloads {

inline constexpr int kMinStreams = 1;
inline constexpr int kMaxStreams = 64;
inline constexpr std::int64_t kMaxReduceElements = std::int64_t{1} << 36;  // 256 GB of floats
inline constexpr std::int64_t kMaxPowerDim = 1 << 20;                      // cuBLAS takes int
inline constexpr std::int64_t kMaxRepeat = 100'000;
inline constexpr std::int64_t kMaxPowerSteps = 10'000'000;

// "streams must be between 1 and 64 (got 0)".
model::Status checkStreams(std::int64_t streams);
// "<what> must be between <min> and <max> <unit> (got <value>)".
model::Status checkRange(const std::string& what, std::int64_t value, std::int64_t min,
                         std::int64_t max, const std::string& unit = {});
// "1.6 GB" for messages.
std::string formatBytes(std::int64_t bytes);

}  // namespace wl::workloads
