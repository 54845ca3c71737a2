#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/Result.h"

namespace wl::io {

// Whether there is memory enough to open a trace, asked before reading it: a big trace that
// cannot fit is refused with the figures, instead of failing (or being killed) part way.

// What reading a trace holds at its peak per byte of its JSON, measured on PyTorch profiler
// traces (docs/PERFORMANCE.md, "Big traces"): the model, about 100 bytes per slice at 2,200
// slices per MB (0.21), and what the read holds meanwhile (0.45 in all at 1.6 GB). Rounded up a
// little: refusing a trace that would fit is worse than a tight fit.
inline constexpr double kPeakBytesPerJsonByte = 0.5;

// Memory the system can still give this process: MemAvailable plus free swap, from
// /proc/meminfo (nullopt where that cannot be read).
std::optional<std::uint64_t> availableMemoryBytes();

// An Error when reading `jsonBytes` of trace JSON (plus `heldBytes` the read holds besides the
// model: a decompressed text) would need more memory than is available; none otherwise, or when
// what is available is not known.
std::optional<model::Error> memoryShortfall(
    std::uint64_t jsonBytes, std::uint64_t heldBytes, const std::string& file,
    std::optional<std::uint64_t> available = availableMemoryBytes());

}  // namespace wl::io
