#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "model/Trace.h"
#include "model/passes/FinalizeState.h"

namespace wl::model {

struct FinalizePass;

// Collects events in any order, in any clock, then finalize() turns them into an immutable Trace:
// orders processes and tracks, rebases times to the earliest event, assigns depth lanes (nesting;
// overlaps that do not nest are spilled to extra lanes and counted), resolves flows from
// correlation ids and from explicit flow endpoints, makes the derived rows and fills counts, as a
// list of named passes (model/passes/Passes.h). Single-threaded; not reusable after finalize().
class TraceBuilder {
public:
    TraceBuilder();
    TraceBuilder(const TraceBuilder&) = delete;
    TraceBuilder& operator=(const TraceBuilder&) = delete;

    StringId intern(std::string_view text) { return m_trace->m_strings.intern(text); }

    // Processes and tracks are created on first use and found again by their key. Host
    // processes are keyed by (rank, pid): two ranks of a job on two hosts may have the same pid
    // and still stay two processes; `rank` -1, the default, is a trace of no job (Process::rank).
    ProcessIndex hostProcess(std::int64_t pid, std::string_view name = {}, std::int32_t rank = -1);
    // GPU processes are keyed by (rank, ordinal, owner): `ownerPid` >= 0 keeps the GPU work of one
    // traced process apart from another's on the same ordinal (a merged trace); -1, the default,
    // is the one GPU process per ordinal of a single-process trace.
    ProcessIndex gpuProcess(std::int32_t deviceId, std::string_view name = {},
                            std::int64_t ownerPid = -1, std::int32_t rank = -1);
    void setProcessName(ProcessIndex process, std::string_view name);

    TrackIndex hostApiTrack(ProcessIndex process, std::int64_t threadId);
    TrackIndex nvtxTrack(ProcessIndex process, std::int64_t threadId, std::string_view domain = {});
    TrackIndex nvtxAsyncTrack(ProcessIndex process, std::string_view domain = {});
    TrackIndex gpuStreamTrack(ProcessIndex gpuProcessIndex, std::int64_t streamId);
    TrackIndex syncTrack(ProcessIndex gpuProcessIndex);
    TrackIndex memoryTrack(ProcessIndex gpuProcessIndex);
    // A GPU's (or, for events on the host such as CPU page faults, a host process's) row of
    // unified-memory events of one kind.
    TrackIndex unifiedMemoryTrack(ProcessIndex process, UnifiedMemoryKind kind);
    TrackIndex hostTrack(ProcessIndex process, std::int64_t threadId);
    // Display name and order override (defaults are derived from the key).
    void setTrackName(TrackIndex track, std::string_view name);
    void setTrackSortIndex(TrackIndex track, std::int32_t sortIndex);

    // Slices. Times are in the producer's clock (ns); end < start is clamped to start and counted
    // as an invalid timestamp. Each returns the slice's provisional index (valid until finalize).
    void addKernel(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                   std::uint64_t correlationId, const KernelDetail& detail);
    void addMemcpy(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                   std::uint64_t correlationId, const MemcpyDetail& detail);
    void addMemset(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                   std::uint64_t correlationId, const MemsetDetail& detail);
    // A device memory allocation or release: an instant on a memory track.
    void addMemory(TrackIndex track, TimeNs timestampNs, std::string_view name,
                   std::uint64_t correlationId, const MemoryDetail& detail);
    void addSync(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                 std::uint64_t correlationId, const SyncDetail& detail);
    void addApi(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                std::uint64_t correlationId, const ApiDetail& detail);
    void addNvtx(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                 const NvtxDetail& detail);
    // A migration or page fault of managed memory (an instant when end == start).
    void addUnifiedMemory(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                          const UnifiedMemoryDetail& detail);
    // Any other slice (overhead, instants, imported host slices).
    void addSlice(TrackIndex track, TimeNs startNs, TimeNs endNs, std::string_view name,
                  SliceKind kind, std::uint64_t correlationId = 0);
    // Same, with an already-interned name (fast path for importers).
    void addSliceId(TrackIndex track, TimeNs startNs, TimeNs endNs, StringId name, SliceKind kind,
                    std::uint64_t correlationId, std::uint32_t detailIndex);
    // Keeps a producer's args the model has no field for with the slice last added to `track`
    // (JSON object members, see Trace::extraArgs).
    void setLastSliceExtraArgs(TrackIndex track, std::string_view members);
    // The same for an imported slice: where it was in the producer's file (Trace::origin; null
    // when that is not kept) and its args, those the model has fields for as the producer wrote
    // them (Trace::producerArgs) and the others. One call per slice: they are stored together.
    void setLastSliceProducer(TrackIndex track, const SliceOrigin* origin,
                              std::string_view modelMembers, std::string_view extraMembers);
    // The producer's name for a synthetic pid or tid (Trace::idName).
    void setIdName(std::int64_t id, std::string name);
    // One of the producer's events the model has no place for, as a JSON object
    // (Trace::keptEvents).
    void addKeptEvent(std::string_view json);
    void setDistributedInfo(std::string json) { m_trace->m_distributedInfo = std::move(json); }
    // Side-table appends for the fast path; return the detail index.
    std::uint32_t addKernelDetail(const KernelDetail& d);
    std::uint32_t addMemcpyDetail(const MemcpyDetail& d);
    std::uint32_t addMemsetDetail(const MemsetDetail& d);
    std::uint32_t addMemoryDetail(const MemoryDetail& d);
    std::uint32_t addSyncDetail(const SyncDetail& d);
    std::uint32_t addApiDetail(const ApiDetail& d);
    std::uint32_t addNvtxDetail(const NvtxDetail& d);
    std::uint32_t addUnifiedMemoryDetail(const UnifiedMemoryDetail& d);

    // Counters.
    std::uint32_t counterTrack(ProcessIndex process, std::string_view name, std::string_view series,
                               std::string_view unit = {});
    void addCounterSample(std::uint32_t counter, TimeNs timestampNs, double value);
    // Marks a counter as made from other events by every reader (CounterTrack::derived): exports
    // leave it out. `description` says how to read it.
    void setCounterDerived(std::uint32_t counter, std::string_view description);

    // An explicit flow between the slices that enclose (track, time) at each end; resolved at
    // finalize() (the innermost slice with start <= t <= end; an unresolved end is a warning).
    // Launch flows need no call: an API slice and a GPU slice with the same correlation id in
    // the same host process are linked automatically.
    void addFlow(std::uint64_t id, TrackIndex fromTrack, TimeNs fromNs, TrackIndex toTrack,
                 TimeNs toNs);
    // The inverse for a finished track: a time at which addFlow binds to `slice` (the earliest
    // instant of it that no slice of a deeper lane covers; its start is wrong when a child
    // starts with it). nullopt when its children cover all of it. For writers of flow events
    // and for copying flows from one trace into another.
    static std::optional<TimeNs> flowAnchorNs(const Track& track, const Slice& slice);

    void addDevice(const DeviceProperties& properties);  // replaces one with the same id
    void setMetadata(std::string key, std::string value);
    // A capture window in the producer's clock (rebased with the events at finalize(); windows are
    // sorted and overlapping ones merged).
    void addCaptureWindow(TimeNs startNs, TimeNs endNs);
    // The producer's clock value of time zero when the events are already rebased (import of a
    // trace that carried "baseTimeNanoseconds"); the origin becomes base + earliest event.
    void setBaseTimeNs(TimeNs baseNs) { m_baseTimeNs = baseNs; }
    // Keep time values as given (origin = base) instead of rebasing to the earliest event.
    void setKeepTimes(bool keep) { m_keepTimes = keep; }
    Diagnostics& diagnostics() { return m_trace->m_diagnostics; }

    // What was added so far, before finalize(): tracks unsorted, times in the producer's clock.
    // For producers that decide what to keep from the events themselves (a capture range).
    const Trace& pending() const { return *m_trace; }
    // Keeps only what lies in `windows` (producer clock): slices that overlap one, GPU work
    // launched by a kept call (same correlation id, so work queued inside a window and run after
    // it stays), and counter samples inside one (plus the sample in force at each window's
    // start). Returns how many slices were removed. Call before finalize(). For one traced
    // process's builder (the tracer's): correlation ids are matched across all of its tracks.
    std::uint64_t keepWithin(std::span<const TimeRange> windows);

    std::size_t sliceCount() const { return m_sliceCount; }
    std::shared_ptr<const Trace> finalize();
    // The same, looking at `cancel` (when not null) before each pass: once it is set, the passes
    // stop and the result is null (what was built goes with the builder).
    std::shared_ptr<const Trace> finalizeUnlessCancelled(const std::atomic<bool>* cancel);
    // Runs only `passes`, in order, on what was added (tests of one pass; finalize() runs
    // finalizePasses()).
    std::shared_ptr<const Trace> finalize(std::span<const FinalizePass> passes);

private:
    std::shared_ptr<const Trace> runPasses(std::span<const FinalizePass> passes,
                                           const std::atomic<bool>* cancel);
    TrackIndex trackFor(TrackKind kind, ProcessIndex process, std::int64_t key, StringId domain);
    void push(TrackIndex track, TimeNs startNs, TimeNs endNs, StringId name, SliceKind kind,
              std::uint64_t correlationId, std::uint32_t detailIndex);

    std::shared_ptr<Trace> m_trace;
    std::map<std::tuple<int, std::uint32_t, std::int64_t, StringId>, TrackIndex> m_trackIndex;
    std::map<std::pair<std::int32_t, std::int64_t>, ProcessIndex> m_hostProcessIndex;  // rank, pid
    // rank, ordinal, owner
    std::map<std::tuple<std::int32_t, std::int32_t, std::int64_t>, ProcessIndex> m_gpuProcessIndex;
    std::map<std::tuple<ProcessIndex, StringId, StringId>, std::uint32_t> m_counterIndex;
    std::vector<PendingFlow> m_pendingFlows;
    // Trace::m_origins' entries, to find one again (most slices share a few).
    std::map<std::tuple<std::int64_t, std::int64_t, StringId, int>, std::uint32_t> m_originIndex;
    std::string m_argsScratch;
    TimeNs m_baseTimeNs = 0;
    bool m_keepTimes = false;
    bool m_finalized = false;
    std::size_t m_sliceCount = 0;
};

}  // namespace wl::model
