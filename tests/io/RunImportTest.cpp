// A large text is read a run of events at a time (ChromeTraceReader::Runs): it must give exactly
// the trace, or exactly the error, that reading it whole gives. Every fixture (Chrome, Kineto,
// recorded traces, our exports, and every malformed file) is read whole and in runs of a few
// bytes to a few KB, and the two results compared: the exported JSON for a trace, message and
// byte offset for an error.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/Gzip.h"
#include "support/TestData.h"

namespace wl::io {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
    std::string bytes = test::readFile(path.string());
    if (isGzip(bytes)) {
        std::string json;
        if (gunzip(bytes, json, 0).ok()) {
            return json;
        }
    }
    return bytes;
}

// What a read gives, in a form two reads can be compared by.
std::string outcome(const ChromeTraceReader& reader, const std::string& json) {
    // A writable copy with the parser's padding: the in-place path, as loadTrace takes it.
    std::string text = json;
    text.reserve(text.size() + ChromeTraceReader::kPadding);
    const auto result = reader.read(text, "fixture.json", text.capacity());
    EXPECT_EQ(text, json) << "the text is as it was after reading";
    if (!result.ok()) {
        return "error: " + result.error().message + " @" +
               std::to_string(result.error().byteOffset);
    }
    const model::Trace& trace = *result.value();
    std::string out = ChromeTraceWriter(trace).toString();
    out += "\nwarnings:";
    for (const std::string& w : trace.diagnostics().warnings) {
        out += "\n" + w;
    }
    out += "\nskipped: " + std::to_string(trace.diagnostics().skippedEvents);
    return out;
}

std::vector<fs::path> fixtures() {
    std::vector<fs::path> out;
    for (const auto& entry : fs::recursive_directory_iterator(test::dataPath(""))) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (name.ends_with(".json") || name.ends_with(".json.gz"))) {
            out.push_back(entry.path());
        }
    }
    return out;
}

TEST(RunImport, EveryFixtureReadsTheSameInRunsAsWhole) {
    const auto files = fixtures();
    ASSERT_GE(files.size(), 40u);
    const ChromeTraceReader whole;
    std::size_t readInRuns = 0;
    for (const fs::path& file : files) {
        const std::string json = readText(file);
        // One large recorded trace is enough (the others repeat it at a cost).
        const bool large = json.size() > (std::size_t{1} << 20);
        if (large && file.filename() != "torch_train.json.gz") {
            continue;
        }
        const std::string expected = outcome(whole, json);
        for (const std::size_t runBytes : {std::size_t{300}, std::size_t{65536}}) {
            if (large && runBytes < 65536) {
                continue;
            }
            std::size_t runs = 0;
            const ChromeTraceReader inRuns(ChromeTraceReader::Runs{0, runBytes, &runs});
            EXPECT_EQ(outcome(inRuns, json), expected)
                << file.filename() << " in runs of " << runBytes << " bytes";
            // Every trace that reads is read in runs (not handed back to the whole read).
            if (expected.rfind("error", 0) != 0) {
                EXPECT_GT(runs, 0u) << file.filename();
                readInRuns += runs > 0;
            }
        }
    }
    EXPECT_GE(readInRuns, 9u);
}

TEST(RunImport, TopLevelMembersAroundTheEventsKeepTheirOrderAndMeaning) {
    // Members before and after "traceEvents", one written with an escape, white space between
    // everything, and an empty array elsewhere.
    const std::string json = R"( {
        "schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU \"A\""}],
        "traceEvents" :
          [ {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,
             "args":{"device":0,"stream":7,"correlation":1}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":0,
             "dur":1,"args":{"correlation":1}} ] ,
        "trace\u004eame": "x", "other": [], "distributedInfo": {"rank": 3}
    } )";
    const ChromeTraceReader whole;
    std::size_t runs = 0;
    const ChromeTraceReader inRuns(ChromeTraceReader::Runs{0, 1, &runs});
    const std::string expected = outcome(whole, json);
    ASSERT_EQ(expected.rfind("error", 0), std::string::npos) << expected;
    EXPECT_EQ(outcome(inRuns, json), expected);
    EXPECT_EQ(runs, 2u) << "one run per event";
}

// An open "B" (and "b") is kept until its end, which may come runs later; a name or category
// with escapes lives in the parser's buffer that the next run reuses, and must outlive it.
TEST(RunImport, EscapedNamesOfOpenSlicesSurviveLaterRuns) {
    std::string json =
        R"([{"ph":"B","cat":"c\u0061t","name":"outer \"quoted\"","pid":1,"tid":1,"ts":0},
        {"ph":"b","cat":"async\t","id":5,"name":"flight \\ path","pid":1,"tid":2,"ts":1},)";
    for (int i = 0; i < 50; ++i) {
        json += R"({"ph":"X","name":"esc\u00e9 )" + std::to_string(i) +
                R"(","cat":"x\"y","pid":1,"tid":3,"ts":)" + std::to_string(2 + i) + R"(,"dur":1},)";
    }
    json += R"({"ph":"e","cat":"async\t","id":5,"pid":1,"tid":2,"ts":90},
        {"ph":"E","pid":1,"tid":1,"ts":100}])";
    const ChromeTraceReader whole;
    std::size_t runs = 0;
    const ChromeTraceReader inRuns(ChromeTraceReader::Runs{0, 64, &runs});
    const std::string expected = outcome(whole, json);
    ASSERT_EQ(expected.rfind("error", 0), std::string::npos) << expected;
    EXPECT_NE(expected.find(R"(outer \"quoted\")"), std::string::npos);
    EXPECT_EQ(outcome(inRuns, json), expected);
    EXPECT_GT(runs, 10u);
}

TEST(RunImport, BrokenTextsGiveTheWholeReadsError) {
    const ChromeTraceReader whole;
    const ChromeTraceReader inRuns(ChromeTraceReader::Runs{0, 8});
    for (const std::string json :
         {R"([{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"},)",
          R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}] "x":1})",
          R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}]} trailing)",
          R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a}]})",
          R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}}]})",
          R"({"traceEvents":{"ph":"i"}})", R"({"a":1})", R"([])",
          // Brackets that close the wrong container, and empty members (found by the fuzzer).
          R"({"a":1,] "traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}]})",
          R"({"a":1,,"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}]})",
          R"({"traceEvents":[{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"}},{"ph":"i"}]})",
          R"([{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"},])",
          R"([{"ph":"i","ts":1,"pid":1,"tid":1,"name":"a"},,{"ph":"i","ts":1,"pid":1,"tid":1}])"}) {
        const std::string expected = outcome(whole, json);
        EXPECT_EQ(expected.rfind("error", 0), 0u) << json;
        EXPECT_EQ(outcome(inRuns, json), expected) << json;
    }
}

}  // namespace
}  // namespace wl::io
