#pragma once

#include <optional>
#include <set>

#include "model/passes/FinalizeState.h"

namespace wl::model {

// The host process whose calls queued a GPU process's work: CUPTI numbers correlation ids per
// process, so a merged trace (two processes, two ranks) may hold the same id twice, and a GPU op
// belongs to the call of its own host. That host is the GPU process's owner (same rank and pid)
// when the trace names one, else the one process of its rank among `callers`; nullopt when it is
// not known (several candidates), and the id alone then decides.
std::optional<ProcessIndex> hostOfGpu(const FinalizeState& state, const Process& gpu,
                                      const std::set<ProcessIndex>& callers);

}  // namespace wl::model
