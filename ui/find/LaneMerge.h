#pragma once

#include <atomic>
#include <span>
#include <vector>

#include "model/Trace.h"
#include "ui/find/SliceList.h"

namespace wl::ui {

// Some slices of one lane of a track, as indices into the track's slices, sorted by start (as a
// lane is).
struct LaneSlices {
    model::TrackIndex track = 0;
    std::span<const std::uint32_t> indices;
};

// Merges lanes (each sorted by start) into one list in (start, track, index) order: the order the
// Find panel and the events table list slices in. `lanes` come in (track, depth) order; `total`
// is the sum of their sizes. A run of one lane that comes before every other lane's next slice is
// taken in one go, so a lane of a million consecutive matches costs little more than a copy.
// Pure; any thread; empty when `cancel` is set while it runs.
SliceList mergeLanes(const model::Trace& trace, std::span<const LaneSlices> lanes,
                     std::size_t total, const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::ui
