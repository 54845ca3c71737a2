#include "io/writer/RowLayout.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace wl::io::writer {

namespace {

using model::Track;
using model::TrackKind;

constexpr std::int64_t kMaxSmallId = std::numeric_limits<std::int32_t>::max();

}  // namespace

const char* trackKindName(TrackKind kind) {
    switch (kind) {
        case TrackKind::HostApi:
            return "api";
        case TrackKind::Nvtx:
            return "nvtx";
        case TrackKind::NvtxAsync:
            return "nvtx_async";
        case TrackKind::GpuStream:
            return "stream";
        case TrackKind::Sync:
            return "sync";
        case TrackKind::Memory:
            return "memory";
        case TrackKind::Host:
            return "host";
        case TrackKind::UnifiedMemory:
            return "unified_memory";
        case TrackKind::NvtxProjection:
        case TrackKind::GraphLaunches:
            break;  // never written
    }
    return "host";
}

bool written(const Track& track) {
    return !model::isDerived(track.kind);
}

bool lanesOverlap(TrackKind kind) {
    return kind == TrackKind::NvtxAsync || kind == TrackKind::Sync ||
           kind == TrackKind::UnifiedMemory;
}

// Rows Kineto shares between tracks of ours: a host thread's CUDA calls and its NVTX ranges are
// the thread's row (PyTorch's user annotations enclose its CUDA calls there), and a stream's GPU
// annotations are the stream's row. Readers that match events by row (HTA) need them there.
static bool sharesRow(TrackKind kind) {
    return kind == TrackKind::HostApi || kind == TrackKind::Nvtx || kind == TrackKind::GpuStream;
}

Layout computeLayout(const model::Trace& trace) {
    Layout layout;
    const auto processes = trace.processes();
    const auto tracks = trace.tracks();

    // pids: the device ordinal for GPUs (as Kineto does), the OS pid for hosts; anything that is
    // not a small non-negative integer, or clashes, gets a fresh one.
    layout.pidOf.assign(processes.size(), -1);
    std::unordered_set<std::int64_t> usedPids;
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const auto& p = processes[i];
        const std::int64_t want = p.deviceId >= 0 ? p.deviceId : p.pid;
        if (want >= 0 && want <= kMaxSmallId && usedPids.insert(want).second) {
            layout.pidOf[i] = want;
        }
    }
    std::int64_t nextPid = 0;
    for (auto pid : usedPids)
        nextPid = std::max(nextPid, pid + 1);
    for (auto& pid : layout.pidOf) {
        if (pid < 0)
            pid = nextPid++;
    }

    layout.tracks.resize(tracks.size());
    std::vector<std::unordered_set<std::int64_t>> usedTids(processes.size());
    std::vector<std::unordered_set<std::int64_t>> sharedTids(processes.size());
    // Tracks that share their row first, so a row of another kind never takes its tid.
    std::vector<std::size_t> order(tracks.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_partition(order.begin(), order.end(),
                          [&](std::size_t i) { return sharesRow(tracks[i].kind); });
    for (const std::size_t ti : order) {
        const Track& t = tracks[ti];
        TrackLayout& tl = layout.tracks[ti];
        tl.pid = layout.pidOf[t.process];
        const std::uint32_t lanes = t.laneCount();
        std::uint32_t nestedLanes = lanes;
        if (lanesOverlap(t.kind)) {
            nestedLanes = std::min<std::uint32_t>(lanes, 1);
        } else {
            for (std::uint32_t d = 0; d < lanes; ++d) {
                const auto lane = t.lane(d);
                if (!lane.empty() && (lane.front().flags & model::kSliceSpilled)) {
                    nestedLanes = d;
                    break;
                }
            }
        }
        tl.groupOfLane.resize(lanes);
        for (std::uint32_t d = 0; d < lanes; ++d) {
            tl.groupOfLane[d] = d < nestedLanes ? 0 : 1 + (d - nestedLanes);
        }
        const std::uint32_t groups = lanes == 0 ? 1 : tl.groupOfLane.back() + 1;
        tl.tids.assign(std::max<std::uint32_t>(groups, 1), -1);
        std::int64_t natural = -1;
        if (t.kind == TrackKind::GpuStream) {
            natural = t.streamId;
        } else if (t.kind == TrackKind::HostApi || t.kind == TrackKind::Nvtx ||
                   t.kind == TrackKind::Host) {
            natural = t.threadId;  // a GPU annotation track's "thread" is its stream
        }
        // tid 0 folds into the process's main thread in Perfetto: never use it.
        if (natural > 0 && natural <= kMaxSmallId) {
            if (usedTids[t.process].insert(natural).second) {
                tl.tids[0] = natural;
                if (sharesRow(t.kind))
                    sharedTids[t.process].insert(natural);
            } else if (sharesRow(t.kind) && sharedTids[t.process].count(natural)) {
                tl.tids[0] = natural;
            }
        }
    }
    std::vector<std::int64_t> nextTid(processes.size(), 1);
    for (std::size_t p = 0; p < processes.size(); ++p) {
        for (auto tid : usedTids[p])
            nextTid[p] = std::max(nextTid[p], tid + 1);
    }
    for (std::size_t ti = 0; ti < tracks.size(); ++ti) {
        for (auto& tid : layout.tracks[ti].tids) {
            if (tid < 0)
                tid = nextTid[tracks[ti].process]++;
        }
    }
    return layout;
}

}  // namespace wl::io::writer
