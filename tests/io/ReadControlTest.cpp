// A read's ReadControl: the cancel flag stops the Chrome reader (in runs, whole, in gunzip and in
// a rank job's files) with kReadCancelled, and progress is reported by input bytes as it goes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/ChromeTraceReader.h"
#include "io/Gzip.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::io {
namespace {

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// About `bytes` of Chrome trace JSON: X events on a few threads, with args.
std::string bigJson(std::size_t bytes) {
    std::string json = "{\"traceEvents\":[";
    for (std::size_t i = 0; json.size() < bytes; ++i) {
        if (i > 0)
            json += ',';
        json += "{\"ph\":\"X\",\"name\":\"op " + std::to_string(i % 97) +
                "\",\"pid\":1,\"tid\":" + std::to_string(i % 4) + ",\"ts\":" + std::to_string(i) +
                ",\"dur\":1,\"args\":{\"External id\":" + std::to_string(i) + "}}";
    }
    json += "]}";
    return json;
}

const std::string& json12Mb() {
    static const std::string json = bigJson(std::size_t{12} << 20);
    return json;
}

// Reads in runs of 1 MB (the size of the whole does not matter for the runs).
ChromeTraceReader inRuns(std::size_t* runs = nullptr) {
    return ChromeTraceReader(ChromeTraceReader::Runs{0, std::size_t{1} << 20, runs});
}
// Reads the whole document at once, whatever its size.
ChromeTraceReader whole() {
    return ChromeTraceReader(ChromeTraceReader::Runs{std::size_t{1} << 40});
}

TEST(ReadControl, ProgressGoesUpByInputBytesToTheWhole) {
    for (const ChromeTraceReader& reader : {inRuns(), whole()}) {
        std::vector<std::uint64_t> done;
        ReadControl control;
        control.progress = [&](std::uint64_t doneBytes, std::uint64_t totalBytes) {
            EXPECT_EQ(totalBytes, json12Mb().size());
            done.push_back(doneBytes);
        };
        const auto trace = reader.read(json12Mb(), "big.json", 0, control);
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        ASSERT_GE(done.size(), 3u);  // every 4 MB, and at the end
        EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
        EXPECT_LT(done.front(), json12Mb().size() / 2);
        EXPECT_EQ(done.back(), json12Mb().size());
    }
}

TEST(ReadControl, TheSlicesMadeSoFarComeWithTheProgress) {
    for (const ChromeTraceReader& reader : {inRuns(), whole()}) {
        std::vector<std::uint64_t> slices;
        ReadControl control;
        control.slicesMade = [&](std::uint64_t made) { slices.push_back(made); };
        const auto trace = reader.read(json12Mb(), "big.json", 0, control);
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        ASSERT_GE(slices.size(), 3u);
        EXPECT_TRUE(std::is_sorted(slices.begin(), slices.end()));
        EXPECT_GT(slices.front(), 0u);
        EXPECT_LT(slices.front(), slices.back());
        EXPECT_LE(slices.back(), trace.value()->counts().slices);
    }
}

TEST(ReadControl, AFlagSetBeforeTheReadStopsIt) {
    const std::atomic<bool> cancel{true};
    ReadControl control;
    control.cancel = &cancel;
    for (const ChromeTraceReader& reader : {inRuns(), whole()}) {
        const auto trace = reader.read(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}])",
                                       "small.json", 0, control);
        ASSERT_FALSE(trace.ok());
        EXPECT_EQ(trace.error().message, kReadCancelled);
    }
}

TEST(ReadControl, AFlagSetDuringTheReadStopsItThere) {
    for (const bool runs : {true, false}) {
        SCOPED_TRACE(runs ? "in runs" : "whole");
        std::size_t runsParsed = 0;
        const ChromeTraceReader reader = runs ? inRuns(&runsParsed) : whole();
        std::atomic<bool> cancel{false};
        std::uint64_t lastDone = 0;
        int reports = 0;
        ReadControl control;
        control.cancel = &cancel;
        control.progress = [&](std::uint64_t doneBytes, std::uint64_t) {
            lastDone = doneBytes;
            ++reports;
            cancel = true;  // as a newer load would, from another thread
        };
        const auto trace = reader.read(json12Mb(), "big.json", 0, control);
        ASSERT_FALSE(trace.ok());
        EXPECT_EQ(trace.error().message, kReadCancelled);
        EXPECT_EQ(trace.error().file, "big.json");
        // It stopped at the first look after the flag was set, well before the end.
        EXPECT_EQ(reports, 1);
        EXPECT_LT(lastDone, json12Mb().size() / 2);
        if (runs) {  // and not by reading the whole document again
            EXPECT_EQ(runsParsed, 0u);
        }
    }
}

TEST(ReadControl, AFailureInTheRunsSurfacesInsteadOfAQuietSecondRead) {
    // A failure that says nothing about the input (here thrown by the progress callback, as
    // running out of memory would be) must not make the reader read everything again the other
    // way and hide it.
    int calls = 0;
    ReadControl control;
    control.progress = [&](std::uint64_t, std::uint64_t) {
        if (++calls == 1)
            throw std::runtime_error("out of something");
    };
    const auto trace = inRuns().read(json12Mb(), "big.json", 0, control);
    ASSERT_FALSE(trace.ok());
    EXPECT_NE(trace.error().message.find("out of something"), std::string::npos)
        << trace.error().message;
    EXPECT_EQ(calls, 1);
}

TEST(ReadControl, BadJsonInTheRunsStillGetsTheWholeReadsVerdict) {
    // A truncated text: the runs give up and the whole read says what is wrong, as before.
    const std::string truncated = json12Mb().substr(0, json12Mb().size() - 100);
    std::size_t runs = 0;
    const auto trace = inRuns(&runs).read(truncated, "cut.json");
    ASSERT_FALSE(trace.ok());
    EXPECT_NE(trace.error().message.find("truncated"), std::string::npos) << trace.error().message;
}

TEST(ReadControl, GunzipStopsOnTheFlag) {
    const std::string& json = json12Mb();
    std::string gz;
    GzipWriter writer([&](std::string_view chunk) {
        gz.append(chunk);
        return true;
    });
    writer.write(json);
    writer.finish();
    gz += gz;  // two members: the streaming path, which looks at the flag every 8 MB it makes
    std::atomic<bool> cancel{false};
    int reports = 0;
    ReadControl control;
    control.cancel = &cancel;
    control.progress = [&](std::uint64_t, std::uint64_t) {
        ++reports;
        cancel = true;
    };
    std::string out;
    const auto status = gunzip(gz, out, 64, kMaxGunzipBytes, control);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, kReadCancelled);
    EXPECT_EQ(reports, 1);
    EXPECT_TRUE(out.empty());
    // A flag set before: the one-member path does not start either.
    std::string one;
    const auto before = gunzip(gz.substr(0, gz.size() / 2), one, 64, kMaxGunzipBytes, control);
    ASSERT_FALSE(before.ok());
    EXPECT_EQ(before.error().message, kReadCancelled);
}

TEST(ReadControl, LoadTraceOfAFileStopsOnTheFlag) {
    const auto dir = test::makeTempDir("wl-io-cancel");
    const std::string path = dir + "/big.json";
    writeFile(path, json12Mb());
    std::atomic<bool> cancel{false};
    ReadControl control;
    control.cancel = &cancel;
    control.progress = [&](std::uint64_t, std::uint64_t) { cancel = true; };
    const auto trace = loadTrace(path, control);
    ASSERT_FALSE(trace.ok());
    EXPECT_EQ(trace.error().message, kReadCancelled);
    EXPECT_EQ(trace.error().file, path);
}

TEST(ReadControl, ARankJobReportsBytesAndStopsInsideAFilesRead) {
    const auto dir = test::makeTempDir("wl-io-cancel-job");
    const std::string path = dir + "/rank0.json";
    writeFile(path, json12Mb());
    std::atomic<bool> cancel{false};
    std::vector<double> fractions;
    RankJobOptions options;
    options.threads = 1;
    options.cancel = &cancel;
    options.progress = [&](double fraction, const std::string&) {
        fractions.push_back(fraction);
        cancel = true;
    };
    const auto job = loadRankJob({path}, options);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().message, "opening the job was cancelled");
    // The first report came from inside the file's read, and the read stopped at the next look.
    ASSERT_FALSE(fractions.empty());
    EXPECT_LT(fractions.front(), 0.45);
    EXPECT_LT(fractions.back(), 0.9);
}

TEST(ReadControl, ARankJobsProgressMovesWithTheBytesRead) {
    const auto dir = test::makeTempDir("wl-io-progress-job");
    std::vector<std::string> files;
    for (int rank = 0; rank < 2; ++rank) {
        files.push_back(dir + "/rank" + std::to_string(rank) + ".json");
        writeFile(files.back(), bigJson(std::size_t{9} << 20));
    }
    std::vector<double> fractions;
    RankJobOptions options;
    options.threads = 1;
    options.progress = [&](double fraction, const std::string&) { fractions.push_back(fraction); };
    const auto job = loadRankJob(files, options);
    ASSERT_TRUE(job.ok()) << job.error().describe();
    ASSERT_GE(fractions.size(), 4u);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_GT(fractions.front(), 0.0);
    EXPECT_LT(fractions.front(), 0.45);  // from inside the first file's read
}

}  // namespace
}  // namespace wl::io
