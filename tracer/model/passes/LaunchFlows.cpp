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

// The best call of `id` among every process's calls, as one table of all of them would keep it
// (the higher rank; of equal ranks, the first in track order): for GPU work whose host is not
// known. Looked up in each process's table rather than kept in a second copy of them all.
const Launcher* anyProcessLauncher(const std::map<ProcessIndex, Launchers>& byProcess,
                                   std::uint64_t id) {
    const Launcher* best = nullptr;
    for (const auto& [process, launchers] : byProcess) {
        const auto it = launchers.find(id);
        if (it == launchers.end())
            continue;
        const Launcher& l = it->second;
        if (best == nullptr || l.rank > best->rank || (l.rank == best->rank && l.ref < best->ref))
            best = &l;
    }
    return best;
}

}  // namespace

void linkLaunches(FinalizeState& s) {
    std::map<ProcessIndex, Launchers> byProcess;  // each call once, in its own process's table
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
            offer(byProcess[track.process], slice.correlationId, {{ti, si}, rank});
        }
    }
    if (byProcess.empty())
        return;
    std::set<ProcessIndex> callers;
    for (const auto& entry : byProcess)
        callers.insert(entry.first);

    // By GPU process: its host's calls, or null when its host is not known.
    std::map<ProcessIndex, const Launchers*> launchersOf;
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::GpuStream && track.kind != TrackKind::Memory)
            continue;
        auto [known, fresh] = launchersOf.try_emplace(track.process, nullptr);
        if (fresh) {
            if (const auto host = hostOfGpu(s, s.processes[track.process], callers))
                known->second = &byProcess.at(*host);
        }
        const Launchers* launchers = known->second;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const Slice& slice = track.slices[si];
            if (slice.correlationId == 0 || !isCalledFromHost(slice.kind))
                continue;
            const Launcher* from = nullptr;
            if (launchers != nullptr) {
                if (const auto it = launchers->find(slice.correlationId); it != launchers->end())
                    from = &it->second;
            } else {
                from = anyProcessLauncher(byProcess, slice.correlationId);
            }
            // Duplicates (an explicit flow that repeats a launch link) are removed by the flow
            // index, which keeps the launch link.
            if (from != nullptr)
                s.flows.push_back({slice.correlationId, from->ref, {ti, si}});
        }
    }
}

}  // namespace wl::model
