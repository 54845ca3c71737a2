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

}  // namespace wl::model
