// Builders grow vectors by doubling; an immutable trace gives the slack back (up to a third of the
// memory of a large trace).
#include "model/passes/Passes.h"

namespace wl::model {

void compact(FinalizeState& s) {
    for (auto& track : s.tracks)
        track.slices.shrink_to_fit();
    for (auto& c : s.counters)
        c.samples.shrink_to_fit();
    s.shrinkSideTables();
}

}  // namespace wl::model
