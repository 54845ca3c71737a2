#pragma once

#include <string_view>

#include "model/Trace.h"

namespace wl::model {

// What TraceBuilder::finalize() makes from the recorded events rather than reads from them, for
// the code that must recognise it again (the merge, the writer, analysis).

// A launch flow: the builder links an API or host slice to GPU work on a stream by their shared
// correlation id (the flow's id), so a merge or a reader need not carry it.
bool isLaunchFlow(const Trace& trace, const Flow& f);
// Any flow the builder makes from a shared correlation id: a launch flow, or the link from an
// allocating or releasing call to its memory operation. Writers and merges leave these to the
// reader's builder.
bool isCorrelationFlow(const Trace& trace, const Flow& f);

// The derived counter of ops launched and not yet finished, one per GPU process.
inline constexpr std::string_view kLaunchQueueName = "Launch queue";

// The derived counter of device memory, in bytes, one per GPU process that has memory operations
// (or the PyTorch profiler's memory events). Its series: the memory allocated and not released,
// what memory pools hold (stream-ordered allocation), and what PyTorch's caching allocator holds.
inline constexpr std::string_view kDeviceMemoryName = "Device memory";
inline constexpr std::string_view kMemoryInUse = "memory in use";
inline constexpr std::string_view kMemoryInPools = "memory in pools";
inline constexpr std::string_view kMemoryReserved = "memory reserved";

}  // namespace wl::model
