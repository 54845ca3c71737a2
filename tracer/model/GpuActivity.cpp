#include "model/GpuActivity.h"

#include <algorithm>
#include <cctype>

namespace wl::model {

std::string copyActivityName(const MemcpyDetail& d) {
    if (d.copyKind == CopyKind::PeerToPeer && d.srcDevice >= 0 && d.dstDevice >= 0 &&
        d.srcDevice != d.dstDevice) {
        return "Memcpy PtoP (GPU " + std::to_string(d.srcDevice) + " -> GPU " +
               std::to_string(d.dstDevice) + ")";
    }
    return std::string("Memcpy ") + toString(d.copyKind) + " (" + toString(d.srcKind) + " -> " +
           toString(d.dstKind) + ")";
}

std::string memsetActivityName(const MemsetDetail& d) {
    return std::string("Memset (") + toString(d.memoryKind) + ")";
}

std::string memoryActivityName(const MemoryDetail& d) {
    std::string name = d.op == MemoryOp::Release ? "Release (" : "Allocate (";
    name += toString(d.memoryKind);
    name += d.fromPool ? ", pool)" : ")";
    return name;
}

std::string graphLaunchName(std::uint32_t graphId) {
    return "CUDA graph " + std::to_string(graphId);
}

CopyNameParts parseCopyName(std::string_view rest) {
    CopyNameParts parts;
    if (!rest.starts_with("Memcpy "))
        return parts;
    rest.remove_prefix(7);
    const auto space = rest.find(' ');
    parts.direction = rest.substr(0, space);
    const auto open = rest.find('(');
    const auto arrow = rest.find(" -> ");
    const auto close = rest.rfind(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos &&
        close != std::string_view::npos && open < arrow && arrow < close) {
        parts.src = rest.substr(open + 1, arrow - open - 1);
        parts.dst = rest.substr(arrow + 4, close - arrow - 4);
    }
    return parts;
}

std::string_view parseMemsetName(std::string_view name) {
    const auto open = name.find('(');
    const auto close = name.rfind(')');
    if (open != std::string_view::npos && close != std::string_view::npos && open < close)
        return name.substr(open + 1, close - open - 1);
    return {};
}

std::string_view apiNameOf(std::string_view name) {
    // "_v" and at least one digit, to the end.
    std::size_t digits = 0;
    while (digits < name.size() &&
           std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
        ++digits;
    if (digits == 0 || name.size() < digits + 3)
        return name;
    const std::size_t cut = name.size() - digits - 2;
    if (name[cut] != '_' || name[cut + 1] != 'v')
        return name;
    return name.substr(0, cut);
}

CopyKind copyKindFromCuptiCode(std::uint32_t code) {
    switch (code) {
        case 1:   // HTOD
        case 3:   // HTOA
        case 11:  // Nsight Systems: unified memory, host to device
            return CopyKind::HostToDevice;
        case 2:   // DTOH
        case 4:   // ATOH
        case 12:  // unified memory, device to host
            return CopyKind::DeviceToHost;
        case 5:   // ATOA
        case 6:   // ATOD
        case 7:   // DTOA
        case 8:   // DTOD
        case 13:  // unified memory, device to device
            return CopyKind::DeviceToDevice;
        case 9:
            return CopyKind::HostToHost;
        case 10:
            return CopyKind::PeerToPeer;
        default:
            return CopyKind::Unknown;
    }
}

SyncKind syncKindFromCuptiCode(std::uint32_t code) {
    switch (code) {
        case 1:
            return SyncKind::EventSynchronize;
        case 2:
            return SyncKind::StreamWaitEvent;
        case 3:
            return SyncKind::StreamSynchronize;
        case 4:
            return SyncKind::ContextSynchronize;
        default:
            return SyncKind::Unknown;
    }
}

UnifiedMemoryCause migrationCauseFromCuptiCode(std::uint32_t code) {
    switch (code) {
        case 1:
            return UnifiedMemoryCause::User;
        case 2:
            return UnifiedMemoryCause::Coherence;
        case 3:
            return UnifiedMemoryCause::Prefetch;
        case 4:
            return UnifiedMemoryCause::Eviction;
        case 5:
            return UnifiedMemoryCause::AccessCounters;
        default:
            return UnifiedMemoryCause::Unknown;
    }
}

UnifiedMemoryCause remoteMapCauseFromCuptiCode(std::uint32_t code) {
    switch (code) {
        case 1:
            return UnifiedMemoryCause::Coherence;
        case 2:
            return UnifiedMemoryCause::Thrashing;
        case 3:
            return UnifiedMemoryCause::Policy;
        case 4:
            return UnifiedMemoryCause::OutOfMemory;
        case 5:
            return UnifiedMemoryCause::Eviction;
        default:
            return UnifiedMemoryCause::Unknown;
    }
}

UnifiedMemoryAccess faultAccessFromCuptiCode(std::uint32_t code) {
    switch (code) {
        case 1:
            return UnifiedMemoryAccess::Read;
        case 2:
            return UnifiedMemoryAccess::Write;
        case 3:
            return UnifiedMemoryAccess::Atomic;
        case 4:
            return UnifiedMemoryAccess::Prefetch;
        default:
            return UnifiedMemoryAccess::Unknown;
    }
}

GpuActivityMapper::GpuActivityMapper(TraceBuilder& builder)
    : GpuActivityMapper(builder, Options{}) {}

GpuActivityMapper::GpuActivityMapper(TraceBuilder& builder, Options options)
    : m_builder(builder), m_options(options) {}

ProcessIndex GpuActivityMapper::gpuProcess(std::int32_t deviceId, std::int64_t pid) {
    const auto key = std::make_pair(deviceId, pid);
    if (auto it = m_gpuProcesses.find(key); it != m_gpuProcesses.end())
        return it->second;
    m_devices.insert(deviceId);
    const ProcessIndex index =
        m_options.nameGpuProcesses
            ? m_builder.gpuProcess(deviceId, "GPU " + std::to_string(deviceId), pid)
            : m_builder.gpuProcess(deviceId, {}, pid);
    m_gpuProcesses.emplace(key, index);
    return index;
}

TrackIndex GpuActivityMapper::streamRow(const ActivityPlace& place) {
    m_contextDevice.emplace(place.contextId, place.deviceId);
    const std::int64_t owner = ownerOf(place);
    const auto key = std::make_tuple(place.deviceId, owner, place.streamId);
    if (auto it = m_streamRows.find(key); it != m_streamRows.end())
        return it->second;
    const TrackIndex track =
        m_builder.gpuStreamTrack(gpuProcess(place.deviceId, owner), place.streamId);
    m_streamRows.emplace(key, track);
    return track;
}

TrackIndex GpuActivityMapper::syncRow(const ActivityPlace& place) {
    return m_builder.syncTrack(gpuProcess(place.deviceId, ownerOf(place)));
}

TrackIndex GpuActivityMapper::memoryRow(const ActivityPlace& place) {
    return m_builder.memoryTrack(gpuProcess(place.deviceId, ownerOf(place)));
}

TrackIndex GpuActivityMapper::unifiedMemoryRow(const ActivityPlace& place, UnifiedMemoryKind kind) {
    return m_builder.unifiedMemoryTrack(gpuProcess(place.deviceId, ownerOf(place)), kind);
}

namespace {

// A source's own name for an activity, else the one derived from its detail.
std::string_view nameOr(std::string_view own, const std::string& derived) {
    return own.empty() ? std::string_view(derived) : own;
}

}  // namespace

TrackIndex GpuActivityMapper::apiRow(ProcessIndex hostProcess, std::int64_t tid) {
    return m_builder.hostApiTrack(hostProcess, tid);
}

void GpuActivityMapper::add(const KernelActivity& a) {
    m_builder.addKernel(streamRow(a.place), a.startNs, a.endNs, a.name, a.place.correlationId,
                        a.detail);
}

void GpuActivityMapper::add(const CopyActivity& a) {
    const std::string derived = a.name.empty() ? copyActivityName(a.detail) : std::string();
    m_builder.addMemcpy(streamRow(a.place), a.startNs, a.endNs, nameOr(a.name, derived),
                        a.place.correlationId, a.detail);
}

void GpuActivityMapper::add(const MemsetActivity& a) {
    const std::string derived = a.name.empty() ? memsetActivityName(a.detail) : std::string();
    m_builder.addMemset(streamRow(a.place), a.startNs, a.endNs, nameOr(a.name, derived),
                        a.place.correlationId, a.detail);
}

void GpuActivityMapper::add(const MemoryActivity& a) {
    const std::string derived = a.name.empty() ? memoryActivityName(a.detail) : std::string();
    m_builder.addMemory(memoryRow(a.place), a.timestampNs, nameOr(a.name, derived),
                        a.place.correlationId, a.detail);
}

void GpuActivityMapper::add(const GraphLaunchActivity& a) {
    KernelDetail detail;
    detail.graph.graphId = a.graphId;
    KernelActivity kernel;
    kernel.startNs = a.startNs;
    kernel.endNs = a.endNs;
    const std::string name = graphLaunchName(a.graphId);
    kernel.name = name;
    kernel.place = a.place;
    kernel.detail = detail;
    add(kernel);
}

void GpuActivityMapper::add(const UnifiedMemoryActivity& a) {
    if (a.detail.kind != UnifiedMemoryKind::GpuPageFault || a.place.deviceId < 0) {
        emit(a);
        return;
    }
    const auto key = std::make_pair(a.place.deviceId, ownerOf(a.place));
    const std::uint64_t faults = std::max<std::uint64_t>(a.detail.faultCount, 1);
    auto [it, fresh] = m_faultBatches.try_emplace(key, a);
    UnifiedMemoryActivity& batch = it->second;
    if (fresh) {
        batch.detail.faultCount = faults;
        return;
    }
    if (batch.startNs == a.startNs && batch.endNs == a.endNs) {
        batch.detail.faultCount += faults;
        batch.detail.address = std::min(batch.detail.address, a.detail.address);
        // One access type for the batch when all agree.
        if (batch.detail.access != a.detail.access)
            batch.detail.access = UnifiedMemoryAccess::Unknown;
        return;
    }
    emit(batch);
    batch = a;
    batch.detail.faultCount = faults;
}

void GpuActivityMapper::emit(const UnifiedMemoryActivity& a) {
    const TrackIndex track = a.place.deviceId >= 0
                                 ? unifiedMemoryRow(a.place, a.detail.kind)
                                 : m_builder.unifiedMemoryTrack(a.hostProcess, a.detail.kind);
    m_builder.addUnifiedMemory(track, a.startNs, a.endNs, unifiedMemoryEventName(a.detail.kind),
                               a.detail);
}

void GpuActivityMapper::flushFaultBatches() {
    for (const auto& [key, batch] : m_faultBatches)
        emit(batch);
    m_faultBatches.clear();
}

void GpuActivityMapper::add(const SyncActivity& a) {
    m_syncs.push_back(a);
}

void GpuActivityMapper::add(const CudaEventActivity& a) {
    // Remembered so an event synchronisation can say which stream it waited for.
    m_eventStream[{a.place.pid, a.eventId}] = a.place.streamId;
    // And which record a wait names, for the op it waited for (model::Dependency).
    if (a.eventRecordId != 0)
        m_eventRecords[{a.place.pid, a.eventRecordId}] = {a.place.streamId, a.place.correlationId};
    m_contextDevice.emplace(a.place.contextId, a.place.deviceId);
}

void GpuActivityMapper::add(TrackIndex apiTrack, const ApiActivity& a) {
    m_builder.addApi(apiTrack, a.startNs, a.endNs, a.name, a.correlationId, a.detail);
}

void GpuActivityMapper::noteContext(std::uint32_t contextId, std::int32_t deviceId) {
    m_contextDevice[contextId] = deviceId;
}

void GpuActivityMapper::complete() {
    flushFaultBatches();
    std::vector<SyncActivity> syncs;
    syncs.swap(m_syncs);
    for (const SyncActivity& s : syncs) {
        ActivityPlace place = s.place;
        if (!s.deviceKnown) {
            if (auto it = m_contextDevice.find(s.place.contextId); it != m_contextDevice.end()) {
                place.deviceId = it->second;
            } else if (!m_devices.empty()) {
                place.deviceId = *m_devices.begin();
            } else {
                place.deviceId = 0;
                m_builder.diagnostics().warn(
                    "synchronization on an unknown context attributed to GPU 0");
            }
        }
        SyncDetail detail = s.detail;
        if (detail.syncKind == SyncKind::EventSynchronize && detail.streamId < 0) {
            if (auto it = m_eventStream.find({s.place.pid, s.eventId}); it != m_eventStream.end())
                detail.streamId = it->second;
        }
        if (auto it = m_eventRecords.find({s.place.pid, s.eventRecordId});
            s.eventRecordId != 0 && it != m_eventRecords.end()) {
            detail.recordStreamId = it->second.streamId;
            detail.recordCorrelationId = it->second.correlationId;
            // The record's own stream is the better answer to "which stream it waited for".
            if (detail.syncKind == SyncKind::EventSynchronize)
                detail.streamId = it->second.streamId;
        }
        m_builder.addSync(syncRow(place), s.startNs, s.endNs, toString(detail.syncKind),
                          place.correlationId, detail);
    }
}

}  // namespace wl::model
