// Launch flows: an API call (or host slice) -> the GPU work it launched, by their shared
// correlation id.
#include <unordered_map>

#include "model/passes/Passes.h"

namespace wl::model {

void linkLaunches(FinalizeState& s) {
    // API call -> GPU work with the same correlation id in the same host process.
    // CUPTI correlation ids are per process; GPU tracks belong to device processes, so GPU work is
    // matched against the one host process when there is one, else by id alone.
    struct Launcher {
        SliceRef ref;
        int rank;  // runtime calls win over driver calls made inside them
    };
    std::unordered_map<std::uint64_t, Launcher> launchers;
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
            auto [it, inserted] =
                launchers.try_emplace(slice.correlationId, Launcher{{ti, si}, rank});
            if (!inserted && rank > it->second.rank)
                it->second = {{ti, si}, rank};
        }
    }
    if (launchers.empty())
        return;
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::GpuStream && track.kind != TrackKind::Memory)
            continue;
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
