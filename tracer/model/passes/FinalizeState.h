#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "model/Trace.h"

namespace wl::model {

// An explicit flow as addFlow() was given it: bound to slices by the explicit-flows pass.
struct PendingFlow {
    std::uint64_t id;
    TrackIndex fromTrack;
    TimeNs fromNs;
    TrackIndex toTrack;
    TimeNs toNs;
};

// A track's sort index before finalize(): the track-order pass gives it one from its key (an
// import's explicit index is kept).
inline constexpr std::int32_t kUnsetSortIndex = std::numeric_limits<std::int32_t>::min();

// What the passes of TraceBuilder::finalize() work on: the trace being built, open for writing,
// and what the builder kept beside it. Passes read slices and details through `trace` (the const
// API) and change the trace through the members named after its parts.
class FinalizeState {
public:
    FinalizeState(Trace& trace, std::vector<PendingFlow> pendingFlows, TimeNs baseTimeNs,
                  bool keepTimes);
    FinalizeState(const FinalizeState&) = delete;
    FinalizeState& operator=(const FinalizeState&) = delete;

    StringId intern(std::string_view text) { return strings.intern(text); }
    // Gives the side tables' growth slack back (details, args, origins, kept events).
    void shrinkSideTables();

    const Trace& trace;
    StringTable& strings;
    std::vector<Process>& processes;
    std::vector<Track>& tracks;
    std::vector<CounterTrack>& counters;
    std::vector<Flow>& flows;
    std::vector<std::uint32_t>& flowFromIndex;
    std::vector<std::uint32_t>& flowToIndex;
    std::vector<Dependency>& dependencies;
    std::vector<DeviceProperties>& devices;
    std::vector<TimeRange>& captureWindows;
    Diagnostics& diagnostics;
    TraceCounts& counts;
    TimeNs& originNs;
    TimeNs& producerBaseNs;
    TimeNs& spanNs;

    // Explicit flows still to bind; in the producer's clock and track indices until the passes
    // that order tracks and rebase times move them with the rest.
    std::vector<PendingFlow> pendingFlows;
    TimeNs baseTimeNs = 0;   // TraceBuilder::setBaseTimeNs
    bool keepTimes = false;  // TraceBuilder::setKeepTimes

private:
    Trace& m_trace;
};

}  // namespace wl::model
