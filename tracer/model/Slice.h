#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "model/StringTable.h"
#include "model/Time.h"

namespace wl::model {

enum class SliceKind : std::uint8_t {
    Kernel,  // GPU kernel (details: KernelDetail)
    Memcpy,  // GPU copy, any direction (details: MemcpyDetail)
    Memset,  // GPU memset (details: MemsetDetail)
    // A device memory allocation or release (cudaMalloc, cudaFree, cudaMallocAsync, ...): an
    // instant on its GPU's memory track (details: MemoryDetail)
    Memory,
    Sync,  // host waiting on the GPU: stream/event/context sync, stream-wait-event (SyncDetail)
    RuntimeApi,  // CUDA runtime API call on a host thread (ApiDetail)
    DriverApi,   // CUDA driver API call on a host thread (ApiDetail)
    Nvtx,        // NVTX range (NvtxDetail); a zero-duration one is a mark
    Overhead,    // CUPTI/profiler overhead on a host thread
    Instant,     // an instant event with no duration from an imported trace
    Other,       // any other imported slice (a Python frame, a profiler span, an OS call)
    // A unified-memory event: a migration of managed memory, a page fault, thrashing, throttling
    // or a remote map, on its GPU's (or the host's) unified-memory rows (UnifiedMemoryDetail).
    UnifiedMemory,
    // A framework's CPU operator on a host thread (the PyTorch profiler's "cpu_op", "Operator":
    // aten::mm, ...).
    CpuOp,
};
// The last kind: tables indexed by kind have kSliceKindCount entries.
inline constexpr SliceKind kLastSliceKind = SliceKind::CpuOp;
inline constexpr std::size_t kSliceKindCount = static_cast<std::size_t>(kLastSliceKind) + 1;

// Work the GPU does: kernels, copies and memsets.
inline bool isGpuWork(SliceKind kind) {
    return kind == SliceKind::Kernel || kind == SliceKind::Memcpy || kind == SliceKind::Memset;
}

inline constexpr std::uint32_t kNoDetail = std::numeric_limits<std::uint32_t>::max();

// Lanes a track may have (Slice::depth's range): 2^26, 67 million slices open at once on one
// track, 2.7 GB of slices on that track alone. A track that needs more is refused at finalize.
inline constexpr std::uint32_t kMaxLanes = std::uint32_t{1} << 26;

// One interval on a track. A small POD: per-kind details live in the Trace's side tables,
// indexed by detailIndex (kNoDetail when there are none).
struct Slice {
    TimeNs startNs = 0;
    TimeNs durationNs = 0;
    std::uint64_t correlationId =
        0;  // CUDA correlation id linking an API call to its GPU work; 0 = none
    StringId nameId = 0;
    std::uint32_t detailIndex = kNoDetail;
    // Lane within the track (nesting depth, or a spill lane), exact up to kMaxLanes; the lane,
    // kind and flags share four bytes so that a slice stays 40 bytes.
    std::uint32_t depth : 26 = 0;
    SliceKind kind : 4 = SliceKind::Other;
    std::uint32_t flags : 2 = 0;  // SliceFlags bits
    // The producer's args that the model has no field for (Kineto's "External id", "Input
    // Dims", ...), kept as written: Trace::extraArgs. In what was padding: no cost per slice.
    std::uint32_t argsIndex = kNoDetail;

    TimeNs endNs() const { return startNs + durationNs; }
};
static_assert(sizeof(Slice) == 40, "Slice grew: every trace pays for it, per slice");
static_assert(kSliceKindCount <= 16, "SliceKind outgrew Slice::kind's bits");

// What a host API call makes happen on a GPU, linked to the call by its correlation id: GPU work,
// and memory allocations and releases.
inline bool isCalledFromHost(SliceKind kind) {
    return isGpuWork(kind) || kind == SliceKind::Memory;
}

// Bits of Slice::flags.
enum SliceFlags : std::uint8_t {
    kSliceSpilled = 1u << 0,  // overlapped a sibling without nesting; moved to an extra lane
    // Spilled, but by design: it overlaps work of the same launch (nodes of one CUDA graph launch
    // run at once on their stream), so it is no warning.
    kSliceConcurrentInLaunch = 1u << 1,
    // (Slice::flags has two bits: a third flag takes one of depth's.)
};

// A spilled slice that says something is wrong (an overlap the producer should not have made).
inline bool unexpectedOverlap(const Slice& s) {
    return (s.flags & kSliceSpilled) != 0 && (s.flags & kSliceConcurrentInLaunch) == 0;
}

// Addresses a slice in a Trace: the track's index and the slice's index within that track.
struct SliceRef {
    std::uint32_t track = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t index = 0;

    bool valid() const { return track != std::numeric_limits<std::uint32_t>::max(); }
    friend bool operator==(const SliceRef&, const SliceRef&) = default;
    // By track, then index: the order flows are indexed in.
    friend auto operator<=>(const SliceRef&, const SliceRef&) = default;
};

}  // namespace wl::model
