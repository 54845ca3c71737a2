#include "analysis/WindowSlices.h"

#include <algorithm>

namespace wl::analysis {

LaneSpan laneSpan(const model::Track& track, std::uint32_t lane, model::TimeNs fromNs,
                  model::TimeNs toNs) {
    const auto slices = track.lane(lane);
    // max(end, start + 1) is sorted too: both are.
    const auto first = std::partition_point(
        slices.begin(), slices.end(),
        [&](const model::Slice& s) { return std::max(s.endNs(), s.startNs + 1) <= fromNs; });
    const auto last = std::partition_point(first, slices.end(),
                                           [&](const model::Slice& s) { return s.startNs < toNs; });
    const std::uint32_t base = track.laneBegin[lane];
    return {base + static_cast<std::uint32_t>(first - slices.begin()),
            base + static_cast<std::uint32_t>(last - slices.begin())};
}

model::TimeNs timeInParts(const std::vector<model::TimeRange>& parts, model::TimeNs startNs,
                          model::TimeNs endNs) {
    model::TimeNs inside = 0;
    for (auto it = firstPartEndingAfter(parts, startNs); it != parts.end() && it->startNs < endNs;
         ++it) {
        inside += std::min(endNs, it->endNs) - std::max(startNs, it->startNs);
    }
    return inside;
}

bool windowSelects(const AnalysisWindow& window, model::TrackIndex track) {
    return window.tracks.empty() ||
           std::binary_search(window.tracks.begin(), window.tracks.end(), track);
}

}  // namespace wl::analysis
