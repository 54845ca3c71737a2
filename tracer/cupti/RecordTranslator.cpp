#include "cupti/RecordTranslator.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace wl::cupti {
namespace {

using model::CopyKind;
using model::MemoryKind;

// CUPTI's codes are the ones model::copyKindFromCuptiCode and syncKindFromCuptiCode read (an
// Nsight Systems export keeps them too).
static_assert(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD == 1 && CUPTI_ACTIVITY_MEMCPY_KIND_DTOH == 2 &&
              CUPTI_ACTIVITY_MEMCPY_KIND_HTOA == 3 && CUPTI_ACTIVITY_MEMCPY_KIND_ATOH == 4 &&
              CUPTI_ACTIVITY_MEMCPY_KIND_ATOA == 5 && CUPTI_ACTIVITY_MEMCPY_KIND_ATOD == 6 &&
              CUPTI_ACTIVITY_MEMCPY_KIND_DTOA == 7 && CUPTI_ACTIVITY_MEMCPY_KIND_DTOD == 8 &&
              CUPTI_ACTIVITY_MEMCPY_KIND_HTOH == 9 && CUPTI_ACTIVITY_MEMCPY_KIND_PTOP == 10);
static_assert(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE == 1 &&
              CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT == 2 &&
              CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE == 3 &&
              CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE == 4);

// And the unified-memory codes model::migrationCauseFromCuptiCode, remoteMapCauseFromCuptiCode
// and faultAccessFromCuptiCode read.
static_assert(CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER == 1 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE == 2 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH == 3 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION == 4 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS == 5);
static_assert(CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_COHERENCE == 1 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_THRASHING == 2 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_POLICY == 3 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_OUT_OF_MEMORY == 4 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_REMOTE_MAP_CAUSE_EVICTION == 5);
static_assert(CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_READ == 1 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE == 2 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC == 3 &&
              CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH == 4);

MemoryKind memoryKindOf(std::uint32_t kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
            return MemoryKind::Pageable;
        case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
            return MemoryKind::Pinned;
        case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
        case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
            return MemoryKind::Device;
        case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
        case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
            return MemoryKind::Managed;
        case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
            return MemoryKind::Array;
        default:
            return MemoryKind::Unknown;
    }
}

const char* overheadName(std::uint32_t kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
            return "Driver compiler";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
            return "CUPTI buffer flush";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
            return "CUPTI instrumentation";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
            return "CUPTI resource";
        case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
            return "Module loading";
        case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
            return "Lazy function loading";
        case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
            return "Command buffer full";
        case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
            return "CUPTI buffer request";
        case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
            return "UVM activity init";
        default:
            return "CUPTI overhead";
    }
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// nvidia-smi's spelling of a device UUID: "GPU-" and the 16 bytes as 8-4-4-4-12 hex digits.
// All zero (CUPTI did not say): empty.
std::string formatUuid(const unsigned char* bytes) {
    bool any = false;
    for (int i = 0; i < 16; ++i) {
        any |= bytes[i] != 0;
    }
    if (!any) {
        return {};
    }
    std::string text = "GPU-";
    constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            text += '-';
        }
        text += kHex[bytes[i] >> 4];
        text += kHex[bytes[i] & 0xF];
    }
    return text;
}

}  // namespace

RecordTranslator::RecordTranslator(ApiNameFn apiName)
    : m_builder(std::make_unique<model::TraceBuilder>()),
      m_mapper(*m_builder),
      m_apiNameFn(std::move(apiName)) {
    m_builder->setMetadata("producer", "warpline (CUPTI)");
}

RecordTranslator::~RecordTranslator() = default;

void RecordTranslator::translate(const CUpti_Activity& record) {
    ++m_recordCount;
    switch (record.kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            translateKernel(record);
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            translateMemcpy(record);
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY2:
            translatePeerMemcpy(record);
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            translateMemset(record);
            break;
        case CUPTI_ACTIVITY_KIND_MEMORY2:
            translateMemory(record);
            break;
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
            translateSync(record);
            break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
            translateApi(record, model::ApiKind::Runtime);
            break;
        case CUPTI_ACTIVITY_KIND_DRIVER:
            translateApi(record, model::ApiKind::Driver);
            break;
        case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
            translateCudaEvent(record);
            break;
        case CUPTI_ACTIVITY_KIND_OVERHEAD:
            translateOverhead(record);
            break;
        case CUPTI_ACTIVITY_KIND_NAME:
            translateName(record);
            break;
        case CUPTI_ACTIVITY_KIND_STREAM:
            translateStream(record);
            break;
        case CUPTI_ACTIVITY_KIND_DEVICE:
            translateDevice(record);
            break;
        case CUPTI_ACTIVITY_KIND_CONTEXT:
            translateContext(record);
            break;
        case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER:
            translateUnifiedMemory(record);
            break;
        default:
            unknownRecord(static_cast<std::uint32_t>(record.kind));
            break;
    }
}

void RecordTranslator::unknownRecord(std::uint32_t kind) {
    auto& diag = m_builder->diagnostics();
    ++diag.unknownRecords;
    if (m_unknownKindsWarned.insert(kind).second) {
        diag.warn("CUPTI record of kind " + std::to_string(kind) + " is not translated");
    }
}

void RecordTranslator::untimedKernel(const char* name, std::uint32_t device, std::uint32_t stream) {
    // CUPTI gives a kernel that did not finish (a device-side assert or a fault ends it, and the
    // context with it) no timestamps: it has no place on the timeline, but the user is told which
    // kernel it was, once per name.
    auto& diag = m_builder->diagnostics();
    ++diag.invalidTimestamps;
    const std::string& readable = kernelName(name);
    if (m_untimedKernelsWarned.insert(readable).second) {
        diag.warn("kernel " + readable + " (GPU " + std::to_string(device) + ", stream " +
                  std::to_string(stream) +
                  ") has no GPU timestamps and is not shown: it did not finish (a device-side "
                  "assert or a fault stops a kernel before it is timed)");
    }
}

bool RecordTranslator::checkInterval(std::uint64_t start, std::uint64_t& end,
                                     std::string_view what) {
    auto& diag = m_builder->diagnostics();
    if (start == 0 || end == 0) {
        ++diag.invalidTimestamps;
        diag.warn(std::string(what) + " record without a timestamp was skipped");
        return false;
    }
    if (end < start) {
        ++diag.invalidTimestamps;
        diag.warn(std::string(what) + " record ends before it starts (" +
                  std::to_string(start - end) + " ns); clamped to zero duration");
        end = start;
    }
    return true;
}

std::string RecordTranslator::copyString(const char* text) {
    if (text == nullptr) {
        return {};
    }
    const std::size_t length = strnlen(text, kMaxStringBytes + 1);
    if (length > kMaxStringBytes) {
        ++m_builder->diagnostics().truncatedStrings;
        m_builder->diagnostics().warn("a name longer than " + std::to_string(kMaxStringBytes) +
                                      " bytes was truncated");
        return std::string(text, kMaxStringBytes);
    }
    return std::string(text, length);
}

const std::string& RecordTranslator::kernelName(const char* mangled) {
    // CUPTI gives mangled C++ names; demangle once per distinct name (a launch-heavy trace has
    // millions of kernels and a handful of names).
    std::string raw = copyString(mangled);
    auto it = m_demangled.find(raw);
    if (it != m_demangled.end()) {
        return it->second;
    }
    std::string readable = raw;
    if (raw.empty()) {
        readable = "(unnamed kernel)";
    } else if (raw.rfind("_Z", 0) == 0) {
        int status = 0;
        char* demangled = abi::__cxa_demangle(raw.c_str(), nullptr, nullptr, &status);
        if (status == 0 && demangled != nullptr) {
            readable = demangled;
        }
        std::free(demangled);
    }
    return m_demangled.emplace(std::move(raw), std::move(readable)).first->second;
}

const RecordTranslator::ApiName& RecordTranslator::apiName(model::ApiKind kind,
                                                           std::uint32_t cbid) {
    const auto key = std::make_pair(static_cast<int>(kind), cbid);
    auto it = m_apiNames.find(key);
    if (it != m_apiNames.end()) {
        return it->second;
    }
    const auto domain =
        kind == model::ApiKind::Runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    std::string name = m_apiNameFn ? m_apiNameFn(domain, cbid) : std::string();
    if (name.empty()) {
        name = (kind == model::ApiKind::Runtime ? "CUDA runtime call " : "CUDA driver call ") +
               std::to_string(cbid);
    }
    ApiName entry;
    entry.name = std::string(model::apiNameOf(name));
    if (entry.name.size() != name.size())
        entry.versioned = m_builder->intern(name);
    if (endsWith(entry.name, "_ptsz") || endsWith(entry.name, "_ptds")) {
        m_sawPerThreadApi = true;
    }
    return m_apiNames.emplace(key, std::move(entry)).first->second;
}

model::ProcessIndex RecordTranslator::gpuProcess(int deviceId) {
    return m_mapper.gpuProcess(deviceId);
}

model::ProcessIndex RecordTranslator::hostProcess(std::int64_t pid) {
    auto it = m_hostProcesses.find(pid);
    if (it != m_hostProcesses.end()) {
        return it->second;
    }
    std::string name = m_hostName.empty() ? "Host" : m_hostName;
    name += " (pid " + std::to_string(pid) + ")";
    const auto index = m_builder->hostProcess(pid, name);
    m_hostProcesses.emplace(pid, index);
    return index;
}

void RecordTranslator::noteThreadTrack(std::int64_t tid, model::TrackIndex track,
                                       std::string prefix) {
    m_threadTracks.emplace(tid, std::make_pair(track, std::move(prefix)));
}

namespace {

// Where a CUPTI record of a GPU op ran; CUPTI traces one process (pid -1).
template <typename Record>
model::ActivityPlace placeOf(const Record& r) {
    model::ActivityPlace place;
    place.deviceId = static_cast<std::int32_t>(r.deviceId);
    place.contextId = r.contextId;
    place.streamId = r.streamId;
    place.correlationId = r.correlationId;
    return place;
}

}  // namespace

void RecordTranslator::translateKernel(const CUpti_Activity& record) {
    const auto& k = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
    std::uint64_t end = k.end;
    if (k.start == 0 || end == 0) {
        untimedKernel(k.name, k.deviceId, k.streamId);
        return;
    }
    if (!checkInterval(k.start, end, "kernel")) {
        return;
    }
    model::KernelActivity a;
    a.startNs = static_cast<model::TimeNs>(k.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.name = kernelName(k.name);
    a.place = placeOf(k);
    a.detail.grid = {k.gridX, k.gridY, k.gridZ};
    a.detail.block = {k.blockX, k.blockY, k.blockZ};
    a.detail.registersPerThread = k.registersPerThread;
    a.detail.staticSharedBytes = k.staticSharedMemory;
    a.detail.dynamicSharedBytes = k.dynamicSharedMemory;
    a.detail.graph = {k.graphId, k.graphNodeId};
    m_mapper.add(a);
}

void RecordTranslator::translateMemcpy(const CUpti_Activity& record) {
    const auto& m = reinterpret_cast<const CUpti_ActivityMemcpy6&>(record);
    std::uint64_t end = m.end;
    if (!checkInterval(m.start, end, "memcpy")) {
        return;
    }
    model::CopyActivity a;
    a.startNs = static_cast<model::TimeNs>(m.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.place = placeOf(m);
    a.detail.bytes = m.bytes;
    a.detail.copyKind = model::copyKindFromCuptiCode(m.copyKind);
    a.detail.srcKind = memoryKindOf(m.srcKind);
    a.detail.dstKind = memoryKindOf(m.dstKind);
    a.detail.srcDevice = static_cast<std::int32_t>(m.deviceId);
    a.detail.dstDevice = static_cast<std::int32_t>(m.deviceId);
    a.detail.graph = {m.graphId, m.graphNodeId};
    m_mapper.add(a);
}

void RecordTranslator::translatePeerMemcpy(const CUpti_Activity& record) {
    const auto& m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4&>(record);
    std::uint64_t end = m.end;
    if (!checkInterval(m.start, end, "peer memcpy")) {
        return;
    }
    model::CopyActivity a;
    a.startNs = static_cast<model::TimeNs>(m.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.place = placeOf(m);
    a.detail.bytes = m.bytes;
    a.detail.copyKind = CopyKind::PeerToPeer;
    a.detail.srcKind = memoryKindOf(m.srcKind);
    a.detail.dstKind = memoryKindOf(m.dstKind);
    a.detail.srcDevice = static_cast<std::int32_t>(m.srcDeviceId);
    a.detail.dstDevice = static_cast<std::int32_t>(m.dstDeviceId);
    a.detail.graph = {m.graphId, m.graphNodeId};
    // A peer record always names its GPUs, even a copy within one.
    const std::string name = "Memcpy PtoP (GPU " + std::to_string(m.srcDeviceId) + " -> GPU " +
                             std::to_string(m.dstDeviceId) + ")";
    a.name = name;
    m_mapper.add(a);
}

void RecordTranslator::translateMemset(const CUpti_Activity& record) {
    const auto& m = reinterpret_cast<const CUpti_ActivityMemset4&>(record);
    std::uint64_t end = m.end;
    if (!checkInterval(m.start, end, "memset")) {
        return;
    }
    model::MemsetActivity a;
    a.startNs = static_cast<model::TimeNs>(m.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.place = placeOf(m);
    a.detail.bytes = m.bytes;
    a.detail.value = m.value;
    a.detail.memoryKind = memoryKindOf(m.memoryKind);
    a.detail.graph = {m.graphId, m.graphNodeId};
    m_mapper.add(a);
}

void RecordTranslator::translateMemory(const CUpti_Activity& record) {
    const auto& m = reinterpret_cast<const CUpti_ActivityMemory4&>(record);
    model::MemoryActivity a;
    a.timestampNs = static_cast<model::TimeNs>(m.timestamp);
    a.place.deviceId = static_cast<std::int32_t>(m.deviceId);
    a.place.contextId = m.contextId;
    a.place.correlationId = m.correlationId;
    model::MemoryDetail& detail = a.detail;
    detail.op = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
                    ? model::MemoryOp::Release
                    : model::MemoryOp::Allocation;
    detail.memoryKind = memoryKindOf(m.memoryKind);
    detail.address = m.address;
    detail.bytes = m.bytes;
    detail.streamId =
        m.streamId == CUPTI_INVALID_STREAM_ID ? -1 : static_cast<std::int64_t>(m.streamId);
    detail.fromPool = m.memoryPoolConfig.memoryPoolType != CUPTI_ACTIVITY_MEMORY_POOL_TYPE_INVALID;
    if (detail.fromPool) {
        detail.poolAddress = m.memoryPoolConfig.address;
        detail.poolReservedBytes =
            m.memoryPoolConfig.memoryPoolType == CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL
                ? m.memoryPoolConfig.pool.size
                : 0;
    }
    m_mapper.add(a);
}

void RecordTranslator::translateSync(const CUpti_Activity& record) {
    const auto& s = reinterpret_cast<const CUpti_ActivitySynchronization2&>(record);
    std::uint64_t end = s.end;
    if (!checkInterval(s.start, end, "synchronization")) {
        return;
    }
    // The device is known from the context once the other records are in (complete()).
    model::SyncActivity a;
    a.startNs = static_cast<model::TimeNs>(s.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.deviceKnown = false;
    a.place.contextId = s.contextId;
    a.place.correlationId = s.correlationId;
    a.detail.syncKind = model::syncKindFromCuptiCode(s.type);
    a.detail.streamId = s.streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE
                            ? -1
                            : static_cast<std::int64_t>(s.streamId);
    a.eventId = s.cudaEventId;
    // "Not applicable" is the 32-bit invalid value, in a 64-bit field.
    const bool noEventSync = s.cudaEventSyncId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ||
                             s.cudaEventSyncId == std::numeric_limits<std::uint64_t>::max();
    a.eventRecordId = noEventSync ? 0 : s.cudaEventSyncId;
    a.detail.eventId = s.cudaEventId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? 0 : s.cudaEventId;
    m_mapper.add(a);
}

void RecordTranslator::translateApi(const CUpti_Activity& record, model::ApiKind kind) {
    const auto& a = reinterpret_cast<const CUpti_ActivityAPI&>(record);
    std::uint64_t end = a.end;
    if (!checkInterval(a.start, end,
                       kind == model::ApiKind::Runtime ? "runtime API" : "driver API")) {
        return;
    }
    const std::int64_t pid = a.processId;
    const std::int64_t tid = a.threadId;
    const auto process = hostProcess(pid);
    const auto key = std::make_tuple(pid, tid);
    model::TrackIndex track;
    // One lookup per record: this is the hot path of a launch-heavy trace.
    if (auto it = m_apiTracks.find(key); it != m_apiTracks.end()) {
        track = it->second;
    } else {
        track = m_mapper.apiRow(process, tid);
        m_apiTracks.emplace(key, track);
        noteThreadTrack(tid, track, "CUDA API");
    }
    const ApiName& named = apiName(kind, a.cbid);
    const std::string& name = named.name;
    if (name.find("StreamCreate") != std::string::npos) {
        m_streamCreateCorrelations.insert(a.correlationId);
    }
    model::ApiActivity call;
    call.startNs = static_cast<model::TimeNs>(a.start);
    call.endNs = static_cast<model::TimeNs>(end);
    call.pid = pid;
    call.tid = tid;
    call.name = name;
    call.correlationId = a.correlationId;
    call.detail.apiKind = kind;
    call.detail.callbackId = a.cbid;
    call.detail.returnCode = static_cast<std::int32_t>(a.returnValue);
    call.detail.versionedNameId = named.versioned;
    m_mapper.add(track, call);
}

void RecordTranslator::translateCudaEvent(const CUpti_Activity& record) {
    const auto& e = reinterpret_cast<const CUpti_ActivityCudaEvent2&>(record);
    model::CudaEventActivity a;
    a.place.deviceId = static_cast<std::int32_t>(e.deviceId);
    a.place.contextId = e.contextId;
    a.place.streamId = e.streamId;
    a.place.correlationId = e.correlationId;
    a.eventId = e.eventId;
    // cudaEventSyncId: one per record of an event, unlike event ids, which a re-recorded event
    // keeps.
    a.eventRecordId = e.cudaEventSyncId;
    m_mapper.add(a);
}

void RecordTranslator::translateOverhead(const CUpti_Activity& record) {
    const auto& o = reinterpret_cast<const CUpti_ActivityOverhead3&>(record);
    std::uint64_t end = o.end;
    if (!checkInterval(o.start, end, "overhead")) {
        return;
    }
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    if (o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
        o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
        pid = o.objectId.pt.processId;
        tid = o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? o.objectId.pt.threadId : 0;
    } else if (!m_hostProcesses.empty()) {
        pid = m_hostProcesses.begin()->first;
    }
    const auto process = hostProcess(pid);
    const auto key = std::make_tuple(pid, tid);
    model::TrackIndex track;
    if (auto it = m_overheadTracks.find(key); it != m_overheadTracks.end()) {
        track = it->second;
    } else {
        track = m_builder->hostTrack(process, tid);
        m_builder->setTrackName(track, tid != 0 ? "CUPTI overhead (tid " + std::to_string(tid) + ")"
                                                : std::string("CUPTI overhead"));
        m_overheadTracks.emplace(key, track);
    }
    m_builder->addSlice(track, static_cast<model::TimeNs>(o.start), static_cast<model::TimeNs>(end),
                        overheadName(o.overheadKind), model::SliceKind::Overhead);
}

void RecordTranslator::translateName(const CUpti_Activity& record) {
    const auto& n = reinterpret_cast<const CUpti_ActivityName&>(record);
    std::string name = copyString(n.name);
    if (name.empty()) {
        return;
    }
    switch (n.objectKind) {
        case CUPTI_ACTIVITY_OBJECT_THREAD:
            m_threadNames[n.objectId.pt.threadId] = std::move(name);
            break;
        case CUPTI_ACTIVITY_OBJECT_STREAM:
            m_streamNames[n.objectId.dcs.streamId] = std::move(name);
            break;
        default:
            break;  // device and context names: the GPU process is named from its properties
    }
}

void RecordTranslator::translateStream(const CUpti_Activity& record) {
    const auto& s = reinterpret_cast<const CUpti_ActivityStream&>(record);
    m_streams[s.streamId] =
        StreamInfo{s.contextId, static_cast<std::uint32_t>(s.flag), s.correlationId};
}

void RecordTranslator::translateDevice(const CUpti_Activity& record) {
    const auto& d = reinterpret_cast<const CUpti_ActivityDevice5&>(record);
    model::DeviceProperties p;
    p.id = static_cast<std::int32_t>(d.id);
    p.name = copyString(d.name);
    p.computeMajor = static_cast<std::int32_t>(d.computeCapabilityMajor);
    p.computeMinor = static_cast<std::int32_t>(d.computeCapabilityMinor);
    p.smCount = static_cast<std::int32_t>(d.numMultiprocessors);
    p.warpSize = d.numThreadsPerWarp != 0 ? static_cast<std::int32_t>(d.numThreadsPerWarp) : 32;
    p.maxThreadsPerBlock = static_cast<std::int32_t>(d.maxThreadsPerBlock);
    p.maxWarpsPerSm = static_cast<std::int32_t>(d.maxWarpsPerMultiprocessor);
    p.maxThreadsPerSm = p.maxWarpsPerSm * p.warpSize;
    p.maxBlocksPerSm = static_cast<std::int32_t>(d.maxBlocksPerMultiprocessor);
    p.registersPerSm = static_cast<std::int32_t>(d.maxRegistersPerMultiprocessor);
    p.registersPerBlock = static_cast<std::int32_t>(d.maxRegistersPerBlock);
    p.sharedMemoryPerSmBytes = d.maxSharedMemoryPerMultiprocessor;
    p.sharedMemoryPerBlockBytes = d.maxSharedMemoryPerBlock;
    p.totalMemoryBytes = static_cast<std::int64_t>(d.globalMemorySize);
    p.l2CacheBytes = d.l2CacheSize;
    p.clockRateKHz = static_cast<std::int32_t>(d.coreClockRate);
    // CUPTI reports kB/s.
    p.memoryBandwidthGBps = static_cast<double>(d.globalMemoryBandwidth) * 1e3 / 1e9;
    p.uuid = formatUuid(reinterpret_cast<const unsigned char*>(d.uuid.bytes));
    m_cuptiDevices[p.id] = std::move(p);
    m_mapper.noteDevice(static_cast<int>(d.id));
}

void RecordTranslator::translateContext(const CUpti_Activity& record) {
    const auto& c = reinterpret_cast<const CUpti_ActivityContext3&>(record);
    m_mapper.noteContext(c.contextId, static_cast<int>(c.deviceId));
}

namespace {

// A unified-memory record's processor id as the model has it: a CUDA ordinal or the host.
std::int32_t processorOf(std::uint32_t id) {
    return id == CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID ? model::kUnifiedMemoryCpu
                                                    : static_cast<std::int32_t>(id);
}

// The lowest GPU of a thrashing record's bitmask of GPUs (-1: none).
std::int32_t lowestDevice(const std::uint64_t (&processors)[5]) {
    for (int word = 0; word < 5; ++word) {
        if (processors[word] != 0) {
            return word * 64 + __builtin_ctzll(processors[word]);
        }
    }
    return -1;
}

}  // namespace

void RecordTranslator::translateUnifiedMemory(const CUpti_Activity& record) {
    const auto& u = reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3&>(record);
    model::UnifiedMemoryActivity a;
    model::UnifiedMemoryDetail& d = a.detail;
    d.address = u.address;
    // Where the event goes: the GPU it happened on, or the host (deviceId < 0).
    std::int32_t device = -1;
    // Faults, thrashing and remote maps are instants: CUPTI gives them no end.
    bool instant = false;
    switch (u.counterKind) {
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD:
            d.kind =
                u.counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD
                    ? model::UnifiedMemoryKind::MigrationHtoD
                : u.counterKind == CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH
                    ? model::UnifiedMemoryKind::MigrationDtoH
                    : model::UnifiedMemoryKind::MigrationDtoD;
            d.bytes = u.value;
            d.srcDevice = processorOf(u.srcId);
            d.dstDevice = processorOf(u.dstId);
            d.cause = model::migrationCauseFromCuptiCode(u.flags);
            // The GPU that gained the pages, else the one that gave them up.
            device = d.dstDevice >= 0 ? d.dstDevice : d.srcDevice;
            break;
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
            d.kind = model::UnifiedMemoryKind::CpuPageFault;
            d.faultCount = 1;
            d.pc = u.value;  // the faulting instruction
            instant = true;
            break;
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
            d.kind = model::UnifiedMemoryKind::GpuPageFault;
            d.faultCount = std::max<std::uint64_t>(u.value, 1);  // fault groups of the page
            d.access = model::faultAccessFromCuptiCode(u.flags);
            d.srcDevice = processorOf(u.srcId);
            device = d.srcDevice;
            break;
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING:
            d.kind = model::UnifiedMemoryKind::Thrashing;
            d.bytes = u.value;
            device = (u.flags & CUPTI_ACTIVITY_FLAG_THRASHING_IN_CPU) != 0
                         ? -1
                         : lowestDevice(u.processors);
            d.srcDevice = device >= 0 ? device : model::kUnifiedMemoryCpu;
            instant = true;
            break;
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING:
            d.kind = model::UnifiedMemoryKind::Throttling;
            device =
                (u.flags & CUPTI_ACTIVITY_FLAG_THROTTLING_IN_CPU) != 0 ? -1 : processorOf(u.srcId);
            d.srcDevice = device >= 0 ? device : model::kUnifiedMemoryCpu;
            break;
        case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP:
            d.kind = model::UnifiedMemoryKind::RemoteMap;
            d.bytes = u.value;
            d.srcDevice = processorOf(u.srcId);
            d.dstDevice = processorOf(u.dstId);
            d.cause = model::remoteMapCauseFromCuptiCode(u.flags);
            device = d.dstDevice >= 0 ? d.dstDevice : d.srcDevice;
            instant = true;
            break;
        default:
            unknownRecord(static_cast<std::uint32_t>(record.kind));
            return;
    }
    std::uint64_t end = instant ? u.start : u.end;
    if (!checkInterval(u.start, end, "unified memory")) {
        return;
    }
    a.startNs = static_cast<model::TimeNs>(u.start);
    a.endNs = static_cast<model::TimeNs>(end);
    a.place.deviceId = device;
    if (device < 0) {
        a.hostProcess = hostProcess(u.processId);
    }
    m_mapper.add(a);
}

void RecordTranslator::addDroppedRecords(std::uint64_t count) {
    if (count == 0) {
        return;
    }
    auto& diag = m_builder->diagnostics();
    diag.droppedRecords += count;
    diag.warn("CUPTI dropped " + std::to_string(count) +
              " activity records (buffers full): the trace is incomplete");
}

void RecordTranslator::addNvtx(const NvtxCapture& capture) {
    auto& diag = m_builder->diagnostics();
    auto threadTrack = [&](std::int64_t pid, std::int64_t tid, const std::string& domain) {
        const auto key = std::make_tuple(pid, tid, domain);
        if (auto it = m_nvtxTracks.find(key); it != m_nvtxTracks.end()) {
            return it->second;
        }
        const auto track = m_builder->nvtxTrack(hostProcess(pid), tid, domain);
        m_nvtxTracks.emplace(key, track);
        noteThreadTrack(tid, track, domain.empty() ? "NVTX" : "NVTX " + domain);
        return track;
    };
    for (const NvtxRange& range : capture.ranges) {
        std::uint64_t endNs = range.endNs;
        if (!checkInterval(range.startNs, endNs, range.mark ? "NVTX mark" : "NVTX range")) {
            continue;
        }
        model::NvtxDetail detail;
        detail.colorArgb = range.colorArgb;
        detail.domainId = m_builder->intern(range.domain);
        detail.category = static_cast<std::int32_t>(range.category);
        if (!range.categoryName.empty()) {
            detail.categoryNameId = m_builder->intern(range.categoryName);
        }
        detail.hasPayload = range.hasPayload;
        detail.payload = range.payload;
        // Start/end ranges may overlap the thread's push/pop ranges and end on another thread.
        const auto track = range.startEnd || range.endTid != range.tid
                               ? m_builder->nvtxAsyncTrack(hostProcess(range.pid), range.domain)
                               : threadTrack(range.pid, range.tid, range.domain);
        m_builder->addNvtx(track, static_cast<model::TimeNs>(range.startNs),
                           static_cast<model::TimeNs>(endNs), range.name, detail);
    }
    diag.unmatchedEnds += capture.neverEnded + capture.unmatchedEnds;
    for (const std::string& warning : capture.warnings) {
        diag.warn(warning);
    }
    for (const auto& [tid, name] : capture.threadNames) {
        m_threadNames[tid] = name;
    }
    for (const auto& [streamId, name] : capture.streamNames) {
        m_streamNames[streamId] = name;
    }
    for (const auto& [device, name] : capture.deviceNames) {
        m_deviceNames[device] = name;
    }
    if (!capture.otherNames.empty()) {
        std::string names;
        for (const std::string& name : capture.otherNames) {
            names += (names.empty() ? "" : "; ") + name;
        }
        m_builder->setMetadata("nvtx resource names", names);
    }
}

void RecordTranslator::noteDefaultStreams(int deviceId, std::uint32_t legacyStreamId,
                                          std::uint32_t perThreadStreamId) {
    m_defaultStreamNames[{deviceId, legacyStreamId}] =
        "Default stream (legacy, " + std::to_string(legacyStreamId) + ")";
    if (perThreadStreamId != legacyStreamId) {
        m_defaultStreamNames[{deviceId, perThreadStreamId}] =
            "Default stream (per-thread, " + std::to_string(perThreadStreamId) + ")";
    }
}

void RecordTranslator::addRuntimeDeviceProperties(const model::DeviceProperties& properties) {
    m_runtimeDevices[properties.id] = properties;
}

std::vector<int> RecordTranslator::devices() const {
    return {m_mapper.devices().begin(), m_mapper.devices().end()};
}

void RecordTranslator::complete() {
    m_mapper.complete();
    nameStreams();
    nameThreads();
    addDevices();
    m_builder->setMetadata("cupti records", std::to_string(m_recordCount));
}

void RecordTranslator::nameStreams() {
    for (const auto& [key, track] : m_mapper.streamRows()) {
        const auto deviceId = std::get<0>(key);
        const auto streamId = static_cast<std::uint32_t>(std::get<2>(key));
        std::string name;
        if (auto named = m_streamNames.find(streamId); named != m_streamNames.end()) {
            name = named->second + " (stream " + std::to_string(streamId) + ")";
        } else if (auto known = m_defaultStreamNames.find({deviceId, streamId});
                   known != m_defaultStreamNames.end()) {
            name = known->second;
        } else if (auto it = m_streams.find(streamId); it != m_streams.end()) {
            const StreamInfo& info = it->second;
            if (info.flag == CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL) {
                name = "Default stream (legacy, " + std::to_string(streamId) + ")";
            } else if (m_sawPerThreadApi && info.correlationId != 0 &&
                       m_streamCreateCorrelations.count(info.correlationId) == 0) {
                // Created implicitly by a per-thread-default-stream call, not by cudaStreamCreate.
                name = "Default stream (per-thread, " + std::to_string(streamId) + ")";
            }
        }
        if (name.empty()) {
            name = "Stream " + std::to_string(streamId);
        }
        m_builder->setTrackName(track, name);
    }
}

void RecordTranslator::nameThreads() {
    for (const auto& [tid, entry] : m_threadTracks) {
        const auto& [track, prefix] = entry;
        std::string name = prefix;
        if (auto it = m_threadNames.find(tid); it != m_threadNames.end()) {
            name += ": " + it->second;
        }
        name += " (tid " + std::to_string(tid) + ")";
        m_builder->setTrackName(track, name);
    }
}

void RecordTranslator::addDevices() {
    std::set<int> ids(m_mapper.devices().begin(), m_mapper.devices().end());
    for (const auto& [id, p] : m_runtimeDevices) {
        (void)p;
        ids.insert(id);
    }
    for (int id : ids) {
        model::DeviceProperties merged;
        merged.id = id;
        auto runtime = m_runtimeDevices.find(id);
        auto cupti = m_cuptiDevices.find(id);
        if (runtime != m_runtimeDevices.end()) {
            merged = runtime->second;
        }
        if (cupti != m_cuptiDevices.end()) {
            const auto& c = cupti->second;
            auto take = [](auto& into, const auto& from) {
                if (from != decltype(from){}) {
                    into = from;
                }
            };
            take(merged.name, c.name);
            take(merged.computeMajor, c.computeMajor);
            take(merged.computeMinor, c.computeMinor);
            take(merged.smCount, c.smCount);
            take(merged.warpSize, c.warpSize);
            take(merged.maxThreadsPerBlock, c.maxThreadsPerBlock);
            take(merged.maxThreadsPerSm, c.maxThreadsPerSm);
            take(merged.maxBlocksPerSm, c.maxBlocksPerSm);
            take(merged.maxWarpsPerSm, c.maxWarpsPerSm);
            take(merged.registersPerSm, c.registersPerSm);
            take(merged.registersPerBlock, c.registersPerBlock);
            take(merged.sharedMemoryPerSmBytes, c.sharedMemoryPerSmBytes);
            take(merged.sharedMemoryPerBlockBytes, c.sharedMemoryPerBlockBytes);
            take(merged.totalMemoryBytes, c.totalMemoryBytes);
            take(merged.l2CacheBytes, c.l2CacheBytes);
            take(merged.clockRateKHz, c.clockRateKHz);
            take(merged.uuid, c.uuid);
            if (merged.memoryBandwidthGBps == 0.0) {
                merged.memoryBandwidthGBps = c.memoryBandwidthGBps;
            }
        }
        if (merged.maxWarpsPerSm == 0 && merged.warpSize > 0) {
            merged.maxWarpsPerSm = merged.maxThreadsPerSm / merged.warpSize;
        }
        m_builder->addDevice(merged);
        const auto named = m_deviceNames.find(id);
        const auto& gpus = m_mapper.gpuProcesses();
        const auto gpu = gpus.find({id, -1});
        if (gpu != gpus.end() && named != m_deviceNames.end()) {
            // The program's name for the device first (nvtxNameCudaDevice), then the model.
            m_builder->setProcessName(gpu->second,
                                      "GPU " + std::to_string(id) + ": " + named->second +
                                          (merged.name.empty() ? "" : " (" + merged.name + ")"));
        } else if (gpu != gpus.end() && !merged.name.empty()) {
            m_builder->setProcessName(gpu->second,
                                      "GPU " + std::to_string(id) + ": " + merged.name);
        }
    }
}

}  // namespace wl::cupti
