#pragma once

#include "model/Trace.h"

namespace wl::model {

// The one order of a process's tracks, top to bottom, for the trace's track list (finalize()) and
// for the timeline's rows alike. Host processes: CUDA API rows, other host rows, NVTX rows, NVTX
// async rows; GPUs: streams (a stream's graph-launch row right under it), synchronisation, memory,
// NVTX projections. Within a kind, by sort index (the producer's, or finalize()'s from the key),
// then stream, thread and NVTX domain name, so the order does not depend on input order.
int trackKindRank(TrackKind kind);
// Whether `a` comes before `b` (two tracks of one process); `trace` gives the domains' names.
bool trackOrderLess(const Trace& trace, const Track& a, const Track& b);
// The same without the sort index: the order finalize() numbers tracks in where none was given.
bool trackKeyLess(const Trace& trace, const Track& a, const Track& b);

}  // namespace wl::model
