#include "io/ChromeTraceWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <unordered_set>
#include <vector>

#include "io/ChromeTraceFormat.h"
#include "io/writer/HeaderWriter.h"
#include "io/writer/Out.h"
#include "io/writer/RowLayout.h"
#include "io/writer/SliceArgsWriter.h"
#include "model/Derived.h"
#include "model/TraceBuilder.h"

namespace wl::io {

namespace {

using model::Slice;
using model::SliceKind;
using model::TimeNs;
using model::Track;
using writer::EscapedNames;
using writer::lanesOverlap;
using writer::Layout;
using writer::Out;
using writer::TrackLayout;
using writer::written;

// The file's events: metadata events naming rows, each track's slices with their args, counter
// samples and flow arrows (the header before them is writer::HeaderWriter's).
class Writer {
public:
    Writer(const model::Trace& trace, Out& out)
        : m_trace(trace),
          m_out(out),
          m_layout(writer::computeLayout(trace)),
          m_producerRows(trace.hasOrigins()),
          m_shiftNs(m_producerRows ? trace.originNs() - trace.producerBaseNs() : 0),
          m_escaped(trace),
          m_args(trace, out, m_escaped) {}

    bool run() {
        writer::HeaderWriter(m_trace, m_layout, m_producerRows, m_shiftNs).write(m_out.buf());
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
    void beginEvent() {
        m_out.put(m_first ? "\n{" : ",\n{");
        m_first = false;
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
        std::string kept;
        for (model::PackedTexts::Reader events(m_trace.keptEvents()); !events.done();) {
            beginEvent();
            m_out.buf().pop_back();  // the '{': each kept event has its own
            kept.clear();
            events.next(&kept);
            m_out.put(kept);
            if (!m_out.maybeFlush())
                return;
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
        m_out.put(m_escaped(name));
        m_out.put(",\"pid\":");
        putId(row.pid, row.pidQuoted);
        m_out.put(",\"tid\":");
        putId(row.tid, row.tidQuoted);
        m_out.put(",\"ts\":");
        putTime(ts);
    }

    void writeSlice(const Track& t, const TrackLayout& tl, const Slice& s) {
        const bool gpuProcess = m_trace.processes()[t.process].deviceId >= 0;
        std::string_view cat = format::kCatOther;
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
            case SliceKind::CpuOp:
                cat = format::kCatCpuOp;  // also the older "Operator" when its origin is gone
                break;
            case SliceKind::Other:
                break;
            case SliceKind::UnifiedMemory:
                cat = format::kCatUnifiedMemory;  // an instant is an "X" of no duration
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
            if (const std::string args = m_trace.producerArgs(s); !args.empty()) {
                m_out.put(",\"args\":{");
                m_out.put(args);
                m_out.put('}');
            }
            m_out.put('}');
            return;
        }
        const std::size_t beforeArgs = m_out.buf().size();
        m_args.write(t, s);
        // The producer's other args, as it wrote them, inside the same "args" object.
        if (const std::string extra = m_trace.extraArgs(s); !extra.empty()) {
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
            const std::string& name = m_escaped(c.nameId);
            const std::string& series = m_escaped(c.seriesId);
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
    EscapedNames m_escaped;
    writer::SliceArgsWriter m_args;
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
