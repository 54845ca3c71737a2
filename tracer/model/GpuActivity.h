#pragma once

// One GPU activity, whatever recorded it. CUPTI activity records (cupti/RecordTranslator), a
// PyTorch profiler (Kineto) trace (io/chrome/KinetoMapping.cpp) and an Nsight Systems export
// (io/nsys/) are adapters: each fills these records from its own fields and codes, and
// GpuActivityMapper turns them into TraceBuilder calls. The kinds, their fields, their names,
// the rows they go to and how a GPU op finds the call that launched it are written here once.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/TraceBuilder.h"

namespace wl::model {

// Where a GPU activity ran and who queued it. Correlation ids are numbered per process (CUPTI,
// Nsight Systems): `pid` is the process whose API call has `correlationId` (-1: the trace holds
// one process, or the source does not say).
struct ActivityPlace {
    std::int64_t pid = -1;
    std::int32_t deviceId = 0;
    std::uint32_t contextId = 0;
    std::int64_t streamId = -1;
    std::uint64_t correlationId = 0;
};

// A kernel: name, grid, block, registers, shared memory (KernelDetail), where it ran.
struct KernelActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    std::string_view name;  // as people read it (demangled)
    ActivityPlace place;
    KernelDetail detail;
};

// A copy: kind, bytes and the memory kinds of both ends (pinned vs pageable), in MemcpyDetail.
struct CopyActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    ActivityPlace place;
    MemcpyDetail detail;
    std::string_view name;  // empty: copyActivityName(detail)
};

struct MemsetActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    ActivityPlace place;
    MemsetDetail detail;
    std::string_view name;  // empty: memsetActivityName(detail)
};

// A device memory allocation or release: an instant.
struct MemoryActivity {
    TimeNs timestampNs = 0;
    ActivityPlace place;
    MemoryDetail detail;
    std::string_view name;  // empty: memoryActivityName(detail)
};

// A synchronisation (event sync, stream wait event, stream or context sync). Joined at
// GpuActivityMapper::complete() with the CUDA events that name the awaited stream and record.
struct SyncActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    ActivityPlace place;
    bool deviceKnown = true;  // false: only the context says which device (CUPTI)
    SyncDetail detail;
    std::uint64_t eventId = 0;        // the CUDA event object (0: none)
    std::uint64_t eventRecordId = 0;  // the cudaEventRecord waited for (0: not known)
};

// A cudaEventRecord: no time of its own; what a later synchronisation on it waited for.
struct CudaEventActivity {
    ActivityPlace place;
    std::uint64_t eventId = 0;
    std::uint64_t eventRecordId = 0;  // 0: the source numbers no records (then eventId alone)
};

// A CUDA runtime or driver API call on a host thread.
struct ApiActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::string_view name;
    std::uint64_t correlationId = 0;
    ApiDetail detail;
};

// A CUDA graph launched as a whole (Nsight Systems' --cuda-graph-trace=graph): one slice per
// launch on its stream, a kernel slice whose graph id says which graph it ran.
struct GraphLaunchActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    ActivityPlace place;
    std::uint32_t graphId = 0;
    std::uint64_t graphExecId = 0;
};

// A unified-memory event: a migration of managed memory between the host and a GPU (or two
// GPUs), a page fault, thrashing, throttling or a remote map. GPU events go to the rows of
// place.deviceId; events on the host (CPU page faults, and throttling of the CPU) have
// place.deviceId < 0 and go to the rows of `hostProcess`. An instant when endNs == startNs.
struct UnifiedMemoryActivity {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    ActivityPlace place;  // deviceId, and pid for several traced processes
    ProcessIndex hostProcess = 0;
    UnifiedMemoryDetail detail;
};

// Names every source gives an activity.
std::string copyActivityName(const MemcpyDetail& detail);    // "Memcpy HtoD (Pageable -> Device)"
std::string memsetActivityName(const MemsetDetail& detail);  // "Memset (Device)"
std::string memoryActivityName(const MemoryDetail& detail);  // "Allocate (Device, pool)"
std::string graphLaunchName(std::uint32_t graphId);          // "CUDA graph 3"
// The inverse, for sources that only write names (old Kineto): the direction and memory kinds
// of "Memcpy HtoD (Pageable -> Device)" and the memory kind of "Memset (Device)"; empty views
// for what the name does not say.
struct CopyNameParts {
    std::string_view direction;
    std::string_view src;
    std::string_view dst;
};
CopyNameParts parseCopyName(std::string_view name);
std::string_view parseMemsetName(std::string_view name);

// An API name without its version suffix: "cudaLaunchKernel_v7000" -> "cudaLaunchKernel";
// per-thread-stream variants (_ptsz, _ptds) keep theirs. A name without one is returned as it is.
std::string_view apiNameOf(std::string_view versioned);

// CUPTI's codes, which Nsight Systems exports keep (ENUM_CUDA_MEMCPY_OPER, ENUM_CUPTI_SYNC_TYPE;
// its 11-13, copies of unified memory, are its own). Memory kinds are not shared: CUPTI counts
// from "unknown", Nsight Systems from "pageable" (each adapter maps its own).
CopyKind copyKindFromCuptiCode(std::uint32_t code);
SyncKind syncKindFromCuptiCode(std::uint32_t code);
// CUPTI's unified-memory codes, which Nsight Systems exports keep too (migrationCause,
// faultAccessType; ENUM_CUDA_UNIF_MEM_MIGRATION, ENUM_CUDA_UNIF_MEM_ACCESS_TYPE): a migration's
// cause, a remote map's cause, a GPU page fault's access.
UnifiedMemoryCause migrationCauseFromCuptiCode(std::uint32_t code);
UnifiedMemoryCause remoteMapCauseFromCuptiCode(std::uint32_t code);
UnifiedMemoryAccess faultAccessFromCuptiCode(std::uint32_t code);

// Turns activities into slices on their rows. Rows: a GPU process per device (per device and
// process when the activities say which process queued them and several did), a row per stream,
// one for synchronisations and one for memory events per GPU, an API row per host thread. Launch
// matching: an API call and the GPU work with the same correlation id in the same process are
// linked at finalize() (model/passes/LaunchFlows.cpp); the mapper keeps each GPU's process so
// that ids of two processes never meet. Synchronisations wait until complete() for the events
// and contexts that say which device, stream and record they are about.
class GpuActivityMapper {
public:
    struct Options {
        // GPU processes are named "GPU N" when made (the name is replaced by the device's when it
        // is known); false leaves them unnamed (a source whose metadata names them).
        bool nameGpuProcesses = true;
        // GPU work of several processes is kept apart (a GPU process per device and process,
        // Process::ownerPid), so a correlation id finds its call in its own process.
        bool gpuRowsPerProcess = false;
    };

    explicit GpuActivityMapper(TraceBuilder& builder);
    GpuActivityMapper(TraceBuilder& builder, Options options);

    TraceBuilder& builder() { return m_builder; }

    // Rows, made on first use.
    ProcessIndex gpuProcess(std::int32_t deviceId, std::int64_t pid = -1);
    TrackIndex streamRow(const ActivityPlace& place);
    TrackIndex syncRow(const ActivityPlace& place);
    TrackIndex memoryRow(const ActivityPlace& place);
    TrackIndex unifiedMemoryRow(const ActivityPlace& place, UnifiedMemoryKind kind);
    TrackIndex apiRow(ProcessIndex hostProcess, std::int64_t tid);

    // Details into the builder's side tables, for a source that places its slices itself
    // (TraceBuilder::addSliceId).
    std::uint32_t detailOf(const KernelDetail& detail) { return m_builder.addKernelDetail(detail); }
    std::uint32_t detailOf(const MemcpyDetail& detail) { return m_builder.addMemcpyDetail(detail); }
    std::uint32_t detailOf(const MemsetDetail& detail) { return m_builder.addMemsetDetail(detail); }
    std::uint32_t detailOf(const MemoryDetail& detail) { return m_builder.addMemoryDetail(detail); }
    std::uint32_t detailOf(const SyncDetail& detail) { return m_builder.addSyncDetail(detail); }
    std::uint32_t detailOf(const ApiDetail& detail) { return m_builder.addApiDetail(detail); }
    std::uint32_t detailOf(const UnifiedMemoryDetail& detail) {
        return m_builder.addUnifiedMemoryDetail(detail);
    }

    // Activities on their rows (the API's on `apiRow`).
    void add(const KernelActivity& a);
    void add(const CopyActivity& a);
    void add(const MemsetActivity& a);
    void add(const MemoryActivity& a);
    void add(const GraphLaunchActivity& a);
    // GPU page faults that the driver serviced together (one after another, same device, same
    // start and end) become one event that counts them (UnifiedMemoryDetail::faultCount, the
    // lowest address): a kernel that faults on every page makes thousands of records, and a row
    // of them one above the other says less than their count. Kept until the next event of
    // another batch, or complete().
    void add(const UnifiedMemoryActivity& a);
    void add(const SyncActivity& a);  // kept until complete()
    void add(const CudaEventActivity& a);
    void add(TrackIndex apiTrack, const ApiActivity& a);
    // The GPU of a context, when only the context is known (CUPTI's synchronisations).
    void noteContext(std::uint32_t contextId, std::int32_t deviceId);

    // Emits the synchronisations, joined with the events and contexts seen, and the last batch
    // of GPU page faults. Call once.
    void complete();

    // GPU processes with rows, by (device, pid) (pid -1 unless gpuRowsPerProcess).
    const std::map<std::pair<std::int32_t, std::int64_t>, ProcessIndex>& gpuProcesses() const {
        return m_gpuProcesses;
    }
    // Stream rows made, by (device, pid, stream).
    const std::map<std::tuple<std::int32_t, std::int64_t, std::int64_t>, TrackIndex>& streamRows()
        const {
        return m_streamRows;
    }
    // Devices that ran GPU work or were noted (noteDevice), ascending: a synchronisation whose
    // context names no device goes to the first.
    const std::set<std::int32_t>& devices() const { return m_devices; }
    void noteDevice(std::int32_t deviceId) { m_devices.insert(deviceId); }

private:
    struct EventRecord {
        std::int64_t streamId = -1;
        std::uint64_t correlationId = 0;
    };
    std::int64_t ownerOf(const ActivityPlace& place) const {
        return m_options.gpuRowsPerProcess ? place.pid : -1;
    }
    void emit(const UnifiedMemoryActivity& a);
    void flushFaultBatches();

    TraceBuilder& m_builder;
    Options m_options;
    std::map<std::pair<std::int32_t, std::int64_t>, ProcessIndex> m_gpuProcesses;
    std::map<std::tuple<std::int32_t, std::int64_t, std::int64_t>, TrackIndex> m_streamRows;
    std::set<std::int32_t> m_devices;
    std::unordered_map<std::uint32_t, std::int32_t> m_contextDevice;
    std::vector<SyncActivity> m_syncs;
    // (pid, CUDA event id) -> the stream it was last recorded on.
    std::map<std::pair<std::int64_t, std::uint64_t>, std::int64_t> m_eventStream;
    // (pid, record id) -> the record.
    std::map<std::pair<std::int64_t, std::uint64_t>, EventRecord> m_eventRecords;
    // (device, owner) -> the batch of GPU page faults being gathered there.
    std::map<std::pair<std::int32_t, std::int64_t>, UnifiedMemoryActivity> m_faultBatches;
};

}  // namespace wl::model
