#pragma once

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cupti/NvtxRecorder.h"
#include "model/DeviceProperties.h"
#include "model/GpuActivity.h"
#include "model/TraceBuilder.h"

namespace wl::cupti {

// Turns CUPTI activity records into the neutral GPU activities of model/GpuActivity.h (which
// place, name and link them; an Nsight Systems export and a Kineto trace go the same way). The
// only place that knows the versioned CUPTI structs (CUpti_ActivityKernel10, Memcpy6, MemcpyPtoP4,
// Memset4, Synchronization2, API, CudaEvent2, Overhead3, Name, Stream, Device5, Context3,
// UnifiedMemoryCounter3). Every
// string is copied out of the record before translate() returns, so the caller may recycle the
// buffer at once. Records that must be joined (stream and thread names, synchronisations that only
// carry a context id) are kept until complete(). NVTX comes from Warpline's own NVTX recorder
// (addNvtx), not from CUPTI. Not thread-safe: the tracer serialises calls (CUPTI delivers buffers
// on its own thread). Times: CUPTI's nanosecond clock, passed through unchanged; the builder
// rebases them.
class RecordTranslator {
public:
    // Resolves a runtime/driver callback id to a function name (cuptiGetCallbackName).
    using ApiNameFn = std::function<std::string(CUpti_CallbackDomain, CUpti_CallbackId)>;

    // Strings longer than this are cut (and counted as truncated): names come from user code and
    // a missing terminator must not run through memory.
    static constexpr std::size_t kMaxStringBytes = 4096;

    explicit RecordTranslator(ApiNameFn apiName);
    ~RecordTranslator();
    RecordTranslator(const RecordTranslator&) = delete;
    RecordTranslator& operator=(const RecordTranslator&) = delete;

    void translate(const CUpti_Activity& record);

    void addDroppedRecords(std::uint64_t count);
    // The program's NVTX ranges and marks (NvtxRecorder::collect), on the clock of the records:
    // push/pop ranges and marks on their thread's NVTX row of their domain, start/end ranges
    // (which may overlap and cross threads) on the domain's async row; the names given to
    // threads, streams and devices name their rows; ranges never ended and ends without a start
    // are counted warnings.
    void addNvtx(const NvtxCapture& capture);
    // Device properties from the CUDA runtime; merged with CUPTI's DEVICE record (CUPTI wins where
    // it reports a value).
    void addRuntimeDeviceProperties(const model::DeviceProperties& properties);
    // Stream ids of a device's default streams, as CUPTI reports them (names those rows).
    void noteDefaultStreams(int deviceId, std::uint32_t legacyStreamId,
                            std::uint32_t perThreadStreamId);
    void setHostProcessName(std::string name) { m_hostName = std::move(name); }

    // Devices that ran GPU work or reported DEVICE records, in ascending order.
    std::vector<int> devices() const;
    // Whether the program's records put anything on this device (kernels, copies, memsets,
    // allocations, synchronisations): only such devices get a group of rows.
    bool ranWorkOn(int deviceId) const {
        return m_mapper.gpuProcesses().count({deviceId, -1}) != 0;
    }
    std::uint64_t recordCount() const { return m_recordCount; }

    // Emits what was waiting for a join (NVTX ranges, synchronisations), names streams, threads and
    // GPU processes, and adds device properties. Call once, after the last record.
    void complete();

    model::TraceBuilder& builder() { return *m_builder; }
    model::ProcessIndex gpuProcess(int deviceId);

private:
    struct StreamInfo {
        std::uint32_t contextId = 0;
        std::uint32_t flag = 0;
        std::uint64_t correlationId = 0;
    };

    void translateKernel(const CUpti_Activity& record);
    void translateMemcpy(const CUpti_Activity& record);
    void translatePeerMemcpy(const CUpti_Activity& record);
    void translateMemset(const CUpti_Activity& record);
    void translateMemory(const CUpti_Activity& record);
    void translateSync(const CUpti_Activity& record);
    void translateApi(const CUpti_Activity& record, model::ApiKind kind);
    void translateCudaEvent(const CUpti_Activity& record);
    void translateOverhead(const CUpti_Activity& record);
    void translateName(const CUpti_Activity& record);
    void translateStream(const CUpti_Activity& record);
    void translateDevice(const CUpti_Activity& record);
    void translateContext(const CUpti_Activity& record);
    void translateUnifiedMemory(const CUpti_Activity& record);
    void unknownRecord(std::uint32_t kind);

    // Zero timestamps: the record is skipped. end < start: clamped. Both counted.
    bool checkInterval(std::uint64_t start, std::uint64_t& end, std::string_view what);
    // A kernel record without timestamps (a kernel that did not finish): counted, and named in a
    // warning once per kernel name.
    void untimedKernel(const char* name, std::uint32_t device, std::uint32_t stream);
    std::string copyString(const char* text);
    const std::string& kernelName(const char* mangled);
    // CUPTI's name of a callback id ("cudaLaunchKernel_v7000") as the API name users know
    // ("cudaLaunchKernel") and the versioned one (interned; 0 when it is the same).
    struct ApiName {
        std::string name;
        model::StringId versioned = 0;
    };
    const ApiName& apiName(model::ApiKind kind, std::uint32_t cbid);
    model::ProcessIndex hostProcess(std::int64_t pid);
    void noteThreadTrack(std::int64_t tid, model::TrackIndex track, std::string prefix);
    void nameStreams();
    void nameThreads();
    void addDevices();

    std::unique_ptr<model::TraceBuilder> m_builder;
    model::GpuActivityMapper m_mapper;
    ApiNameFn m_apiNameFn;
    std::string m_hostName;
    std::uint64_t m_recordCount = 0;

    std::map<std::pair<int, std::uint32_t>, ApiName> m_apiNames;  // (kind, cbid) -> name
    std::map<int, model::DeviceProperties> m_cuptiDevices;
    std::map<int, model::DeviceProperties> m_runtimeDevices;
    std::set<std::uint32_t> m_unknownKindsWarned;
    std::set<std::string> m_untimedKernelsWarned;  // kernels without timestamps, by name

    std::map<int, std::string> m_deviceNames;  // nvtxNameCudaDevice / nvtxNameCuDevice

    std::map<std::uint32_t, StreamInfo> m_streams;       // stream id -> STREAM record
    std::map<std::uint32_t, std::string> m_streamNames;  // stream id -> NAME record
    std::set<std::uint64_t> m_streamCreateCorrelations;
    bool m_sawPerThreadApi = false;
    std::map<std::pair<int, std::uint32_t>, std::string> m_defaultStreamNames;  // (device, stream)
    std::unordered_map<std::string, std::string> m_demangled;                   // kernel name cache

    std::map<std::tuple<std::int64_t, std::int64_t>, model::TrackIndex> m_apiTracks;  // (pid, tid)
    std::map<std::tuple<std::int64_t, std::int64_t>, model::TrackIndex> m_overheadTracks;
    std::map<std::tuple<std::int64_t, std::int64_t, std::string>, model::TrackIndex> m_nvtxTracks;
    std::map<std::int64_t, std::string> m_threadNames;
    std::multimap<std::int64_t, std::pair<model::TrackIndex, std::string>> m_threadTracks;
    std::map<std::int64_t, model::ProcessIndex> m_hostProcesses;
};

}  // namespace wl::cupti
