#pragma once

// The import notes for flow events the phase assembly left out (LooseFlows): one that counts
// them by reason, then one per listed event (the earliest of each reason first, up to kListed),
// each with its phase, id, time, the slice it sits on and why it was left out, so a reader can
// find them in the file and on the timeline. Internal to wl_io.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "io/chrome/LooseFlows.h"
#include "model/Diagnostics.h"
#include "model/Trace.h"

namespace wl::io::chrome {

struct LooseFlowContext {
    const model::Trace& names;  // the names of categories and slices (the builder's trace)
    const std::unordered_map<std::int64_t, std::string>& idNames;  // pids and tids written as text
    TimeNs originNs = 0;  // the file's time of the trace's time zero (its earliest event)
};

inline constexpr std::size_t kListedLooseFlows = 10;

// `launch`: the PyTorch profiler's launch arrows (by correlation id), else any other flows.
void noteLooseFlows(model::Diagnostics& d, const LooseFlows& loose, bool launch,
                    const LooseFlowContext& context);

// "no start ("s") of this id before it", ...: why one event was left out.
std::string_view looseFlowReason(LooseFlows::Reason reason);

}  // namespace wl::io::chrome
