#include "io/writer/HeaderWriter.h"

#include <algorithm>
#include <charconv>

#include "io/ChromeTraceFormat.h"
#include "io/JsonWriter.h"

namespace wl::io::writer {

using model::Track;

void HeaderWriter::write(std::string& b) const {
    b.push_back('{');
    b.append("\"schemaVersion\":1,\"displayTimeUnit\":\"ms\",\n");
    // An imported trace's events are written at the times its producer wrote them (the
    // same clock and base), so that every reader sees the original's times.
    b.append("\"baseTimeNanoseconds\":");
    {
        char digits[24];
        const model::TimeNs base = m_producerRows ? m_trace.producerBaseNs() : m_trace.originNs();
        b.append(digits, std::to_chars(digits, digits + sizeof digits, base).ptr);
    }
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
void HeaderWriter::writeDistributedInfo(std::string& b) const {
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

void HeaderWriter::writeDevices(std::string& b) const {
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
void HeaderWriter::writeOwnRows(JsonWriter& w) const {
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
        // Only unified-memory rows: other exports stay as they were, byte for byte.
        if (t.kind == model::TrackKind::UnifiedMemory)
            w.field("unifiedMemory", model::toString(t.unifiedMemoryKind));
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
void HeaderWriter::writeWarplineBlock(std::string& b) const {
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
            w.field("startNs", window.startNs + m_shiftNs).field("endNs", window.endNs + m_shiftNs);
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
            spillWarnings.push_back(model::spilledOverlapWarning(spilled, m_trace.str(t.nameId)));
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
    w.field("warningCount", d.warningCount >= spilledTracks ? d.warningCount - spilledTracks : 0);
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

}  // namespace wl::io::writer
