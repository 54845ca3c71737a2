#pragma once

// One import of Chrome trace JSON (or a PyTorch profiler / Kineto trace): the state it builds up.
// The import's layers live in files of their own:
//   JsonCursor.h        typed reads of JSON values that say what is wrong and where
//   JsonText.cpp        JSON text checks and simdjson error descriptions (byte positions)
//   RawEvent.h          a decoded event, as plain data (its args by the table in ../ArgKeys.h)
//   EventDecoding.cpp   one JSON event into a RawEvent: fields, args, kept args
//   PhaseAssembler.h    events into slices, instants, counters, flows (B/E, b/e, s/t/f, bind_id),
//                       a class of its own that tests feed RawEvents
//   AssembledEvents.cpp the assembler's output into the model: instants, counters, async ranges
//   KinetoMapping.cpp   categories, devices, streams and processes of every PyTorch vintage
//   WarplineBlock.cpp   our own "warpline" block, for an exact round trip
//   ../ChromeTraceReader.cpp  the document: top-level members, runs of events, the verdict
// Internal to wl_io.

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/ArgKeys.h"
#include "io/ChromeTraceFormat.h"
#include "io/ReadControl.h"
#include "io/TimeText.h"
#include "io/chrome/JsonCursor.h"
#include "io/chrome/PhaseAssembler.h"
#include "io/chrome/ProfilerRows.h"
#include "io/chrome/RawEvent.h"
#include "model/GpuActivity.h"
#include "model/TraceBuilder.h"

namespace wl::io::chrome {

namespace od = simdjson::ondemand;
using format::keyHash;
using model::ProcessIndex;
using model::SliceKind;
using model::StringId;
using model::TimeNs;
using model::TrackIndex;

// The run-at-a-time read met something it does not judge (bad JSON, a failed event array, a
// top level it does not expect): the whole-document read runs instead and gives the verdict.
struct ChunkedGiveUp {};

// The caller's ReadControl said stop: the import unwinds (its builder and everything it made go
// with it) and the reader answers with an Error whose message is kReadCancelled.
struct ReadCancelled {};

// What an event's category says it is.
enum class Cat : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Memory,
    UnifiedMemory,
    Sync,
    Runtime,
    Driver,
    Annotation,
    GpuAnnotation,
    Overhead,
    CpuOp,
    Other,
};

Cat classify(std::string_view cat);

inline bool onGpu(Cat c) {
    return c == Cat::Kernel || c == Cat::Memcpy || c == Cat::Memset || c == Cat::Memory ||
           c == Cat::Sync || c == Cat::GpuAnnotation || c == Cat::UnifiedMemory;
}

// A unified-memory event's detail from its args ("um kind", "bytes", "address", ...): what the
// writer writes for SliceKind::UnifiedMemory (UnifiedMemoryEvents.cpp).
model::UnifiedMemoryDetail unifiedMemoryDetailOf(const EventArgs& a);

// One member of an event's args, as the text has it (both views into the text, which outlives
// the import): the key with its quotes, the value (trimmed; objects and arrays whole).
struct ArgMember {
    std::string_view key;
    std::string_view value;
    bool container = false;  // an object or array: white space inside is dropped when kept
    // The key's row of the arg table (nullptr: none), looked up once for reading and keeping.
    const format::ArgKey* row = nullptr;
};

struct TrackKey {
    Cat cat;
    std::int64_t a;
    std::int64_t b;
    StringId domain;
    bool operator==(const TrackKey&) const = default;
};
struct TrackKeyHash {
    std::size_t operator()(const TrackKey& k) const noexcept {
        return mixHash(mixHash(static_cast<std::uint64_t>(k.a), static_cast<std::uint64_t>(k.b)),
                       (std::uint64_t{k.domain} << 8) | static_cast<std::uint64_t>(k.cat));
    }
};

// One import: owns the builder, reads the document, throws ParseFailure on bad input.
class Importer : private JsonCursor, private PhaseAssembler::Sink {
public:
    // `control`: the caller's cancel flag and progress, polled as the import goes through the
    // text (every kCheckBytes of it); it must outlive the import.
    Importer(const char* base, std::size_t size, const ReadControl& control = kNoControl)
        : m_base(base), m_size(size), m_control(control), m_phases(*this) {}

    model::TracePtr run(od::document& doc);
    // The same over a writable text, a run of events at a time (see JsonCutter.h). Throws
    // ChunkedGiveUp where the whole-document parse must decide (anything but a clean read).
    model::TracePtr runChunked(char* text, std::size_t readableBytes, std::size_t runBytes,
                               bool releaseParsedText);
    std::size_t runsParsed() const { return m_runsParsed; }
    // Where the text has been given back up to (see Runs::textIsFileMapping).
    bool m_releaseParsedText = false;
    std::size_t m_releasedBytes = 0;

private:
    // pid/tid: integers, or strings mapped to stable synthetic ids. A string that is a plain
    // decimal number is that number: the PyTorch 1.8 profiler wrote a thread's id as a string
    // on its slices and as a number on its flow events.
    std::int64_t getProcessOrThreadId(od::value& v, std::string_view what) {
        const char* at = locate(v);
        const od::json_type type = typeOf(v);
        if (type == od::json_type::number)
            return getInt<std::int64_t>(v, what);
        if (type == od::json_type::string) {
            const std::string_view s = getString(v, what);
            std::int64_t number = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), number);
            if (!s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() &&
                number < kStringIdBase && number > -kStringIdBase &&
                std::to_string(number) == s) {  // only the canonical spelling: "007" is a name
                return number;
            }
            auto it = m_stringIds.find(std::string(s));
            if (it == m_stringIds.end()) {
                it = m_stringIds
                         .emplace(std::string(s),
                                  kStringIdBase + static_cast<std::int64_t>(m_stringIds.size()))
                         .first;
                m_stringIdNames.emplace(it->second, it->first);
            }
            return it->second;
        }
        problem(std::string(what) + " must be an integer or a string", at);
    }

    std::uint64_t getFlowId(od::value& v, std::string_view what = "id") {
        const char* at = locate(v);
        const od::json_type type = typeOf(v);
        if (type == od::json_type::string) {
            return kStringFlowIdBit | m_builder.intern(getString(v, what));
        }
        if (type == od::json_type::number) {
            const std::string_view tok = numberText(v, what);
            std::uint64_t out = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), out);
            if (r.ec == std::errc() && r.ptr == tok.data() + tok.size() && out < kStringFlowIdBit) {
                return out;
            }
            return kStringFlowIdBit | m_builder.intern(tok);
        }
        problem(std::string(what) + " must be a number or a string", at);
    }

    void parseArgs(od::value& v, RawEvent& e);
    // `row`: the key's row of the arg table (nullptr: none).
    bool parseArg(std::string_view key, const format::ArgKey* row, od::value& value, RawEvent& e);
    void parseEvent(od::value& v);
    void handleTopLevelField(std::string_view key, od::value& value, bool& haveEvents);
    // What the slice last added to `track` had in the file that the model keeps beside it: its
    // args the model has no field for (all of them, in another producer's file), and with
    // `withOrigin` its row and category there (Trace::origin; another producer's file only).
    // `bandwidthWritten`: export will compute "memory bandwidth (GB/s)" for this slice (a copy
    // or memset with bytes and a duration); otherwise the producer's own value is kept.
    void keepProducerFields(const RawEvent& e, TrackIndex track, SliceKind kind, bool withOrigin,
                            bool bandwidthWritten = false);
    // Another producer's file: events the model has no place for, as written
    // (Trace::keptEvents).
    static void appendMember(std::string& out, const ArgMember& m);
    void keepEvent(const RawEvent& e);
    // The text of the JSON object whose '{' is at `at`, to its closing brace (the document
    // parsed, so it is well formed).
    std::string_view objectTextAt(const char* at) const;
    std::size_t parseEventRuns(char* text, std::size_t open, std::size_t readableBytes,
                               std::size_t runBytes);
    void releaseTextBefore(const char* text, std::size_t end);
    // Reports `doneBytes` of the text read and throws ReadCancelled once the caller asked to
    // stop; does either only when kCheckBytes passed since the last report, so it is cheap to
    // call often. `force`: now, whatever the distance (before the finishing passes).
    void checkpoint(std::size_t doneBytes, bool force = false);
    // checkpoint() for the event at `v`, every few thousand events (the whole-document read,
    // where the position of an event is all that says how far it got).
    void checkpointEvery(od::value& v) {
        if ((++m_eventsSinceCheck & 4095) == 0)
            if (const char* at = locate(v))
                checkpoint(static_cast<std::size_t>(at - m_base));
    }
    void parseEvents(od::value& v);
    void parseDevices(od::value& v);
    void parseWarplineBlock(od::value& v);
    void parseMetadataObject(od::value& v);
    // Keeps a top-level fact of another producer as metadata (strings, numbers and booleans as
    // text); anything else is checked and skipped.
    void keepScalar(const std::string& key, od::value& value);

    // An event left out (a field of the wrong type or value, no "ph"): counted, and the first
    // problem kept for the message (and for the error when no event at all could be read).
    void skipEvent(const FieldProblem& p);
    // PhaseAssembler::Sink: assembled events into the model (KinetoMapping.cpp,
    // AssembledEvents.cpp).
    void addSlice(const RawEvent& e, TimeNs start, TimeNs end) override;
    void addInstant(const RawEvent& e) override;
    void addAsync(const RawEvent& e, TimeNs endNs, SliceKind kind) override;
    void addCounter(const RawEvent& e) override;
    void addMetadata(const RawEvent& e) override { handleMetadataEvent(e); }
    void keepFlowEvent(const RawEvent& e) override { keepEvent(e); }
    void keepUntilEnd(RawEvent& e) override {
        pinStrings(e);
        m_keptMembers = m_members.size();
    }
    void skipEvent(const char* at, std::string why) override { skipEvent({std::move(why), at}); }
    StringId intern(std::string_view text) override { return m_builder.intern(text); }
    void addFlow(std::uint64_t id, TrackIndex from, TimeNs fromNs, TrackIndex to,
                 TimeNs toNs) override {
        m_builder.addFlow(id, from, fromNs, to, toNs);
    }
    model::Diagnostics& diagnostics() override { return m_builder.diagnostics(); }
    bool ownExport() const override { return m_warpline; }
    bool ownRowTrack(std::int64_t pid, std::int64_t tid, TrackIndex& track) override;
    // The PyTorch profiler's "[memory]" instant of a CUDA device: a sample of that device's
    // derived "Device memory" row (the allocator's totals).
    void addMemorySample(const RawEvent& e);
    void handleMetadataEvent(const RawEvent& e);
    void finish();
    // finish() and the builder's passes, with the cancel flag looked at between them.
    model::TracePtr finishAndBuild();

    TrackIndex trackFor(const RawEvent& e, Cat cat);
    // Of the tracks written on one row, the one an event of this category belongs to.
    TrackIndex sharedRowTrack(const std::vector<TrackIndex>& tracks, const RawEvent& e, Cat cat);
    ProcessIndex hostProcess(std::int64_t pid);
    ProcessIndex gpuProcessFor(const RawEvent& e);
    // The device and stream of a GPU event (an error for a device that is no CUDA ordinal).
    model::ActivityPlace placeOf(const RawEvent& e);
    std::int32_t deviceForPid(std::int64_t pid) const;
    std::int64_t streamOf(const RawEvent& e) const;

    static constexpr std::size_t kCheckBytes = std::size_t{4} << 20;
    static inline const ReadControl kNoControl{};

    const char* m_base;
    od::document* m_doc = nullptr;  // the document being read (a run, a member, or the whole)
    std::size_t m_runsParsed = 0;
    std::size_t m_size;
    const ReadControl& m_control;
    std::size_t m_nextCheckAt = 0;  // checkpoint() reports again at this byte
    std::uint32_t m_eventsSinceCheck = 0;
    model::TraceBuilder m_builder;
    // GPU activities (kernels, copies, memsets, syncs, memory, API calls): their rows and details
    // as every source makes them; Kineto's processes are named by its metadata.
    model::GpuActivityMapper m_activities{
        m_builder, model::GpuActivityMapper::Options{.nameGpuProcesses = false}};
    // The PyTorch profiler's own spans, markers and overhead, in a group of their own.
    ProfilerRows m_profilerRows{m_builder};

    bool m_eventsSeen = false;
    TimeNs m_baseNs = 0;
    const char* m_baseAt = nullptr;
    TimeNs m_earliestNs = std::numeric_limits<TimeNs>::max();  // of slices and counter samples
    bool m_warpline = false;  // our own export: tracks come from the "warpline" block
    // Our export of another producer's trace: its events are that producer's, the block has
    // the diagnostics of its first import.
    bool m_producerRowsBlock = false;
    std::optional<model::Diagnostics> m_blockDiagnostics;
    bool m_ourMetadata = false;     // "warplineMetadata" seen
    bool m_foreignGpuData = false;  // Kineto-like content, for the "producer" metadata
    std::map<std::string, std::string> m_foreignMetadata;
    std::vector<std::pair<std::string_view, double>> m_series;  // C event args

    // Our exports: (pid, tid) -> track, pid -> process.
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, TrackIndex, PairHash> m_tidTracks;
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::vector<TrackIndex>, PairHash>
        m_sharedRows;
    std::unordered_map<std::int64_t, ProcessIndex> m_pidProcesses;
    std::unordered_map<std::int64_t, std::int32_t> m_pidDevices;
    // Per CUDA device: its "Device memory" counters (in use, reserved) from "[memory]" instants.
    std::map<std::int64_t, std::pair<std::uint32_t, std::uint32_t>> m_memoryCounters;

    // Any producer: tracks created on demand.
    std::unordered_map<TrackKey, TrackIndex, TrackKeyHash> m_tracks;
    TrackKey m_lastKey{Cat::Other, std::numeric_limits<std::int64_t>::min(), 0, 0};
    TrackIndex m_lastTrack = 0;
    std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, TrackIndex>> m_hostTracks;
    std::map<std::int64_t, std::string> m_processNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_threadNames;
    std::unordered_map<std::string, std::int64_t> m_stringIds;
    std::unordered_map<std::int64_t, std::string> m_stringIdNames;
    std::unordered_map<std::int64_t, ProcessIndex> m_hostProcesses;

    // Events kept until the end (an open "B" or "b") keep their strings: a string with escapes
    // is unescaped into the parser's buffer, which the next run of events reuses.
    void pinStrings(RawEvent& e) {
        auto pin = [&](std::string_view& v) {
            if (v.empty() || (v.data() >= m_base && v.data() + v.size() <= m_base + m_size))
                return;  // in the text itself, which outlives the import
            v = m_pinned.emplace_back(v);
        };
        for (std::string_view* v :
             {&e.name, &e.cat, &e.scope, &e.bindPoint, &e.args.copyKind, &e.args.srcKind,
              &e.args.dstKind, &e.args.memoryKind, &e.args.syncKind, &e.args.domain, &e.args.name,
              &e.args.categoryName, &e.args.umKind, &e.args.umCause, &e.args.umAccess}) {
            pin(*v);
        }
    }
    std::deque<std::string> m_pinned;

    // Args members of the event being read, and before them those of events kept until the end
    // (open "B" and "b"): see RawEvent::membersBegin.
    std::vector<ArgMember> m_members;
    std::size_t m_keptMembers = 0;
    std::string m_extraScratch;
    std::string m_modelArgsScratch;

    // Names: the last few interned, by content. Cleared at every run of events (the views may
    // be into the parser's buffer).
    std::string_view m_lastName;
    StringId m_lastNameId = 0;
    std::string_view m_lastCat;
    Cat m_lastCatClass = Cat::Other;
    std::string_view m_lastOriginCat;
    StringId m_lastOriginCatId = 0;

    // Events of the document, events left out, and the first reason one was.
    std::uint64_t m_eventCount = 0;
    std::uint64_t m_skippedCount = 0;
    std::uint64_t m_emptyEvents = 0;  // "{}": Chrome's writer ends its array with one
    std::optional<FieldProblem> m_firstSkip;
    std::uint64_t m_ignoredArgs = 0;  // args of an unexpected type, left out of their event
    std::optional<FieldProblem> m_firstIgnoredArg;
    const char* m_eventsAt = nullptr;  // the event array, for "no events" errors
    PhaseAssembler m_phases;
};

}  // namespace wl::io::chrome
