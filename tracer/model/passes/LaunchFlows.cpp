// Launch flows: an API call (or host slice) -> the GPU work it launched, by their shared
// correlation id. CUPTI correlation ids are per process, so two traced processes (a merged trace)
// may use the same ids: a GPU process's work is matched against the calls of its own host process.
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "model/passes/HostOfGpu.h"
#include "model/passes/Passes.h"

namespace wl::model {

namespace {

struct Launcher {
    SliceRef ref;
    int rank = 0;  // runtime calls win over driver calls made inside them
};
using Launchers = std::unordered_map<std::uint64_t, Launcher>;

void offer(Launchers& launchers, std::uint64_t id, Launcher candidate) {
    auto [it, inserted] = launchers.try_emplace(id, candidate);
    if (!inserted && candidate.rank > it->second.rank)
        it->second = candidate;
}

}  // namespace

void linkLaunches(FinalizeState& s) {
    Launchers byId;  // every process's calls: for GPU work whose host is not known
    std::map<ProcessIndex, Launchers> byProcess;
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::HostApi && track.kind != TrackKind::Host)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const Slice& slice = track.slices[si];
            if (slice.correlationId == 0)
                continue;
            const int rank = slice.kind == SliceKind::RuntimeApi  ? 2
                             : slice.kind == SliceKind::DriverApi ? 1
                                                                  : 0;
            offer(byId, slice.correlationId, {{ti, si}, rank});
            offer(byProcess[track.process], slice.correlationId, {{ti, si}, rank});
        }
    }
    if (byId.empty())
        return;
    std::set<ProcessIndex> callers;
    for (const auto& entry : byProcess)
        callers.insert(entry.first);

    std::map<ProcessIndex, const Launchers*> launchersOf;  // by GPU process
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::GpuStream && track.kind != TrackKind::Memory)
            continue;
        auto [known, fresh] = launchersOf.try_emplace(track.process, &byId);
        if (fresh) {
            if (const auto host = hostOfGpu(s, s.processes[track.process], callers))
                known->second = &byProcess.at(*host);
        }
        const Launchers& launchers = *known->second;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const Slice& slice = track.slices[si];
            if (slice.correlationId == 0 || !isCalledFromHost(slice.kind))
                continue;
            // Duplicates (an explicit flow that repeats a launch link) are removed by the flow
            // index, which keeps the launch link.
            if (auto it = launchers.find(slice.correlationId); it != launchers.end())
                s.flows.push_back({slice.correlationId, it->second.ref, {ti, si}});
        }
    }
}

}  // namespace wl::model
