#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/Details.h"
#include "model/DeviceProperties.h"
#include "model/Diagnostics.h"
#include "model/PackedTexts.h"
#include "model/Slice.h"
#include "model/StringTable.h"
#include "model/Track.h"

namespace wl::model {

class TraceBuilder;
class FinalizeState;

// Counts by kind, computed once at finalize().
struct TraceCounts {
    std::uint64_t kernel = 0;
    std::uint64_t memcpy = 0;
    std::uint64_t memset = 0;
    std::uint64_t memory = 0;         // device memory allocations and releases
    std::uint64_t unifiedMemory = 0;  // migrations, page faults, ... of managed memory
    std::uint64_t sync = 0;
    std::uint64_t api = 0;  // runtime + driver
    std::uint64_t nvtx = 0;
    std::uint64_t cpuOp = 0;  // a framework's CPU operators (SliceKind::CpuOp)
    std::uint64_t other = 0;  // overhead, instants, other imported host slices
    std::uint64_t counterSamples = 0;
    std::uint64_t flows = 0;
    std::uint64_t dependencies = 0;
    std::uint64_t slices = 0;  // all slices
};

// Heap bytes of one part of a Trace (Trace::memoryParts).
struct MemoryPart {
    const char* what;
    std::size_t bytes;
};

// An immutable trace: built by TraceBuilder::finalize(), then shared read-only as
// std::shared_ptr<const Trace> between threads (no locks on the render path). All times are
// nanoseconds since the origin (the earliest event); originNs is that origin in the producer's
// clock, kept so exports can say when the trace was taken.
class Trace {
public:
    const StringTable& strings() const { return m_strings; }
    std::string_view str(StringId id) const { return m_strings.get(id); }

    std::span<const Process> processes() const { return m_processes; }
    std::span<const Track> tracks() const { return m_tracks; }
    std::span<const CounterTrack> counters() const { return m_counters; }
    std::span<const Flow> flows() const { return m_flows; }
    std::span<const DeviceProperties> devices() const { return m_devices; }
    const DeviceProperties* device(std::int32_t id) const;

    const Slice& slice(SliceRef ref) const { return m_tracks[ref.track].slices[ref.index]; }
    const Track& track(TrackIndex index) const { return m_tracks[index]; }

    std::span<const KernelDetail> kernelDetails() const { return m_kernels; }
    std::span<const MemcpyDetail> memcpyDetails() const { return m_memcpys; }
    std::span<const MemsetDetail> memsetDetails() const { return m_memsets; }
    std::span<const MemoryDetail> memoryDetails() const { return m_memories; }
    std::span<const SyncDetail> syncDetails() const { return m_syncs; }
    std::span<const ApiDetail> apiDetails() const { return m_apis; }
    std::span<const NvtxDetail> nvtxDetails() const { return m_nvtx; }
    std::span<const UnifiedMemoryDetail> unifiedMemoryDetails() const { return m_unifiedMemory; }

    // Detail of a slice of the matching kind, or nullptr.
    const KernelDetail* kernel(const Slice& s) const;
    const MemcpyDetail* memcpy(const Slice& s) const;
    const MemsetDetail* memset(const Slice& s) const;
    const MemoryDetail* memory(const Slice& s) const;
    const SyncDetail* sync(const Slice& s) const;
    const ApiDetail* api(const Slice& s) const;
    const NvtxDetail* nvtx(const Slice& s) const;
    const UnifiedMemoryDetail* unifiedMemory(const Slice& s) const;
    // The CUDA graph node that ran a kernel, copy or memset (nullptr for any other slice; graph id
    // 0 when it was not launched from a graph).
    const GraphNode* graphNode(const Slice& s) const;

    // The producer's args of an imported slice that the model has no field for, as JSON object
    // members ("External id":12,"Input Dims":[[64,64]]), values byte for byte as the file
    // wrote them; empty when there are none. Export writes them back. Kept packed (PackedTexts):
    // each call decodes them.
    std::string extraArgs(const Slice& s) const;
    // All the args an imported slice had in its file, as JSON object members: those the model
    // has fields for, as written, and extraArgs (empty when it had none).
    std::string producerArgs(const Slice& s) const;
    // The row and category an imported slice of `track` had in its file (nullptr when there is
    // none: slices Warpline recorded or made, and any slice of a merged trace).
    const SliceOrigin* origin(const Track& track, const Slice& s) const;
    bool hasOrigins() const { return m_hasOrigins; }
    // The name a producer gave as a pid or tid where the model has a synthetic id ("Traces",
    // "stream 7"); empty for any other id.
    std::string_view idName(std::int64_t id) const;
    // An imported trace's events the model has no place for, as the producer wrote them (one JSON
    // object each): its metadata events and its flow events, written back by an export of the
    // same trace. Empty for traces recorded or merged here.
    const PackedTexts& keptEvents() const { return m_keptEvents; }
    // The producer's "distributedInfo" object as written (empty when it had none).
    std::string_view distributedInfo() const { return m_distributedInfo; }
    // The clock value the producer's times counted from ("baseTimeNanoseconds", else 0): an export
    // of slices with origins writes their times as the producer did.
    TimeNs producerBaseNs() const { return m_producerBaseNs; }

    // Flows that end at / start from a slice (launch arrows), via an index built at finalize().
    const Flow* flowTo(SliceRef ref) const;
    const Flow* flowFrom(SliceRef ref) const;
    // Every flow that starts at `ref`, in order (a graph launch has one to each node it ran).
    std::vector<const Flow*> flowsFrom(SliceRef ref) const;

    // Waits of one op for another through CUDA events, sorted by `to` (built at finalize() from
    // the synchronisation slices that name their event's record; see SyncDetail).
    std::span<const Dependency> dependencies() const { return m_dependencies; }
    // The dependencies that end at `ref` (what it waited for) and that start at it (what waited
    // for it).
    std::span<const Dependency> dependenciesTo(SliceRef ref) const;
    std::vector<Dependency> dependenciesFrom(SliceRef ref) const;

    const Diagnostics& diagnostics() const { return m_diagnostics; }
    // Free-form facts about the run: "producer", "workload", "mode", "streams", "pinned", ...
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }
    std::string metadataValue(const std::string& key, const std::string& fallback = {}) const;

    // The parts of the run the user asked to record (cudaProfilerStart/Stop, an NVTX capture range,
    // `record --delay/--duration`), in start order; empty when the whole run was recorded. Analysis
    // uses them as its default window.
    std::span<const TimeRange> captureWindows() const { return m_captureWindows; }

    TimeNs originNs() const { return m_originNs; }
    TimeNs spanNs() const { return m_spanNs; }  // end of the last event, from the origin
    const TraceCounts& counts() const { return m_counts; }

    // Heap bytes held by the trace (for the bytes-per-slice figure), and by part.
    std::size_t memoryBytes() const;
    std::vector<MemoryPart> memoryParts() const;

private:
    friend class TraceBuilder;
    friend class FinalizeState;  // finalize()'s passes
    Trace() = default;

    StringTable m_strings;
    std::vector<Process> m_processes;
    std::vector<Track> m_tracks;
    std::vector<CounterTrack> m_counters;
    std::vector<Flow> m_flows;
    std::vector<DeviceProperties> m_devices;
    std::vector<KernelDetail> m_kernels;
    std::vector<MemcpyDetail> m_memcpys;
    std::vector<MemsetDetail> m_memsets;
    std::vector<MemoryDetail> m_memories;
    std::vector<SyncDetail> m_syncs;
    std::vector<ApiDetail> m_apis;
    std::vector<NvtxDetail> m_nvtx;
    std::vector<UnifiedMemoryDetail> m_unifiedMemory;
    // Slice::argsIndex -> its producer's args (the model's members, a comma when both are there,
    // then the others) with two heads: kArgsOrigin, the slice's origin in m_origins plus one when
    // it is not its track's (Track::origin), else 0; kArgsModelBytes, the bytes of the model's
    // members and their comma (producerArgs less extraArgs).
    PackedTexts m_args;
    static constexpr unsigned kArgsOrigin = 0;
    static constexpr unsigned kArgsModelBytes = 1;
    std::vector<SliceOrigin> m_origins;  // each distinct origin once
    bool m_hasOrigins = false;
    std::map<std::int64_t, std::string> m_idNames;
    PackedTexts m_keptEvents;
    std::string m_distributedInfo;
    TimeNs m_producerBaseNs = 0;
    std::vector<std::uint32_t> m_flowToIndex;    // flows sorted by `to`, indices into m_flows
    std::vector<std::uint32_t> m_flowFromIndex;  // flows sorted by `from`
    std::vector<Dependency> m_dependencies;
    Diagnostics m_diagnostics;
    std::map<std::string, std::string> m_metadata;
    std::vector<TimeRange> m_captureWindows;
    TimeNs m_originNs = 0;
    TimeNs m_spanNs = 0;
    TraceCounts m_counts;
};

using TracePtr = std::shared_ptr<const Trace>;

// Whether a process holds GPU work of its own: a kernel, copy or memset on one of its streams. A
// GPU that a process only made a CUDA context or allocations on (a rank of a job whose work ran
// on another GPU) holds none, and is no idle device.
bool holdsGpuWork(const Trace& trace, ProcessIndex process);

}  // namespace wl::model
