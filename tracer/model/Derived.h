#pragma once

#include <string_view>

#include "model/Trace.h"

namespace wl::model {

// What TraceBuilder::finalize() makes from the recorded events rather than reads from them, for
// the code that must recognise it again (the merge, the writer, analysis).

// A launch flow: the builder links an API or host slice to GPU work on a stream by their shared
// correlation id (the flow's id), so a merge or a reader need not carry it.
bool isLaunchFlow(const Trace& trace, const Flow& f);

// The derived counter of ops launched and not yet finished, one per GPU process.
inline constexpr std::string_view kLaunchQueueName = "Launch queue";

}  // namespace wl::model
