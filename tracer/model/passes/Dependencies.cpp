// Waits of one op for another through CUDA events (Trace::dependencies), from the
// synchronisation slices that name their event's record.
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/passes/HostOfGpu.h"
#include "model/passes/Passes.h"

namespace wl::model {

void resolveDependencies(FinalizeState& s) {
    // The host processes that make calls: an EventSynchronize's call is looked for in the host of
    // the GPU process the wait was seen on (correlation ids are per process; HostOfGpu.h).
    std::set<ProcessIndex> callers;
    for (const Track& track : s.tracks) {
        if (track.kind == TrackKind::HostApi && !track.slices.empty())
            callers.insert(track.process);
    }
    // By (host process, correlation id); kAnyHost where the host is not known.
    constexpr ProcessIndex kAnyHost = std::numeric_limits<ProcessIndex>::max();
    std::map<ProcessIndex, std::optional<ProcessIndex>> hostOf;  // by GPU process
    const auto hostKey = [&](ProcessIndex gpu) {
        auto [it, fresh] = hostOf.try_emplace(gpu);
        if (fresh)
            it->second = hostOfGpu(s, s.processes[gpu], callers);
        return it->second.value_or(kAnyHost);
    };
    std::map<std::pair<ProcessIndex, std::uint64_t>, SliceRef> hostCall;

    // The waits that name their event's record.
    std::vector<SliceRef> waits;
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::Sync)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const SyncDetail* d = s.trace.sync(track.slices[si]);
            if (d == nullptr || d->recordCorrelationId == 0 || d->recordStreamId < 0)
                continue;
            if (d->syncKind == SyncKind::StreamWaitEvent && d->streamId >= 0) {
                waits.push_back({ti, si});
            } else if (d->syncKind == SyncKind::EventSynchronize) {
                waits.push_back({ti, si});
                if (track.slices[si].correlationId != 0)
                    hostCall.emplace(
                        std::pair(hostKey(track.process), track.slices[si].correlationId),
                        SliceRef{});
            }
        }
    }
    if (waits.empty())
        return;

    // The synchronising API calls, runtime calls over the driver calls made inside them. Most
    // calls are not among the few waited in: one hash lookup turns them away.
    std::unordered_set<std::uint64_t> wanted;
    bool anyHostWanted = false;
    for (const auto& [key, ref] : hostCall) {
        wanted.insert(key.second);
        anyHostWanted |= key.first == kAnyHost;
    }
    const auto offerCall = [&](ProcessIndex host, std::uint64_t id, SliceRef ref, SliceKind kind) {
        auto it = hostCall.find({host, id});
        if (it != hostCall.end() && (!it->second.valid() || kind == SliceKind::RuntimeApi))
            it->second = ref;
    };
    if (!hostCall.empty()) {
        for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
            const Track& track = s.tracks[ti];
            if (track.kind != TrackKind::HostApi)
                continue;
            for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
                const Slice& call = track.slices[si];
                if (call.correlationId == 0 || !wanted.contains(call.correlationId))
                    continue;
                offerCall(track.process, call.correlationId, {ti, si}, call.kind);
                if (anyHostWanted)
                    offerCall(kAnyHost, call.correlationId, {ti, si}, call.kind);
            }
        }
    }

    // A stream's GPU ops in the order they were queued (correlation ids grow with every call of a
    // process), so "the last op queued before a call" and "the first after" are binary searches.
    struct Queued {
        std::uint64_t correlationId;
        TimeNs endNs;
        std::uint32_t index;
    };
    std::map<std::pair<ProcessIndex, std::int64_t>, TrackIndex> streamTracks;
    // An event recorded on another GPU of the same program (a multi-GPU exchange): CUDA stream ids
    // are unique across a process's devices, so the stream is found by its owner and id. A
    // duplicate (ids reused by different contexts) makes the lookup give up rather than guess.
    constexpr TrackIndex kAmbiguous = std::numeric_limits<TrackIndex>::max();
    // (Keyed by rank too: two ranks of a job may run processes with the same pid on two hosts.)
    std::map<std::tuple<std::int32_t, std::int64_t, std::int64_t>, TrackIndex> ownerStreamTracks;
    const auto ownerStream = [&](ProcessIndex process, std::int64_t stream) {
        const Process& p = s.processes[process];
        return std::tuple(p.rank, p.ownerPid, stream);
    };
    for (std::uint32_t ti = 0; ti < s.tracks.size(); ++ti) {
        const Track& track = s.tracks[ti];
        if (track.kind != TrackKind::GpuStream)
            continue;
        streamTracks.emplace(std::pair(track.process, track.streamId), ti);
        auto [it, fresh] =
            ownerStreamTracks.try_emplace(ownerStream(track.process, track.streamId), ti);
        if (!fresh)
            it->second = kAmbiguous;
    }
    auto streamTrack = [&](ProcessIndex process, std::int64_t stream) -> std::optional<TrackIndex> {
        if (auto found = streamTracks.find({process, stream}); found != streamTracks.end())
            return found->second;
        auto other = ownerStreamTracks.find(ownerStream(process, stream));
        if (other == ownerStreamTracks.end() || other->second == kAmbiguous)
            return std::nullopt;
        return other->second;
    };
    std::unordered_map<TrackIndex, std::vector<Queued>> queuedOn;
    auto queued = [&](ProcessIndex process, std::int64_t stream) -> const std::vector<Queued>* {
        const std::optional<TrackIndex> found = streamTrack(process, stream);
        if (!found)
            return nullptr;
        auto [it, inserted] = queuedOn.try_emplace(*found);
        if (inserted) {
            const Track& track = s.tracks[*found];
            for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
                const Slice& op = track.slices[si];
                if (op.correlationId != 0 && isGpuWork(op.kind))
                    it->second.push_back({op.correlationId, op.endNs(), si});
            }
            std::sort(it->second.begin(), it->second.end(), [](const Queued& a, const Queued& b) {
                return std::pair(a.correlationId, a.endNs) < std::pair(b.correlationId, b.endNs);
            });
        }
        return &it->second;
    };

    for (const SliceRef via : waits) {
        const Slice& wait = s.trace.slice(via);
        const SyncDetail& d = *s.trace.sync(wait);
        const ProcessIndex process = s.tracks[via.track].process;
        const auto* recorded = queued(process, d.recordStreamId);
        if (recorded == nullptr)
            continue;
        // The last op queued before the record (of ops queued by one call, the last to end).
        auto before = std::lower_bound(
            recorded->begin(), recorded->end(), d.recordCorrelationId,
            [](const Queued& q, std::uint64_t id) { return q.correlationId < id; });
        if (before == recorded->begin())
            continue;
        --before;
        const SliceRef from{*streamTrack(process, d.recordStreamId), before->index};
        SliceRef to;
        if (d.syncKind == SyncKind::StreamWaitEvent) {
            const auto* waiting = queued(process, d.streamId);
            if (waiting == nullptr)
                continue;
            auto after = std::upper_bound(
                waiting->begin(), waiting->end(), wait.correlationId,
                [](std::uint64_t id, const Queued& q) { return id < q.correlationId; });
            if (after == waiting->end())
                continue;
            to = {*streamTrack(process, d.streamId), after->index};
        } else {
            auto call = hostCall.find({hostKey(process), wait.correlationId});
            to = call != hostCall.end() && call->second.valid() ? call->second : via;
        }
        if (from != to)
            s.dependencies.push_back({from, to, via});
    }
    std::sort(s.dependencies.begin(), s.dependencies.end(),
              [](const Dependency& a, const Dependency& b) {
                  return std::tie(a.to, a.from, a.via) < std::tie(b.to, b.from, b.via);
              });
    s.dependencies.shrink_to_fit();
}

}  // namespace wl::model
