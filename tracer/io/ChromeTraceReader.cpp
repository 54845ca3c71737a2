#include "io/ChromeTraceReader.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/ChromeTraceFormat.h"
#include "io/JsonCutter.h"
#include "io/TimeText.h"
#include "io/chrome/Importer.h"
#include "io/chrome/LooseFlowNotes.h"
#include "model/TraceBuilder.h"

namespace wl::io::chrome {

static_assert(ChromeTraceReader::kPadding >= simdjson::SIMDJSON_PADDING);

void Importer::finish() {
    m_phases.pairBeginsAndEnds();
    auto& d = m_builder.diagnostics();
    const std::uint64_t readable = m_eventCount - m_skippedCount - m_emptyEvents;
    // Our own export of a trace that showed nothing (its events all left out or unpaired) is
    // still that trace: it reads back as it was written.
    if (readable == 0 && !m_warpline) {
        // Nothing to show is an error, never an empty window: say why the events were refused.
        if (m_firstSkip) {
            fail(m_firstSkip->message + (m_skippedCount > 1 ? " (and no other event could be read)"
                                                            : " (the only event)"),
                 m_firstSkip->at);
        }
        fail("the trace holds no events", m_eventsAt ? m_eventsAt : m_base);
    }
    // The trace's origin is base + earliest event: it must be an int64 too.
    TimeNs origin = 0;
    if (m_earliestNs != std::numeric_limits<TimeNs>::max() &&
        __builtin_add_overflow(m_baseNs, m_earliestNs, &origin)) {
        fail("baseTimeNanoseconds plus the earliest timestamp is out of range", m_baseAt);
    }
    auto at = [&](const char* p) { return std::to_string(p - m_base); };
    if (m_skippedCount > 0) {
        d.skippedEvents += m_skippedCount;
        d.warn(std::to_string(m_skippedCount) +
               " event(s) could not be read and were left out; the first, at byte " +
               at(m_firstSkip->at) + ": " + m_firstSkip->message);
    }
    if (m_emptyEvents > 0)
        d.note(std::to_string(m_emptyEvents) + " empty {} event(s) were ignored");
    if (m_ignoredArgs > 0) {
        d.note(std::to_string(m_ignoredArgs) +
               " arg(s) of an unexpected type were ignored; the first, at byte " +
               at(m_firstIgnoredArg->at) + ": " + m_firstIgnoredArg->message);
    }
    const std::uint64_t unended = m_phases.unendedAsync();
    if (unended > 0) {
        d.unmatchedEnds += unended;
        d.note(std::to_string(unended) + " async event(s) never ended");
    }
    if (d.unknownPhases > 0 && !m_warpline) {
        d.note(std::to_string(d.unknownPhases) + " event(s) of unsupported phases were skipped");
    }
    m_phases.resolveFlows();
    m_phases.resolveBoundFlows();
    // Routine in PyTorch profiler files: arrows of CUDA calls whose GPU work is not in the trace
    // (calls that launch none, work outside the profiling window). Listed, with the reason each
    // was left out, so they can be found in the file and on the timeline.
    const LooseFlowContext flowContext{
        m_builder.pending(), m_stringIdNames,
        m_earliestNs == std::numeric_limits<TimeNs>::max() ? 0 : m_earliestNs};
    noteLooseFlows(d, m_phases.looseLaunchFlows(), true, flowContext);
    noteLooseFlows(d, m_phases.looseFlows(), false, flowContext);
    if (!m_warpline) {
        for (const auto& [id, name] : m_stringIdNames)
            m_builder.setIdName(id, name);  // how an export writes these ids back
        for (const auto& [pid, name] : m_processNames) {
            if (auto it = m_hostProcesses.find(pid); it != m_hostProcesses.end()) {
                m_builder.setProcessName(it->second, name);
            }
        }
        for (const auto& [key, track] : m_hostTracks) {
            if (auto it = m_threadNames.find(key); it != m_threadNames.end()) {
                m_builder.setTrackName(track, it->second);
            } else if (auto named = m_stringIdNames.find(key.second);
                       named != m_stringIdNames.end() && !named->second.empty()) {
                m_builder.setTrackName(track, named->second);  // a tid written as a name
            }
        }
    }
    if (!m_ourMetadata) {
        for (auto& [k, val] : m_foreignMetadata)
            m_builder.setMetadata(k, val);
        if (!m_foreignMetadata.count("producer")) {
            m_builder.setMetadata(
                "producer", m_foreignGpuData ? "PyTorch profiler (Kineto)" : "Chrome trace JSON");
        }
    }
    if (m_blockDiagnostics)
        d = *m_blockDiagnostics;  // the first import's, which this one repeats
}

void Importer::handleTopLevelField(std::string_view key, od::value& value, bool& haveEvents) {
    switch (keyHash(key)) {
        case keyHash(format::kTraceEvents):
            if (key == format::kTraceEvents) {
                parseEvents(value);
                haveEvents = true;
                return;
            }
            break;
        case keyHash(format::kDeviceProperties):
            if (key == format::kDeviceProperties) {
                parseDevices(value);
                m_foreignGpuData = true;
                return;
            }
            break;
        case keyHash(format::kBaseTime):
            if (key == format::kBaseTime) {
                m_baseAt = value.raw_json_token().data();
                m_baseNs = getInt<std::int64_t>(value, key);
                m_builder.setBaseTimeNs(m_baseNs);
                return;
            }
            break;
        case keyHash(format::kMetadata):
            if (key == format::kMetadata) {
                parseMetadataObject(value);
                return;
            }
            break;
        case keyHash(format::kWarpline):
            if (key == format::kWarpline) {
                parseWarplineBlock(value);
                return;
            }
            break;
        case keyHash(format::kDistributedInfo):
            if (key == format::kDistributedInfo) {
                // Which rank of which job wrote the file (Kineto: backend, rank,
                // world_size): kept as metadata, so a job's traces can be told apart.
                if (typeOf(value) == od::json_type::object) {
                    // And as written, for an export of this trace (Trace::distributedInfo).
                    m_builder.setDistributedInfo(std::string(objectTextAt(locate(value))));
                    for (auto info : value.get_object()) {
                        od::value v = info.value();
                        keepScalar(std::string(keyText(info)), v);
                    }
                } else {
                    skipValue(value, 1);
                }
                return;
            }
            break;
        case keyHash("displayTimeUnit"):
        case keyHash("schemaVersion"):
            skipValue(value, 1);
            return;
        default:
            break;
    }
    // Other producers' top-level facts (trace_id, cuda_runtime_version, ...) are kept as
    // metadata; structures we do not read are checked and skipped.
    keepScalar(std::string(key), value);
}

model::TracePtr Importer::run(od::document& doc) {
    m_doc = &doc;
    od::json_type rootType;
    if (const auto err = doc.type().get(rootType)) {
        const char* at = nullptr;
        if (doc.current_location().get(at) != simdjson::SUCCESS)
            at = m_base;
        failJson(err, at);
    }
    if (rootType == od::json_type::array) {
        // An array document: iterate it as the event list.
        od::array arr = doc.get_array();
        m_eventsSeen = true;
        m_eventsAt = m_base;
        for (auto element : arr) {
            od::value event = element.value();
            checkpointEvery(event);
            parseEvent(event);
        }
    } else if (rootType == od::json_type::object) {
        od::object obj = doc.get_object();
        bool haveEvents = false;
        for (auto field : obj) {
            const std::string_view key = keyText(field);
            od::value value = field.value();
            handleTopLevelField(key, value, haveEvents);
        }
        if (!haveEvents)
            fail("no \"traceEvents\" array in the JSON object", m_base);
    } else {
        fail("expected a JSON array of events or an object with \"traceEvents\"", m_base);
    }
    // current_location() fails with OUT_OF_BOUNDS exactly when the whole text was consumed.
    if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS) {
        fail("unexpected content after the JSON document", at);
    }
    return finishAndBuild();
}

void Importer::checkpoint(std::size_t doneBytes, bool force) {
    if (doneBytes < m_nextCheckAt && !force)
        return;
    m_nextCheckAt = doneBytes + kCheckBytes;
    if (m_control.cancelled())
        throw ReadCancelled{};
    m_control.report(doneBytes, m_size, m_builder.sliceCount());
}

model::TracePtr Importer::finishAndBuild() {
    // The passes of a large trace take a while too: the flag is looked at between them.
    checkpoint(m_size, true);
    finish();
    checkpoint(m_size, true);
    model::TracePtr trace = m_builder.finalizeUnlessCancelled(m_control.cancel);
    if (!trace)
        throw ReadCancelled{};
    return trace;
}

namespace {

bool isJsonSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::size_t skipSpace(const char* text, std::size_t size, std::size_t pos) {
    while (pos < size && isJsonSpace(text[pos]))
        ++pos;
    return pos;
}

// Puts two bytes back when it goes: the reader borrows the separators around a run (or a
// top-level member) as the brackets that make it a document of its own.
class BorrowedBrackets {
public:
    BorrowedBrackets(char* text, std::size_t open, char openAs, std::size_t close, char closeAs)
        : m_text(text),
          m_open(open),
          m_close(close),
          m_openWas(text[open]),
          m_closeWas(text[close]) {
        text[open] = openAs;
        text[close] = closeAs;
    }
    ~BorrowedBrackets() {
        m_text[m_open] = m_openWas;
        m_text[m_close] = m_closeWas;
    }
    BorrowedBrackets(const BorrowedBrackets&) = delete;
    BorrowedBrackets& operator=(const BorrowedBrackets&) = delete;

private:
    char* m_text;
    std::size_t m_open, m_close;
    char m_openWas, m_closeWas;
};

}  // namespace

// Gives the pages of the mapped text before `end` back to the system: they read back from the
// file if anything looks at them again (a kept name of an open "B", a later diagnostic).
void Importer::releaseTextBefore(const char* text, std::size_t end) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<std::uintptr_t>(text);
    const std::uintptr_t first = (base + m_releasedBytes + page - 1) / page * page;
    const std::uintptr_t last = (base + end) / page * page;
    if (last > first + (std::size_t{16} << 20)) {  // in steps of 16 MB: few calls
        ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
        m_releasedBytes = last - base;
    }
}

// Where the runs of one event array end, found on a thread of its own while the caller parses
// the runs already found (on two cores the cutting costs no time). Cuts are published in order;
// the caller only ever writes at positions the cutter has passed. The cutter stays at most
// kRunsAhead runs ahead of the caller: the pages it reads are the file's, resident until the
// caller is done with them (releaseTextBefore), so a cutter far ahead would hold most of a big
// file in memory.
class RunCutter {
public:
    static constexpr std::size_t kRunsAhead = 16;

    RunCutter(std::string_view text, std::size_t first, std::size_t runBytes)
        : m_cuts(text.size() / runBytes + 2, std::string_view::npos),
          m_thread([this, text, first, runBytes] { cutAll(text, first, runBytes); }) {}
    ~RunCutter() {
        m_stop.store(true, std::memory_order_relaxed);
        parsed(m_cuts.size());  // wakes a cutter waiting for the caller
        m_thread.join();
    }
    RunCutter(const RunCutter&) = delete;
    RunCutter& operator=(const RunCutter&) = delete;

    // The end of run `i` (npos: the text ended first); waits until it is known.
    std::size_t cut(std::size_t i) {
        if (i >= m_cuts.size())
            return std::string_view::npos;
        std::size_t known = m_published.load(std::memory_order_acquire);
        while (known <= i) {
            m_published.wait(known, std::memory_order_acquire);
            known = m_published.load(std::memory_order_acquire);
        }
        return m_cuts[i];
    }
    // The caller is done with runs before `i`.
    void parsed(std::size_t i) {
        m_parsed.store(i, std::memory_order_release);
        m_parsed.notify_one();
    }

private:
    void cutAll(std::string_view text, std::size_t from, std::size_t runBytes) {
        for (std::size_t i = 0; i < m_cuts.size() && !m_stop.load(std::memory_order_relaxed); ++i) {
            for (std::size_t done = m_parsed.load(std::memory_order_acquire);
                 i > done + kRunsAhead && !m_stop.load(std::memory_order_relaxed);
                 done = m_parsed.load(std::memory_order_acquire))
                m_parsed.wait(done, std::memory_order_acquire);
            const std::size_t cut = nextMemberCut(text, from, runBytes);
            // Read before publishing: once published, the caller may put its bracket at `cut`
            // (BorrowedBrackets), and reading it afterwards made the cutter stop early under load
            // (the caller then gave up and read the whole document: same result, no runs).
            const bool more = cut != std::string_view::npos && text[cut] == ',';
            m_cuts[i] = cut;
            m_published.store(i + 1, std::memory_order_release);
            m_published.notify_one();
            if (!more)
                break;
            from = cut + 1;
        }
        // A count the caller can never wait past (the last cut ends the array or the text).
        m_published.store(m_cuts.size(), std::memory_order_release);
        m_published.notify_one();
    }

    std::vector<std::size_t> m_cuts;
    std::atomic<std::size_t> m_published{0};
    std::atomic<std::size_t> m_parsed{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;  // last: starts once the members above exist
};

// The events of the array whose '[' is at `open`, a run of about `runBytes` at a time, each run
// parsed as a document of its own with one parser whose index is reused. Returns the position
// of the array's ']'.
std::size_t Importer::parseEventRuns(char* text, std::size_t open, std::size_t readableBytes,
                                     std::size_t runBytes) {
    m_eventsSeen = true;
    m_eventsAt = text + open;
    if (!m_warpline) {
        const std::size_t estimate = m_size / 256;  // as in parseEvents
        m_phases.reserve(estimate);
    }
    RunCutter cutter(std::string_view(text, m_size), open + 1, runBytes);
    od::parser parser;
    std::size_t from = open + 1;
    for (std::size_t i = 0;; ++i) {
        const std::size_t cut = cutter.cut(i);
        // The cutter only counts brackets: a '}' closing the array is for the whole read to judge.
        if (cut == std::string_view::npos || (text[cut] != ',' && text[cut] != ']'))
            throw ChunkedGiveUp{};
        // A blank run after a separator is a trailing or doubled comma: the whole read says so.
        if (i > 0 && skipSpace(text, m_size, from) == cut)
            throw ChunkedGiveUp{};
        const bool last = text[cut] == ']';
        m_lastName = {};
        m_lastNameId = 0;  // ""
        m_lastCat = {};
        m_lastOriginCat = {};
        m_lastOriginCatId = 0;
        m_lastCatClass = classify({});
        {
            const BorrowedBrackets brackets(text, from - 1, '[', cut, ']');
            const simdjson::padded_string_view run(text + from - 1, cut - from + 2,
                                                   readableBytes - (from - 1));
            od::document doc;
            m_doc = &doc;
            od::array arr;
            if (parser.iterate(run).get(doc) || doc.get_array().get(arr))
                throw ChunkedGiveUp{};
            for (auto element : arr) {
                od::value event;
                if (element.get(event))
                    throw ChunkedGiveUp{};
                parseEvent(event);
            }
            if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS)
                throw ChunkedGiveUp{};
        }
        ++m_runsParsed;
        cutter.parsed(i + 1);
        checkpoint(cut);
        if (m_releaseParsedText)
            releaseTextBefore(text, from);
        if (last)
            return cut;
        from = cut + 1;
    }
}

model::TracePtr Importer::runChunked(char* text, std::size_t readableBytes, std::size_t runBytes,
                                     bool releaseParsedText) {
    m_releaseParsedText = releaseParsedText;
    const std::size_t size = m_size;
    std::size_t pos = skipSpace(text, size, 0);
    if (pos < size && text[pos] == '[') {
        pos = parseEventRuns(text, pos, readableBytes, runBytes) + 1;
    } else if (pos < size && text[pos] == '{') {
        // Each top-level member in document order: "traceEvents" a run at a time, any other
        // member parsed as a one-member object of its own by the same code as run()'s.
        bool haveEvents = false;
        od::parser parser;
        std::size_t from = pos + 1;
        while (true) {
            std::size_t p = skipSpace(text, size, from);
            if (p < size && text[p] == '}' && from == pos + 1) {
                pos = p + 1;  // {}
                break;
            }
            constexpr std::string_view kEventsKey = "\"traceEvents\"";
            if (std::string_view(text + p, std::min(size - p, kEventsKey.size())) == kEventsKey) {
                std::size_t q = skipSpace(text, size, p + kEventsKey.size());
                if (q < size && text[q] == ':')
                    q = skipSpace(text, size, q + 1);
                if (q < size && text[q] == '[') {
                    const std::size_t close = parseEventRuns(text, q, readableBytes, runBytes);
                    haveEvents = true;
                    const std::size_t next = skipSpace(text, size, close + 1);
                    if (next >= size || (text[next] != ',' && text[next] != '}'))
                        throw ChunkedGiveUp{};
                    if (text[next] == '}') {
                        pos = next + 1;
                        break;
                    }
                    from = next + 1;
                    continue;
                }
            }
            const std::size_t cut = nextMemberCut(std::string_view(text, size), from, 0);
            // A ']' closing the object, or a member that is only white space ("a":1,,"b":2):
            // for the whole read to judge.
            if (cut == std::string_view::npos || (text[cut] != ',' && text[cut] != '}') ||
                skipSpace(text, size, from) == cut)
                throw ChunkedGiveUp{};
            const bool last = text[cut] == '}';
            {
                const BorrowedBrackets braces(text, from - 1, '{', cut, '}');
                const simdjson::padded_string_view member(text + from - 1, cut - from + 2,
                                                          readableBytes - (from - 1));
                od::document doc;
                m_doc = &doc;
                od::object obj;
                if (parser.iterate(member).get(doc) || doc.get_object().get(obj))
                    throw ChunkedGiveUp{};
                for (auto field : obj) {
                    const std::string_view key = keyText(field);
                    od::value value = field.value();
                    handleTopLevelField(key, value, haveEvents);
                }
                if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS)
                    throw ChunkedGiveUp{};
            }
            if (last) {
                pos = cut + 1;
                break;
            }
            from = cut + 1;
        }
        if (!haveEvents)
            throw ChunkedGiveUp{};
    } else {
        throw ChunkedGiveUp{};
    }
    if (skipSpace(text, size, pos) != size)
        throw ChunkedGiveUp{};  // content after the document
    return finishAndBuild();
}

}  // namespace wl::io::chrome

namespace wl::io {

using chrome::ChunkedGiveUp;
using chrome::describeSimdjsonError;
using chrome::FieldProblem;
using chrome::firstInvalidUtf8;
using chrome::Importer;
using chrome::ParseFailure;
using chrome::ReadCancelled;
using chrome::rootValueEnd;
using chrome::unclosedStringStart;
namespace od = simdjson::ondemand;

model::Result<model::TracePtr> ChromeTraceReader::read(std::string_view json,
                                                       const std::string& name,
                                                       std::size_t readableBytes,
                                                       const ReadControl& control) const {
    // A UTF-8 byte order mark is not JSON; skip it but keep offsets relative to the file.
    std::size_t skipped = 0;
    if (json.starts_with("\xEF\xBB\xBF")) {
        json.remove_prefix(3);
        skipped = 3;
        readableBytes = readableBytes >= 3 ? readableBytes - 3 : 0;
    }
    auto errorAt = [&](std::string message, std::int64_t offset) {
        // The parser calls NaN and Infinity bad characters; say what they are.
        if (offset >= 0 && static_cast<std::size_t>(offset) < json.size()) {
            const std::string_view at = json.substr(static_cast<std::size_t>(offset));
            for (std::string_view word :
                 {"NaN", "-NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"}) {
                if (at.starts_with(word)) {
                    message = "NaN and infinities are not JSON numbers";
                    break;
                }
            }
        }
        return model::Error{std::move(message), name,
                            offset < 0 ? -1 : offset + static_cast<std::int64_t>(skipped)};
    };
    std::size_t firstNonSpace = 0;
    while (firstNonSpace < json.size() &&
           (json[firstNonSpace] == ' ' || json[firstNonSpace] == '\n' ||
            json[firstNonSpace] == '\r' || json[firstNonSpace] == '\t')) {
        ++firstNonSpace;
    }
    if (firstNonSpace == json.size())
        return errorAt("empty file: no JSON in it", 0);
    const auto cancelled = [&] { return model::Error{kReadCancelled, name, -1}; };
    if (control.cancelled())
        return cancelled();

    std::string copy;
    simdjson::padded_string_view padded;
    if (readableBytes >= json.size() + kPadding) {
        padded = simdjson::padded_string_view(json.data(), json.size(), readableBytes);
    } else {
        copy.reserve(json.size() + kPadding);
        copy.assign(json);
        padded = simdjson::padded_string_view(copy.data(), copy.size(), copy.capacity());
    }
    const char* base = padded.data();
    // The parser reports an unclosed root and trailing text after the root alike; tell them
    // apart, and point a truncation at the end of the text.
    auto refineStructuralError = [&](simdjson::error_code code) -> std::optional<model::Error> {
        if (code != simdjson::INCOMPLETE_ARRAY_OR_OBJECT && code != simdjson::TAPE_ERROR) {
            return std::nullopt;
        }
        const std::size_t end = rootValueEnd(json);
        if (end == std::string_view::npos) {
            return errorAt("truncated JSON: an array or object is not closed",
                           static_cast<std::int64_t>(json.size()));
        }
        std::size_t next = end;
        while (next < json.size() && std::isspace(static_cast<unsigned char>(json[next])))
            ++next;
        if (next < json.size()) {
            return errorAt("unexpected content after the JSON document",
                           static_cast<std::int64_t>(next));
        }
        return std::nullopt;
    };
    if (m_runs.runsParsed)
        *m_runs.runsParsed = 0;
    if (json.size() >= m_runs.wholeBelowBytes) {
        // The text is ours (the copy) or the caller's writable buffer (see the header).
        try {
            Importer chunked(base, json.size(), control);
            auto trace = chunked.runChunked(const_cast<char*>(base), padded.capacity(),
                                            m_runs.runBytes, m_runs.textIsFileMapping);
            if (m_runs.runsParsed)
                *m_runs.runsParsed = chunked.runsParsed();
            return trace;
        } catch (const ChunkedGiveUp&) {
            // Input the runs do not judge (see runChunked): the whole-document read gives the
            // verdict.
        } catch (const ParseFailure&) {
            // Bad JSON or a bad document met inside a run. Its error must be the one the whole
            // read gives (the first problem in the text, an offset the structural checks of the
            // whole text refine, "truncated" rather than a run's own end): the whole read says it.
        } catch (const FieldProblem&) {
            // A top-level member with a wrong value: likewise, the whole read words it.
        } catch (const simdjson::simdjson_error&) {
            // A JSON error inside a run: likewise.
        } catch (const ReadCancelled&) {
            return cancelled();
        } catch (const std::exception& e) {
            // Anything else (out of memory, a failure of ours) is no verdict on the input:
            // reading it again would only hide it and take as long again.
            return errorAt(std::string("cannot import the trace: ") + e.what(), -1);
        }
    }
    if (control.cancelled())
        return cancelled();
    od::parser parser;
    od::document doc;
    if (const auto err = parser.iterate(padded).get(doc)) {
        if (auto refined = refineStructuralError(err))
            return *refined;
        std::int64_t offset = 0;
        if (err == simdjson::UTF8_ERROR)
            offset = static_cast<std::int64_t>(firstInvalidUtf8(json));
        if (err == simdjson::UNCLOSED_STRING)
            offset = static_cast<std::int64_t>(unclosedStringStart(json));
        return errorAt(describeSimdjsonError(err), offset);
    }
    Importer importer(base, json.size(), control);
    try {
        return importer.run(doc);
    } catch (const ReadCancelled&) {
        return cancelled();
    } catch (const ParseFailure& f) {
        if (auto refined = refineStructuralError(f.code))
            return *refined;
        std::int64_t offset = -1;
        if (f.at)
            offset = f.at - base;
        if (offset < 0 || offset > static_cast<std::int64_t>(json.size())) {
            const char* at = nullptr;
            offset = doc.current_location().get(at) == simdjson::SUCCESS
                         ? at - base
                         : static_cast<std::int64_t>(json.size());
        }
        return errorAt(f.message, offset);
    } catch (const FieldProblem& p) {
        // Outside the events (our own block, a top-level number) a wrong value is the file's.
        std::int64_t offset = p.at ? p.at - base : -1;
        if (offset < 0 || offset > static_cast<std::int64_t>(json.size()))
            offset = static_cast<std::int64_t>(json.size());
        return errorAt(p.message, offset);
    } catch (const simdjson::simdjson_error& e) {
        if (auto refined = refineStructuralError(e.error()))
            return *refined;
        const char* at = nullptr;
        const std::int64_t offset = doc.current_location().get(at) == simdjson::SUCCESS
                                        ? at - base
                                        : static_cast<std::int64_t>(json.size());
        return errorAt(describeSimdjsonError(e.error()), offset);
    } catch (const std::exception& e) {
        return errorAt(std::string("cannot import the trace: ") + e.what(), -1);
    }
}

bool ChromeTraceReader::recognizes(std::string_view head) const {
    if (head.starts_with("\xEF\xBB\xBF"))
        head.remove_prefix(3);
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && (head[first] == '[' || head[first] == '{');
}

model::Result<model::TracePtr> ChromeTraceReader::read(std::string_view text,
                                                       const std::string& name,
                                                       std::size_t readableBytes,
                                                       bool textIsFileMapping,
                                                       const ReadControl& control) const {
    Runs runs = m_runs;
    runs.textIsFileMapping = textIsFileMapping;
    return ChromeTraceReader(runs).read(text, name, readableBytes, control);
}

}  // namespace wl::io
