#include "model/TraceMerge.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/Derived.h"
#include "model/TraceBuilder.h"

namespace wl::model {

namespace {

constexpr StringId kUnmapped = std::numeric_limits<StringId>::max();

std::optional<std::int64_t> parsePid(const std::string& text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

// What one input contributes, decided before anything is added.
struct InputPlan {
    const Trace* trace = nullptr;
    std::string label;
    std::string metadataPrefix;            // "process K." or "rank R."
    std::int32_t rank = -1;                // of a distributed job's trace; -1: none
    TimeNs shiftNs = 0;                    // input time + shift = time in the merged builder
    std::uint64_t correlationOffset = 0;   // added to every non-zero correlation and flow id
    std::optional<std::int64_t> ownerPid;  // the traced process's pid, when the trace says
};

std::string defaultLabel(const Trace& trace, std::size_t index) {
    for (const Process& p : trace.processes()) {
        if (p.deviceId < 0 && !trace.str(p.nameId).empty())
            return std::string(trace.str(p.nameId));
    }
    return "trace " + std::to_string(index + 1);
}

// The pid of the process an input traced: `record` writes it into the metadata; otherwise the
// trace's first host process (hosts come first, by pid).
std::optional<std::int64_t> tracedPid(const Trace& trace) {
    if (auto pid = parsePid(trace.metadataValue("pid")))
        return pid;
    for (const Process& p : trace.processes()) {
        if (p.deviceId < 0 && p.pid >= 0)
            return p.pid;
    }
    return std::nullopt;
}

// The largest correlation id of a trace: the next input's ids start above it. (Flow ids of other
// producers can be any 64-bit value, hashes included: they do not count.)
std::uint64_t maxCorrelationId(const Trace& trace) {
    std::uint64_t most = 0;
    for (const Track& track : trace.tracks()) {
        for (const Slice& s : track.slices)
            most = std::max(most, s.correlationId);
    }
    return most;
}

// Device properties by ordinal. Processes of one run see the same GPUs unless
// CUDA_VISIBLE_DEVICES differs between them; then one ordinal names two GPUs and only one set of
// properties can be kept per ordinal: say so rather than pick silently.
void mergeDevice(std::vector<std::pair<DeviceProperties, std::string>>& devices,
                 const DeviceProperties& d, const std::string& label, Diagnostics& diagnostics) {
    auto it = std::find_if(devices.begin(), devices.end(),
                           [&](const auto& kept) { return kept.first.id == d.id; });
    if (it == devices.end()) {
        devices.emplace_back(d, label);
        return;
    }
    DeviceProperties& kept = it->first;
    const auto differ = [](const std::string& a, const std::string& b) {
        return !a.empty() && !b.empty() && a != b;
    };
    if (differ(kept.uuid, d.uuid) || differ(kept.pciBusId, d.pciBusId) ||
        differ(kept.name, d.name)) {
        const auto describe = [](const DeviceProperties& p) {
            return p.name + (p.uuid.empty() ? "" : " " + p.uuid) +
                   (p.pciBusId.empty() ? "" : " " + p.pciBusId);
        };
        diagnostics.warn(label + ": device " + std::to_string(d.id) + " is " + describe(d) +
                         " there but " + describe(kept) + " in " + it->second +
                         "; the properties of the latter are kept");
        return;
    }
    // A trace that never saw the device's properties (zero means unknown) gives way to one that
    // did.
    if (kept.smCount == 0 && d.smCount != 0) {
        kept = d;
        it->second = label;
    }
}

// Copies one input into the builder.
class InputCopier {
public:
    InputCopier(TraceBuilder& builder, const InputPlan& plan, std::int64_t ownerPid)
        : m_b(builder), m_plan(plan), m_in(*plan.trace), m_ownerPid(ownerPid) {
        m_names.assign(m_in.strings().size(), kUnmapped);
    }

    void copy() {
        copyDetails();
        copyProcesses();
        copyTracks();
        copyCounters();
        copyFlows();
        for (const TimeRange& w : m_in.captureWindows())
            m_b.addCaptureWindow(w.startNs + m_plan.shiftNs, w.endNs + m_plan.shiftNs);
    }

    std::uint64_t misplacedFlows() const { return m_misplacedFlows; }

private:
    StringId name(StringId id) {
        StringId& mapped = m_names[id];
        if (mapped == kUnmapped)
            mapped = m_b.intern(m_in.str(id));
        return mapped;
    }

    std::uint64_t correlation(std::uint64_t id) const {
        return id == 0 ? 0 : id + m_plan.correlationOffset;
    }
    // Flow ids move with the correlation ids, so a flow whose id is its ends' correlation id
    // stays so; one too large to move keeps its id (ids only need to be unique per file, and the
    // writer renumbers duplicates).
    std::uint64_t flowId(std::uint64_t id) const {
        std::uint64_t moved = 0;
        if (id == 0 || __builtin_add_overflow(id, m_plan.correlationOffset, &moved))
            return id;
        return moved;
    }

    // Side tables are appended whole (unreferenced rows too): a slice's detail index just moves
    // by the table's size before this input.
    void copyDetails() {
        const Trace& merged = m_b.pending();
        m_kernelBase = static_cast<std::uint32_t>(merged.kernelDetails().size());
        m_memcpyBase = static_cast<std::uint32_t>(merged.memcpyDetails().size());
        m_memsetBase = static_cast<std::uint32_t>(merged.memsetDetails().size());
        m_memoryBase = static_cast<std::uint32_t>(merged.memoryDetails().size());
        m_syncBase = static_cast<std::uint32_t>(merged.syncDetails().size());
        m_apiBase = static_cast<std::uint32_t>(merged.apiDetails().size());
        m_nvtxBase = static_cast<std::uint32_t>(merged.nvtxDetails().size());
        m_unifiedMemoryBase = static_cast<std::uint32_t>(merged.unifiedMemoryDetails().size());
        for (const auto& d : m_in.kernelDetails())
            m_b.addKernelDetail(d);
        for (const auto& d : m_in.memcpyDetails())
            m_b.addMemcpyDetail(d);
        for (const auto& d : m_in.memsetDetails())
            m_b.addMemsetDetail(d);
        for (const auto& d : m_in.memoryDetails())
            m_b.addMemoryDetail(d);
        for (SyncDetail d : m_in.syncDetails()) {
            d.recordCorrelationId = correlation(d.recordCorrelationId);
            m_b.addSyncDetail(d);
        }
        for (ApiDetail d : m_in.apiDetails()) {
            d.versionedNameId = d.versionedNameId != 0 ? name(d.versionedNameId) : 0;
            m_b.addApiDetail(d);
        }
        for (NvtxDetail d : m_in.nvtxDetails()) {
            d.domainId = name(d.domainId);
            d.categoryNameId = name(d.categoryNameId);
            m_b.addNvtxDetail(d);
        }
        for (const auto& d : m_in.unifiedMemoryDetails())
            m_b.addUnifiedMemoryDetail(d);
    }

    std::uint32_t detail(const Slice& s) const {
        if (s.detailIndex == kNoDetail)
            return kNoDetail;
        switch (s.kind) {
            case SliceKind::Kernel:
                return m_kernelBase + s.detailIndex;
            case SliceKind::Memcpy:
                return m_memcpyBase + s.detailIndex;
            case SliceKind::Memset:
                return m_memsetBase + s.detailIndex;
            case SliceKind::Memory:
                return m_memoryBase + s.detailIndex;
            case SliceKind::Sync:
                return m_syncBase + s.detailIndex;
            case SliceKind::RuntimeApi:
            case SliceKind::DriverApi:
                return m_apiBase + s.detailIndex;
            case SliceKind::Nvtx:
                return m_nvtxBase + s.detailIndex;
            case SliceKind::UnifiedMemory:
                return m_unifiedMemoryBase + s.detailIndex;
            case SliceKind::Overhead:
            case SliceKind::Instant:
            case SliceKind::Other:
            case SliceKind::CpuOp:
                break;
        }
        return kNoDetail;  // kinds without a side table
    }

    void copyProcesses() {
        for (const Process& p : m_in.processes()) {
            // A process that already has a rank (a merged job merged again) keeps it and its name.
            const std::int32_t rank = p.rank >= 0 ? p.rank : m_plan.rank;
            const bool named = p.rank >= 0 || m_plan.rank < 0;
            if (p.deviceId < 0) {
                std::string hostName(m_in.str(p.nameId));
                if (!named)
                    hostName = "rank " + std::to_string(m_plan.rank) + " · " + hostName;
                m_processes.push_back(m_b.hostProcess(p.pid, hostName, rank));
                continue;
            }
            if (p.ownerPid >= 0) {  // already named after its owner (a merged trace merged again)
                m_processes.push_back(
                    m_b.gpuProcess(p.deviceId, m_in.str(p.nameId), p.ownerPid, rank));
                continue;
            }
            std::string gpuName(m_in.str(p.nameId));
            const std::string plain = "GPU " + std::to_string(p.deviceId);
            if (gpuName.empty())
                gpuName = plain;
            if (const DeviceProperties* d = m_in.device(p.deviceId);
                gpuName == plain && d && !d->name.empty()) {
                gpuName += " (" + d->name + ")";
            }
            // Whose work it is first: a narrow row header keeps the start of a name.
            gpuName = m_plan.label + " · " + gpuName;
            m_processes.push_back(m_b.gpuProcess(p.deviceId, gpuName, m_ownerPid, rank));
        }
    }

    void copyTracks() {
        const auto tracks = m_in.tracks();
        m_tracks.reserve(tracks.size());
        for (const Track& t : tracks) {
            const ProcessIndex p = m_processes[t.process];
            const std::string_view domain = m_in.str(t.domainId);
            TrackIndex track = 0;
            switch (t.kind) {
                case TrackKind::HostApi:
                    track = m_b.hostApiTrack(p, t.threadId);
                    break;
                case TrackKind::Nvtx:
                    track = m_b.nvtxTrack(p, t.threadId, domain);
                    break;
                case TrackKind::NvtxAsync:
                    track = m_b.nvtxAsyncTrack(p, domain);
                    break;
                case TrackKind::GpuStream:
                    track = m_b.gpuStreamTrack(p, t.streamId);
                    break;
                case TrackKind::Sync:
                    track = m_b.syncTrack(p);
                    break;
                case TrackKind::Memory:
                    track = m_b.memoryTrack(p);
                    break;
                case TrackKind::Host:
                    track = m_b.hostTrack(p, t.threadId);
                    break;
                case TrackKind::UnifiedMemory:
                    track = m_b.unifiedMemoryTrack(p, t.unifiedMemoryKind);
                    break;
                case TrackKind::NvtxProjection:
                case TrackKind::GraphLaunches:
                    break;  // the merged trace makes its own
            }
            if (isDerived(t.kind)) {
                m_tracks.push_back(std::numeric_limits<TrackIndex>::max());  // no flow ends here
                continue;
            }
            m_b.setTrackName(track, m_in.str(t.nameId));
            m_b.setTrackSortIndex(track, t.sortIndex);
            m_tracks.push_back(track);
            // Lane by lane, so slices with equal intervals arrive outer first, as the input's
            // builder saw them: lanes come out the same.
            for (const Slice& s : t.slices) {
                const TimeNs start = s.startNs + m_plan.shiftNs;
                m_b.addSliceId(track, start, start + s.durationNs, name(s.nameId), s.kind,
                               correlation(s.correlationId), detail(s));
                m_b.setLastSliceExtraArgs(track, m_in.extraArgs(s));
            }
        }
    }

    void copyCounters() {
        for (const CounterTrack& c : m_in.counters()) {
            if (c.derived)
                continue;  // the merged trace makes its own
            const std::uint32_t counter =
                m_b.counterTrack(m_processes[c.process], m_in.str(c.nameId), m_in.str(c.seriesId),
                                 m_in.str(c.unitId));
            for (const CounterSample& sample : c.samples)
                m_b.addCounterSample(counter, sample.timestampNs + m_plan.shiftNs, sample.value);
        }
    }

    void copyFlows() {
        for (const Flow& f : m_in.flows()) {
            if (isCorrelationFlow(m_in, f))
                continue;  // rebuilt from the (shifted) correlation ids
            const auto from =
                TraceBuilder::flowAnchorNs(m_in.track(f.from.track), m_in.slice(f.from));
            const auto to = TraceBuilder::flowAnchorNs(m_in.track(f.to.track), m_in.slice(f.to));
            if (!from || !to)
                ++m_misplacedFlows;
            m_b.addFlow(flowId(f.id), m_tracks[f.from.track],
                        from.value_or(m_in.slice(f.from).startNs) + m_plan.shiftNs,
                        m_tracks[f.to.track],
                        to.value_or(m_in.slice(f.to).startNs) + m_plan.shiftNs);
        }
    }

    TraceBuilder& m_b;
    const InputPlan& m_plan;
    const Trace& m_in;
    std::int64_t m_ownerPid;
    std::vector<StringId> m_names;  // input string id -> merged string id
    std::vector<ProcessIndex> m_processes;
    std::vector<TrackIndex> m_tracks;
    std::uint32_t m_kernelBase = 0;
    std::uint32_t m_memcpyBase = 0;
    std::uint32_t m_memsetBase = 0;
    std::uint32_t m_syncBase = 0;
    std::uint32_t m_apiBase = 0;
    std::uint32_t m_nvtxBase = 0;
    std::uint32_t m_unifiedMemoryBase = 0;
    std::uint32_t m_memoryBase = 0;
    std::uint64_t m_misplacedFlows = 0;
};

// Adds an input's diagnostics to the merged ones. Spilled overlaps (and their warning, one per
// track) are left out: the builder finds the same spills again when it lays the slices out.
void addDiagnostics(Diagnostics& out, const Trace& in, const std::string& label) {
    std::uint64_t spilledSlices = 0;
    std::uint64_t spilledTracks = 0;
    std::vector<std::string> warnings = in.diagnostics().warnings;
    for (const Track& t : in.tracks()) {
        std::uint64_t spilled = 0;
        for (const Slice& s : t.slices)
            spilled += unexpectedOverlap(s) ? 1 : 0;
        if (spilled == 0)
            continue;
        spilledSlices += spilled;
        ++spilledTracks;
        const std::string message = spilledOverlapWarning(spilled, in.str(t.nameId));
        if (auto it = std::find(warnings.begin(), warnings.end(), message); it != warnings.end())
            warnings.erase(it);
    }
    const Diagnostics& d = in.diagnostics();
    out.droppedRecords += d.droppedRecords;
    out.invalidTimestamps += d.invalidTimestamps;
    out.spilledOverlaps += d.spilledOverlaps - std::min(d.spilledOverlaps, spilledSlices);
    out.unknownPhases += d.unknownPhases;
    out.unmatchedEnds += d.unmatchedEnds;
    out.unknownRecords += d.unknownRecords;
    out.truncatedStrings += d.truncatedStrings;
    out.skippedEvents += d.skippedEvents;
    out.warningCount += d.warningCount - std::min(d.warningCount, spilledTracks);
    for (const std::string& w : warnings) {
        if (out.warnings.size() < Diagnostics::kMaxMessages)
            out.warnings.push_back(label + ": " + w);
    }
    out.noteCount += d.noteCount;
    for (const std::string& n : d.notes) {
        if (out.notes.size() < Diagnostics::kMaxMessages)
            out.notes.push_back(label + ": " + n);
    }
}

// Facts every input agrees on stay as they are ("producer", "host", ...); the others, such as
// each process's "pid", "rank" or "command", are kept per input as "process K.<key>" (or
// "rank R.<key>"). Then the facts about the merge itself.
void mergeMetadata(TraceBuilder& b, const std::vector<InputPlan>& plans,
                   const std::map<std::string, std::string>& mergeFacts) {
    std::set<std::string> keys;
    for (const InputPlan& plan : plans) {
        for (const auto& [key, value] : plan.trace->metadata())
            keys.insert(key);
    }
    for (const std::string& key : keys) {
        const auto& first = plans.front().trace->metadata();
        const auto firstIt = first.find(key);
        const bool agreed = firstIt != first.end() &&
                            std::all_of(plans.begin(), plans.end(), [&](const InputPlan& plan) {
                                const auto& m = plan.trace->metadata();
                                const auto it = m.find(key);
                                return it != m.end() && it->second == firstIt->second;
                            });
        if (agreed) {
            b.setMetadata(key, firstIt->second);
            continue;
        }
        for (const InputPlan& plan : plans) {
            const auto& m = plan.trace->metadata();
            if (const auto it = m.find(key); it != m.end())
                b.setMetadata(plan.metadataPrefix + key, it->second);
        }
    }
    std::string labels;
    for (const InputPlan& plan : plans) {
        labels += (labels.empty() ? "" : "; ") + plan.label;
        b.setMetadata(plan.metadataPrefix + "label", plan.label);
        if (plan.correlationOffset != 0) {
            b.setMetadata(plan.metadataPrefix + "correlation offset",
                          std::to_string(plan.correlationOffset));
        }
    }
    b.setMetadata("merged processes", labels);
    for (const auto& [key, value] : mergeFacts)
        b.setMetadata(key, value);
}

}  // namespace

Result<TracePtr> mergeTraces(std::vector<MergeInput> inputs,
                             const std::map<std::string, std::string>& metadata) {
    if (inputs.empty())
        return Error{"no traces to merge"};
    const std::size_t digits = std::to_string(inputs.size()).size();
    std::vector<InputPlan> plans;
    plans.reserve(inputs.size());
    std::map<std::int32_t, std::string> rankHolders;  // rank -> label of the input that is it
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i].trace) {
            return Error{"trace " + std::to_string(i + 1) +
                         (inputs[i].label.empty() ? "" : " (" + inputs[i].label + ")") +
                         " to merge is missing"};
        }
        InputPlan plan;
        plan.trace = inputs[i].trace.get();
        plan.label = inputs[i].label.empty() ? defaultLabel(*plan.trace, i) : inputs[i].label;
        std::string number = std::to_string(i + 1);
        number.insert(0, digits - number.size(), '0');  // "process 02." sorts before "process 10."
        plan.metadataPrefix = "process " + number + ".";
        plan.ownerPid = tracedPid(*plan.trace);
        if (inputs[i].rank >= 0) {
            plan.rank = inputs[i].rank;
            plan.metadataPrefix = "rank " + std::to_string(plan.rank) + ".";
            auto [held, fresh] = rankHolders.try_emplace(plan.rank, plan.label);
            if (!fresh) {
                return Error{"rank " + std::to_string(plan.rank) + " is both " + held->second +
                             " and " + plan.label};
            }
        }
        plans.push_back(std::move(plan));
    }

    // One time axis: every input's times are moved by its origin's distance (on the common clock:
    // origin + clock offset) from the earliest origin, which becomes the builder's base (the
    // builder then rebases to the earliest event).
    std::vector<TimeNs> origins(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (__builtin_add_overflow(plans[i].trace->originNs(), inputs[i].clockOffsetNs,
                                   &origins[i])) {
            return Error{"the clock offset of " + plans[i].label + " is out of range"};
        }
    }
    const TimeNs baseNs = *std::min_element(origins.begin(), origins.end());
    std::uint64_t nextCorrelation = 0;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        InputPlan& plan = plans[i];
        if (__builtin_sub_overflow(origins[i], baseNs, &plan.shiftNs))
            return Error{"the origins of the traces to merge are too far apart"};
        plan.correlationOffset = nextCorrelation;
        const std::uint64_t most = maxCorrelationId(*plan.trace);
        if (__builtin_add_overflow(nextCorrelation, most, &nextCorrelation))
            return Error{"the correlation ids of the traces to merge do not fit in 64 bits"};
    }

    // GPU processes are keyed by their traced process's pid; an input that does not say which
    // pid it traced gets a number no other input uses.
    std::int64_t nextOwner = 0;
    for (const InputPlan& plan : plans) {
        if (plan.ownerPid && *plan.ownerPid < std::numeric_limits<std::int64_t>::max())
            nextOwner = std::max(nextOwner, *plan.ownerPid + 1);
    }

    TraceBuilder b;
    b.setBaseTimeNs(baseNs);
    Diagnostics& diagnostics = b.diagnostics();
    std::vector<std::pair<DeviceProperties, std::string>> devices;
    // (rank, pid) -> label of the input that holds it: ranks never share a process group.
    std::map<std::pair<std::int32_t, std::int64_t>, std::string> pidHolders;
    std::uint64_t misplacedFlows = 0;
    mergeMetadata(b, plans, metadata);  // before the inputs go
    for (std::size_t i = 0; i < plans.size(); ++i) {
        InputPlan& plan = plans[i];
        const std::int64_t owner = plan.ownerPid ? *plan.ownerPid : nextOwner++;
        // Traces of live processes of one run never share a pid; a pid reused within the run
        // does, and then both processes' rows share one process group: say so.
        std::set<std::int64_t> pids{owner};
        for (const Process& p : plan.trace->processes()) {
            if (p.deviceId < 0)
                pids.insert(p.pid);
        }
        for (std::int64_t pid : pids) {
            auto [it, inserted] = pidHolders.try_emplace({plan.rank, pid}, plan.label);
            if (!inserted) {
                diagnostics.warn(plan.label + ": pid " + std::to_string(pid) + " is also in " +
                                 it->second + "; their rows share one process group");
            }
        }
        InputCopier copier(b, plan, owner);
        copier.copy();
        misplacedFlows += copier.misplacedFlows();
        addDiagnostics(diagnostics, *plan.trace, plan.label);
        for (const DeviceProperties& d : plan.trace->devices())
            mergeDevice(devices, d, plan.label, diagnostics);
        // Copied: a trace only this merge holds goes now, not after the merged one is made.
        plan.trace = nullptr;
        inputs[i].trace.reset();
    }
    if (misplacedFlows > 0) {
        diagnostics.warn(std::to_string(misplacedFlows) +
                         " flow(s) start or end on a slice covered by its children; they may "
                         "attach to a child");
    }
    for (const auto& [d, label] : devices)
        b.addDevice(d);
    TracePtr merged = b.finalize();
    if (!merged)
        return Error{"merging the traces failed"};
    return merged;
}

}  // namespace wl::model
