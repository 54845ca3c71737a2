#pragma once

#include <span>
#include <string_view>

#include "model/passes/FinalizeState.h"

namespace wl::model {

// One step of TraceBuilder::finalize(): a name (for tests and messages) and what it does to the
// state. finalize() runs finalizePasses() in order; each pass relies only on those before it.
struct FinalizePass {
    std::string_view name;
    void (*run)(FinalizeState& state);
};

// Every pass, in the order finalize() runs them.
std::span<const FinalizePass> finalizePasses();
// The pass of that name (nullptr when none): for tests that run one pass on a built state.
const FinalizePass* findFinalizePass(std::string_view name);

// The passes, one file each.
// Hosts by (rank, pid), then GPUs by (rank, ordinal, owner); devices by id (ProcessOrder.cpp).
void orderProcesses(FinalizeState& state);
// Sort indices from the track's key where none was given, then tracks in model::trackOrderLess
// order within each process (TrackOrdering.cpp).
void orderTracks(FinalizeState& state);
// Times from the earliest event; counter samples and capture windows in time order (Rebase.cpp).
void rebaseTimes(FinalizeState& state);
// Every track's slices into depth lanes (LaneAssignment.cpp).
void assignAllLanes(FinalizeState& state);
// API call -> GPU work it launched, by correlation id within one process (LaunchFlows.cpp).
void linkLaunches(FinalizeState& state);
// addFlow()'s flows bound to the slices enclosing their ends (ExplicitFlows.cpp).
void bindExplicitFlows(FinalizeState& state);
// Flows sorted, duplicates dropped, indexed by both ends (FlowIndex.cpp).
void indexFlows(FinalizeState& state);
// Waits through CUDA events (Dependencies.cpp).
void resolveDependencies(FinalizeState& state);
// Derived rows (model/Derived.h): the launch queue counter (LaunchQueue.cpp), the device memory
// counter (DeviceMemory.cpp), the NVTX projection tracks (NvtxProjection.cpp), the graph-launch
// tracks (GraphLaunches.cpp).
void addLaunchQueues(FinalizeState& state);
void addDeviceMemory(FinalizeState& state);
void addNvtxProjections(FinalizeState& state);
void addGraphLaunches(FinalizeState& state);
// Growth slack given back (Compact.cpp).
void compact(FinalizeState& state);
// TraceCounts (Counts.cpp).
void countEvents(FinalizeState& state);

// Sorts one track's slices into depth lanes: nesting slices stack, overlaps that do not nest are
// spilled to extra lanes (and counted in `diagnostics`, except where the kind allows them).
// Used by assignAllLanes and by the passes that make tracks.
void assignLanes(Track& track, Diagnostics& diagnostics, const StringTable& strings);

}  // namespace wl::model
