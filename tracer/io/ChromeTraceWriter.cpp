#include "io/ChromeTraceWriter.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/ChromeTraceFormat.h"
#include "io/JsonWriter.h"
#include "io/TimeText.h"
#include "model/Derived.h"
#include "model/TraceBuilder.h"

namespace wl::io {

namespace {

using model::Slice;
using model::SliceKind;
using model::TimeNs;
using model::Track;
using model::TrackKind;

constexpr std::size_t kChunkBytes = 1 << 20;
constexpr std::int64_t kMaxSmallId = std::numeric_limits<std::int32_t>::max();

const char* trackKindName(TrackKind kind) {
    switch (kind) {
        case TrackKind::HostApi:
            return "api";
        case TrackKind::Nvtx:
            return "nvtx";
        case TrackKind::NvtxAsync:
            return "nvtx_async";
        case TrackKind::GpuStream:
            return "stream";
        case TrackKind::Sync:
            return "sync";
        case TrackKind::Memory:
            return "memory";
        case TrackKind::Host:
            return "host";
        case TrackKind::NvtxProjection:
        case TrackKind::GraphLaunches:
            break;  // never written
    }
    return "host";
}

// Tracks made from other events by every reader (model::isDerived): not written.
bool written(const Track& track) {
    return !model::isDerived(track.kind);
}

// Tracks whose lanes come from first-fit packing rather than nesting (the model allows overlaps
// there): every lane gets a tid of its own.
bool lanesOverlap(TrackKind kind) {
    return kind == TrackKind::NvtxAsync || kind == TrackKind::Sync;
}

// Rows Kineto shares between tracks of ours: a host thread's CUDA calls and its NVTX ranges are
// the thread's row (PyTorch's user annotations enclose its CUDA calls there), and a stream's GPU
// annotations are the stream's row. Readers that match events by row (HTA) need them there.
bool sharesRow(TrackKind kind) {
    return kind == TrackKind::HostApi || kind == TrackKind::Nvtx || kind == TrackKind::GpuStream;
}

// Where each track's slices go: its pid, and a tid per lane so X events nest strictly per tid.
struct TrackLayout {
    std::int64_t pid = 0;
    std::vector<std::int64_t> tids;            // one per lane group; [0] is the track's main tid
    std::vector<std::uint32_t> groupOfLane;    // lane -> index into tids
    std::vector<std::uint32_t> spilledSlices;  // count, for the diagnostics block
};

struct Layout {
    std::vector<std::int64_t> pidOf;  // per process
    std::vector<TrackLayout> tracks;
};

Layout computeLayout(const model::Trace& trace) {
    Layout layout;
    const auto processes = trace.processes();
    const auto tracks = trace.tracks();

    // pids: the device ordinal for GPUs (as Kineto does), the OS pid for hosts; anything that is
    // not a small non-negative integer, or clashes, gets a fresh one.
    layout.pidOf.assign(processes.size(), -1);
    std::unordered_set<std::int64_t> usedPids;
    for (std::size_t i = 0; i < processes.size(); ++i) {
        const auto& p = processes[i];
        const std::int64_t want = p.deviceId >= 0 ? p.deviceId : p.pid;
        if (want >= 0 && want <= kMaxSmallId && usedPids.insert(want).second) {
            layout.pidOf[i] = want;
        }
    }
    std::int64_t nextPid = 0;
    for (auto pid : usedPids)
        nextPid = std::max(nextPid, pid + 1);
    for (auto& pid : layout.pidOf) {
        if (pid < 0)
            pid = nextPid++;
    }

    layout.tracks.resize(tracks.size());
    std::vector<std::unordered_set<std::int64_t>> usedTids(processes.size());
    std::vector<std::unordered_set<std::int64_t>> sharedTids(processes.size());
    // Tracks that share their row first, so a row of another kind never takes its tid.
    std::vector<std::size_t> order(tracks.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_partition(order.begin(), order.end(),
                          [&](std::size_t i) { return sharesRow(tracks[i].kind); });
    for (const std::size_t ti : order) {
        const Track& t = tracks[ti];
        TrackLayout& tl = layout.tracks[ti];
        tl.pid = layout.pidOf[t.process];
        const std::uint32_t lanes = t.laneCount();
        std::uint32_t nestedLanes = lanes;
        if (lanesOverlap(t.kind)) {
            nestedLanes = std::min<std::uint32_t>(lanes, 1);
        } else {
            for (std::uint32_t d = 0; d < lanes; ++d) {
                const auto lane = t.lane(d);
                if (!lane.empty() && (lane.front().flags & model::kSliceSpilled)) {
                    nestedLanes = d;
                    break;
                }
            }
        }
        tl.groupOfLane.resize(lanes);
        for (std::uint32_t d = 0; d < lanes; ++d) {
            tl.groupOfLane[d] = d < nestedLanes ? 0 : 1 + (d - nestedLanes);
        }
        const std::uint32_t groups = lanes == 0 ? 1 : tl.groupOfLane.back() + 1;
        tl.tids.assign(std::max<std::uint32_t>(groups, 1), -1);
        std::int64_t natural = -1;
        if (t.kind == TrackKind::GpuStream) {
            natural = t.streamId;
        } else if (t.kind == TrackKind::HostApi || t.kind == TrackKind::Nvtx ||
                   t.kind == TrackKind::Host) {
            natural = t.threadId;  // a GPU annotation track's "thread" is its stream
        }
        // tid 0 folds into the process's main thread in Perfetto: never use it.
        if (natural > 0 && natural <= kMaxSmallId) {
            if (usedTids[t.process].insert(natural).second) {
                tl.tids[0] = natural;
                if (sharesRow(t.kind))
                    sharedTids[t.process].insert(natural);
            } else if (sharesRow(t.kind) && sharedTids[t.process].count(natural)) {
                tl.tids[0] = natural;
            }
        }
    }
    std::vector<std::int64_t> nextTid(processes.size(), 1);
    for (std::size_t p = 0; p < processes.size(); ++p) {
        for (auto tid : usedTids[p])
            nextTid[p] = std::max(nextTid[p], tid + 1);
    }
    for (std::size_t ti = 0; ti < tracks.size(); ++ti) {
        for (auto& tid : layout.tracks[ti].tids) {
            if (tid < 0)
                tid = nextTid[tracks[ti].process]++;
        }
    }
    return layout;
}

// The output buffer, handed to the sink in chunks.
class Out {
public:
    explicit Out(const ChromeTraceWriter::Sink& sink) : m_sink(sink) {
        m_buf.reserve(kChunkBytes + 4096);
    }

    std::string& buf() { return m_buf; }
    void put(std::string_view s) { m_buf.append(s); }
    void put(char c) { m_buf.push_back(c); }
    template <class Int>
    void putInt(Int v) {
        char tmp[24];
        m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    void putMicros(TimeNs ns) { appendMicros(m_buf, ns); }
    void putDouble(double v) { appendJsonNumber(m_buf, v); }
    void putFloat(float v) {
        char tmp[32];
        m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    void putString(std::string_view s) { appendJsonString(m_buf, s); }

    bool maybeFlush() {
        if (m_buf.size() < kChunkBytes)
            return m_ok;
        return flush();
    }
    bool flush() {
        if (m_ok && !m_buf.empty())
            m_ok = m_sink(m_buf);
        m_buf.clear();
        return m_ok;
    }
    bool ok() const { return m_ok; }

private:
    const ChromeTraceWriter::Sink& m_sink;
    std::string m_buf;
    bool m_ok = true;
};

class Writer {
public:
    Writer(const model::Trace& trace, Out& out)
        : m_trace(trace),
          m_out(out),
          m_layout(computeLayout(trace)),
          m_producerRows(trace.hasOrigins()),
          m_shiftNs(m_producerRows ? trace.originNs() - trace.producerBaseNs() : 0) {
        m_escaped.resize(trace.strings().size());
    }

    bool run() {
        writeHeader();
        m_out.put("\"traceEvents\":[");
        writeMetadataEvents();
        const auto tracks = m_trace.tracks();
        for (std::size_t ti = 0; ti < tracks.size() && m_out.ok(); ++ti) {
            writeTrackEvents(static_cast<model::TrackIndex>(ti));
        }
        writeCounters();
        writeFlows();
        m_out.put("\n]}\n");
        return m_out.flush();
    }

private:
    // Escaped JSON string of an interned name, computed once per name.
    const std::string& escaped(model::StringId id) {
        std::string& s = m_escaped[id];
        if (s.empty())
            appendJsonString(s, m_trace.str(id));
        return s;
    }

    void beginEvent() {
        m_out.put(m_first ? "\n{" : ",\n{");
        m_first = false;
    }

    void writeHeader() {
        std::string& b = m_out.buf();
        JsonWriter w(b);
        b.push_back('{');
        b.append("\"schemaVersion\":1,\"displayTimeUnit\":\"ms\",\n");
        // An imported trace's events are written at the times its producer wrote them (the
        // same clock and base), so that every reader sees the original's times.
        b.append("\"baseTimeNanoseconds\":");
        m_out.putInt(m_producerRows ? m_trace.producerBaseNs() : m_trace.originNs());
        b.append(",\n\"deviceProperties\":");
        writeDevices(b);
        // A producer's as it wrote it, or none when it wrote none (HTA then takes rank 0, as it
        // did from the original).
        if (!m_producerRows) {
            b.append(",\n\"distributedInfo\":");
            writeDistributedInfo(b);
        } else if (!m_trace.distributedInfo().empty()) {
            b.append(",\n\"distributedInfo\":");
            b.append(m_trace.distributedInfo());
        }
        b.append(",\n\"");
        b.append(format::kMetadata);
        b.append("\":");
        {
            JsonWriter m(b);
            m.beginObject();
            for (const auto& [k, v] : m_trace.metadata())
                m.field(k, v);
            m.endObject();
        }
        // Our block maps rows to tracks for an exact round trip of our own traces. An imported
        // trace is written on its producer's rows, which it does not describe: reading such a
        // file back reads it as the producer's, as every other reader does (writeWarplineBlock).
        b.append(",\n\"");
        b.append(format::kWarpline);
        b.append("\":");
        writeWarplineBlock(b);
        b.append(",\n");
    }

    // Kineto's block saying which rank of which job this is, from the metadata `record` took
    // from the launcher's variables (rank, world_size, local_rank) and the process (host, pid);
    // rank 0 of 1 when there is none. Numbers stay numbers, as Kineto writes them. A job's ranks
    // merged into one trace are no one rank: no rank then (each process's is in our block).
    void writeDistributedInfo(std::string& b) {
        const auto processes = m_trace.processes();
        const bool mergedRanks = std::any_of(processes.begin(), processes.end(),
                                             [](const model::Process& p) { return p.rank >= 0; });
        // Spaced as Kineto writes it ({"backend": "nccl", "rank": 0, ...}): HTA finds a file's
        // rank with the pattern "rank":\s+(\d+), and reads a file without the space as rank 0.
        bool first = true;
        const auto member = [&](std::string_view key) {
            b.append(first ? "{" : ", ");
            first = false;
            appendJsonString(b, key);
            b.append(": ");
        };
        const auto put = [&](const char* key, std::string_view fallback, bool numeric) {
            std::string value = m_trace.metadataValue(key);
            if (value.empty()) {
                value = std::string(fallback);
            }
            if (value.empty()) {
                return;
            }
            member(key);
            std::int64_t n = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
            if (numeric && ec == std::errc{} && end == value.data() + value.size()) {
                char digits[24];
                b.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
            } else {
                appendJsonString(b, value);
            }
        };
        put("backend", "", false);
        put("rank", mergedRanks ? "" : "0", true);
        put("world_size", mergedRanks ? "" : "1", true);
        put("local_rank", "", true);
        put("host", "", false);
        put("pid", "", true);
        // (host wall clock ns, trace clock ns) read together at the start and end of recording:
        // traces of one job from several hosts are put on one time axis by these.
        put("clock_sync_start", "", false);
        put("clock_sync_end", "", false);
        std::string uuids;
        for (const auto& d : m_trace.devices()) {
            if (!d.uuid.empty())
                uuids += (uuids.empty() ? "" : ",") + d.uuid;
        }
        if (!uuids.empty()) {
            member("device_uuids");
            appendJsonString(b, uuids);
        }
        b.append(first ? "{}" : "}");
    }

    void writeDevices(std::string& b) {
        JsonWriter w(b);
        w.beginArray();
        for (const auto& d : m_trace.devices()) {
            w.beginObject();
            w.field("id", d.id).field("name", d.name);
            w.field("totalGlobalMem", d.totalMemoryBytes);
            w.field("computeMajor", d.computeMajor).field("computeMinor", d.computeMinor);
            w.field("maxThreadsPerBlock", d.maxThreadsPerBlock);
            w.field("maxThreadsPerMultiprocessor", d.maxThreadsPerSm);
            w.field("regsPerBlock", d.registersPerBlock);
            w.field("warpSize", d.warpSize);
            w.field("sharedMemPerBlock", d.sharedMemoryPerBlockBytes);
            w.field("numSms", d.smCount);
            w.field("regsPerMultiprocessor", d.registersPerSm);
            w.field("sharedMemPerBlockOptin", d.sharedMemoryPerBlockOptinBytes);
            w.field("sharedMemPerMultiprocessor", d.sharedMemoryPerSmBytes);
            w.field("maxBlocksPerMultiprocessor", d.maxBlocksPerSm);
            w.field("maxWarpsPerMultiprocessor", d.maxWarpsPerSm);
            w.field("l2CacheSize", d.l2CacheBytes);
            if (!d.uuid.empty())
                w.field("uuid", d.uuid);
            if (!d.pciBusId.empty())
                w.field("pciBusId", d.pciBusId);
            w.field("clockRate", d.clockRateKHz);
            w.field("memoryClockRate", d.memoryClockRateKHz);
            w.field("memoryBusWidth", d.memoryBusWidthBits);
            w.field("pcieGeneration", d.pcieGeneration);
            w.field("pcieLinkWidth", d.pcieLinkWidth);
            w.field("memoryBandwidthGBps", d.memoryBandwidthGBps);
            w.endObject();
        }
        w.endArray();
    }

    // Our rows: each process, each track's pid and tids, the counters (an exact round trip).
    void writeOwnRows(JsonWriter& w) {
        w.key("processes").beginArray();
        const auto processes = m_trace.processes();
        for (std::size_t i = 0; i < processes.size(); ++i) {
            const auto& p = processes[i];
            w.beginObject();
            w.field("pid", m_layout.pidOf[i]).field("processId", p.pid);
            w.field("device", p.deviceId).field("name", m_trace.str(p.nameId));
            // Only merged traces have owners: other exports stay as they were, byte for byte.
            if (p.ownerPid >= 0)
                w.field("owner", p.ownerPid);
            // Only a job's merged ranks have ranks (Process::rank), kept for the same reason.
            if (p.rank >= 0)
                w.field("rank", p.rank);
            w.endObject();
        }
        w.endArray();
        w.key("tracks").beginArray();
        const auto tracks = m_trace.tracks();
        for (std::size_t ti = 0; ti < tracks.size(); ++ti) {
            const Track& t = tracks[ti];
            const TrackLayout& tl = m_layout.tracks[ti];
            if (!written(t))
                continue;
            w.beginObject();
            w.field("pid", tl.pid);
            w.key("tids").beginArray();
            for (auto tid : tl.tids)
                w.value(tid);
            w.endArray();
            w.field("kind", trackKindName(t.kind));
            w.field("thread", t.threadId).field("stream", t.streamId);
            w.field("domain", m_trace.str(t.domainId)).field("name", m_trace.str(t.nameId));
            w.field("sortIndex", t.sortIndex);
            w.endObject();
        }
        w.endArray();
        w.key("counters").beginArray();
        for (const auto& c : m_trace.counters()) {
            if (c.derived)
                continue;  // every reader makes it again
            w.beginObject();
            w.field("pid", m_layout.pidOf[c.process]).field("name", m_trace.str(c.nameId));
            w.field("series", m_trace.str(c.seriesId)).field("unit", m_trace.str(c.unitId));
            w.endObject();
        }
        w.endArray();
    }

    // For a trace of a producer's file (m_producerRows), only what its events do not say: the
    // capture windows and the diagnostics of the import; its rows are the producer's, which a
    // reader reads as any other producer's ("rows": "producer").
    void writeWarplineBlock(std::string& b) {
        JsonWriter w(b);
        w.beginObject();
        w.field("version", format::kWarplineVersion);
        if (m_producerRows)
            w.field(format::kWarplineRows, format::kWarplineProducerRows);
        else
            writeOwnRows(w);
        // Written only when there are some, so exports of traces without them do not change.
        if (!m_trace.captureWindows().empty()) {
            w.key("captureWindows").beginArray();
            for (const auto& window : m_trace.captureWindows()) {
                w.beginObject();
                w.field("startNs", window.startNs + m_shiftNs)
                    .field("endNs", window.endNs + m_shiftNs);
                w.endObject();
            }
            w.endArray();
        }
        // Diagnostics of the original collection or import. What an import re-derives from the
        // events themselves (spilled overlaps and their warnings) is left out, so reading this
        // file back gives the same counts rather than twice the spills.
        const auto tracks = m_trace.tracks();
        std::uint64_t spilledSlices = 0;
        std::uint64_t spilledTracks = 0;
        std::vector<std::string> spillWarnings;
        for (const Track& t : tracks) {
            if (!written(t))
                continue;
            std::uint64_t spilled = 0;
            for (const auto& s : t.slices)
                spilled += model::unexpectedOverlap(s) ? 1 : 0;
            if (spilled > 0) {
                spilledSlices += spilled;
                ++spilledTracks;
                spillWarnings.push_back(
                    model::spilledOverlapWarning(spilled, m_trace.str(t.nameId)));
            }
        }
        const auto& d = m_trace.diagnostics();
        std::vector<std::string> warnings = d.warnings;
        for (const auto& sw : spillWarnings) {
            auto it = std::find(warnings.begin(), warnings.end(), sw);
            if (it != warnings.end())
                warnings.erase(it);
        }
        w.key("diagnostics").beginObject();
        w.field("droppedRecords", d.droppedRecords);
        w.field("invalidTimestamps", d.invalidTimestamps);
        w.field("spilledOverlaps",
                d.spilledOverlaps >= spilledSlices ? d.spilledOverlaps - spilledSlices : 0);
        w.field("unknownPhases", d.unknownPhases);
        w.field("unmatchedEnds", d.unmatchedEnds);
        w.field("unknownRecords", d.unknownRecords);
        w.field("truncatedStrings", d.truncatedStrings);
        w.field("skippedEvents", d.skippedEvents);
        w.field("warningCount",
                d.warningCount >= spilledTracks ? d.warningCount - spilledTracks : 0);
        w.key("warnings").beginArray();
        for (const auto& msg : warnings)
            w.value(msg);
        w.endArray();
        w.field("noteCount", d.noteCount);
        w.key("notes").beginArray();
        for (const auto& msg : d.notes)
            w.value(msg);
        w.endArray();
        w.endObject();
        w.endObject();
    }

    void writeMeta(std::string_view name, std::int64_t pid, std::int64_t tid,
                   std::string_view argKey, std::string_view text, std::int64_t number) {
        beginEvent();
        m_out.put("\"name\":\"");
        m_out.put(name);
        m_out.put("\",\"ph\":\"M\",\"ts\":0,\"pid\":");
        m_out.putInt(pid);
        m_out.put(",\"tid\":");
        m_out.putInt(tid);
        m_out.put(",\"args\":{\"");
        m_out.put(argKey);
        m_out.put("\":");
        if (argKey == "name") {
            m_out.putString(text);
        } else {
            m_out.putInt(number);
        }
        m_out.put("}}");
    }

    // A track with a slice that has no row in a producer's file: written on rows of our own.
    bool hasOwnRows(const Track& t) const {
        return !m_producerRows ||
               std::any_of(t.slices.begin(), t.slices.end(),
                           [&](const Slice& s) { return m_trace.origin(t, s) == nullptr; });
    }

    // Hosts first, then GPUs (the model's process order); streams in order within a GPU. An
    // imported trace's rows keep the producer's own metadata events (names, labels, order),
    // written as they were; ours name only the rows we add.
    void writeMetadataEvents() {
        if (const std::string_view kept = m_trace.keptEvents(); !kept.empty()) {
            beginEvent();
            m_out.buf().pop_back();  // the '{': each kept event has its own
            m_out.put(kept);
        }
        const auto processes = m_trace.processes();
        const auto tracks = m_trace.tracks();
        std::vector<bool> ownRows(tracks.size(), true);
        std::vector<bool> processOwnRows(processes.size(), !m_producerRows);
        for (std::size_t ti = 0; ti < tracks.size() && m_producerRows; ++ti) {
            ownRows[ti] = written(tracks[ti]) && hasOwnRows(tracks[ti]);
            if (ownRows[ti])
                processOwnRows[tracks[ti].process] = true;
        }
        for (std::size_t i = 0; i < processes.size(); ++i) {
            if (!processOwnRows[i])
                continue;
            const std::int64_t pid = m_layout.pidOf[i];
            writeMeta("process_name", pid, 0, "name", m_trace.str(processes[i].nameId), 0);
            writeMeta("process_sort_index", pid, 0, "sort_index", {}, static_cast<std::int64_t>(i));
        }
        std::vector<std::int64_t> nextSort(processes.size(), 0);
        std::set<std::pair<std::int64_t, std::int64_t>> named;  // a shared row is named once
        for (std::size_t ti = 0; ti < tracks.size(); ++ti) {
            const Track& t = tracks[ti];
            const TrackLayout& tl = m_layout.tracks[ti];
            if (!written(t) || !ownRows[ti])
                continue;
            const std::string name(m_trace.str(t.nameId));
            for (std::size_t g = 0; g < tl.tids.size(); ++g) {
                if (!named.insert({tl.pid, tl.tids[g]}).second)
                    continue;
                std::string label = name;
                if (g > 0) {
                    label += lanesOverlap(t.kind) ? " (lane " : " (overlap ";
                    label += std::to_string(g) + ")";
                }
                writeMeta("thread_name", tl.pid, tl.tids[g], "name", label, 0);
                writeMeta("thread_sort_index", tl.pid, tl.tids[g], "sort_index", {},
                          nextSort[t.process]++);
            }
        }
        m_out.maybeFlush();
    }

    // A pid or tid: a number, or the name the producer wrote in its place (only a producer's
    // rows have synthetic ids, and "" is a name too).
    void putId(std::int64_t id, bool quoted) {
        if (model::isSyntheticId(id)) {
            m_out.putString(m_trace.idName(id));
        } else if (quoted) {
            m_out.put('"');
            m_out.putInt(id);
            m_out.put('"');
        } else {
            m_out.putInt(id);
        }
    }

    // Where an event is written: pid and tid, each a number or written as a string.
    struct Row {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        bool pidQuoted = false;
        bool tidQuoted = false;
    };

    // A time on the trace's clock: rebased to its start, or as its producer wrote it.
    void putTime(TimeNs ns) { m_out.putMicros(ns + m_shiftNs); }

    // The slice's place in its producer's file, when it came from one.
    const model::SliceOrigin* originOf(const Track& t, const Slice& s) const {
        return m_producerRows ? m_trace.origin(t, s) : nullptr;
    }

    // Where a slice is written: the row of the producer's file it came from, else ours.
    Row rowOf(const Track& t, const TrackLayout& tl, const Slice& s) const {
        if (const model::SliceOrigin* o = originOf(t, s))
            return {o->pid, o->tid, o->pidQuoted, o->tidQuoted};
        return {tl.pid, tl.tids[tl.groupOfLane[s.depth]]};
    }

    // `cat` empty: an event its producer wrote without one.
    void writeCommon(std::string_view ph, std::string_view cat, model::StringId name,
                     const Row& row, TimeNs ts) {
        beginEvent();
        m_out.put("\"ph\":\"");
        m_out.put(ph);
        if (!cat.empty()) {
            m_out.put("\",\"cat\":");
            m_out.putString(cat);
        } else {
            m_out.put('"');
        }
        m_out.put(",\"name\":");
        m_out.put(escaped(name));
        m_out.put(",\"pid\":");
        putId(row.pid, row.pidQuoted);
        m_out.put(",\"tid\":");
        putId(row.tid, row.tidQuoted);
        m_out.put(",\"ts\":");
        putTime(ts);
    }

    void putGpuArgs(const Track& t, const Slice& s) {
        m_out.put(",\"args\":{\"device\":");
        m_out.putInt(t.deviceId);
        m_out.put(",\"stream\":");
        m_out.putInt(t.streamId);
        m_out.put(",\"correlation\":");
        m_out.putInt(s.correlationId);
    }

    // Addresses as people read them ("0x7f3a00000000"); readers take hex strings as integers.
    void putHex(std::uint64_t value) {
        char text[24];
        const int n =
            std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
        m_out.put(std::string_view(text, static_cast<std::size_t>(n)));
    }

    void putBandwidth(std::uint64_t bytes, TimeNs durationNs) {
        if (durationNs <= 0)
            return;
        m_out.put(",\"");
        m_out.put(format::kArgBandwidth);
        m_out.put("\":");
        m_out.putDouble(static_cast<double>(bytes) / static_cast<double>(durationNs));
    }

    void writeSlice(const Track& t, const TrackLayout& tl, const Slice& s) {
        const bool gpuProcess = m_trace.processes()[t.process].deviceId >= 0;
        std::string_view cat = format::kCatCpuOp;
        std::string_view ph = "X";
        switch (s.kind) {
            case SliceKind::Kernel:
                cat = format::kCatKernel;
                break;
            case SliceKind::Memcpy:
                cat = format::kCatMemcpy;
                break;
            case SliceKind::Memset:
                cat = format::kCatMemset;
                break;
            case SliceKind::Memory:
                cat = format::kCatMemory;  // an "X" of no duration: readers draw it as a tick
                break;
            case SliceKind::Sync:
                cat = format::kCatSync;
                break;
            case SliceKind::RuntimeApi:
                cat = format::kCatRuntime;
                break;
            case SliceKind::DriverApi:
                cat = format::kCatDriver;
                break;
            case SliceKind::Nvtx:
                cat = gpuProcess ? format::kCatGpuUserAnnotation : format::kCatUserAnnotation;
                break;
            case SliceKind::Overhead:
                cat = format::kCatOverhead;
                break;
            case SliceKind::Instant:
                cat = format::kCatInstant;
                ph = "i";
                break;
            case SliceKind::Other:
                break;
        }
        const model::SliceOrigin* origin = originOf(t, s);
        if (origin != nullptr)
            cat = origin->hasCat ? m_trace.str(origin->cat) : std::string_view();
        writeCommon(ph, cat, s.nameId, rowOf(t, tl, s), s.startNs);
        if (s.kind == SliceKind::Instant) {
            // The producer's scope (a global instant is drawn across the process or trace), else
            // the thread's.
            const char scope = origin != nullptr ? origin->scope : 't';
            if (scope != 0) {
                m_out.put(",\"s\":\"");
                m_out.put(scope);
                m_out.put('"');
            }
        } else {
            m_out.put(",\"dur\":");
            m_out.putMicros(s.durationNs);
        }
        if (origin != nullptr) {
            // Its producer's args, all of them as written (and none where it wrote none).
            if (const std::string_view args = m_trace.producerArgs(s); !args.empty()) {
                m_out.put(",\"args\":{");
                m_out.put(args);
                m_out.put('}');
            }
            m_out.put('}');
            return;
        }
        const std::size_t beforeArgs = m_out.buf().size();
        writeArgs(t, s);
        // The producer's other args, as it wrote them, inside the same "args" object.
        if (const std::string_view extra = m_trace.extraArgs(s); !extra.empty()) {
            std::string& b = m_out.buf();
            if (b.size() > beforeArgs) {
                b.back() = ',';  // the '}' that closed the args written above
            } else {
                b += ",\"args\":{";
            }
            b += extra;
            b += '}';
        }
        m_out.put('}');
    }

    // The args the model has fields for (format::writerWritesArg lists them per kind).
    void writeArgs(const Track& t, const Slice& s) {
        switch (s.kind) {
            case SliceKind::Kernel: {
                putGpuArgs(t, s);
                if (const auto* k = m_trace.kernel(s)) {
                    m_out.put(",\"grid\":[");
                    m_out.putInt(k->grid[0]);
                    m_out.put(',');
                    m_out.putInt(k->grid[1]);
                    m_out.put(',');
                    m_out.putInt(k->grid[2]);
                    m_out.put("],\"block\":[");
                    m_out.putInt(k->block[0]);
                    m_out.put(',');
                    m_out.putInt(k->block[1]);
                    m_out.put(',');
                    m_out.putInt(k->block[2]);
                    m_out.put("],\"registers per thread\":");
                    m_out.putInt(k->registersPerThread);
                    m_out.put(",\"shared memory\":");
                    m_out.putInt(std::int64_t{k->staticSharedBytes} + k->dynamicSharedBytes);
                    m_out.put(",\"static shared memory\":");
                    m_out.putInt(k->staticSharedBytes);
                    m_out.put(",\"dynamic shared memory\":");
                    m_out.putInt(k->dynamicSharedBytes);
                    if (k->warpsPerSm >= 0.0f && std::isfinite(k->warpsPerSm)) {
                        m_out.put(",\"warps per SM\":");
                        m_out.putFloat(k->warpsPerSm);
                    }
                    if (k->estimatedOccupancyPct >= 0.0f &&
                        std::isfinite(k->estimatedOccupancyPct)) {
                        m_out.put(",\"est. achieved occupancy %\":");
                        m_out.putFloat(k->estimatedOccupancyPct);
                    }
                    putGraphNode(k->graph);
                }
                m_out.put('}');
                break;
            }
            case SliceKind::Memcpy: {
                putGpuArgs(t, s);
                if (const auto* m = m_trace.memcpy(s)) {
                    m_out.put(",\"bytes\":");
                    m_out.putInt(m->bytes);
                    putBandwidth(m->bytes, s.durationNs);
                    m_out.put(",\"copy kind\":\"");
                    m_out.put(model::toString(m->copyKind));
                    m_out.put("\",\"src kind\":\"");
                    m_out.put(model::toString(m->srcKind));
                    m_out.put("\",\"dst kind\":\"");
                    m_out.put(model::toString(m->dstKind));
                    m_out.put('"');
                    if (m->srcDevice != -1) {
                        m_out.put(",\"src device\":");
                        m_out.putInt(m->srcDevice);
                    }
                    if (m->dstDevice != -1) {
                        m_out.put(",\"dst device\":");
                        m_out.putInt(m->dstDevice);
                    }
                    putGraphNode(m->graph);
                }
                m_out.put('}');
                break;
            }
            case SliceKind::Memset: {
                putGpuArgs(t, s);
                if (const auto* m = m_trace.memset(s)) {
                    m_out.put(",\"bytes\":");
                    m_out.putInt(m->bytes);
                    putBandwidth(m->bytes, s.durationNs);
                    m_out.put(",\"value\":");
                    m_out.putInt(m->value);
                    m_out.put(",\"memory kind\":\"");
                    m_out.put(model::toString(m->memoryKind));
                    m_out.put('"');
                    putGraphNode(m->graph);
                }
                m_out.put('}');
                break;
            }
            case SliceKind::Memory: {
                m_out.put(",\"args\":{\"device\":");
                m_out.putInt(t.deviceId);
                m_out.put(",\"correlation\":");
                m_out.putInt(s.correlationId);
                if (const auto* m = m_trace.memory(s)) {
                    m_out.put(",\"memory op\":\"");
                    m_out.put(model::toString(m->op));
                    m_out.put("\",\"bytes\":");
                    m_out.putInt(m->bytes);
                    m_out.put(",\"address\":\"");
                    putHex(m->address);
                    m_out.put("\",\"memory kind\":\"");
                    m_out.put(model::toString(m->memoryKind));
                    m_out.put('"');
                    if (m->streamId >= 0) {
                        m_out.put(",\"stream\":");
                        m_out.putInt(m->streamId);
                    }
                    if (m->fromPool) {
                        m_out.put(",\"pool address\":\"");
                        putHex(m->poolAddress);
                        m_out.put("\",\"pool reserve\":");
                        m_out.putInt(m->poolReservedBytes);
                    }
                }
                m_out.put('}');
                break;
            }
            case SliceKind::Sync: {
                m_out.put(",\"args\":{\"device\":");
                m_out.putInt(t.deviceId);
                m_out.put(",\"correlation\":");
                m_out.putInt(s.correlationId);
                if (const auto* y = m_trace.sync(s)) {
                    m_out.put(",\"cuda_sync_kind\":\"");
                    m_out.put(model::toString(y->syncKind));
                    m_out.put("\",\"stream\":");
                    m_out.putInt(y->streamFromRecord ? -1 : y->streamId);
                    m_out.put(",\"wait_on_cuda_event_id\":");
                    m_out.putInt(y->eventId);
                    m_out.put(",\"wait_on_stream\":");
                    m_out.putInt(y->recordStreamId);
                    m_out.put(",\"wait_on_cuda_event_record_corr_id\":");
                    if (y->recordCorrelationId == 0)
                        m_out.put("-1");  // Kineto's "none"
                    else
                        m_out.putInt(y->recordCorrelationId);
                }
                m_out.put('}');
                break;
            }
            case SliceKind::RuntimeApi:
            case SliceKind::DriverApi: {
                m_out.put(",\"args\":{\"correlation\":");
                m_out.putInt(s.correlationId);
                if (const auto* a = m_trace.api(s)) {
                    m_out.put(",\"cbid\":");
                    m_out.putInt(a->callbackId);
                    if (a->returnCode != 0) {
                        m_out.put(",\"return code\":");
                        m_out.putInt(a->returnCode);
                    }
                }
                m_out.put('}');
                break;
            }
            case SliceKind::Nvtx: {
                const auto* n = m_trace.nvtx(s);
                const bool any = (n && (n->colorArgb != 0 || n->domainId != 0 || n->category != 0 ||
                                        n->hasPayload)) ||
                                 s.correlationId != 0;
                if (any) {
                    char sep = '{';
                    m_out.put(",\"args\":");
                    if (s.correlationId != 0) {
                        m_out.put("{\"correlation\":");
                        m_out.putInt(s.correlationId);
                        sep = ',';
                    }
                    if (n && n->colorArgb != 0) {
                        static constexpr char kHex[] = "0123456789abcdef";
                        char color[12] = {'"', '#'};
                        for (int i = 0; i < 8; ++i) {
                            color[2 + i] = kHex[(n->colorArgb >> (28 - 4 * i)) & 15u];
                        }
                        color[10] = '"';
                        m_out.put(sep);
                        m_out.put("\"color\":");
                        m_out.put(std::string_view(color, 11));
                        sep = ',';
                    }
                    if (n && n->domainId != 0) {
                        m_out.put(sep);
                        m_out.put("\"domain\":");
                        m_out.put(escaped(n->domainId));
                        sep = ',';
                    }
                    if (n && n->category != 0) {
                        m_out.put(sep);
                        m_out.put("\"category\":");
                        m_out.putInt(n->category);
                        sep = ',';
                        if (n->categoryNameId != 0) {
                            m_out.put(",\"category name\":");
                            m_out.put(escaped(n->categoryNameId));
                        }
                    }
                    if (n && n->hasPayload) {
                        m_out.put(sep);
                        m_out.put("\"payload\":");
                        m_out.putDouble(n->payload);
                    }
                    m_out.put('}');
                }
                break;
            }
            default:
                if (s.correlationId != 0) {
                    m_out.put(",\"args\":{\"correlation\":");
                    m_out.putInt(s.correlationId);
                    m_out.put('}');
                }
                break;
        }
    }

    // The CUDA graph node that ran a GPU op, when it came from a graph.
    void putGraphNode(const model::GraphNode& g) {
        if (g.graphId == 0 && g.nodeId == 0)
            return;
        m_out.put(",\"graph id\":");
        m_out.putInt(g.graphId);
        m_out.put(",\"graph node id\":");
        m_out.putInt(g.nodeId);
    }

    void writeTrackEvents(model::TrackIndex ti) {
        const Track& t = m_trace.track(ti);
        const TrackLayout& tl = m_layout.tracks[ti];
        if (!written(t))
            return;
        for (const Slice& s : t.slices) {
            writeSlice(t, tl, s);
            if (!m_out.maybeFlush())
                return;
        }
    }

    void writeCounters() {
        for (const auto& c : m_trace.counters()) {
            if (c.derived)
                continue;
            const std::int64_t pid = m_layout.pidOf[c.process];
            const std::string& name = escaped(c.nameId);
            const std::string& series = escaped(c.seriesId);
            for (const auto& sample : c.samples) {
                if (!std::isfinite(sample.value))
                    continue;  // not representable in JSON
                beginEvent();
                m_out.put("\"ph\":\"C\",\"name\":");
                m_out.put(name);
                m_out.put(",\"pid\":");
                m_out.putInt(pid);
                m_out.put(",\"ts\":");
                putTime(sample.timestampNs);
                m_out.put(",\"args\":{");
                m_out.put(series);
                m_out.put(':');
                m_out.putDouble(sample.value);
                m_out.put("}}");
                if (!m_out.maybeFlush())
                    return;
            }
        }
    }

    void writeFlowEnd(char ph, std::string_view cat, std::uint64_t id, model::SliceRef ref) {
        const Track& t = m_trace.track(ref.track);
        const TrackLayout& tl = m_layout.tracks[ref.track];
        const Slice& s = t.slices[ref.index];
        // A time inside the slice and not inside a child of it: readers (ours and Perfetto's)
        // bind a flow end to the innermost slice over its time, so a child starting with its
        // parent would take the arrow.
        const TimeNs ts = model::TraceBuilder::flowAnchorNs(t, s).value_or(s.startNs);
        const Row row = rowOf(t, tl, s);
        beginEvent();
        m_out.put("\"ph\":\"");
        m_out.put(ph);
        m_out.put("\",\"cat\":\"");
        m_out.put(cat);
        m_out.put("\",\"id\":");
        m_out.putInt(id);
        m_out.put(",\"pid\":");
        putId(row.pid, row.pidQuoted);
        m_out.put(",\"tid\":");
        putId(row.tid, row.tidQuoted);
        m_out.put(",\"ts\":");
        putTime(ts);
        m_out.put(",\"name\":\"");
        m_out.put(cat);
        m_out.put(ph == 'f' ? "\",\"bp\":\"e\"}" : "\"}");
    }

    // Launch flows (both ends carry the flow's correlation id) are "ac2g", as Kineto writes them;
    // a reader rebuilds those from the correlation ids. Others are plain "flow" arrows. Ids are
    // unique per file, as Perfetto needs. Between two slices of a producer's file the flow
    // events are the producer's own (Trace::keptEvents), written with its metadata: a flow it
    // did not write is not added.
    void writeFlows() {
        const auto flows = m_trace.flows();
        std::uint64_t nextId = 1;
        for (const auto& f : flows)
            nextId = std::max(nextId, f.id + 1);
        std::unordered_set<std::uint64_t> used;
        used.reserve(flows.size());
        for (const auto& f : flows) {
            if (originOf(m_trace.track(f.from.track), m_trace.slice(f.from)) != nullptr &&
                originOf(m_trace.track(f.to.track), m_trace.slice(f.to)) != nullptr)
                continue;
            const bool launch = model::isCorrelationFlow(m_trace, f);
            std::uint64_t id = f.id;
            if (id == 0 || !used.insert(id).second) {
                id = nextId++;
                used.insert(id);
            }
            const std::string_view cat = launch ? format::kCatLaunchFlow : format::kCatFlow;
            writeFlowEnd('s', cat, id, f.from);
            writeFlowEnd('f', cat, id, f.to);
            if (!m_out.maybeFlush())
                return;
        }
        // Waits through CUDA events, for viewers that only draw arrows.
        for (const auto& d : m_trace.dependencies()) {
            const std::uint64_t id = nextId++;
            writeFlowEnd('s', format::kCatDependency, id, d.from);
            writeFlowEnd('f', format::kCatDependency, id, d.to);
            if (!m_out.maybeFlush())
                return;
        }
    }

    const model::Trace& m_trace;
    Out& m_out;
    Layout m_layout;
    // The trace has slices of a producer's file: they go back on its rows, at its times.
    bool m_producerRows = false;
    TimeNs m_shiftNs = 0;
    std::vector<std::string> m_escaped;
    bool m_first = true;
};

}  // namespace

model::Status ChromeTraceWriter::write(const Sink& sink) const {
    Out out(sink);
    Writer writer(m_trace, out);
    if (!writer.run()) {
        return model::Error{"writing the trace failed", {}, -1};
    }
    return {};
}

std::string ChromeTraceWriter::toString() const {
    std::string result;
    const Sink sink = [&result](std::string_view chunk) {
        result.append(chunk);
        return true;
    };
    (void)write(sink);
    return result;
}

}  // namespace wl::io
