#pragma once

// One import of Chrome trace JSON (or a PyTorch profiler / Kineto trace): the state it builds up.
// The import's layers live in files of their own:
//   JsonCursor.h        typed reads of JSON values that say what is wrong and where
//   JsonText.cpp        JSON text checks and simdjson error descriptions (byte positions)
//   EventDecoding.cpp   one JSON event into a RawEvent: fields, args, kept args
//   PhaseAssembly.cpp   events into slices, instants, counters, flows (B/E, b/e, s/t/f, bind_id)
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
#include "io/TimeText.h"
#include "io/chrome/JsonCursor.h"
#include "model/TraceBuilder.h"

namespace wl::io::chrome {

namespace od = simdjson::ondemand;
using format::keyHash;
using model::ProcessIndex;
using model::SliceKind;
using model::StringId;
using model::TimeNs;
using model::TrackIndex;

// String pids/tids ("Spans", "PyTorch Profiler") become numbers above any OS id.
constexpr std::int64_t kStringIdBase = model::kSyntheticIdBase;
// Ids of flows/async events given as strings live above numeric ones.
constexpr std::uint64_t kStringFlowIdBit = std::uint64_t{1} << 63;
// The process key of async events with a global id ("id2": {"global": ...}).
constexpr std::int64_t kGlobalScope = std::numeric_limits<std::int64_t>::min();

// The run-at-a-time read met something it does not judge (bad JSON, a failed event array, a
// top level it does not expect): the whole-document read runs instead and gives the verdict.
struct ChunkedGiveUp {};

// Marks a slice whose "B" never met its "E": it ends with its thread's last event.
constexpr std::string_view kUnclosedSuffix = " (unclosed)";

// What an event's category says it is.
enum class Cat : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Memory,
    Sync,
    Runtime,
    Driver,
    Annotation,
    GpuAnnotation,
    Overhead,
    Other,
};

Cat classify(std::string_view cat);

// Launch arrows (API call -> GPU work) keyed by correlation id, of every PyTorch profiler vintage.
inline bool isLaunchFlowCat(std::string_view cat) {
    return cat == format::kCatLaunchFlow || cat == format::kCatLaunchFlowLegacy ||
           cat == format::kCatLaunchFlowOldest || cat == format::kCatLaunchFlowCpuToGpu;
}

inline bool onGpu(Cat c) {
    return c == Cat::Kernel || c == Cat::Memcpy || c == Cat::Memset || c == Cat::Memory ||
           c == Cat::Sync || c == Cat::GpuAnnotation;
}

// Presence bits of EventArgs fields: a field's bit is its number in the args table (ArgKeys.h).
enum ArgBit : std::uint64_t {
    kArgCorrelation = format::argBit(format::ArgField::Correlation),
    kArgDevice = format::argBit(format::ArgField::Device),
    kArgStream = format::argBit(format::ArgField::Stream),
    kArgWaitOnStream = format::argBit(format::ArgField::WaitOnStream),
    kArgEventId = format::argBit(format::ArgField::EventId),
    kArgCbid = format::argBit(format::ArgField::Cbid),
    kArgReturnCode = format::argBit(format::ArgField::ReturnCode),
    kArgSrcDevice = format::argBit(format::ArgField::SrcDevice),
    kArgDstDevice = format::argBit(format::ArgField::DstDevice),
    kArgCategory = format::argBit(format::ArgField::Category),
    kArgSortIndex = format::argBit(format::ArgField::SortIndex),
    kArgBytes = format::argBit(format::ArgField::Bytes),
    kArgValue = format::argBit(format::ArgField::Value),
    kArgGrid = format::argBit(format::ArgField::Grid),
    kArgBlock = format::argBit(format::ArgField::Block),
    kArgRegisters = format::argBit(format::ArgField::Registers),
    kArgSharedTotal = format::argBit(format::ArgField::SharedTotal),
    kArgSharedStatic = format::argBit(format::ArgField::SharedStatic),
    kArgSharedDynamic = format::argBit(format::ArgField::SharedDynamic),
    kArgWarps = format::argBit(format::ArgField::Warps),
    kArgOccupancy = format::argBit(format::ArgField::Occupancy),
    kArgCopyKind = format::argBit(format::ArgField::CopyKind),
    kArgSrcKind = format::argBit(format::ArgField::SrcKind),
    kArgDstKind = format::argBit(format::ArgField::DstKind),
    kArgMemoryKind = format::argBit(format::ArgField::MemoryKind),
    kArgSyncKind = format::argBit(format::ArgField::SyncKind),
    kArgDomain = format::argBit(format::ArgField::Domain),
    kArgName = format::argBit(format::ArgField::Name),
    kArgColor = format::argBit(format::ArgField::Color),
    kArgPayload = format::argBit(format::ArgField::Payload),
    kArgCategoryName = format::argBit(format::ArgField::CategoryName),
    kArgWaitOnRecord = format::argBit(format::ArgField::WaitOnRecord),
    kArgGraphId = format::argBit(format::ArgField::GraphId),
    kArgGraphNodeId = format::argBit(format::ArgField::GraphNodeId),
    kArgMemoryOp = format::argBit(format::ArgField::MemoryOp),
    kArgAddress = format::argBit(format::ArgField::Address),
    kArgPoolAddress = format::argBit(format::ArgField::PoolAddress),
    kArgPoolReserve = format::argBit(format::ArgField::PoolReserve),
    kArgDeviceType = format::argBit(format::ArgField::DeviceType),
    kArgDeviceId = format::argBit(format::ArgField::DeviceId),
    kArgTotalAllocated = format::argBit(format::ArgField::TotalAllocated),
    kArgTotalReserved = format::argBit(format::ArgField::TotalReserved),
};

// The args we understand (Kineto's names and ours). Views point into the parser's buffers,
// valid for the whole document.
struct EventArgs {
    std::uint64_t has = 0;
    std::int64_t correlation = 0;
    std::int64_t device = -1;
    std::int64_t stream = -1;
    std::int64_t waitOnStream = -1;
    std::int64_t waitOnRecord = -1;  // the awaited cudaEventRecord's correlation id
    std::uint64_t graphId = 0;       // the CUDA graph (and node) that ran a GPU op
    std::uint64_t graphNodeId = 0;
    std::uint64_t address = 0;  // a memory operation's allocation, and its pool
    std::uint64_t poolAddress = 0;
    std::uint64_t poolReserve = 0;
    std::int64_t deviceType = -1;  // "[memory]": 1 is CUDA; its device, in use and reserved bytes
    std::int64_t deviceId = -1;
    std::int64_t totalAllocated = 0;
    std::int64_t totalReserved = 0;
    std::int64_t eventId = -1;
    std::int64_t cbid = 0;
    std::int64_t returnCode = 0;
    std::int64_t srcDevice = -1;
    std::int64_t dstDevice = -1;
    std::int64_t category = 0;
    std::int64_t sortIndex = 0;
    std::uint64_t bytes = 0;
    std::uint64_t value = 0;
    std::int64_t registers = 0;
    std::int64_t sharedTotal = 0;
    std::int64_t sharedStatic = 0;
    std::int64_t sharedDynamic = 0;
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    float warps = -1.0f;
    float occupancy = -1.0f;
    std::uint32_t color = 0;
    double payload = 0.0;
    std::string_view copyKind, srcKind, dstKind, memoryKind, memoryOp, syncKind, domain, name,
        categoryName;

    bool hasAll(std::uint64_t bits) const { return (has & bits) == bits; }
    bool hasAny(std::uint64_t bits) const { return (has & bits) != 0; }

    // The field the args table names for a decoded value of its row's type (and its presence
    // bit): the reader's half of ArgKeys.h.
    void set(format::ArgField field, std::int64_t v);
    void set(format::ArgField field, std::uint64_t v);
    void set(format::ArgField field, float v);
    void set(format::ArgField field, double v);
    void set(format::ArgField field, std::string_view v);
    // grid or block, read in place (a short array keeps the rest): the caller sets the bit.
    std::array<std::int32_t, 3>& triple(format::ArgField field) {
        return field == format::ArgField::Grid ? grid : block;
    }
};

struct RawEvent {
    const char* at = nullptr;  // the event's '{'
    char ph = 0;
    bool phaseKnown = false;  // a one-character phase
    bool hasTs = false;
    bool hasId = false;
    bool globalId = false;   // "id2": {"global": ...}: one id space across processes
    bool hasCat = false;     // "cat" was given
    bool pidQuoted = false;  // pid, tid given as strings
    bool tidQuoted = false;
    bool hasBindId = false;
    bool flowIn = false;   // flow v2: this slice ends (or continues) flow `bindId`
    bool flowOut = false;  // flow v2: this slice starts (or continues) flow `bindId`
    std::string_view name, cat, scope, bindPoint;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    TimeNs ts = 0;
    TimeNs dur = 0;
    std::uint64_t id = 0;
    std::uint64_t bindId = 0;
    EventArgs args;
    // Its args as written, [membersBegin, +membersCount) of Importer::m_members: those the
    // writer does not write back for the slice's kind are kept with it (Trace::extraArgs).
    std::uint32_t membersBegin = 0;
    std::uint32_t membersCount = 0;
};

// One member of an event's args, as the text has it (both views into the text, which outlives
// the import): the key with its quotes, the value (trimmed; objects and arrays whole).
struct ArgMember {
    std::string_view key;
    std::string_view value;
    bool container = false;  // an object or array: white space inside is dropped when kept
};

struct FlowEvent {
    const char* at;
    char ph;
    bool launch;    // a launch arrow of the PyTorch profiler (correlation id)
    bool bindNext;  // an "f" without "bp":"e": binds to the next slice that begins on its thread
    StringId cat;
    std::uint64_t id;
    std::int64_t pid;
    std::int64_t tid;
    TimeNs ts;
};

// A slice that carries a flow v2 endpoint ("bind_id" with "flow_in"/"flow_out").
struct BoundFlowEnd {
    std::uint64_t id;
    bool in;
    bool out;
    std::int64_t pid;
    std::int64_t tid;
    TimeNs startNs;
};

// A "B" or "E" of one thread, kept until the end: they pair in time order, not file order.
struct BeginEnd {
    TimeNs ts;
    std::uint32_t begin;  // index into Importer::m_begins; kNoBegin for an "E"
};
constexpr std::uint32_t kNoBegin = std::numeric_limits<std::uint32_t>::max();

// Unsigned arithmetic: hashing must not overflow a signed type.
inline std::size_t mixHash(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ull) ^
                                    (b + 0x7F4A7C15ull + (a << 6) + (a >> 2)));
}

struct PairHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const noexcept {
        return mixHash(static_cast<std::uint64_t>(p.first), static_cast<std::uint64_t>(p.second));
    }
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
class Importer : private JsonCursor {
public:
    Importer(const char* base, std::size_t size) : m_base(base), m_size(size) {}

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
    bool parseArg(std::string_view key, od::value& value, RawEvent& e);
    void parseEvent(od::value& v);
    void handleTopLevelField(std::string_view key, od::value& value, bool& haveEvents);
    // `bandwidthWritten`: export will compute "memory bandwidth (GB/s)" for this slice (a copy
    // or memset with bytes and a duration); otherwise the producer's own value is kept.
    void keepExtraArgs(const RawEvent& e, TrackIndex track, SliceKind kind,
                       bool bandwidthWritten = false);
    // Another producer's file: the row and category of the slice last added to `track`
    // (Trace::origin), and events the model has no place for, as written (Trace::keptEvents).
    void keepOrigin(const RawEvent& e, TrackIndex track);
    static void appendMember(std::string& out, const ArgMember& m);
    void keepEvent(const RawEvent& e);
    // The text of the JSON object whose '{' is at `at`, to its closing brace (the document
    // parsed, so it is well formed).
    std::string_view objectTextAt(const char* at) const;
    std::size_t parseEventRuns(char* text, std::size_t open, std::size_t readableBytes,
                               std::size_t runBytes);
    void releaseTextBefore(const char* text, std::size_t end);
    void parseEvents(od::value& v);
    void parseDevices(od::value& v);
    void parseWarplineBlock(od::value& v);
    void parseMetadataObject(od::value& v);
    // Keeps a top-level fact of another producer as metadata (strings, numbers and booleans as
    // text); anything else is checked and skipped.
    void keepScalar(const std::string& key, od::value& value);

    void handleEvent(RawEvent& e);
    // An event left out (a field of the wrong type or value, no "ph"): counted, and the first
    // problem kept for the message (and for the error when no event at all could be read).
    void skipEvent(const FieldProblem& p);
    void noteThreadTime(const RawEvent& e, TimeNs endNs);
    void pairBeginsAndEnds();
    void resolveBoundFlows();
    void addSlice(const RawEvent& e, TimeNs start, TimeNs end);
    void addInstant(const RawEvent& e);
    // The PyTorch profiler's "[memory]" instant of a CUDA device: a sample of that device's
    // derived "Device memory" row (the allocator's totals).
    void addMemorySample(const RawEvent& e);
    void addCounter(const RawEvent& e);
    void handleMetadataEvent(const RawEvent& e);
    void resolveFlows();
    void finish();
    // Where a flow end binds on its thread: the track of the slice that encloses `ts`, or of the
    // next slice that begins at or after it (whose start replaces `ts`).
    void sortSliceStarts();
    bool enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                        TrackIndex& track);
    bool nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts, TrackIndex& track);

    TrackIndex trackFor(const RawEvent& e, Cat cat);
    // Of the tracks written on one row, the one an event of this category belongs to.
    TrackIndex sharedRowTrack(const std::vector<TrackIndex>& tracks, const RawEvent& e, Cat cat);
    ProcessIndex hostProcess(std::int64_t pid);
    ProcessIndex gpuProcessFor(const RawEvent& e);
    std::int32_t deviceForPid(std::int64_t pid) const;
    std::int64_t streamOf(const RawEvent& e) const;

    const char* m_base;
    od::document* m_doc = nullptr;  // the document being read (a run, a member, or the whole)
    std::size_t m_runsParsed = 0;
    std::size_t m_size;
    model::TraceBuilder m_builder;

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
              &e.args.categoryName}) {
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

    // B/E per (pid, tid), paired at the end; b/e stacks per (pid, cat, id) (pid kGlobalScope
    // for "id2" global ids).
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::vector<BeginEnd>, PairHash>
        m_beginEnds;
    std::vector<RawEvent> m_begins;
    // End of the last event seen on each thread: where a "B" that never ends is closed.
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, TimeNs, PairHash> m_threadEndNs;
    std::deque<std::string> m_ownedNames;  // names made here (unclosed slices); stable storage
    std::map<std::tuple<std::int64_t, StringId, std::uint64_t>, std::vector<RawEvent>> m_openAsync;
    std::vector<FlowEvent> m_flows;
    std::vector<BoundFlowEnd> m_boundFlows;

    // Events of the document, events left out, and the first reason one was.
    std::uint64_t m_eventCount = 0;
    std::uint64_t m_skippedCount = 0;
    std::uint64_t m_emptyEvents = 0;  // "{}": Chrome's writer ends its array with one
    std::optional<FieldProblem> m_firstSkip;
    std::uint64_t m_ignoredArgs = 0;  // args of an unexpected type, left out of their event
    std::optional<FieldProblem> m_firstIgnoredArg;
    std::uint64_t m_strayEnds = 0;
    std::vector<std::uint64_t> m_gpuCorrelations;
    // Other producers' files: where each slice started, to bind flow ends (see resolveFlows).
    struct SliceStart {
        std::int64_t pid;
        std::int64_t tid;
        TimeNs startNs;
        TrackIndex track;
        TimeNs endNs;
    };
    std::vector<SliceStart> m_sliceStarts;
    bool m_startsSorted = false;
    // After sorting: the latest end of the thread's slices up to each entry, so whether any of
    // them still runs at a time is one comparison.
    std::vector<TimeNs> m_coverEndNs;
    std::unordered_set<TrackIndex> m_apiTracks;
    std::uint64_t m_looseFlowEvents = 0;
    std::uint64_t m_looseLaunchEvents = 0;
    const char* m_eventsAt = nullptr;  // the event array, for "no events" errors
};

}  // namespace wl::io::chrome
