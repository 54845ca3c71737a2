#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "RichTrace.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/Gzip.h"
#include "io/TimeText.h"
#include "io/TraceFile.h"

// Converting a PyTorch profiler (Kineto) trace writes what every Kineto reader (Holistic Trace
// Analysis, TensorBoard's plugin, Perfetto) reads as the original: each event on its row with its
// category, name, phase, times and the args those readers key on; flows with their names, ids and
// binding; the profiler's metadata events and distributedInfo as it wrote them. The files are
// other projects' test traces (WARPLINE_EXTERNAL_TRACES_DIR, not part of this repository); the
// test skips only when that folder is absent. Both sides are read here with simdjson, not with
// our reader.
namespace wl::io {
namespace {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string jsonText(const fs::path& path) {
    const std::string bytes = readBytes(path);
    if (!isGzip(bytes))
        return bytes;
    std::string out;
    EXPECT_TRUE(gunzip(bytes, out, simdjson::SIMDJSON_PADDING).ok()) << path;
    return out;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// What a Kineto reader takes from one event, as one comparable line: times as absolute ns
// (ts + baseTimeNanoseconds), everything else as its JSON text.
struct Event {
    std::string key;
    std::string row;  // pid/tid
    std::string cat;
};

struct Document {
    std::vector<Event> events;
    std::string distributedInfo;  // minified; empty when there is none
    std::set<std::string> rows;
};

// One event's fields as their JSON text ("-" where absent), read in one pass and turned into an
// Event once the base time is known (it may follow the events). Views into the JSON text.
struct EventText {
    std::string_view name = "-", cat = "-", ph = "-", ts = "-", dur = "-", s = "-", pid = "-",
                     tid = "-", id = "-", bp = "-", stream = "-", correlation = "-", external = "-";
    std::string args = "-";  // every arg as key=value; (kept for metadata events only)
};

std::string_view textOf(simdjson::ondemand::value v) {
    const auto type = v.type().value();
    if (type == simdjson::ondemand::json_type::object ||
        type == simdjson::ondemand::json_type::array)
        return "[...]";
    return trimmed(v.raw_json_token());
}

// Reads one event's fields. `allArgs` is scratch space kept between calls.
bool readEvent(simdjson::ondemand::object event, EventText& e, std::string& allArgs) {
    bool any = false;
    bool argsIsObject = false;
    std::string_view argsText = "-";
    for (auto field : event) {
        any = true;
        const std::string_view key = field.unescaped_key().value();
        simdjson::ondemand::value v = field.value().value();
        if (key == "args") {
            if (v.type().value() != simdjson::ondemand::json_type::object) {
                argsIsObject = false;
                argsText = textOf(v);
                continue;
            }
            argsIsObject = true;
            allArgs.clear();
            // A named object: value() of a temporary result would dangle in the loop.
            simdjson::ondemand::object args = v.get_object().value();
            for (auto arg : args) {
                const std::string_view argKey = arg.unescaped_key().value();
                simdjson::ondemand::value av = arg.value().value();
                const auto argType = av.type().value();
                allArgs += argKey;
                if (argType == simdjson::ondemand::json_type::object ||
                    argType == simdjson::ondemand::json_type::array) {
                    allArgs += "=[...];";  // not what these readers key on
                    continue;
                }
                const std::string_view text = trimmed(av.raw_json_token());
                allArgs += '=';
                allArgs += text;
                allArgs += ';';
                if (argKey == "stream")
                    e.stream = text;
                else if (argKey == "correlation")
                    e.correlation = text;
                else if (argKey == "External id")
                    e.external = text;
            }
            continue;
        }
        const std::string_view text = textOf(v);
        if (key == "name")
            e.name = text;
        else if (key == "cat")
            e.cat = text;
        else if (key == "ph")
            e.ph = text;
        else if (key == "ts")
            e.ts = text;
        else if (key == "dur")
            e.dur = text;
        else if (key == "s")
            e.s = text;
        else if (key == "pid")
            e.pid = text;
        else if (key == "tid")
            e.tid = text;
        else if (key == "id")
            e.id = text;
        else if (key == "bp")
            e.bp = text;
    }
    if (e.ph == "\"M\"")  // the profiler's names, labels and order
        e.args = argsIsObject ? allArgs : std::string(argsText);
    return any;
}

// A time field as absolute ns: "-" when absent, "bad:TEXT" when it does not parse.
std::string micros(std::string_view text, model::TimeNs base) {
    if (text == "-")
        return "-";
    std::string_view inner = text;
    if (inner.size() >= 2 && inner.front() == '"')
        inner = inner.substr(1, inner.size() - 2);
    model::TimeNs ns = 0;
    if (parseMicros(inner, ns) != TimeParse::Ok)
        return "bad:" + std::string(text);
    return std::to_string(ns + base);
}

// The events as Kineto readers see them, in one streaming pass over the text (no DOM of the
// whole file, no map per event: this runs over 50 MB traces, also under the sanitizers).
Document readDocument(std::string& json) {
    Document doc;
    json.reserve(json.size() + simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::parser parser;
    simdjson::padded_string_view padded(json.data(), json.size(), json.capacity());
    model::TimeNs base = 0;
    std::vector<EventText> texts;
    std::string allArgs;
    auto readEvents = [&](simdjson::ondemand::array events) {
        for (auto element : events) {
            EventText e;
            if (readEvent(element.get_object().value(), e, allArgs))
                texts.push_back(std::move(e));  // "{}": an empty event is no event
        }
    };
    auto root = parser.iterate(padded);
    if (root.type().value() == simdjson::ondemand::json_type::array) {
        readEvents(root.get_array().value());
    } else {
        simdjson::ondemand::object top = root.get_object().value();
        for (auto field : top) {
            const std::string_view key = field.unescaped_key().value();
            simdjson::ondemand::value v = field.value().value();
            if (key == "traceEvents") {
                readEvents(v.get_array().value());
            } else if (key == "baseTimeNanoseconds") {
                std::int64_t b = 0;
                if (v.get_int64().get(b) == simdjson::SUCCESS)
                    base = b;
            } else if (key == "distributedInfo") {
                // Minified from a parse of its own: the same text however it was spaced.
                simdjson::ondemand::object info = v.get_object().value();
                const std::string raw(info.raw_json().value());
                simdjson::dom::parser dom;
                simdjson::dom::element parsed;
                EXPECT_EQ(dom.parse(raw).get(parsed), simdjson::SUCCESS);
                doc.distributedInfo = simdjson::minify(parsed);
            }
        }
    }
    doc.events.reserve(texts.size());
    for (const EventText& t : texts) {
        Event e;
        e.row.reserve(t.pid.size() + t.tid.size() + 1);
        e.row.append(t.pid).append("/").append(t.tid);
        e.cat = t.cat;
        e.key.reserve(256);
        e.key.append("name=")
            .append(t.name)
            .append(" cat=")
            .append(t.cat)
            .append(" ph=")
            .append(t.ph)
            .append(" ts=")
            .append(micros(t.ts, base))
            .append(" dur=")
            .append(micros(t.dur, 0))
            .append(" s=")
            .append(t.s)
            .append(" row=")
            .append(e.row)
            .append(" stream=")
            .append(t.stream)
            .append(" correlation=")
            .append(t.correlation)
            .append(" external=")
            .append(t.external)
            .append(" id=")
            .append(t.id)
            .append(" bp=")
            .append(t.bp);
        if (t.ph == "\"M\"")
            e.key.append(" args=").append(t.args);
        doc.rows.insert(e.row);
        doc.events.push_back(std::move(e));
    }
    return doc;
}

// The first `"rank": N` of the text, as HTA finds a file's rank ("" when none): the key, one or
// more white-space characters, digits (a scan instead of std::regex, which takes minutes over a
// converted 50 MB trace under the sanitizers).
std::string htaRank(std::string_view text) {
    constexpr std::string_view key = "\"rank\":";
    auto space = [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    };
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t at = text.find(key); at != std::string_view::npos;
         at = text.find(key, at + 1)) {
        std::size_t i = at + key.size();
        const std::size_t spaceStart = i;
        while (i < text.size() && space(text[i]))
            ++i;
        const std::size_t digitsStart = i;
        while (i < text.size() && digit(text[i]))
            ++i;
        if (digitsStart > spaceStart && i > digitsStart)
            return std::string(text.substr(digitsStart, i - digitsStart));
    }
    return {};
}

// The Kineto traces of the external corpus (files named hta_*, kineto_*, param_*), by name.
std::vector<std::string> kinetoTraceNames() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(WARPLINE_EXTERNAL_TRACES_DIR, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("hta_") || name.starts_with("kineto_") || name.starts_with("param_"))
            out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The sanitizer build checks one trace of each producer and shape instead of all of them, under a
// fifth of the corpus's bytes. With the rest of io_tests they reach every line of the readers and
// writers (tracer/io, tracer/model) that the whole corpus reaches (measured with gcov; docs/CI.md):
// a ROCm trace (AMD's device rows), CUDA event waits across streams, negative thread ids (NCCL's
// rank 0), the PyTorch 1.8 profiler's quoted pids and old category names (and the chunked read of
// a file over 16 MB), and one small file of each other producer and shape. The optimised build
// checks every file.
const std::vector<std::string> kRepresentativeKinetoTraces = {
    "hta_amd_mi250_rocm.json.gz",                       // ROCm on MI250
    "hta_event_sync_multi_stream.json.gz",              // cudaStreamWaitEvent across streams
    "hta_nccl_data.json.gz",                            // NCCL, negative tids, ns decimals
    "kineto_tb_resnet50_nw0_2021-01.pt.trace.json.gz",  // PyTorch 1.8, 30 MB: read in runs
    "hta_alexnet_critical_path.json.gz",                // a training step with flows
    "hta_cpu_only_rank-34.pt.trace.json.gz",            // no GPU activity
    "hta_cupti_profiler.json.gz",                       // CUPTI profiler ranges
    "hta_inference_rank_1_legacy.json.gz",              // "Kernel"/"Runtime" categories
    "hta_large_integer_rank-70.pt.trace.json.gz",       // ids past 2^53
    "hta_trace_compare_base.json.gz",                   // memcpy and memset only
    "hta_triton_example.json.gz",                       // a Triton kernel through cuLaunchKernel
    "param_dlrm_worker0.pt.trace.json",                 // plain (not gzip) JSON, DLRM rank 0
};

std::vector<std::string> corpusUnderTest() {
    if (!fs::is_directory(WARPLINE_EXTERNAL_TRACES_DIR))
        return {};
#ifdef WARPLINE_TEST_CORPUS_REPRESENTATIVE
    return kRepresentativeKinetoTraces;
#else
    return kinetoTraceNames();
#endif
}

// Without the folder there is nothing to instantiate; this test then says why it is skipped.
TEST(KinetoRoundTrip, TheExternalKinetoTracesArePresent) {
    if (!fs::is_directory(WARPLINE_EXTERNAL_TRACES_DIR))
        GTEST_SKIP() << "no external traces at " << WARPLINE_EXTERNAL_TRACES_DIR;
    const auto all = kinetoTraceNames();
    EXPECT_GE(all.size(), 10u) << "the Kineto traces are missing from the folder";
    // The sanitizer build's subset names files that exist, so it cannot shrink unnoticed.
    for (const auto& name : kRepresentativeKinetoTraces)
        EXPECT_TRUE(std::find(all.begin(), all.end(), name) != all.end()) << name;
}

// One test per file: each has the whole timeout to itself, and ctest runs them side by side.
class KinetoCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(KinetoCorpus, ConvertsToWhatKinetoReadersReadAsTheOriginal) {
    const fs::path path = fs::path(WARPLINE_EXTERNAL_TRACES_DIR) / GetParam();
    ASSERT_TRUE(fs::is_regular_file(path)) << path;
    std::string original = jsonText(path);
    const auto trace = parseTrace(original, path.filename().string());
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    std::string converted = ChromeTraceWriter(*trace.value()).toString();
    EXPECT_EQ(htaRank(converted), htaRank(original));
    const Document before = readDocument(original);
    const Document after = readDocument(converted);
    EXPECT_EQ(after.distributedInfo, before.distributedInfo);

    // Each event of the original matched with one of the conversion's by its key (sorted keys
    // walked side by side: a multiset of a few hundred thousand strings is slow under ASan).
    std::vector<const Event*> left, right;
    for (const auto& e : before.events)
        left.push_back(&e);
    for (const auto& e : after.events)
        right.push_back(&e);
    const auto byKey = [](const Event* a, const Event* b) { return a->key < b->key; };
    std::sort(left.begin(), left.end(), byKey);
    std::sort(right.begin(), right.end(), byKey);
    std::vector<const Event*> lost;
    std::size_t added = 0;
    std::vector<std::string> unexpected;
    auto l = left.begin();
    for (const Event* e : right) {
        while (l != left.end() && (*l)->key < e->key)
            lost.push_back(*l++);
        if (l != left.end() && (*l)->key == e->key) {
            ++l;
            continue;
        }
        // What Warpline may add: rows of its own, and the arrows it derives from the
        // cuda_sync events' args (waits through CUDA events).
        if (e->cat == "\"cuda_dependency\"" || !before.rows.count(e->row)) {
            ++added;
            continue;
        }
        unexpected.push_back(e->key);
    }
    lost.insert(lost.end(), l, left.end());
    EXPECT_TRUE(lost.empty()) << lost.size() << " event(s) of " << before.events.size()
                              << " lost or changed, the first: " << lost.front()->key;
    EXPECT_TRUE(unexpected.empty()) << unexpected.size() << " event(s) added on the "
                                    << "producer's rows, the first: " << unexpected.front();
}

// Test names from file names: letters, digits and '_' only.
std::string testName(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    for (const char* ext : {".gz", ".json", ".trace", ".pt"}) {
        if (name.ends_with(ext))
            name.resize(name.size() - std::string_view(ext).size());
    }
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(ExternalTraces, KinetoCorpus, ::testing::ValuesIn(corpusUnderTest()),
                         testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KinetoCorpus);

// Our own traces are written in the same shape: a host thread's CUDA calls on the thread's row
// with its NVTX ranges (HTA finds the launches under an annotation by row), launch arrows "ac2g",
// distributedInfo spaced as Kineto writes it. And they still read back exactly.
TEST(KinetoRoundTrip, RecordedTracesAreWrittenInKinetosShape) {
    const auto trace = testing::richTrace();
    std::string json = ChromeTraceWriter(*trace).toString();
    EXPECT_NE(json.find(R"("distributedInfo":{"rank": 0, "world_size": 1})"), std::string::npos)
        << json.substr(0, 400);
    EXPECT_EQ(htaRank(json), "0");
    const Document doc = readDocument(json);
    std::map<std::string, std::set<std::string>> rowsByCat;
    for (const auto& e : doc.events)
        rowsByCat[e.cat].insert(e.row);
    EXPECT_EQ(rowsByCat["\"cuda_runtime\""], (std::set<std::string>{"4242/4243"}));
    EXPECT_EQ(rowsByCat["\"cuda_driver\""], (std::set<std::string>{"4242/4243"}));
    EXPECT_TRUE(rowsByCat["\"user_annotation\""].count("4242/4243"));
    EXPECT_TRUE(rowsByCat["\"ac2g\""].count("4242/4243"));
    EXPECT_TRUE(rowsByCat["\"ac2g\""].count("0/7"));
    // One name per row, however many of our tracks share it.
    std::multiset<std::string> named;
    for (const auto& e : doc.events) {
        if (e.key.find("name=\"thread_name\"") != std::string::npos)
            named.insert(e.row);
    }
    EXPECT_EQ(named.count("4242/4243"), 1u);

    const auto again = ChromeTraceReader().read(json, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(ChromeTraceWriter(*again.value()).toString(), json);
    ASSERT_EQ(again.value()->tracks().size(), trace->tracks().size());
    for (std::size_t i = 0; i < trace->tracks().size(); ++i) {
        EXPECT_EQ(again.value()->tracks()[i].kind, trace->tracks()[i].kind);
        EXPECT_EQ(again.value()->tracks()[i].slices.size(), trace->tracks()[i].slices.size());
    }
}

// A converted trace read back and converted again is the same file (our block then says the
// rows are the producer's, and carries the first import's diagnostics).
TEST(KinetoRoundTrip, AConvertedTraceConvertsToItself) {
    const std::string json =
        R"js({"distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
      "traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "step", "pid": 5, "tid": 6, "ts": 1, "dur": 30},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 6, "ts": 2, "dur": 1, "args": {"correlation": 19, "External id": 3}},
      {"ph": "X", "cat": "gpu_user_annotation", "name": "step", "pid": 0, "tid": 7, "ts": 9, "dur": 22, "args": {"External id": 3, "device": 0, "stream": 7}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "device": 0, "correlation": 19, "External id": 3}},
      {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 20, "dur": 11, "args": {"cuda_sync_kind": "Event Sync", "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": -1, "stream": -1, "correlation": 22, "device": 0}},
      {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 0, "dur": 40},
      {"ph": "s", "id": 19, "pid": 5, "tid": 6, "ts": 2, "cat": "ac2g", "name": "ac2g"},
      {"ph": "f", "id": 19, "pid": 0, "tid": 7, "ts": 10, "cat": "ac2g", "name": "ac2g", "bp": "e"},
      {"ph": "s", "id": 4, "pid": 5, "tid": 6, "ts": 2, "cat": "fwdbwd", "name": "fwdbwd"},
      {"ph": "f", "id": 4, "pid": 5, "tid": 6, "ts": 25, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
      {"name": "thread_name", "ph": "M", "ts": 0, "pid": 5, "tid": 6, "args": {"name": "thread 6 (python)"}},
      {"ph": "X", "name": "bad", "pid": 5, "tid": 6, "ts": "x", "dur": 1}]})js";
    const auto first = ChromeTraceReader().read(json, "kineto.json");
    ASSERT_TRUE(first.ok()) << first.error().describe();
    std::string converted = ChromeTraceWriter(*first.value()).toString();
    // The six things HTA read differently before.
    EXPECT_NE(converted.find(R"("stream":-1)"), std::string::npos);  // the Event Sync's
    EXPECT_NE(converted.find(R"("cat":"gpu_user_annotation","name":"step","pid":0,"tid":7)"),
              std::string::npos);
    EXPECT_NE(converted.find(R"("cat":"cuda_runtime","name":"cudaLaunchKernel","pid":5,"tid":6)"),
              std::string::npos);
    EXPECT_NE(converted.find(R"js("cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans")js"),
              std::string::npos);
    EXPECT_NE(converted.find(R"("cat": "fwdbwd", "name": "fwdbwd")"), std::string::npos);
    EXPECT_EQ(htaRank(converted), "1");
    const auto second = ChromeTraceReader().read(converted, "converted.json");
    ASSERT_TRUE(second.ok()) << second.error().describe();
    EXPECT_EQ(ChromeTraceWriter(*second.value()).toString(), converted);
    EXPECT_EQ(second.value()->diagnostics().warnings, first.value()->diagnostics().warnings);
    EXPECT_EQ(second.value()->diagnostics().skippedEvents, 1u);
    EXPECT_EQ(second.value()->counts().flows, first.value()->counts().flows);
    EXPECT_EQ(second.value()->counts().slices, first.value()->counts().slices);
}

}  // namespace
}  // namespace wl::io
