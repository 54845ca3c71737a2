// addFlow()'s flows: each end bound to the innermost slice enclosing its time.
#include <algorithm>
#include <string>

#include "model/passes/Passes.h"

namespace wl::model {

namespace {

SliceRef enclosing(const std::vector<Track>& tracks, TrackIndex ti, TimeNs ts) {
    if (ti >= tracks.size())
        return {};
    const Track& track = tracks[ti];
    for (std::uint32_t lane = track.laneCount(); lane-- > 0;) {
        const auto begin = track.slices.begin() + track.laneBegin[lane];
        const auto end = track.slices.begin() + track.laneBegin[lane + 1];
        auto it = std::upper_bound(begin, end, ts,
                                   [](TimeNs v, const Slice& s) { return v < s.startNs; });
        if (it == begin)
            continue;
        --it;
        if (it->endNs() >= ts)
            return {ti, static_cast<std::uint32_t>(it - track.slices.begin())};
    }
    return {};
}

}  // namespace

void bindExplicitFlows(FinalizeState& s) {
    std::uint64_t unresolved = 0;
    for (const auto& f : s.pendingFlows) {
        const SliceRef from = enclosing(s.tracks, f.fromTrack, f.fromNs);
        const SliceRef to = enclosing(s.tracks, f.toTrack, f.toNs);
        if (from.valid() && to.valid()) {
            s.flows.push_back({f.id, from, to});
        } else {
            ++unresolved;
        }
    }
    s.pendingFlows.clear();
    if (unresolved > 0) {
        s.diagnostics.warn(std::to_string(unresolved) +
                           " flow event(s) did not land on a slice and were dropped");
    }
}

}  // namespace wl::model
