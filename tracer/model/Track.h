#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/Details.h"
#include "model/Slice.h"
#include "model/StringTable.h"

namespace wl::model {

enum class TrackKind : std::uint8_t {
    HostApi,    // CUDA runtime/driver API calls of one host thread
    Nvtx,       // NVTX push/pop ranges and marks of one host thread (and domain)
    NvtxAsync,  // NVTX start/end ranges of one domain (may cross threads; overlaps allowed)
    GpuStream,  // kernels, copies and memsets of one stream of one device
    Sync,       // synchronisation waits attributed to one device
    Memory,     // device memory allocations and releases of one device (instants)
    Host,       // any other host-side track from an imported trace (CPU ops, Python)
    // Under a GPU: the span of the GPU work launched inside each NVTX range of one host thread
    // (the range's "GPU projection"). Made by finalize() from the launches, never exported.
    NvtxProjection,
    // Under a GPU, beside one stream: each CUDA graph launch on that stream as one slice, from the
    // start of its first node to the end of its last ("graph 2 · launch 3 of 5 · 4 nodes"). Made
    // by finalize() from the launch flows, never exported.
    GraphLaunches,
    // Unified-memory events of one kind (Track::unifiedMemoryKind): a GPU's migrations in one
    // direction, its page faults, ...; under the host process for what happens on the host (CPU
    // page faults). Overlaps allowed: the driver moves and faults in many pages at once.
    UnifiedMemory,
};

// Tracks finalize() makes from the other events: exports, merges and counts leave them out, and
// every reader makes them again.
inline bool isDerived(TrackKind kind) {
    return kind == TrackKind::NvtxProjection || kind == TrackKind::GraphLaunches;
}

using ProcessIndex = std::uint32_t;
using TrackIndex = std::uint32_t;

// Ids that no OS gives: the reader maps pids and tids written as names ("Spans", "PyTorch
// Profiler") to numbers from here on, so they never collide with a real id; the view shows the
// name, never the number.
inline constexpr std::int64_t kSyntheticIdBase = std::int64_t{1} << 40;
inline bool isSyntheticId(std::int64_t id) {
    return id >= kSyntheticIdBase;
}
// A thread id as people know it: Kineto writes some 32-bit thread ids as negative numbers
// (shown as the unsigned value); a synthetic id has no number to show ("").
std::string threadIdText(std::int64_t tid);

// A process row: a host process, or a GPU ("device process" in Chrome/Kineto terms).
struct Process {
    std::int64_t pid = 0;        // OS pid for hosts; the writer picks small ids for devices
    std::int32_t deviceId = -1;  // CUDA ordinal for a GPU process, -1 for a host process
    StringId nameId = 0;
    // GPU process of a trace that merges several traced processes: the pid of the process whose
    // GPU work it shows (ordinals are per process, so two processes' "GPU 0" stay two rows);
    // -1 in a trace of one process.
    std::int64_t ownerPid = -1;
    // The rank of the distributed job (torchrun, mpirun, Slurm) whose process this is, in a trace
    // that merges one trace per rank (io::loadRankJob); -1 in any other trace. Hosts and GPUs of
    // one rank share it, so "rank 3's rows" is every process with rank 3.
    std::int32_t rank = -1;
};

// Where an imported event was in the producer's file (a Chrome trace, a PyTorch profiler trace):
// its row and category as written. The model files events by what they are (a CUDA call on its
// thread's API row, a GPU annotation beside its stream); an export writes them back here, so that
// readers that match events by row (Holistic Trace Analysis) read the original.
struct SliceOrigin {
    std::int64_t pid = 0;  // synthetic ids (model::isSyntheticId) stand for names: Trace::idName
    std::int64_t tid = 0;
    StringId cat = 0;
    bool hasCat = false;     // some producers write events without a category
    bool pidQuoted = false;  // a number written as a string ("tid": "2662278912")
    bool tidQuoted = false;
    // An instant's scope as written ('g' global, 'p' process, 't' thread; 0 when none was).
    char scope = 0;
    bool known = false;  // false: the slice was not imported, or its trace was merged
};

// A row of slices. Slices are sorted by (depth, startNs): each lane is a contiguous run
// [laneBegin[d], laneBegin[d+1]) in which slices do not overlap, so a lane's visible slices are
// found by binary search on start (ends are sorted too).
struct Track {
    TrackKind kind = TrackKind::Host;
    ProcessIndex process = 0;
    std::int32_t deviceId = -1;  // GPU tracks: device ordinal; otherwise -1
    std::int64_t streamId = -1;  // GpuStream: CUDA stream id; otherwise -1
    std::int64_t threadId = -1;  // host tracks: OS thread id; otherwise -1
    StringId nameId = 0;         // display name ("Stream 13", "CUDA API (tid 4242)", ...)
    StringId domainId = 0;       // Nvtx/NvtxAsync: domain name ("" = default)
    std::int32_t sortIndex = 0;  // order within the process
    // UnifiedMemory: the kind of event the row holds; Unknown for any other track.
    UnifiedMemoryKind unifiedMemoryKind = UnifiedMemoryKind::Unknown;
    // Imported tracks: where the producer's file had the first of their slices (and every other
    // slice whose Trace::origin says nothing else).
    SliceOrigin origin;
    std::vector<Slice> slices;
    std::vector<std::uint32_t> laneBegin;  // size laneCount()+1

    std::uint32_t laneCount() const {
        return laneBegin.empty() ? 0 : static_cast<std::uint32_t>(laneBegin.size() - 1);
    }
    std::span<const Slice> lane(std::uint32_t depth) const {
        return {slices.data() + laneBegin[depth], slices.data() + laneBegin[depth + 1]};
    }
};

struct CounterSample {
    TimeNs timestampNs = 0;
    double value = 0.0;
};

// A time series (GPU metrics such as warp occupancy %, or Chrome "C" events). Each sample holds
// until the next one.
struct CounterTrack {
    ProcessIndex process = 0;
    std::int32_t deviceId = -1;
    StringId nameId = 0;                 // counter (Chrome event) name, e.g. "GPU metrics"
    StringId seriesId = 0;               // args key, e.g. "warp occupancy %"
    StringId unitId = 0;                 // "%" or ""
    std::vector<CounterSample> samples;  // sorted by time
    // Made by finalize() from the events (the launch queue), not recorded: exports leave it out
    // and every reader makes it again. Its description says how to read it ("" for none).
    bool derived = false;
    StringId descriptionId = 0;
};

// A directed link between two slices: the launching API call to its GPU work.
struct Flow {
    std::uint64_t id = 0;  // correlation id for launch flows
    SliceRef from;
    SliceRef to;
};

// One op waiting for another through a CUDA event: cudaEventRecord(e, A), then
// cudaStreamWaitEvent(B, e) or cudaEventSynchronize(e). `from` is the last GPU op queued on A
// before the record; `to` is the first GPU op queued on B after the wait, or the host's
// synchronising call; `via` is the synchronisation slice that names the event.
struct Dependency {
    SliceRef from;
    SliceRef to;
    SliceRef via;
};

}  // namespace wl::model
