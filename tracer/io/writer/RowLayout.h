#pragma once

#include <cstdint>
#include <vector>

#include "model/Trace.h"

// Where the Chrome trace writer puts each track: a pid per process and a tid per lane group, so
// that X events nest strictly per tid (Kineto's rows: a GPU's pid is its device ordinal, a
// stream's tid its id, a host thread's tid its id).
namespace wl::io::writer {

// The name of a track kind in the "warpline" block.
const char* trackKindName(model::TrackKind kind);

// Tracks made from other events by every reader (model::isDerived): not written.
bool written(const model::Track& track);

// Tracks whose lanes come from first-fit packing rather than nesting (the model allows overlaps
// there): every lane gets a tid of its own.
bool lanesOverlap(model::TrackKind kind);

// Where each track's slices go: its pid, and a tid per lane so X events nest strictly per tid.
struct TrackLayout {
    std::int64_t pid = 0;
    std::vector<std::int64_t> tids;          // one per lane group; [0] is the track's main tid
    std::vector<std::uint32_t> groupOfLane;  // lane -> index into tids
};

struct Layout {
    std::vector<std::int64_t> pidOf;  // per process
    std::vector<TrackLayout> tracks;
};

Layout computeLayout(const model::Trace& trace);

}  // namespace wl::io::writer
