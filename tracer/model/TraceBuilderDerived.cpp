// The passes of TraceBuilder::finalize() that make relations and rows from the recorded events
// rather than read them: dependencies through CUDA events, the launch queue, device memory, the
// NVTX projection and graph launches (model/Derived.h says how other code recognises them).
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/Derived.h"
#include "model/TraceBuilder.h"

namespace wl::model {

namespace {

// A counter finalize() makes from the events (CounterTrack::derived), still without samples.
CounterTrack derivedCounter(ProcessIndex process, std::int32_t deviceId, StringId name,
                            StringId series, StringId unit, StringId description) {
    CounterTrack c;
    c.process = process;
    c.deviceId = deviceId;
    c.nameId = name;
    c.seriesId = series;
    c.unitId = unit;
    c.derived = true;
    c.descriptionId = description;
    return c;
}

// Sets the counter's value from `ns` on: samples come in time order, and a later change at the same
// instant replaces the earlier one.
void setValueAt(CounterTrack& c, TimeNs ns, double value) {
    if (!c.samples.empty() && c.samples.back().timestampNs == ns)
        c.samples.back().value = value;
    else
        c.samples.push_back({ns, value});
}

}  // namespace

void TraceBuilder::resolveDependencies() {
    Trace& t = *m_trace;
    // The waits that name their event's record.
    std::vector<SliceRef> waits;
    std::unordered_map<std::uint64_t, SliceRef> hostCall;  // EventSynchronize's correlation id
    for (std::uint32_t ti = 0; ti < t.m_tracks.size(); ++ti) {
        const Track& track = t.m_tracks[ti];
        if (track.kind != TrackKind::Sync)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const SyncDetail* d = t.sync(track.slices[si]);
            if (d == nullptr || d->recordCorrelationId == 0 || d->recordStreamId < 0)
                continue;
            if (d->syncKind == SyncKind::StreamWaitEvent && d->streamId >= 0) {
                waits.push_back({ti, si});
            } else if (d->syncKind == SyncKind::EventSynchronize) {
                waits.push_back({ti, si});
                if (track.slices[si].correlationId != 0)
                    hostCall.emplace(track.slices[si].correlationId, SliceRef{});
            }
        }
    }
    if (waits.empty())
        return;

    // The synchronising API calls, runtime calls over the driver calls made inside them.
    if (!hostCall.empty()) {
        for (std::uint32_t ti = 0; ti < t.m_tracks.size(); ++ti) {
            const Track& track = t.m_tracks[ti];
            if (track.kind != TrackKind::HostApi)
                continue;
            for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
                const Slice& s = track.slices[si];
                auto it = hostCall.find(s.correlationId);
                if (it != hostCall.end() &&
                    (!it->second.valid() || s.kind == SliceKind::RuntimeApi))
                    it->second = {ti, si};
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
        const Process& p = t.m_processes[process];
        return std::tuple(p.rank, p.ownerPid, stream);
    };
    for (std::uint32_t ti = 0; ti < t.m_tracks.size(); ++ti) {
        const Track& track = t.m_tracks[ti];
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
            const Track& track = t.m_tracks[*found];
            for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
                const Slice& s = track.slices[si];
                if (s.correlationId != 0 && isGpuWork(s.kind))
                    it->second.push_back({s.correlationId, s.endNs(), si});
            }
            std::sort(it->second.begin(), it->second.end(), [](const Queued& a, const Queued& b) {
                return std::pair(a.correlationId, a.endNs) < std::pair(b.correlationId, b.endNs);
            });
        }
        return &it->second;
    };

    for (const SliceRef via : waits) {
        const Slice& wait = t.slice(via);
        const SyncDetail& d = *t.sync(wait);
        const ProcessIndex process = t.m_tracks[via.track].process;
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
            auto call = hostCall.find(wait.correlationId);
            to = call != hostCall.end() && call->second.valid() ? call->second : via;
        }
        if (from != to)
            t.m_dependencies.push_back({from, to, via});
    }
    std::sort(t.m_dependencies.begin(), t.m_dependencies.end(),
              [](const Dependency& a, const Dependency& b) {
                  return std::tie(a.to, a.from, a.via) < std::tie(b.to, b.from, b.via);
              });
    t.m_dependencies.shrink_to_fit();
}

void TraceBuilder::addLaunchQueues() {
    Trace& t = *m_trace;
    // Per GPU process: +1 when the call that launched an op starts, -1 when the op ends.
    std::map<ProcessIndex, std::vector<std::pair<TimeNs, int>>> steps;
    for (const Flow& f : t.m_flows) {
        const Slice& to = t.slice(f.to);
        const Slice& from = t.slice(f.from);
        if (!isLaunchFlow(t, f) ||
            to.endNs() <= from.startNs)  // the two clocks disagree: no queue to speak of
            continue;
        auto& v = steps[t.m_tracks[f.to.track].process];
        v.emplace_back(from.startNs, +1);
        v.emplace_back(to.endNs(), -1);
    }
    if (steps.empty())
        return;
    const StringId name = intern(kLaunchQueueName);
    const StringId unit = intern("ops");
    const StringId description = intern(
        "Operations launched and not yet finished on this GPU: from the start of the call that "
        "launched each one to its end. How far the host runs ahead. At 0 nothing is queued: the "
        "GPU idles until the host launches more work.");
    for (auto& [process, v] : steps) {
        std::sort(v.begin(), v.end());  // at one instant, ends before starts
        CounterTrack c =
            derivedCounter(process, t.m_processes[process].deviceId, name, name, unit, description);
        c.samples.reserve(v.size());
        std::int64_t depth = 0;
        for (const auto& [ns, delta] : v) {
            depth += delta;
            setValueAt(c, ns, double(depth));
        }
        c.samples.shrink_to_fit();
        t.m_counters.push_back(std::move(c));
    }
}

void TraceBuilder::addDeviceMemory() {
    Trace& t = *m_trace;
    const StringId name = intern(kDeviceMemoryName);
    const StringId inUse = intern(kMemoryInUse);
    const StringId reserved = intern(kMemoryInPools);
    const StringId unit = intern("B");
    const StringId inUseText = intern(
        "Device memory allocated and not yet released by this process (cudaMalloc, "
        "cudaMallocAsync, ...), from its allocation records. Memory allocated before recording "
        "began is not known, so the row starts at 0.");
    const StringId reservedText = intern(
        "Device memory the process's memory pools hold (cudaMallocAsync), whether or not "
        "allocations use it: a pool keeps freed memory for reuse until it is trimmed.");
    for (const Track& track : t.m_tracks) {
        if (track.kind != TrackKind::Memory || track.slices.empty())
            continue;
        CounterTrack used =
            derivedCounter(track.process, track.deviceId, name, inUse, unit, inUseText);
        CounterTrack pools =
            derivedCounter(track.process, track.deviceId, name, reserved, unit, reservedText);
        // Only memory allocated while recording counts: a release of memory allocated before is
        // left out, so the row never goes below 0.
        std::unordered_map<std::uint64_t, std::uint64_t> live;  // address -> bytes
        std::map<std::uint64_t, std::uint64_t> poolSize;        // pool address -> bytes
        std::uint64_t inUseBytes = 0;
        std::uint64_t poolBytes = 0;
        // A sample only where the value changes (a release of unknown memory changes nothing).
        auto sample = [](CounterTrack& c, TimeNs ns, double value) {
            if (c.samples.empty() || c.samples.back().value != value ||
                c.samples.back().timestampNs == ns)
                setValueAt(c, ns, value);
        };
        // Slices of a memory track are instants in time order (one lane unless two share a time).
        std::vector<const Slice*> ops;
        ops.reserve(track.slices.size());
        for (const Slice& s : track.slices)
            ops.push_back(&s);
        std::stable_sort(ops.begin(), ops.end(),
                         [](const Slice* a, const Slice* b) { return a->startNs < b->startNs; });
        for (const Slice* s : ops) {
            const MemoryDetail* d = t.memory(*s);
            if (d == nullptr ||
                (d->memoryKind != MemoryKind::Device && d->memoryKind != MemoryKind::Managed))
                continue;
            if (d->op == MemoryOp::Allocation) {
                auto [it, inserted] = live.try_emplace(d->address, d->bytes);
                if (!inserted) {  // the release was not recorded: replace the old allocation
                    inUseBytes -= it->second;
                    it->second = d->bytes;
                }
                inUseBytes += d->bytes;
            } else if (auto it = live.find(d->address); it != live.end()) {
                inUseBytes -= it->second;
                live.erase(it);
            }
            sample(used, s->startNs, static_cast<double>(inUseBytes));
            if (d->fromPool) {
                poolBytes -= poolSize[d->poolAddress];
                poolSize[d->poolAddress] = d->poolReservedBytes;
                poolBytes += d->poolReservedBytes;
                sample(pools, s->startNs, static_cast<double>(poolBytes));
            }
        }
        if (!used.samples.empty())
            t.m_counters.push_back(std::move(used));
        if (!pools.samples.empty())
            t.m_counters.push_back(std::move(pools));
    }
}

void TraceBuilder::addNvtxProjections() {
    Trace& t = *m_trace;
    // The launches of each host thread (its API track), in call order: when the call started,
    // and the span of the GPU work it queued, on which GPU process.
    struct Launch {
        TimeNs callNs;
        TimeNs gpuStartNs;
        TimeNs gpuEndNs;
        ProcessIndex gpu;
    };
    std::unordered_map<TrackIndex, std::vector<Launch>> launchesOf;
    for (const Flow& f : t.m_flows) {
        if (!isLaunchFlow(t, f) || t.m_tracks[f.from.track].kind != TrackKind::HostApi)
            continue;  // NVTX ranges are matched to a thread's API calls
        const Slice& call = t.slice(f.from);
        const Slice& op = t.slice(f.to);
        launchesOf[f.from.track].push_back(
            {call.startNs, op.startNs, op.endNs(), t.m_tracks[f.to.track].process});
    }
    if (launchesOf.empty())
        return;
    std::map<std::pair<ProcessIndex, std::int64_t>, TrackIndex> apiTrackOf;
    for (auto& [track, launches] : launchesOf) {
        std::sort(launches.begin(), launches.end(),
                  [](const Launch& a, const Launch& b) { return a.callNs < b.callNs; });
        apiTrackOf.emplace(std::pair(t.m_tracks[track].process, t.m_tracks[track].threadId), track);
    }

    // One projection track per (GPU process, NVTX track); made after the tracks were ordered, so
    // they come last in their GPU process.
    std::map<std::pair<ProcessIndex, TrackIndex>, TrackIndex> projectionOf;
    const std::size_t trackCount = t.m_tracks.size();
    for (TrackIndex ti = 0; ti < trackCount; ++ti) {
        if (t.m_tracks[ti].kind != TrackKind::Nvtx)
            continue;
        const auto api = apiTrackOf.find({t.m_tracks[ti].process, t.m_tracks[ti].threadId});
        if (api == apiTrackOf.end())
            continue;
        const std::vector<Launch>& launches = launchesOf[api->second];
        for (std::size_t si = 0; si < t.m_tracks[ti].slices.size(); ++si) {
            const Slice range = t.m_tracks[ti].slices[si];
            if (range.durationNs == 0)
                continue;  // a mark launches nothing
            auto it = std::lower_bound(launches.begin(), launches.end(), range.startNs,
                                       [](const Launch& l, TimeNs ns) { return l.callNs < ns; });
            // Per GPU process the range's work ran on (almost always one).
            std::map<ProcessIndex, std::pair<TimeNs, TimeNs>> span;
            for (; it != launches.end() && it->callNs <= range.endNs(); ++it) {
                auto [s, inserted] = span.try_emplace(it->gpu, it->gpuStartNs, it->gpuEndNs);
                if (!inserted) {
                    s->second.first = std::min(s->second.first, it->gpuStartNs);
                    s->second.second = std::max(s->second.second, it->gpuEndNs);
                }
            }
            for (const auto& [gpu, extent] : span) {
                auto [p, inserted] = projectionOf.try_emplace({gpu, ti}, 0);
                if (inserted) {
                    const Track& host = t.m_tracks[ti];
                    Track projection;
                    projection.kind = TrackKind::NvtxProjection;
                    projection.process = gpu;
                    projection.deviceId = t.m_processes[gpu].deviceId;
                    projection.threadId = host.threadId;
                    projection.domainId = host.domainId;
                    const std::string domain(t.m_strings.get(host.domainId));
                    projection.nameId =
                        intern((domain.empty() ? std::string("NVTX") : "NVTX " + domain) +
                               " on the GPU (thread " + threadIdText(host.threadId) + ")");
                    projection.sortIndex = std::numeric_limits<std::int32_t>::max();
                    p->second = static_cast<TrackIndex>(t.m_tracks.size());
                    t.m_tracks.push_back(std::move(projection));
                }
                Slice s = range;  // its name, colour and details (shared, not copied)
                s.startNs = extent.first;
                s.durationNs = extent.second - extent.first;
                s.correlationId = 0;
                s.depth = 0;
                s.flags = 0;
                s.argsIndex = kNoDetail;
                t.m_tracks[p->second].slices.push_back(s);
            }
        }
    }
    for (TrackIndex ti = static_cast<TrackIndex>(trackCount); ti < t.m_tracks.size(); ++ti)
        assignLanes(t.m_tracks[ti]);
}

void TraceBuilder::addGraphLaunches() {
    Trace& t = *m_trace;
    // One launch per (cudaGraphLaunch call, stream its nodes ran on).
    struct Launch {
        std::uint32_t graphId = 0;
        TimeNs callNs = 0;
        TimeNs firstNs = 0;
        TimeNs lastNs = 0;
        std::uint32_t nodes = 0;
        std::uint32_t index = 0;  // 1-based, among the launches of its graph on its GPU
    };
    std::map<std::pair<SliceRef, TrackIndex>, Launch> launches;
    for (const Flow& f : t.m_flows) {
        if (!isLaunchFlow(t, f))
            continue;
        const Slice& node = t.slice(f.to);
        const GraphNode* g = t.graphNode(node);
        if (g == nullptr || g->graphId == 0)
            continue;
        auto [it, inserted] = launches.try_emplace({f.from, f.to.track});
        Launch& l = it->second;
        if (inserted) {
            l.graphId = g->graphId;
            l.callNs = t.slice(f.from).startNs;
            l.firstNs = node.startNs;
            l.lastNs = node.endNs();
        }
        l.firstNs = std::min(l.firstNs, node.startNs);
        l.lastNs = std::max(l.lastNs, node.endNs());
        ++l.nodes;
    }
    if (launches.empty())
        return;
    // "launch k of n": the launches of one graph on one GPU process, in call order.
    std::map<std::pair<ProcessIndex, std::uint32_t>, std::vector<Launch*>> ofGraph;
    for (auto& [key, l] : launches)
        ofGraph[{t.m_tracks[key.second].process, l.graphId}].push_back(&l);
    for (auto& [key, list] : ofGraph) {
        std::sort(list.begin(), list.end(),
                  [](const Launch* a, const Launch* b) { return a->callNs < b->callNs; });
        for (std::size_t i = 0; i < list.size(); ++i)
            list[i]->index = static_cast<std::uint32_t>(i + 1);
    }
    // Beyond this many launches of a graph, names leave out the launch number: one string per
    // launch would grow the string table with the trace.
    constexpr std::size_t kNumberedLaunches = 4096;
    std::map<TrackIndex, TrackIndex> trackOf;  // stream track -> its graph-launch track
    for (const auto& [key, l] : launches) {
        const TrackIndex stream = key.second;
        auto [it, inserted] = trackOf.try_emplace(stream, 0);
        if (inserted) {
            const Track& s = t.m_tracks[stream];
            Track track;
            track.kind = TrackKind::GraphLaunches;
            track.process = s.process;
            track.deviceId = s.deviceId;
            track.streamId = s.streamId;
            track.sortIndex = s.sortIndex;
            track.nameId = intern("Graph launches (stream " + std::to_string(s.streamId) + ")");
            it->second = static_cast<TrackIndex>(t.m_tracks.size());
            t.m_tracks.push_back(std::move(track));
        }
        const std::size_t count = ofGraph[{t.m_tracks[stream].process, l.graphId}].size();
        std::string name = "graph " + std::to_string(l.graphId);
        if (count <= kNumberedLaunches)
            name += " · launch " + std::to_string(l.index) + " of " + std::to_string(count);
        name += " · " + std::to_string(l.nodes) + (l.nodes == 1 ? " node" : " nodes");
        Slice s;
        s.startNs = l.firstNs;
        s.durationNs = l.lastNs - l.firstNs;
        s.nameId = intern(name);
        s.kind = SliceKind::Other;
        t.m_tracks[it->second].slices.push_back(s);
    }
    for (const auto& [stream, track] : trackOf) {
        auto& slices = t.m_tracks[track].slices;
        std::sort(slices.begin(), slices.end(),
                  [](const Slice& a, const Slice& b) { return a.startNs < b.startNs; });
        assignLanes(t.m_tracks[track]);
    }
}

}  // namespace wl::model
