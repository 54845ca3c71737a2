#pragma once

#include <cstdint>
#include <vector>

#include "model/Trace.h"

namespace wl::analysis {

// The GPU work one host call launched (a kernel launch, an async copy, a graph launch and the
// nodes it ran), reached by its launch flows (model::isLaunchFlow). Times in ns; the ops whole,
// not clipped to any window.
struct LaunchedWork {
    model::SliceRef call;
    model::TimeNs firstStartNs = 0;  // the earliest op's start
    model::TimeNs lastEndNs = 0;     // the latest op's end
    model::TimeNs opNs = 0;          // the ops' durations, summed
    std::uint32_t ops = 0;
};

// Every host call that launched GPU work, by call (SliceRef order: by track, then index). One
// pass over the trace's flows and a sort.
std::vector<LaunchedWork> launchedWork(const model::Trace& trace);

}  // namespace wl::analysis
