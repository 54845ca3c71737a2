#include "model/TraceBuilder.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <utility>

#include "model/passes/Passes.h"

namespace wl::model {

TraceBuilder::TraceBuilder() : m_trace(std::shared_ptr<Trace>(new Trace())) {}

ProcessIndex TraceBuilder::hostProcess(std::int64_t pid, std::string_view name, std::int32_t rank) {
    rank = rank < 0 ? -1 : rank;
    auto [it, inserted] = m_hostProcessIndex.try_emplace({rank, pid}, 0);
    if (inserted) {
        it->second = static_cast<ProcessIndex>(m_trace->m_processes.size());
        Process p;
        p.pid = pid;
        p.deviceId = -1;
        p.rank = rank;
        const std::string unnamed =
            isSyntheticId(pid) ? "(unnamed process)" : "Process " + std::to_string(pid);
        p.nameId = intern(name.empty() ? unnamed : std::string(name));
        m_trace->m_processes.push_back(p);
    } else if (!name.empty()) {
        m_trace->m_processes[it->second].nameId = intern(name);
    }
    return it->second;
}

ProcessIndex TraceBuilder::gpuProcess(std::int32_t deviceId, std::string_view name,
                                      std::int64_t ownerPid, std::int32_t rank) {
    ownerPid = ownerPid < 0 ? -1 : ownerPid;
    rank = rank < 0 ? -1 : rank;
    auto [it, inserted] = m_gpuProcessIndex.try_emplace({rank, deviceId, ownerPid}, 0);
    if (inserted) {
        it->second = static_cast<ProcessIndex>(m_trace->m_processes.size());
        Process p;
        p.pid = deviceId;
        p.deviceId = deviceId;
        p.ownerPid = ownerPid;
        p.rank = rank;
        std::string fallback = "GPU " + std::to_string(deviceId);
        if (ownerPid >= 0)
            fallback += " (pid " + std::to_string(ownerPid) + ")";
        p.nameId = intern(name.empty() ? fallback : std::string(name));
        m_trace->m_processes.push_back(p);
    } else if (!name.empty()) {
        m_trace->m_processes[it->second].nameId = intern(name);
    }
    return it->second;
}

void TraceBuilder::setProcessName(ProcessIndex process, std::string_view name) {
    m_trace->m_processes.at(process).nameId = intern(name);
}

TrackIndex TraceBuilder::trackFor(TrackKind kind, ProcessIndex process, std::int64_t key,
                                  StringId domain) {
    auto [it, inserted] =
        m_trackIndex.try_emplace({static_cast<int>(kind), process, key, domain}, 0);
    if (!inserted)
        return it->second;
    it->second = static_cast<TrackIndex>(m_trace->m_tracks.size());
    Track t;
    t.kind = kind;
    t.process = process;
    t.domainId = domain;
    t.sortIndex = kUnsetSortIndex;
    const std::string domainText(m_trace->m_strings.get(domain));
    std::string name;
    switch (kind) {
        case TrackKind::HostApi:
            t.threadId = key;
            name = isSyntheticId(key) ? "CUDA API" : "CUDA API (thread " + threadIdText(key) + ")";
            break;
        case TrackKind::Nvtx:
            t.threadId = key;
            name = domainText.empty() ? "NVTX" : "NVTX " + domainText;
            if (m_trace->m_processes.at(process).deviceId >= 0) {
                name += " (stream " + std::to_string(key) + ")";  // GPU-side ranges of a stream
            } else if (!isSyntheticId(key)) {
                name += " (thread " + threadIdText(key) + ")";
            }
            break;
        case TrackKind::NvtxAsync:
            name = domainText.empty() ? "NVTX ranges" : "NVTX " + domainText + " ranges";
            break;
        case TrackKind::GpuStream:
            t.streamId = key;
            t.deviceId = m_trace->m_processes.at(process).deviceId;
            name = "Stream " + std::to_string(key);
            break;
        case TrackKind::Sync:
            t.deviceId = m_trace->m_processes.at(process).deviceId;
            name = "Synchronization";
            break;
        case TrackKind::Memory:
            t.deviceId = m_trace->m_processes.at(process).deviceId;
            name = "Memory allocations";
            break;
        case TrackKind::Host:
            t.threadId = key;
            name = isSyntheticId(key) ? "Thread" : "Thread " + threadIdText(key);
            break;
        case TrackKind::UnifiedMemory:
            t.deviceId = m_trace->m_processes.at(process).deviceId;
            t.unifiedMemoryKind = static_cast<UnifiedMemoryKind>(key);
            name = unifiedMemoryTrackName(t.unifiedMemoryKind);
            break;
        case TrackKind::NvtxProjection:
        case TrackKind::GraphLaunches:
            break;  // made by addNvtxProjections() and addGraphLaunches(), not by key
    }
    t.nameId = intern(name);
    m_trace->m_tracks.push_back(std::move(t));
    return it->second;
}

TrackIndex TraceBuilder::hostApiTrack(ProcessIndex process, std::int64_t threadId) {
    return trackFor(TrackKind::HostApi, process, threadId, 0);
}
TrackIndex TraceBuilder::nvtxTrack(ProcessIndex process, std::int64_t threadId,
                                   std::string_view domain) {
    return trackFor(TrackKind::Nvtx, process, threadId, intern(domain));
}
TrackIndex TraceBuilder::nvtxAsyncTrack(ProcessIndex process, std::string_view domain) {
    return trackFor(TrackKind::NvtxAsync, process, 0, intern(domain));
}
TrackIndex TraceBuilder::gpuStreamTrack(ProcessIndex gpuProcessIndex, std::int64_t streamId) {
    return trackFor(TrackKind::GpuStream, gpuProcessIndex, streamId, 0);
}
TrackIndex TraceBuilder::syncTrack(ProcessIndex gpuProcessIndex) {
    return trackFor(TrackKind::Sync, gpuProcessIndex, 0, 0);
}
TrackIndex TraceBuilder::memoryTrack(ProcessIndex gpuProcessIndex) {
    return trackFor(TrackKind::Memory, gpuProcessIndex, 0, 0);
}
TrackIndex TraceBuilder::unifiedMemoryTrack(ProcessIndex process, UnifiedMemoryKind kind) {
    return trackFor(TrackKind::UnifiedMemory, process, static_cast<std::int64_t>(kind), 0);
}
TrackIndex TraceBuilder::hostTrack(ProcessIndex process, std::int64_t threadId) {
    return trackFor(TrackKind::Host, process, threadId, 0);
}

void TraceBuilder::setTrackName(TrackIndex track, std::string_view name) {
    m_trace->m_tracks.at(track).nameId = intern(name);
}
void TraceBuilder::setTrackSortIndex(TrackIndex track, std::int32_t sortIndex) {
    m_trace->m_tracks.at(track).sortIndex = sortIndex;
}

void TraceBuilder::push(TrackIndex track, TimeNs startNs, TimeNs endNs, StringId name,
                        SliceKind kind, std::uint64_t correlationId, std::uint32_t detailIndex) {
    if (endNs < startNs) {
        ++m_trace->m_diagnostics.invalidTimestamps;
        endNs = startNs;
    }
    Slice s;
    s.startNs = startNs;
    s.durationNs = endNs - startNs;
    s.correlationId = correlationId;
    s.nameId = name;
    s.detailIndex = detailIndex;
    s.kind = kind;
    m_trace->m_tracks[track].slices.push_back(s);
    ++m_sliceCount;
}

void TraceBuilder::setLastSliceExtraArgs(TrackIndex track, std::string_view members) {
    setLastSliceProducer(track, nullptr, {}, members);
}

void TraceBuilder::setLastSliceProducer(TrackIndex track, const SliceOrigin* origin,
                                        std::string_view modelMembers,
                                        std::string_view extraMembers) {
    Track& tr = m_trace->m_tracks.at(track);
    if (tr.slices.empty())
        return;
    Trace& t = *m_trace;
    // Most of a track's slices share its row and category: only the others name theirs.
    std::uint32_t originIndex = 0;  // the track's
    if (origin != nullptr) {
        t.m_hasOrigins = true;
        if (!tr.origin.known) {
            tr.origin = *origin;
            tr.origin.known = true;
        } else if (origin->pid != tr.origin.pid || origin->tid != tr.origin.tid ||
                   origin->hasCat != tr.origin.hasCat || origin->cat != tr.origin.cat ||
                   origin->pidQuoted != tr.origin.pidQuoted ||
                   origin->tidQuoted != tr.origin.tidQuoted || origin->scope != tr.origin.scope) {
            const int flags = (origin->hasCat ? 1 : 0) | (origin->pidQuoted ? 2 : 0) |
                              (origin->tidQuoted ? 4 : 0) |
                              (static_cast<unsigned char>(origin->scope) << 3);
            const auto [it, added] =
                m_originIndex.try_emplace({origin->pid, origin->tid, origin->cat, flags},
                                          static_cast<std::uint32_t>(t.m_origins.size()));
            if (added) {
                t.m_origins.push_back(*origin);
                t.m_origins.back().known = true;
            }
            originIndex = it->second + 1;
        }
    }
    if (originIndex == 0 && modelMembers.empty() && extraMembers.empty())
        return;
    // One run of text: the model's members, a comma when both are there, then the others (the
    // part Trace::extraArgs gives).
    const std::size_t before =
        modelMembers.size() + (!modelMembers.empty() && !extraMembers.empty() ? 1 : 0);
    std::string_view text = extraMembers;
    if (before > 0) {
        m_argsScratch.assign(modelMembers);
        if (before > modelMembers.size())
            m_argsScratch += ',';
        m_argsScratch.append(extraMembers);
        text = m_argsScratch;
    }
    PackedTexts::Heads heads{};
    heads[Trace::kArgsOrigin] = originIndex;
    heads[Trace::kArgsModelBytes] = static_cast<std::uint32_t>(before);
    // A second call for the same slice stores anew (the first entry is left unused).
    tr.slices.back().argsIndex = t.m_args.append(heads, text);
}

void TraceBuilder::setIdName(std::int64_t id, std::string name) {
    m_trace->m_idNames[id] = std::move(name);
}

void TraceBuilder::addKeptEvent(std::string_view json) {
    m_trace->m_keptEvents.append({}, json);
}

std::uint32_t TraceBuilder::addKernelDetail(const KernelDetail& d) {
    m_trace->m_kernels.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_kernels.size() - 1);
}
std::uint32_t TraceBuilder::addMemcpyDetail(const MemcpyDetail& d) {
    m_trace->m_memcpys.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_memcpys.size() - 1);
}
std::uint32_t TraceBuilder::addMemsetDetail(const MemsetDetail& d) {
    m_trace->m_memsets.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_memsets.size() - 1);
}
std::uint32_t TraceBuilder::addMemoryDetail(const MemoryDetail& d) {
    m_trace->m_memories.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_memories.size() - 1);
}
std::uint32_t TraceBuilder::addSyncDetail(const SyncDetail& d) {
    m_trace->m_syncs.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_syncs.size() - 1);
}
std::uint32_t TraceBuilder::addApiDetail(const ApiDetail& d) {
    m_trace->m_apis.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_apis.size() - 1);
}
std::uint32_t TraceBuilder::addNvtxDetail(const NvtxDetail& d) {
    m_trace->m_nvtx.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_nvtx.size() - 1);
}
std::uint32_t TraceBuilder::addUnifiedMemoryDetail(const UnifiedMemoryDetail& d) {
    m_trace->m_unifiedMemory.push_back(d);
    return static_cast<std::uint32_t>(m_trace->m_unifiedMemory.size() - 1);
}

void TraceBuilder::addKernel(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                             std::uint64_t correlationId, const KernelDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::Kernel, correlationId,
         addKernelDetail(detail));
}
void TraceBuilder::addMemcpy(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                             std::uint64_t correlationId, const MemcpyDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::Memcpy, correlationId,
         addMemcpyDetail(detail));
}
void TraceBuilder::addMemset(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                             std::uint64_t correlationId, const MemsetDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::Memset, correlationId,
         addMemsetDetail(detail));
}
void TraceBuilder::addMemory(TrackIndex track, TimeNs timestampNs, std::string_view name,
                             std::uint64_t correlationId, const MemoryDetail& detail) {
    push(track, timestampNs, timestampNs, intern(name), SliceKind::Memory, correlationId,
         addMemoryDetail(detail));
}
void TraceBuilder::addSync(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                           std::uint64_t correlationId, const SyncDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::Sync, correlationId,
         addSyncDetail(detail));
}
void TraceBuilder::addApi(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                          std::uint64_t correlationId, const ApiDetail& detail) {
    const auto kind =
        detail.apiKind == ApiKind::Driver ? SliceKind::DriverApi : SliceKind::RuntimeApi;
    push(track, startNs, endNs, intern(name), kind, correlationId, addApiDetail(detail));
}
void TraceBuilder::addNvtx(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                           const NvtxDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::Nvtx, 0, addNvtxDetail(detail));
}
void TraceBuilder::addUnifiedMemory(TrackIndex track, TimeNs startNs, TimeNs endNs,
                                    std::string_view name, const UnifiedMemoryDetail& detail) {
    push(track, startNs, endNs, intern(name), SliceKind::UnifiedMemory, 0,
         addUnifiedMemoryDetail(detail));
}
void TraceBuilder::addSlice(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                            SliceKind kind, std::uint64_t correlationId) {
    push(track, startNs, endNs, intern(name), kind, correlationId, kNoDetail);
}
void TraceBuilder::addSliceId(TrackIndex track, TimeNs startNs, TimeNs endNs, StringId name,
                              SliceKind kind, std::uint64_t correlationId,
                              std::uint32_t detailIndex) {
    push(track, startNs, endNs, name, kind, correlationId, detailIndex);
}

std::uint32_t TraceBuilder::counterTrack(ProcessIndex process, std::string_view name,
                                         std::string_view series, std::string_view unit) {
    const StringId nameId = intern(name);
    const StringId seriesId = intern(series);
    auto [it, inserted] = m_counterIndex.try_emplace({process, nameId, seriesId}, 0);
    if (inserted) {
        it->second = static_cast<std::uint32_t>(m_trace->m_counters.size());
        CounterTrack c;
        c.process = process;
        c.deviceId = m_trace->m_processes.at(process).deviceId;
        c.nameId = nameId;
        c.seriesId = seriesId;
        c.unitId = intern(unit);
        m_trace->m_counters.push_back(std::move(c));
    } else if (!unit.empty()) {
        m_trace->m_counters[it->second].unitId = intern(unit);
    }
    return it->second;
}

void TraceBuilder::addCounterSample(std::uint32_t counter, TimeNs timestampNs, double value) {
    m_trace->m_counters.at(counter).samples.push_back({timestampNs, value});
}

void TraceBuilder::setCounterDerived(std::uint32_t counter, std::string_view description) {
    CounterTrack& c = m_trace->m_counters.at(counter);
    c.derived = true;
    c.descriptionId = intern(description);
}

void TraceBuilder::addFlow(std::uint64_t id, TrackIndex fromTrack, TimeNs fromNs,
                           TrackIndex toTrack, TimeNs toNs) {
    m_pendingFlows.push_back({id, fromTrack, fromNs, toTrack, toNs});
}

std::optional<TimeNs> TraceBuilder::flowAnchorNs(const Track& track, const Slice& slice) {
    // Not its end, which may be the start of the next slice of its lane.
    const TimeNs last = slice.durationNs > 0 ? slice.endNs() - 1 : slice.startNs;
    // The explicit-flows pass takes the deepest lane with a slice over the time: step past every
    // slice of a deeper lane over it until none is (lanes hold no overlaps, so in each lane only
    // the last slice starting at or before t can cover t).
    TimeNs t = slice.startNs;
    for (bool moved = true; moved && t <= last;) {
        moved = false;
        for (std::uint32_t lane = slice.depth + 1u; lane < track.laneCount(); ++lane) {
            const auto slices = track.lane(lane);
            auto it = std::upper_bound(slices.begin(), slices.end(), t,
                                       [](TimeNs v, const Slice& s) { return v < s.startNs; });
            if (it == slices.begin())
                continue;
            --it;
            if (it->endNs() >= t) {
                t = it->endNs() + 1;
                moved = true;
            }
        }
    }
    if (t > last)
        return std::nullopt;
    return t;
}

void TraceBuilder::addDevice(const DeviceProperties& properties) {
    auto& devices = m_trace->m_devices;
    auto it = std::find_if(devices.begin(), devices.end(),
                           [&](const DeviceProperties& d) { return d.id == properties.id; });
    if (it != devices.end()) {
        *it = properties;
    } else {
        devices.push_back(properties);
    }
}

void TraceBuilder::setMetadata(std::string key, std::string value) {
    m_trace->m_metadata[std::move(key)] = std::move(value);
}

void TraceBuilder::addCaptureWindow(TimeNs startNs, TimeNs endNs) {
    if (endNs < startNs)
        std::swap(startNs, endNs);
    m_trace->m_captureWindows.push_back({startNs, endNs});
}

std::uint64_t TraceBuilder::keepWithin(std::span<const TimeRange> windows) {
    std::vector<TimeRange> sorted(windows.begin(), windows.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const TimeRange& a, const TimeRange& b) { return a.startNs < b.startNs; });
    // Whether [start, end] meets a window; windows are few (one per capture), so a scan is enough.
    const auto overlaps = [&](TimeNs start, TimeNs end) {
        for (const TimeRange& w : sorted) {
            if (w.startNs > end)
                break;
            if (end >= w.startNs && start <= w.endNs)
                return true;
        }
        return false;
    };
    Trace& t = *m_trace;
    std::unordered_set<std::uint64_t> keptCalls;  // correlation ids of kept host calls
    for (const Track& track : t.m_tracks) {
        if (track.kind != TrackKind::HostApi && track.kind != TrackKind::Host)
            continue;
        for (const Slice& s : track.slices) {
            if (s.correlationId != 0 && overlaps(s.startNs, s.endNs()))
                keptCalls.insert(s.correlationId);
        }
    }
    std::uint64_t removed = 0;
    for (Track& track : t.m_tracks) {
        const bool gpu = track.kind == TrackKind::GpuStream || track.kind == TrackKind::Sync;
        const auto before = track.slices.size();
        std::erase_if(track.slices, [&](const Slice& s) {
            if (overlaps(s.startNs, s.endNs()))
                return false;
            return !(gpu && s.correlationId != 0 && keptCalls.contains(s.correlationId));
        });
        removed += before - track.slices.size();
    }
    m_sliceCount -= removed;
    for (CounterTrack& counter : t.m_counters) {
        auto& samples = counter.samples;
        std::stable_sort(samples.begin(), samples.end(),
                         [](const CounterSample& a, const CounterSample& b) {
                             return a.timestampNs < b.timestampNs;
                         });
        std::vector<CounterSample> kept;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const bool inside = overlaps(samples[i].timestampNs, samples[i].timestampNs);
            // The last sample before a window holds at its start.
            const bool holdsAtStart =
                !inside && i + 1 < samples.size() &&
                overlaps(samples[i + 1].timestampNs, samples[i + 1].timestampNs);
            if (inside || holdsAtStart)
                kept.push_back(samples[i]);
        }
        samples = std::move(kept);
    }
    return removed;
}

std::shared_ptr<const Trace> TraceBuilder::finalize() {
    return runPasses(finalizePasses(), nullptr);
}

std::shared_ptr<const Trace> TraceBuilder::finalizeUnlessCancelled(
    const std::atomic<bool>* cancel) {
    return runPasses(finalizePasses(), cancel);
}

std::shared_ptr<const Trace> TraceBuilder::finalize(std::span<const FinalizePass> passes) {
    return runPasses(passes, nullptr);
}

std::shared_ptr<const Trace> TraceBuilder::runPasses(std::span<const FinalizePass> passes,
                                                     const std::atomic<bool>* cancel) {
    if (m_finalized)
        return nullptr;
    m_finalized = true;
    FinalizeState state(*m_trace, std::move(m_pendingFlows), m_baseTimeNs, m_keepTimes);
    m_pendingFlows.clear();
    for (const FinalizePass& pass : passes) {
        if (cancel != nullptr && cancel->load(std::memory_order_relaxed))
            return nullptr;
        pass.run(state);
    }
    return std::move(m_trace);
}

}  // namespace wl::model
