#pragma once

#include <string>
#include <vector>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::model {

// One trace to merge: what one traced process recorded, and how its rows are named.
struct MergeInput {
    TracePtr trace;
    // Names the input's GPU rows and prefixes its metadata and warnings, e.g.
    // "python3 (pid 4242)". Empty: the name of the trace's first host process.
    std::string label;
};

// Merges the traces of one recorded run (the program and the processes it started, all on one
// host, so they share the CUPTI/host clock) into one trace on one time axis: every event keeps
// its absolute time (its trace's origin + its time) and the result is rebased once.
//
// - Host processes keep their pid and name. GPU processes stay one per (input, ordinal): two
//   processes that both used device 0 give two GPU process groups, named with the input's label;
//   Track::deviceId stays the CUDA ordinal.
// - CUPTI correlation ids are per process: each input's ids are shifted past the previous
//   inputs' so launch arrows (rebuilt from correlation ids) never join one process's API call to
//   another's GPU work. Each input's other flows are carried over.
// - Slices of every kind with their details, track names and order, counters, devices (one per
//   ordinal), capture windows, metadata (values all inputs agree on as they are, the others as
//   "process K.<key>", with "process K.label") and diagnostics (counts summed, warnings prefixed
//   with the label) are kept.
//
// An empty list or a null trace is an error. Pure function of its inputs; thread-safe.
Result<TracePtr> mergeTraces(const std::vector<MergeInput>& inputs);

}  // namespace wl::model
