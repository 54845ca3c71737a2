// Depth lanes: each lane of a track is a run of slices that do not overlap (Track::laneBegin), so
// a view finds a lane's visible slices by binary search.
#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/passes/Passes.h"

namespace wl::model {

namespace {

// Kinds whose slices may legitimately overlap without nesting (NVTX start/end ranges cross each
// other; waits from several host threads land on one device's sync row; the driver migrates and
// faults in many regions of managed memory at once): lanes are assigned first-fit there and
// nothing is reported as spilled.
// The GPU work of one NVTX range may outlast the next range's start, so projections too (and
// any other derived row).
bool overlapsAllowed(TrackKind kind) {
    return kind == TrackKind::NvtxAsync || kind == TrackKind::Sync ||
           kind == TrackKind::UnifiedMemory || isDerived(kind);
}

// First fit over lanes: a slice goes to the lowest lane at or above the first whose last slice
// has ended by its start, else to a new lane. Slices come by start time, so a lane that is free
// for one slice stays free for every later one: free lanes wait in a set (lowest first), busy
// ones in a heap by end time, and each slice costs O(log lanes) instead of a scan of every lane.
class FirstFitLanes {
public:
    // Lanes below `firstLane` belong to others (the nesting slices) and are never given out.
    explicit FirstFitLanes(std::uint32_t firstLane = 0) : m_next(firstLane) {}

    std::uint32_t place(const Slice& s) {
        while (!m_busy.empty() && m_busy.top().first <= s.startNs) {
            m_free.insert(m_busy.top().second);
            m_busy.pop();
        }
        std::uint32_t lane = m_next;
        if (m_free.empty()) {
            ++m_next;
        } else {
            lane = *m_free.begin();
            m_free.erase(m_free.begin());
        }
        m_busy.emplace(s.endNs(), lane);
        return lane;
    }

private:
    using Busy = std::pair<TimeNs, std::uint32_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> m_busy;
    std::set<std::uint32_t> m_free;
    std::uint32_t m_next;  // the lowest lane never used
};

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

    if (slices.size() > kMaxLanes) {
        // More slices than lanes can be numbered: they could all be open at once.
        throw std::length_error("a track of more than " + std::to_string(kMaxLanes) +
                                " slices cannot be laid out in lanes");
    }
    FirstFitLanes firstFit;  // overlap-allowed tracks and spilled slices
    std::size_t maxNestedDepth = 0;
    if (overlapsAllowed(track.kind)) {
        for (auto& s : slices) {
            s.depth = firstFit.place(s);
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
            s.depth = static_cast<std::uint32_t>(stack.size());
            maxNestedDepth = std::max<std::size_t>(maxNestedDepth, stack.size() + 1);
            stack.push_back(i);
        }
        if (!spilled.empty()) {
            if (unexpected > 0) {
                diagnostics.spilledOverlaps += unexpected;
                diagnostics.warn(spilledOverlapWarning(unexpected, strings.get(track.nameId)));
            }
            firstFit = FirstFitLanes(static_cast<std::uint32_t>(maxNestedDepth));
            for (std::size_t i : spilled) {
                Slice& s = slices[i];
                s.depth = firstFit.place(s);
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
