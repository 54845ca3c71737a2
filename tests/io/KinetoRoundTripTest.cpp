#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
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

Document readDocument(std::string& json) {
    Document doc;
    json.reserve(json.size() + simdjson::SIMDJSON_PADDING);
    simdjson::ondemand::parser parser;
    simdjson::padded_string_view padded(json.data(), json.size(), json.capacity());
    // Pass 1: the base time (written before or after the events).
    model::TimeNs base = 0;
    {
        simdjson::dom::parser dom;
        simdjson::dom::element root;
        EXPECT_EQ(dom.parse(json).get(root), simdjson::SUCCESS);
        if (root.is_object()) {
            std::int64_t b = 0;
            if (root["baseTimeNanoseconds"].get_int64().get(b) == simdjson::SUCCESS)
                base = b;
            simdjson::dom::element info;
            if (root["distributedInfo"].get(info) == simdjson::SUCCESS)
                doc.distributedInfo = simdjson::minify(info);
        }
    }
    auto root = parser.iterate(padded);
    simdjson::ondemand::array events;
    if (root.type().value() == simdjson::ondemand::json_type::array) {
        events = root.get_array().value();
    } else {
        events = root["traceEvents"].get_array().value();
    }
    for (auto element : events) {
        simdjson::ondemand::object event = element.get_object().value();
        std::map<std::string, std::string> f;
        for (auto field : event) {
            const std::string key(field.unescaped_key().value());
            simdjson::ondemand::value v = field.value().value();
            const auto type = v.type().value();
            if (key == "args" && type == simdjson::ondemand::json_type::object) {
                std::string all;
                // A named object: value() of a temporary result would dangle in the loop.
                simdjson::ondemand::object args = v.get_object().value();
                for (auto arg : args) {
                    const std::string argKey(arg.unescaped_key().value());
                    simdjson::ondemand::value av = arg.value().value();
                    const auto argType = av.type().value();
                    if (argType == simdjson::ondemand::json_type::object ||
                        argType == simdjson::ondemand::json_type::array) {
                        all += argKey + "=[...];";  // not what these readers key on
                        continue;
                    }
                    const std::string text(trimmed(av.raw_json_token()));
                    all += argKey + "=" + text + ";";
                    if (argKey == "stream" || argKey == "correlation" || argKey == "External id")
                        f["args." + argKey] = text;
                }
                f["args"] = all;
            } else if (type != simdjson::ondemand::json_type::object &&
                       type != simdjson::ondemand::json_type::array) {
                f[key] = std::string(trimmed(v.raw_json_token()));
            } else {
                f[key] = "[...]";
            }
        }
        if (f.empty())
            continue;  // "{}": an empty event
        auto micros = [&](const std::string& name) -> std::string {
            auto it = f.find(name);
            if (it == f.end())
                return "-";
            std::string_view text = it->second;
            if (text.size() >= 2 && text.front() == '"')
                text = text.substr(1, text.size() - 2);
            model::TimeNs ns = 0;
            if (parseMicros(text, ns) != TimeParse::Ok)
                return "bad:" + it->second;
            return std::to_string(name == "ts" ? ns + base : ns);
        };
        auto get = [&](const char* name) {
            auto it = f.find(name);
            return it == f.end() ? std::string("-") : it->second;
        };
        const std::string ph = get("ph");
        Event e;
        e.row = get("pid") + "/" + get("tid");
        e.cat = get("cat");
        e.key = "name=" + get("name") + " cat=" + e.cat + " ph=" + ph + " ts=" + micros("ts") +
                " dur=" + micros("dur") + " s=" + get("s") + " row=" + e.row +
                " stream=" + get("args.stream") + " correlation=" + get("args.correlation") +
                " external=" + get("args.External id") + " id=" + get("id") + " bp=" + get("bp");
        if (ph == "\"M\"")
            e.key += " args=" + get("args");  // the profiler's names, labels and order
        doc.rows.insert(e.row);
        doc.events.push_back(std::move(e));
    }
    return doc;
}

// The first `"rank": N` of the text, as HTA finds a file's rank ("" when none).
std::string htaRank(const std::string& text) {
    static const std::regex rank(R"re("rank":\s+(\d+))re");
    std::smatch m;
    return std::regex_search(text, m, rank) ? m[1].str() : std::string();
}

std::vector<fs::path> kinetoTraces() {
    std::vector<fs::path> out;
    const fs::path dir = WARPLINE_EXTERNAL_TRACES_DIR;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("hta_") || name.starts_with("kineto_") || name.starts_with("param_"))
            out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(KinetoRoundTrip, EveryKinetoTraceConvertsToWhatKinetoReadersReadAsTheOriginal) {
    if (!fs::is_directory(WARPLINE_EXTERNAL_TRACES_DIR))
        GTEST_SKIP() << "no external traces at " << WARPLINE_EXTERNAL_TRACES_DIR;
    const auto files = kinetoTraces();
    ASSERT_GE(files.size(), 10u) << "the Kineto traces are missing from the folder";
    for (const auto& path : files) {
        SCOPED_TRACE(path.filename().string());
        std::string original = jsonText(path);
        const auto trace = parseTrace(original, path.filename().string());
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        std::string converted = ChromeTraceWriter(*trace.value()).toString();
        EXPECT_EQ(htaRank(converted), htaRank(original));
        const Document before = readDocument(original);
        const Document after = readDocument(converted);
        EXPECT_EQ(after.distributedInfo, before.distributedInfo);

        std::multiset<std::string> left;
        for (const auto& e : before.events)
            left.insert(e.key);
        std::size_t added = 0;
        std::vector<std::string> unexpected;
        for (const auto& e : after.events) {
            auto it = left.find(e.key);
            if (it != left.end()) {
                left.erase(it);
                continue;
            }
            // What Warpline may add: rows of its own, and the arrows it derives from the
            // cuda_sync events' args (waits through CUDA events).
            if (e.cat == "\"cuda_dependency\"" || !before.rows.count(e.row)) {
                ++added;
                continue;
            }
            unexpected.push_back(e.key);
        }
        EXPECT_TRUE(left.empty()) << left.size() << " event(s) of " << before.events.size()
                                  << " lost or changed, the first: " << *left.begin();
        EXPECT_TRUE(unexpected.empty()) << unexpected.size() << " event(s) added on the "
                                        << "producer's rows, the first: " << unexpected.front();
    }
}

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
