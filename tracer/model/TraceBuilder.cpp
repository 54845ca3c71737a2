#include "model/TraceBuilder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "model/Derived.h"

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

// Order of tracks within a process: API calls, then NVTX, then other host rows; streams, then sync,
// then memory.
int kindRank(TrackKind kind) {
    switch (kind) {
        case TrackKind::HostApi:
            return 1;
        case TrackKind::Nvtx:
            return 2;
        case TrackKind::NvtxAsync:
            return 3;
        case TrackKind::Host:
            return 0;
        case TrackKind::GpuStream:
            return 0;
        case TrackKind::Sync:
            return 1;
        case TrackKind::Memory:
            return 2;
        case TrackKind::NvtxProjection:
            return 3;
        case TrackKind::GraphLaunches:
            return 0;  // beside its stream (same rank and sort index)
    }
    return 9;
}

constexpr std::int32_t kUnsetSortIndex = std::numeric_limits<std::int32_t>::min();

}  // namespace

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
    setLastSliceProducerArgs(track, {}, members);
}

void TraceBuilder::setLastSliceProducerArgs(TrackIndex track, std::string_view modelMembers,
                                            std::string_view extraMembers) {
    auto& slices = m_trace->m_tracks.at(track).slices;
    if (slices.empty() || (modelMembers.empty() && extraMembers.empty())) {
        return;
    }
    Trace& t = *m_trace;
    // One run of text: the model's members, a comma when both are there, then the others (the
    // view Trace::extraArgs gives).
    const std::size_t before =
        modelMembers.size() + (!modelMembers.empty() && !extraMembers.empty() ? 1 : 0);
    const std::size_t size = before + extraMembers.size();
    constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
    if (size > t.m_argsBlockFree) {
        const std::size_t bytes = std::max(kBlockBytes, size);
        t.m_argsBlocks.push_back(std::make_unique_for_overwrite<char[]>(bytes));
        t.m_argsBlockBytes += bytes;
        t.m_argsNext = t.m_argsBlocks.back().get();
        t.m_argsBlockFree = bytes;
    }
    char* at = t.m_argsNext;
    // memcpy from an empty view's null data() is undefined even for 0 bytes.
    if (!modelMembers.empty())
        std::memcpy(at, modelMembers.data(), modelMembers.size());
    if (before > modelMembers.size())
        at[modelMembers.size()] = ',';
    if (!extraMembers.empty())
        std::memcpy(at + before, extraMembers.data(), extraMembers.size());
    t.m_argsNext += size;
    t.m_argsBlockFree -= size;
    Slice& s = slices.back();
    const std::string_view extra(at + before, extraMembers.size());
    if (s.argsIndex != kNoDetail) {
        t.m_args[s.argsIndex] = extra;  // beside its origin
    } else {
        s.argsIndex = static_cast<std::uint32_t>(t.m_args.size());
        t.m_args.push_back(extra);
    }
    if (before > 0) {
        if (t.m_modelArgsBytes.size() <= s.argsIndex)
            t.m_modelArgsBytes.resize(s.argsIndex + 1);
        t.m_modelArgsBytes[s.argsIndex] = static_cast<std::uint32_t>(before);
    }
}

void TraceBuilder::setLastSliceOrigin(TrackIndex track, const SliceOrigin& origin) {
    Track& tr = m_trace->m_tracks.at(track);
    if (tr.slices.empty())
        return;
    m_trace->m_hasOrigins = true;
    // Most of a track's slices share its row and category: only the others pay for one.
    if (!tr.origin.known) {
        tr.origin = origin;
        tr.origin.known = true;
        return;
    }
    if (origin.pid == tr.origin.pid && origin.tid == tr.origin.tid &&
        origin.hasCat == tr.origin.hasCat && origin.cat == tr.origin.cat &&
        origin.pidQuoted == tr.origin.pidQuoted && origin.tidQuoted == tr.origin.tidQuoted &&
        origin.scope == tr.origin.scope)
        return;
    Trace& t = *m_trace;
    Slice& s = tr.slices.back();
    if (s.argsIndex == kNoDetail) {
        s.argsIndex = static_cast<std::uint32_t>(t.m_args.size());
        t.m_args.emplace_back();
    }
    if (t.m_origins.size() <= s.argsIndex)
        t.m_origins.resize(s.argsIndex + 1);
    t.m_origins[s.argsIndex] = origin;
    t.m_origins[s.argsIndex].known = true;
}

void TraceBuilder::setIdName(std::int64_t id, std::string name) {
    m_trace->m_idNames[id] = std::move(name);
}

void TraceBuilder::addKeptEvent(std::string_view json) {
    std::string& kept = m_trace->m_keptEvents;
    if (!kept.empty())
        kept += ",\n";
    kept += json;
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
    // resolveFlows takes the deepest lane with a slice over the time: step past every slice of
    // a deeper lane over it until none is (lanes hold no overlaps, so in each lane only the last
    // slice starting at or before t can cover t).
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

void TraceBuilder::assignLanes(Track& track) {
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
                auto& diag = m_trace->m_diagnostics;
                diag.spilledOverlaps += unexpected;
                diag.warn(spilledOverlapWarning(unexpected, m_trace->m_strings.get(track.nameId)));
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

void TraceBuilder::resolveFlows() {
    Trace& t = *m_trace;
    // Duplicates (an explicit flow that repeats a launch link) are removed after sorting below.
    auto addFlow = [&](std::uint64_t id, SliceRef from, SliceRef to) {
        t.m_flows.push_back({id, from, to});
    };

    // Launch flows: API call -> GPU work with the same correlation id in the same host process.
    // CUPTI correlation ids are per process; GPU tracks belong to device processes, so GPU work is
    // matched against the one host process when there is one, else by id alone.
    struct Launcher {
        SliceRef ref;
        int rank;  // runtime calls win over driver calls made inside them
    };
    std::unordered_map<std::uint64_t, Launcher> launchers;
    for (std::uint32_t ti = 0; ti < t.m_tracks.size(); ++ti) {
        const Track& track = t.m_tracks[ti];
        if (track.kind != TrackKind::HostApi && track.kind != TrackKind::Host)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const Slice& s = track.slices[si];
            if (s.correlationId == 0)
                continue;
            const int rank = s.kind == SliceKind::RuntimeApi  ? 2
                             : s.kind == SliceKind::DriverApi ? 1
                                                              : 0;
            auto [it, inserted] = launchers.try_emplace(s.correlationId, Launcher{{ti, si}, rank});
            if (!inserted && rank > it->second.rank)
                it->second = {{ti, si}, rank};
        }
    }
    if (!launchers.empty()) {
        for (std::uint32_t ti = 0; ti < t.m_tracks.size(); ++ti) {
            const Track& track = t.m_tracks[ti];
            if (track.kind != TrackKind::GpuStream && track.kind != TrackKind::Memory)
                continue;
            for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
                const Slice& s = track.slices[si];
                if (s.correlationId == 0 || !isCalledFromHost(s.kind))
                    continue;
                auto it = launchers.find(s.correlationId);
                if (it != launchers.end())
                    addFlow(s.correlationId, it->second.ref, {ti, si});
            }
        }
    }

    // Explicit flows: bind each end to the innermost slice enclosing its time.
    auto enclosing = [&](TrackIndex ti, TimeNs ts) -> SliceRef {
        if (ti >= t.m_tracks.size())
            return {};
        const Track& track = t.m_tracks[ti];
        for (std::uint32_t lane = track.laneCount(); lane-- > 0;) {
            const auto begin = track.slices.begin() + track.laneBegin[lane];
            const auto end = track.slices.begin() + track.laneBegin[lane + 1];
            auto it = std::upper_bound(begin, end, ts,
                                       [](TimeNs v, const Slice& s) { return v < s.startNs; });
            if (it == begin)
                continue;
            --it;
            if (it->endNs() >= ts) {
                return {ti, static_cast<std::uint32_t>(it - track.slices.begin())};
            }
        }
        return {};
    };
    std::uint64_t unresolved = 0;
    for (const auto& f : m_pendingFlows) {
        const SliceRef from = enclosing(f.fromTrack, f.fromNs);
        const SliceRef to = enclosing(f.toTrack, f.toNs);
        if (from.valid() && to.valid()) {
            addFlow(f.id, from, to);
        } else {
            ++unresolved;
        }
    }
    if (unresolved > 0) {
        t.m_diagnostics.warn(std::to_string(unresolved) +
                             " flow event(s) did not land on a slice and were dropped");
    }

    // Stable, so of two flows between the same slices the first added (the launch link) stays.
    std::stable_sort(t.m_flows.begin(), t.m_flows.end(), [&](const Flow& a, const Flow& b) {
        if (a.from != b.from)
            return a.from < b.from;
        return a.to < b.to;
    });
    t.m_flows.erase(
        std::unique(t.m_flows.begin(), t.m_flows.end(),
                    [](const Flow& a, const Flow& b) { return a.from == b.from && a.to == b.to; }),
        t.m_flows.end());
    t.m_flowFromIndex.resize(t.m_flows.size());
    std::iota(t.m_flowFromIndex.begin(), t.m_flowFromIndex.end(), 0u);
    t.m_flowToIndex = t.m_flowFromIndex;
    std::stable_sort(
        t.m_flowToIndex.begin(), t.m_flowToIndex.end(),
        [&](std::uint32_t a, std::uint32_t b) { return t.m_flows[a].to < t.m_flows[b].to; });
}

std::shared_ptr<const Trace> TraceBuilder::finalize() {
    if (m_finalized)
        return nullptr;
    m_finalized = true;
    Trace& t = *m_trace;

    // Order processes (hosts by rank and pid, then GPUs by rank, ordinal and owner; the rank is -1
    // in a trace of no job) and tracks (by process and sort index), remapping indices, so the
    // same events give the same trace in any input order.
    std::vector<ProcessIndex> procOrder(t.m_processes.size());
    std::iota(procOrder.begin(), procOrder.end(), 0u);
    std::stable_sort(procOrder.begin(), procOrder.end(), [&](ProcessIndex a, ProcessIndex b) {
        const Process& pa = t.m_processes[a];
        const Process& pb = t.m_processes[b];
        const bool ga = pa.deviceId >= 0;
        const bool gb = pb.deviceId >= 0;
        if (ga != gb)
            return !ga;
        if (!ga)
            return std::pair(pa.rank, pa.pid) < std::pair(pb.rank, pb.pid);
        return std::tuple(pa.rank, pa.deviceId, pa.ownerPid) <
               std::tuple(pb.rank, pb.deviceId, pb.ownerPid);
    });
    std::vector<ProcessIndex> procNew(t.m_processes.size());
    std::vector<Process> processes;
    for (ProcessIndex i = 0; i < procOrder.size(); ++i) {
        procNew[procOrder[i]] = i;
        processes.push_back(t.m_processes[procOrder[i]]);
    }
    t.m_processes = std::move(processes);
    for (auto& track : t.m_tracks)
        track.process = procNew[track.process];
    for (auto& c : t.m_counters)
        c.process = procNew[c.process];

    // Default sort indices from the track's key; explicit ones (imports) are kept.
    auto trackKey = [&](const Track& tr) {
        const std::int64_t id = tr.kind == TrackKind::GpuStream ? tr.streamId : tr.threadId;
        return std::tuple(tr.process, kindRank(tr.kind), id, t.m_strings.get(tr.domainId));
    };
    std::vector<TrackIndex> trackOrder(t.m_tracks.size());
    std::iota(trackOrder.begin(), trackOrder.end(), 0u);
    std::stable_sort(trackOrder.begin(), trackOrder.end(), [&](TrackIndex a, TrackIndex b) {
        return trackKey(t.m_tracks[a]) < trackKey(t.m_tracks[b]);
    });
    {
        std::int32_t next = 0;
        ProcessIndex current = std::numeric_limits<ProcessIndex>::max();
        for (TrackIndex ti : trackOrder) {
            Track& tr = t.m_tracks[ti];
            if (tr.process != current) {
                current = tr.process;
                next = 0;
            }
            if (tr.sortIndex == kUnsetSortIndex)
                tr.sortIndex = next;
            ++next;
        }
    }
    std::stable_sort(trackOrder.begin(), trackOrder.end(), [&](TrackIndex a, TrackIndex b) {
        const Track& ta = t.m_tracks[a];
        const Track& tb = t.m_tracks[b];
        if (ta.process != tb.process)
            return ta.process < tb.process;
        return ta.sortIndex < tb.sortIndex;
    });
    std::vector<TrackIndex> trackNew(t.m_tracks.size());
    std::vector<Track> tracks;
    tracks.reserve(t.m_tracks.size());
    for (TrackIndex i = 0; i < trackOrder.size(); ++i) {
        trackNew[trackOrder[i]] = i;
        tracks.push_back(std::move(t.m_tracks[trackOrder[i]]));
    }
    t.m_tracks = std::move(tracks);
    for (auto& f : m_pendingFlows) {
        f.fromTrack = f.fromTrack < trackNew.size() ? trackNew[f.fromTrack] : f.fromTrack;
        f.toTrack = f.toTrack < trackNew.size() ? trackNew[f.toTrack] : f.toTrack;
    }

    // Origin: the earliest event, so times are small and non-negative.
    TimeNs earliest = std::numeric_limits<TimeNs>::max();
    for (const auto& track : t.m_tracks) {
        for (const auto& s : track.slices)
            earliest = std::min(earliest, s.startNs);
    }
    for (const auto& c : t.m_counters) {
        for (const auto& s : c.samples)
            earliest = std::min(earliest, s.timestampNs);
    }
    if (earliest == std::numeric_limits<TimeNs>::max() || m_keepTimes)
        earliest = 0;
    t.m_originNs = m_baseTimeNs + earliest;
    t.m_producerBaseNs = m_baseTimeNs;

    TimeNs span = 0;
    for (auto& track : t.m_tracks) {
        for (auto& s : track.slices) {
            s.startNs -= earliest;
            span = std::max(span, s.endNs());
        }
        assignLanes(track);
    }
    for (auto& f : m_pendingFlows) {
        f.fromNs -= earliest;
        f.toNs -= earliest;
    }
    for (auto& c : t.m_counters) {
        for (auto& s : c.samples)
            s.timestampNs -= earliest;
        std::stable_sort(c.samples.begin(), c.samples.end(),
                         [](const CounterSample& a, const CounterSample& b) {
                             return a.timestampNs < b.timestampNs;
                         });
        if (!c.samples.empty())
            span = std::max(span, c.samples.back().timestampNs);
        t.m_counts.counterSamples += c.derived ? 0 : c.samples.size();
    }
    {
        auto& windows = t.m_captureWindows;
        std::sort(windows.begin(), windows.end(),
                  [](const TimeRange& a, const TimeRange& b) { return a.startNs < b.startNs; });
        std::vector<TimeRange> merged;
        for (TimeRange w : windows) {
            w.startNs -= earliest;
            w.endNs -= earliest;
            if (!merged.empty() && w.startNs <= merged.back().endNs)
                merged.back().endNs = std::max(merged.back().endNs, w.endNs);
            else
                merged.push_back(w);
        }
        windows = std::move(merged);
    }
    std::sort(t.m_devices.begin(), t.m_devices.end(),
              [](const DeviceProperties& a, const DeviceProperties& b) { return a.id < b.id; });
    t.m_spanNs = span;

    resolveFlows();
    m_pendingFlows.clear();
    resolveDependencies();
    addLaunchQueues();
    addDeviceMemory();
    addNvtxProjections();
    addGraphLaunches();

    // Builders grow vectors by doubling; an immutable trace gives the slack back (up to a third of
    // the memory of a large trace).
    for (auto& track : t.m_tracks) {
        track.slices.shrink_to_fit();
    }
    for (auto& c : t.m_counters)
        c.samples.shrink_to_fit();
    t.m_kernels.shrink_to_fit();
    t.m_memcpys.shrink_to_fit();
    t.m_memsets.shrink_to_fit();
    t.m_memories.shrink_to_fit();
    t.m_syncs.shrink_to_fit();
    t.m_apis.shrink_to_fit();
    t.m_nvtx.shrink_to_fit();
    t.m_args.shrink_to_fit();
    t.m_origins.shrink_to_fit();
    t.m_modelArgsBytes.shrink_to_fit();
    t.m_keptEvents.shrink_to_fit();

    TraceCounts& n = t.m_counts;
    for (const auto& track : t.m_tracks) {
        if (isDerived(track.kind))
            continue;  // made from the rest: counts say what was recorded
        n.slices += track.slices.size();
        for (const auto& s : track.slices) {
            switch (s.kind) {
                case SliceKind::Kernel:
                    ++n.kernel;
                    break;
                case SliceKind::Memcpy:
                    ++n.memcpy;
                    break;
                case SliceKind::Memset:
                    ++n.memset;
                    break;
                case SliceKind::Memory:
                    ++n.memory;
                    break;
                case SliceKind::Sync:
                    ++n.sync;
                    break;
                case SliceKind::RuntimeApi:
                case SliceKind::DriverApi:
                    ++n.api;
                    break;
                case SliceKind::Nvtx:
                    ++n.nvtx;
                    break;
                default:
                    ++n.other;
                    break;
            }
        }
    }
    n.flows = t.m_flows.size();
    n.dependencies = t.m_dependencies.size();
    return std::move(m_trace);
}

}  // namespace wl::model
