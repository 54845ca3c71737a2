#pragma once

#include <map>
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
    // Added to the input's times (its origin + each event's time) to put them on the merged time
    // axis: 0 when all inputs share one clock (the processes of one recorded run); for traces of
    // several hosts, what takes this input's clock to the common one (io::loadRankJob).
    TimeNs clockOffsetNs = 0;
    // The rank of a distributed job that the input is (Process::rank of each of its processes,
    // whose host and GPU processes then never share a group with another rank's); -1: none.
    std::int32_t rank = -1;
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
// - Inputs with a rank (the traces of one distributed job, each on its own clock) are moved by
//   their clockOffsetNs too, and each one's processes carry its rank: its host and GPU processes
//   stay its own even when another rank's have the same pid or ordinal. Host processes are named
//   "rank R · <name>", GPU processes "<label> · GPU N (<device>)", and per-input metadata is kept
//   as "rank R.<key>" (instead of "process K.<key>").
//
// `metadata`: facts about the merge itself (how the inputs were aligned, which files they came
// from), set on the merged trace after the inputs' own (replacing a key of the same name).
//
// Each input's trace is released once it has been copied: inputs moved in (the only holders of
// their traces) do not stay in memory beside the merged trace as it grows.
//
// An empty list, a null trace or two inputs with one rank is an error. Pure function of its
// inputs; thread-safe.
Result<TracePtr> mergeTraces(std::vector<MergeInput> inputs,
                             const std::map<std::string, std::string>& metadata = {});

}  // namespace wl::model
