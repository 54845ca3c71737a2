// The NVTX projection tracks (TrackKind::NvtxProjection): each NVTX range of a host thread as the
// span of the GPU work launched inside it.
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/Derived.h"
#include "model/passes/Passes.h"

namespace wl::model {

void addNvtxProjections(FinalizeState& s) {
    // The launches of each host thread (its API track), in call order: when the call started,
    // and the span of the GPU work it queued, on which GPU process.
    struct Launch {
        TimeNs callNs;
        TimeNs gpuStartNs;
        TimeNs gpuEndNs;
        ProcessIndex gpu;
    };
    std::unordered_map<TrackIndex, std::vector<Launch>> launchesOf;
    for (const Flow& f : s.flows) {
        if (!isLaunchFlow(s.trace, f) || s.tracks[f.from.track].kind != TrackKind::HostApi)
            continue;  // NVTX ranges are matched to a thread's API calls
        const Slice& call = s.trace.slice(f.from);
        const Slice& op = s.trace.slice(f.to);
        launchesOf[f.from.track].push_back(
            {call.startNs, op.startNs, op.endNs(), s.tracks[f.to.track].process});
    }
    if (launchesOf.empty())
        return;
    std::map<std::pair<ProcessIndex, std::int64_t>, TrackIndex> apiTrackOf;
    for (auto& [track, launches] : launchesOf) {
        std::sort(launches.begin(), launches.end(),
                  [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; });
        apiTrackOf.emplace(std::pair(s.tracks[track].process, s.tracks[track].threadId), track);
    }

    // One projection track per (GPU process, NVTX track); made after the tracks were ordered, so
    // they come last in their GPU process.
    std::map<std::pair<ProcessIndex, TrackIndex>, TrackIndex> projectionOf;
    const std::size_t trackCount = s.tracks.size();
    for (TrackIndex ti = 0; ti < trackCount; ++ti) {
        if (s.tracks[ti].kind != TrackKind::Nvtx)
            continue;
        const auto api = apiTrackOf.find({s.tracks[ti].process, s.tracks[ti].threadId});
        if (api == apiTrackOf.end())
            continue;
        const std::vector<Launch>& launches = launchesOf[api->second];
        for (std::size_t si = 0; si < s.tracks[ti].slices.size(); ++si) {
            const Slice range = s.tracks[ti].slices[si];
            if (range.durationNs == 0)
                continue;  // a mark launches nothing
            auto it = std::lower_bound(launches.begin(), launches.end(), range.startNs,
                                       [](const Launch& l, TimeNs ns) { return l.callNs < ns; });
            // Per GPU process the range's work ran on (almost always one).
            std::map<ProcessIndex, std::pair<TimeNs, TimeNs>> span;
            for (; it != launches.end() && it->callNs <= range.endNs(); ++it) {
                auto [e, inserted] = span.try_emplace(it->gpu, it->gpuStartNs, it->gpuEndNs);
                if (!inserted) {
                    e->second.first = std::min(e->second.first, it->gpuStartNs);
                    e->second.second = std::max(e->second.second, it->gpuEndNs);
                }
            }
            for (const auto& [gpu, extent] : span) {
                auto [p, inserted] = projectionOf.try_emplace({gpu, ti}, 0);
                if (inserted) {
                    const Track& host = s.tracks[ti];
                    Track projection;
                    projection.kind = TrackKind::NvtxProjection;
                    projection.process = gpu;
                    projection.deviceId = s.processes[gpu].deviceId;
                    projection.threadId = host.threadId;
                    projection.domainId = host.domainId;
                    const std::string domain(s.strings.get(host.domainId));
                    projection.nameId =
                        s.intern((domain.empty() ? std::string("NVTX") : "NVTX " + domain) +
                                 " on the GPU (thread " + threadIdText(host.threadId) + ")");
                    projection.sortIndex = std::numeric_limits<std::int32_t>::max();
                    p->second = static_cast<TrackIndex>(s.tracks.size());
                    s.tracks.push_back(std::move(projection));
                }
                Slice slice = range;  // its name, colour and details (shared, not copied)
                slice.startNs = extent.first;
                slice.durationNs = extent.second - extent.first;
                slice.correlationId = 0;
                slice.depth = 0;
                slice.flags = 0;
                slice.argsIndex = kNoDetail;
                s.tracks[p->second].slices.push_back(slice);
            }
        }
    }
    for (TrackIndex ti = static_cast<TrackIndex>(trackCount); ti < s.tracks.size(); ++ti)
        assignLanes(s.tracks[ti], s.diagnostics, s.strings);
}

}  // namespace wl::model
