// Depth lanes: each lane of a track is a run of slices that do not overlap (Track::laneBegin), so
// a view finds a lane's visible slices by binary search.
#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "model/passes/Passes.h"

namespace wl::model {

namespace {

// Kinds whose slices may legitimately overlap without nesting (NVTX start/end ranges cross each
// other; waits from several host threads land on one device's sync row): lanes are assigned
// first-fit there and nothing is reported as spilled.
// The GPU work of one NVTX range may outlast the next range's start, so projections too (and
// any other derived row).
bool overlapsAllowed(TrackKind kind) {
    return kind == TrackKind::NvtxAsync || kind == TrackKind::Sync || isDerived(kind);
}

}  // namespace

void assignLanes(Track& track, Diagnostics& diagnostics, const StringTable& strings) {
    auto& slices = track.slices;
    // Outer slices first: by start, then longer first; stable so equal intervals keep their input
    // order (the first one seen becomes the parent), which makes export -> import -> export stable.
    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        if (a.startNs != b.startNs)
            return a.startNs < b.startNs;
        return a.durationNs > b.durationNs;
    });

    std::vector<TimeNs> laneEnd;  // first-fit lanes (overlap-allowed tracks and spilled slices)
    auto firstFit = [&laneEnd](const Slice& s, std::size_t firstLane) {
        for (std::size_t lane = firstLane; lane < laneEnd.size(); ++lane) {
            if (laneEnd[lane] <= s.startNs) {
                laneEnd[lane] = s.endNs();
                return lane;
            }
        }
        laneEnd.resize(std::max(laneEnd.size(), firstLane));
        laneEnd.push_back(s.endNs());
        return laneEnd.size() - 1;
    };

    std::size_t maxNestedDepth = 0;
    if (overlapsAllowed(track.kind)) {
        for (auto& s : slices) {
            s.depth = static_cast<std::uint16_t>(firstFit(s, 0));
        }
    } else {
        std::vector<std::size_t> stack;  // the currently open enclosing slices
        std::vector<std::size_t> spilled;
        std::uint64_t unexpected = 0;
        for (std::size_t i = 0; i < slices.size(); ++i) {
            Slice& s = slices[i];
            while (!stack.empty() && slices[stack.back()].endNs() <= s.startNs) {
                stack.pop_back();
            }
            if (!stack.empty() && s.endNs() > slices[stack.back()].endNs()) {
                // Starts inside its neighbour but ends after it. Ops of one launch (the nodes of
                // a CUDA graph launch share its correlation id) may run at once: no warning.
                const Slice& neighbour = slices[stack.back()];
                if (track.kind == TrackKind::GpuStream && s.correlationId != 0 &&
                    s.correlationId == neighbour.correlationId) {
                    s.flags |= kSliceConcurrentInLaunch;
                } else {
                    ++unexpected;
                }
                spilled.push_back(i);
                continue;
            }
            s.depth = static_cast<std::uint16_t>(stack.size());
            maxNestedDepth = std::max<std::size_t>(maxNestedDepth, stack.size() + 1);
            stack.push_back(i);
        }
        if (!spilled.empty()) {
            if (unexpected > 0) {
                diagnostics.spilledOverlaps += unexpected;
                diagnostics.warn(spilledOverlapWarning(unexpected, strings.get(track.nameId)));
            }
            laneEnd.assign(maxNestedDepth, std::numeric_limits<TimeNs>::max());
            for (std::size_t i : spilled) {
                Slice& s = slices[i];
                s.depth = static_cast<std::uint16_t>(firstFit(s, maxNestedDepth));
                s.flags |= kSliceSpilled;
            }
        }
    }

    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        return a.depth != b.depth ? a.depth < b.depth : a.startNs < b.startNs;
    });
    const std::size_t lanes = slices.empty() ? 0 : slices.back().depth + 1u;
    track.laneBegin.assign(lanes + 1, 0);
    for (const auto& s : slices) {
        ++track.laneBegin[s.depth + 1u];
    }
    std::partial_sum(track.laneBegin.begin(), track.laneBegin.end(), track.laneBegin.begin());
}

void assignAllLanes(FinalizeState& s) {
    for (auto& track : s.tracks)
        assignLanes(track, s.diagnostics, s.strings);
}

}  // namespace wl::model
