#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/Trace.h"

namespace wl::ui {

// A coarse copy of every lane's start times: the start of every kGroup-th slice, contiguous. When
// thousands of slices fall into one pixel, the draw-list builder steps through this small array
// (cache-friendly, 8 bytes per 64 slices) instead of probing the 40-byte slices themselves, so a
// full view of 10M slices costs about the same as one of 1M. Built once per trace (one strided
// pass); read-only afterwards, safe to share between threads.
class LaneIndex {
public:
    static constexpr std::size_t kGroup = 64;

    void build(const model::Trace* trace);

    // Starts of slices 0, kGroup, 2*kGroup, ... of lane `depth` of `track` (empty when unknown).
    std::span<const model::TimeNs> coarseStarts(model::TrackIndex track, std::uint32_t depth) const;
    std::size_t memoryBytes() const;

private:
    std::vector<std::uint32_t> m_firstLaneOfTrack;  // index of a track's lane 0 in m_lanes
    std::vector<std::vector<model::TimeNs>> m_lanes;
};

}  // namespace wl::ui
