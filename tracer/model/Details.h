#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "model/StringTable.h"

namespace wl::model {

// Per-kind detail records, kept in side tables of the Trace so Slice stays small.

// The CUDA graph node that ran a kernel, copy or memset (graphId 0: not launched from a graph).
struct GraphNode {
    std::uint32_t graphId = 0;
    std::uint64_t nodeId = 0;
};

struct KernelDetail {
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    std::int32_t registersPerThread = 0;
    std::int32_t staticSharedBytes = 0;
    std::int32_t dynamicSharedBytes = 0;
    // From the producer when it reports them (Kineto's "warps per SM", "est. achieved occupancy
    // %"); negative when unknown. Our own analysis computes theoretical occupancy from the fields
    // above.
    float warpsPerSm = -1.0f;
    float estimatedOccupancyPct = -1.0f;
    GraphNode graph;

    std::int64_t threadsPerBlock() const { return std::int64_t{block[0]} * block[1] * block[2]; }
    std::int64_t blockCount() const { return std::int64_t{grid[0]} * grid[1] * grid[2]; }
    std::int32_t sharedBytesPerBlock() const { return staticSharedBytes + dynamicSharedBytes; }
};

enum class CopyKind : std::uint8_t {
    Unknown,
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
    HostToHost,
    PeerToPeer
};

enum class MemoryKind : std::uint8_t { Unknown, Pageable, Pinned, Device, Managed, Array };

struct MemcpyDetail {
    std::uint64_t bytes = 0;
    CopyKind copyKind = CopyKind::Unknown;
    MemoryKind srcKind = MemoryKind::Unknown;
    MemoryKind dstKind = MemoryKind::Unknown;
    std::int32_t srcDevice = -1;  // for peer copies
    std::int32_t dstDevice = -1;
    GraphNode graph;
};

struct MemsetDetail {
    std::uint64_t bytes = 0;
    std::uint32_t value = 0;
    MemoryKind memoryKind = MemoryKind::Unknown;
    GraphNode graph;
};

enum class MemoryOp : std::uint8_t { Allocation, Release };

// A device memory allocation or release (CUPTI's MEMORY2 records). Pool allocations
// (cudaMallocAsync) also say how much their pool holds from the device at that moment.
struct MemoryDetail {
    MemoryOp op = MemoryOp::Allocation;
    MemoryKind memoryKind = MemoryKind::Unknown;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::int64_t streamId = -1;  // the stream of a stream-ordered (async) operation; -1 otherwise
    bool fromPool = false;       // made through a memory pool (cudaMallocAsync, cudaFreeAsync)
    std::uint64_t poolAddress = 0;
    std::uint64_t poolReservedBytes = 0;  // the pool's size, when fromPool
};

enum class SyncKind : std::uint8_t {
    Unknown,
    EventSynchronize,
    StreamWaitEvent,
    StreamSynchronize,
    ContextSynchronize,
};

struct SyncDetail {
    SyncKind syncKind = SyncKind::Unknown;
    std::int64_t streamId = -1;  // -1 when not about one stream
    std::uint64_t eventId = 0;
    // The cudaEventRecord a StreamWaitEvent or EventSynchronize waits for: the stream the event
    // was recorded on and the record call's correlation id (-1 / 0 when not known). From them
    // finalize() finds the op waited for (Trace::dependencies).
    std::int64_t recordStreamId = -1;
    std::uint64_t recordCorrelationId = 0;
    // streamId is the awaited stream, taken from the record: the producer wrote no stream (-1),
    // as Kineto does for an event synchronisation, and an export writes none either.
    bool streamFromRecord = false;
};

enum class ApiKind : std::uint8_t { Runtime, Driver };

struct ApiDetail {
    ApiKind apiKind = ApiKind::Runtime;
    std::uint32_t callbackId = 0;  // CUPTI callback id; 0 when unknown (imported traces)
    std::int32_t returnCode = 0;   // CUDA error code returned by the call (0 = success)
    // The producer's versioned name (cudaLaunchKernel_v7000) of a call shown by its API name
    // (cudaLaunchKernel); 0 when the producer gave no other name.
    StringId versionedNameId = 0;
};

struct NvtxDetail {
    std::uint32_t colorArgb = 0;  // 0 = no colour given
    StringId domainId = 0;        // domain name ("" = default domain)
    std::int32_t category = 0;
    StringId categoryNameId = 0;  // nvtxNameCategory's name for it ("" = none given)
    bool hasPayload = false;
    double payload = 0.0;  // the event's payload (integers exact up to 2^53)
};

// Unified memory (managed memory) events: what the driver did to move pages between the host and
// the GPUs (CUPTI's unified-memory counters, Nsight Systems' CUDA_UM_* tables).
enum class UnifiedMemoryKind : std::uint8_t {
    Unknown,
    MigrationHtoD,  // pages moved from the host to a GPU
    MigrationDtoH,  // pages moved from a GPU to the host
    MigrationDtoD,  // pages moved from one GPU to another
    CpuPageFault,   // the host touched a page that was not in its memory
    GpuPageFault,   // a kernel touched a page that was not in its GPU's memory
    Thrashing,      // a region moved back and forth between processors
    Throttling,     // the driver held one processor's faults back to stop thrashing
    RemoteMap,      // the driver mapped a region where it was instead of moving it
};

// Why the driver migrated or mapped a region (CUPTI's migration and remote-map causes).
enum class UnifiedMemoryCause : std::uint8_t {
    Unknown,
    User,            // cudaMemcpy / cudaMemPrefetchAsync-like requests
    Coherence,       // needed to keep memory coherent: a page fault
    Prefetch,        // speculative prefetch by the driver
    Eviction,        // a GPU ran out of memory and gave pages back
    AccessCounters,  // the GPU's access counters asked for the pages
    Thrashing,       // remote map: the region thrashed
    Policy,          // remote map: cudaMemAdvise's preferred location or accessed-by
    OutOfMemory,     // remote map: no memory on the processor that touched it
};

// How a faulting access touched its page (GPU page faults).
enum class UnifiedMemoryAccess : std::uint8_t { Unknown, Read, Write, Atomic, Prefetch };

// A unified-memory event's source or destination when it is no GPU.
inline constexpr std::int32_t kUnifiedMemoryCpu = -1;   // the host
inline constexpr std::int32_t kUnifiedMemoryNone = -2;  // not said, or not applicable

struct UnifiedMemoryDetail {
    UnifiedMemoryKind kind = UnifiedMemoryKind::Unknown;
    // The migrated or mapped region's start; a page fault's page (the lowest of a batch).
    std::uint64_t address = 0;
    // Migrations, thrashing and remote maps: the region's size.
    std::uint64_t bytes = 0;
    // Page faults: how many this event stands for (the driver services a GPU's faults in
    // batches; one event per batch keeps a fault storm readable). 0 for other kinds.
    std::uint64_t faultCount = 0;
    // CPU page faults: the address of the faulting instruction (0: not known).
    std::uint64_t pc = 0;
    // CUDA ordinals, or kUnifiedMemoryCpu / kUnifiedMemoryNone.
    std::int32_t srcDevice = kUnifiedMemoryNone;
    std::int32_t dstDevice = kUnifiedMemoryNone;
    UnifiedMemoryCause cause = UnifiedMemoryCause::Unknown;
    UnifiedMemoryAccess access = UnifiedMemoryAccess::Unknown;
};

inline bool isMigration(UnifiedMemoryKind kind) {
    return kind == UnifiedMemoryKind::MigrationHtoD || kind == UnifiedMemoryKind::MigrationDtoH ||
           kind == UnifiedMemoryKind::MigrationDtoD;
}
inline bool isPageFault(UnifiedMemoryKind kind) {
    return kind == UnifiedMemoryKind::CpuPageFault || kind == UnifiedMemoryKind::GpuPageFault;
}

// Names for display and export.
const char* toString(CopyKind kind);  // "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "Unknown"
const char* toString(
    MemoryKind kind);               // "Pageable", "Pinned", "Device", "Managed", "Array", "Unknown"
const char* toString(MemoryOp op);  // "allocation", "release"
const char* toString(
    SyncKind kind);  // "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync", "Unknown"
CopyKind copyKindFromString(std::string_view text);      // inverse of toString; Unknown otherwise
MemoryKind memoryKindFromString(std::string_view text);  // inverse of toString; Unknown otherwise
SyncKind syncKindFromString(std::string_view text);      // inverse of toString; Unknown otherwise
// Inverse of toString; nullopt for any other text.
std::optional<MemoryOp> memoryOpFromString(std::string_view text);
// "migration HtoD", "migration DtoH", "migration DtoD", "cpu page fault", "gpu page fault",
// "thrashing", "throttling", "remote map", "unknown"
const char* toString(UnifiedMemoryKind kind);
const char* toString(UnifiedMemoryCause cause);    // "user", "coherence", ..., "unknown"
const char* toString(UnifiedMemoryAccess access);  // "read", "write", "atomic", "prefetch", ...
// The name of an event of a kind ("Migration HtoD", "GPU page fault") and of its row ("Unified
// memory HtoD", "GPU page faults"), as every source names them.
const char* unifiedMemoryEventName(UnifiedMemoryKind kind);
const char* unifiedMemoryTrackName(UnifiedMemoryKind kind);
// Inverses of toString; Unknown for any other text.
UnifiedMemoryKind unifiedMemoryKindFromString(std::string_view text);
UnifiedMemoryCause unifiedMemoryCauseFromString(std::string_view text);
UnifiedMemoryAccess unifiedMemoryAccessFromString(std::string_view text);

}  // namespace wl::model
