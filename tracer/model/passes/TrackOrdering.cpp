// Tracks in model::trackOrderLess order (the order the timeline shows them in), whatever the
// order they were made in.
#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "model/TrackOrder.h"
#include "model/passes/Passes.h"

namespace wl::model {

void orderTracks(FinalizeState& s) {
    const auto byProcessThen = [&](auto less) {
        return [&s, less](TrackIndex a, TrackIndex b) {
            const Track& ta = s.tracks[a];
            const Track& tb = s.tracks[b];
            if (ta.process != tb.process)
                return ta.process < tb.process;
            return less(s.trace, ta, tb);
        };
    };
    std::vector<TrackIndex> order(s.tracks.size());
    std::iota(order.begin(), order.end(), 0u);

    // Default sort indices: each track's place in its process by key; explicit ones (imports,
    // merges) are kept.
    std::stable_sort(order.begin(), order.end(), byProcessThen(trackKeyLess));
    std::int32_t next = 0;
    ProcessIndex current = std::numeric_limits<ProcessIndex>::max();
    for (TrackIndex ti : order) {
        Track& tr = s.tracks[ti];
        if (tr.process != current) {
            current = tr.process;
            next = 0;
        }
        if (tr.sortIndex == kUnsetSortIndex)
            tr.sortIndex = next;
        ++next;
    }

    std::stable_sort(order.begin(), order.end(), byProcessThen(trackOrderLess));
    std::vector<TrackIndex> newIndex(s.tracks.size());
    std::vector<Track> tracks;
    tracks.reserve(s.tracks.size());
    for (TrackIndex i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = i;
        tracks.push_back(std::move(s.tracks[order[i]]));
    }
    s.tracks = std::move(tracks);
    // An end on a track that does not exist stays as it is (and does not resolve).
    for (auto& f : s.pendingFlows) {
        f.fromTrack = f.fromTrack < newIndex.size() ? newIndex[f.fromTrack] : f.fromTrack;
        f.toTrack = f.toTrack < newIndex.size() ? newIndex[f.toTrack] : f.toTrack;
    }
}

}  // namespace wl::model
