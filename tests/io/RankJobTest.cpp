#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"
#include "model/TraceBuilder.h"
#include "support/ProcessTraceFactory.h"
#include "support/TestData.h"

namespace wl::io {
namespace {

using model::TimeNs;

// A host wall clock value (November 2023) and a trace clock value beyond 2^53.
constexpr TimeNs kWall = 1'700'000'000'000'000'000;
constexpr TimeNs kClock = 1'790'857'026'123'456'789;

// What one rank's trace holds, for the alignment tests: a "warmup" range at the origin, then two
// steps "ProfilerStep#7" and "#8" of 1 us from `stepNs` after it, one kernel 10 ns into the first
// step. Producer "warpline record", so its own clock is no wall clock.
struct RankSpec {
    TimeNs originNs = 0;
    TimeNs stepNs = 500;
    std::string rank;       // empty: none
    std::string clockSync;  // record's "wall,clock" pair; empty: none
    std::string worldSize;  // empty: none
    std::int64_t pid = 4242;
    bool steps = true;
};

model::TracePtr rankTrace(const RankSpec& spec) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(spec.pid, "python3");
    const auto nvtx = b.nvtxTrack(host, spec.pid);
    const auto api = b.hostApiTrack(host, spec.pid);
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0, "GPU 0"), 7);
    const TimeNs o = spec.originNs;
    b.addNvtx(nvtx, o, o + 100, "warmup", {});
    if (spec.steps) {
        b.addNvtx(nvtx, o + spec.stepNs, o + spec.stepNs + 1000, "ProfilerStep#7", {});
        b.addNvtx(nvtx, o + spec.stepNs + 1000, o + spec.stepNs + 2000, "ProfilerStep#8", {});
    }
    b.addApi(api, o + spec.stepNs, o + spec.stepNs + 5, "cudaLaunchKernel", 1, {});
    b.addKernel(stream, o + spec.stepNs + 10, o + spec.stepNs + 60, "gemm", 1, {});
    b.setMetadata("producer", "warpline record");
    b.setMetadata("pid", std::to_string(spec.pid));
    if (!spec.rank.empty())
        b.setMetadata("rank", spec.rank);
    if (!spec.worldSize.empty())
        b.setMetadata("world_size", spec.worldSize);
    if (!spec.clockSync.empty())
        b.setMetadata("clock_sync_start", spec.clockSync);
    return b.finalize();
}

class RankJobTest : public ::testing::Test {
protected:
    void SetUp() override { m_dir = test::makeTempDir("warpline-rankjob"); }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    std::string path(const std::string& name) const { return m_dir + "/" + name; }

    std::string save(const std::string& name, const model::TracePtr& trace) {
        const std::string p = path(name);
        const auto status = saveTrace(*trace, p);
        EXPECT_TRUE(status.ok()) << (status.ok() ? "" : status.error().describe());
        return p;
    }
    std::string write(const std::string& name, const std::string& text) {
        const std::string p = path(name);
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

    RankJob loadOrFail(const std::vector<std::string>& files, const RankJobOptions& options = {}) {
        auto job = loadRankJob(files, options);
        EXPECT_TRUE(job.ok()) << (job.ok() ? "" : job.error().describe());
        return job.ok() ? std::move(job.value()) : RankJob{};
    }

    std::string m_dir;
};

// Start of the first slice named `name` of each rank, by rank.
std::map<std::int32_t, TimeNs> startsOf(const model::Trace& trace, std::string_view name) {
    std::map<std::int32_t, TimeNs> out;
    for (const model::Track& t : trace.tracks()) {
        for (const model::Slice& s : t.slices) {
            if (trace.str(s.nameId) != name)
                continue;
            const std::int32_t rank = trace.processes()[t.process].rank;
            if (!out.count(rank) || s.startNs < out[rank])
                out[rank] = s.startNs;
        }
    }
    return out;
}

TEST_F(RankJobTest, AFolderGivesItsTraceFilesInNaturalOrder) {
    write("rank-10.json", "[]");
    write("rank-2.pt.trace.json.gz", "");
    write("rank-1.json", "[]");
    write("notes.txt", "");
    write(".hidden.json", "[]");
    std::filesystem::create_directory(path("sub.json"));
    const auto files = rankJobFiles({m_dir});
    ASSERT_TRUE(files.ok()) << files.error().describe();
    EXPECT_EQ(files.value(),
              (std::vector<std::string>{path("rank-1.json"), path("rank-2.pt.trace.json.gz"),
                                        path("rank-10.json")}));
    // Files and folders mix; files stay in the order given.
    const auto mixed = rankJobFiles({path("rank-10.json"), path("sub.json")});
    ASSERT_FALSE(mixed.ok());  // an empty folder
    EXPECT_EQ(mixed.error().file, path("sub.json"));
    EXPECT_EQ(mixed.error().message,
              "no trace files (*.json, *.json.gz, *.sqlite, *.nsys-rep) in the folder");
}

TEST_F(RankJobTest, AMissingPathOrAFileNamedTwiceIsAnError) {
    write("a.json", "[]");
    const auto missing = rankJobFiles({path("a.json"), path("b.json")});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().describe(), path("b.json") + ": no such file or folder");
    const auto twice = rankJobFiles({path("a.json"), m_dir});
    ASSERT_FALSE(twice.ok());
    EXPECT_EQ(twice.error().describe(),
              path("a.json") + ": named twice (also as " + path("a.json") + ")");
}

TEST_F(RankJobTest, RanksAreWhatTheTracesSayInRankOrder) {
    const auto a = save("a.json", rankTrace({kClock, 500, "1"}));
    const auto b = save("b.json.gz", rankTrace({kClock, 500, "0", "", "", 4300}));
    const RankJob job = loadOrFail({a, b});
    ASSERT_TRUE(job.trace);
    ASSERT_EQ(job.ranks.size(), 2u);
    EXPECT_EQ(job.ranks[0].rank, 0);
    EXPECT_EQ(job.ranks[0].path, b);
    EXPECT_EQ(job.ranks[0].pid, 4300);
    EXPECT_EQ(job.ranks[0].label, "rank 0 · pid 4300");
    EXPECT_TRUE(job.ranks[0].rankFromTrace);
    EXPECT_EQ(job.ranks[1].rank, 1);
    EXPECT_EQ(job.ranks[1].path, a);
    EXPECT_TRUE(job.warnings.empty());
    // The merged trace says it all: each process's rank, each rank's file and label.
    std::map<std::int32_t, int> processesByRank;
    for (const model::Process& p : job.trace->processes())
        ++processesByRank[p.rank];
    EXPECT_EQ(processesByRank, (std::map<std::int32_t, int>{{0, 2}, {1, 2}}));
    EXPECT_EQ(job.trace->metadataValue("rank 0.file"), b);
    EXPECT_EQ(job.trace->metadataValue("rank 1.file"), a);
    EXPECT_EQ(job.trace->metadataValue("rank 1.label"), "rank 1 · pid 4242");
}

TEST_F(RankJobTest, TracesWithoutARankAreNumberedInFileOrder) {
    const auto a = save("a.json", rankTrace({kClock, 500, ""}));
    const auto b = save("b.json", rankTrace({kClock, 500, "0"}));
    const auto c = save("c.json", rankTrace({kClock, 500, ""}));
    const RankJob job = loadOrFail({a, b, c});
    ASSERT_EQ(job.ranks.size(), 3u);
    EXPECT_EQ(job.ranks[0].path, b);  // its own
    EXPECT_EQ(job.ranks[1].path, a);  // the free numbers, in file order
    EXPECT_EQ(job.ranks[2].path, c);
    EXPECT_FALSE(job.ranks[1].rankFromTrace);
    ASSERT_EQ(job.warnings.size(), 1u);
    EXPECT_EQ(job.warnings[0],
              "2 trace(s) name no rank and were numbered in file order, the first a.json");

    const RankJob none = loadOrFail({a, c});
    ASSERT_EQ(none.warnings.size(), 1u);
    EXPECT_EQ(none.warnings[0], "no trace names its rank: ranks follow the order of the files");
    EXPECT_EQ(none.ranks[0].path, a);
    EXPECT_EQ(none.ranks[1].path, c);
}

TEST_F(RankJobTest, RanksAndClocksThatDoNotParseAreNotUsed) {
    const auto a = save("a.json", rankTrace({kClock, 500, "-1", "1,2,3"}));
    const auto b = save("b.json", rankTrace({kClock, 500, "99999999999", ",", "zero"}));
    const auto c = save("c.json", rankTrace({kClock, 500, "two", "9223372036854775807,-9"}));
    const RankJob job = loadOrFail({a, b, c});
    ASSERT_EQ(job.ranks.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(job.ranks[i].rank, static_cast<std::int32_t>(i));
        EXPECT_FALSE(job.ranks[i].rankFromTrace);
    }
    EXPECT_EQ(job.alignment, RankAlignment::Start);
    EXPECT_EQ(job.alignmentText,
              "aligned at each trace's start: rank 0 (a.json) and 2 more have no clock anchor (its "
              "clock_sync_start '1,2,3' is not a clock pair)");
}

TEST_F(RankJobTest, AMergedJobIsNoRankOfAnother) {
    const auto a = save("a.json", rankTrace({kClock, 500, "0"}));
    const auto b = save("b.json", rankTrace({kClock, 500, "1"}));
    const RankJob job = loadOrFail({a, b});
    ASSERT_TRUE(job.trace);
    const auto merged = save("job.json", job.trace);
    const auto c = save("c.json", rankTrace({kClock, 500, "2"}));
    const auto again = loadRankJob({merged, c});
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().describe(),
              merged + ": is a job's merged trace already: open it on its own");
}

TEST_F(RankJobTest, TwoFilesOfOneRankAreAnErrorNamingBoth) {
    const auto a = save("a.json", rankTrace({kClock, 500, "3"}));
    const auto b = save("b.json", rankTrace({kClock, 500, "3"}));
    const auto job = loadRankJob({a, b});
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().describe(),
              b + ": rank 3 is also in " + a + ": a job has one trace per rank (two runs mixed?)");
}

TEST_F(RankJobTest, ABadFileAmongGoodOnesIsAnErrorNamingIt) {
    const auto a = save("a.json", rankTrace({kClock, 500, "0"}));
    const auto bad = write("b.json", "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1");
    const auto c = save("c.json", rankTrace({kClock, 500, "2"}));
    for (unsigned threads : {1u, 3u}) {
        RankJobOptions options;
        options.threads = threads;
        const auto job = loadRankJob({a, bad, c}, options);
        ASSERT_FALSE(job.ok());
        EXPECT_EQ(job.error().file, bad);
    }
    const auto missing = loadRankJob({a, path("gone.json")});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().file, path("gone.json"));
    EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
}

TEST_F(RankJobTest, HostWallClockAnchorsPutRanksOnOneAxis) {
    // Rank 0 began at wall kWall + 1000 (its clock then read kClock); rank 1's clock reads 5 s
    // at its first event, which its pair places at wall kWall + 4000.
    const TimeNs clock1 = 5'000'000'000;
    const auto a = save(
        "a.json",
        rankTrace({kClock, 500, "0", std::to_string(kWall + 1000) + "," + std::to_string(kClock)}));
    const auto b = save(
        "b.json", rankTrace({clock1, 500, "1",
                             std::to_string(kWall + 3500) + "," + std::to_string(clock1 - 500)}));
    const RankJob job = loadOrFail({a, b});
    ASSERT_TRUE(job.trace);
    EXPECT_EQ(job.alignment, RankAlignment::WallClock);
    EXPECT_EQ(job.alignmentText, "aligned by host wall clock");
    EXPECT_EQ(job.ranks[0].clockOffsetNs, kWall + 1000 - kClock);
    EXPECT_EQ(job.ranks[1].clockOffsetNs, kWall + 4000 - clock1);
    EXPECT_EQ(job.trace->originNs(), kWall + 1000);
    EXPECT_EQ(startsOf(*job.trace, "gemm"),
              (std::map<std::int32_t, TimeNs>{{0, 510}, {1, 3000 + 510}}));
    EXPECT_EQ(job.trace->metadataValue("rank alignment"), "aligned by host wall clock");
    EXPECT_EQ(job.trace->metadataValue("rank alignment mode"), "wall_clock");
    EXPECT_EQ(job.trace->metadataValue("rank 1.clock offset ns"),
              std::to_string(kWall + 4000 - clock1));
}

TEST_F(RankJobTest, WithoutClocksTheChosenRangeAlignsTheRanks) {
    const auto a = save("a.json", rankTrace({1'000'000'000, 500, "0"}));
    const auto b = save("b.json", rankTrace({7'000'000'000, 2'500, "1"}));
    RankJobOptions options;
    options.alignRange = "ProfilerStep#1";  // numbers aside, the name of "ProfilerStep#7"
    const RankJob job = loadOrFail({a, b}, options);
    ASSERT_TRUE(job.trace);
    EXPECT_EQ(job.alignment, RankAlignment::Range);
    EXPECT_EQ(job.alignmentText,
              "aligned at each rank's first 'ProfilerStep#': rank 0 (a.json) and 1 more have no "
              "clock anchor");
    EXPECT_EQ(job.ranks[0].clockOffsetNs, 0);
    EXPECT_EQ(job.ranks[1].clockOffsetNs, (1'000'000'000 + 500) - (7'000'000'000 + 2'500));
    // Rank 1's warm-up began 2 us before its first step, rank 0's 500 ns before: the steps meet.
    EXPECT_EQ(startsOf(*job.trace, "ProfilerStep#7"),
              (std::map<std::int32_t, TimeNs>{{0, 2'000 + 500}, {1, 2'500}}));
    EXPECT_EQ(startsOf(*job.trace, "warmup"), (std::map<std::int32_t, TimeNs>{{0, 2'000}, {1, 0}}));
    EXPECT_EQ(job.trace->metadataValue("rank alignment mode"), "range");
}

TEST_F(RankJobTest, WithoutClocksOrRangesTheStartsAlignTheRanks) {
    const auto a = save("a.json", rankTrace({1'000'000'000, 500, "0"}));
    const auto b = save("b.json", rankTrace({7'000'000'000, 2'500, "1", "", "", 4242, false}));
    RankJobOptions options;
    options.alignRange = "ProfilerStep#";  // rank 1 has none
    const RankJob job = loadOrFail({a, b}, options);
    ASSERT_TRUE(job.trace);
    EXPECT_EQ(job.alignment, RankAlignment::Start);
    EXPECT_EQ(job.alignmentText,
              "aligned at each trace's start: rank 0 (a.json) and 1 more have no clock anchor; "
              "rank 1 (b.json) has no 'ProfilerStep#' range");
    EXPECT_EQ(job.ranks[1].clockOffsetNs, 1'000'000'000 - 7'000'000'000);
    EXPECT_EQ(startsOf(*job.trace, "warmup"), (std::map<std::int32_t, TimeNs>{{0, 0}, {1, 0}}));
    EXPECT_EQ(startsOf(*job.trace, "gemm"), (std::map<std::int32_t, TimeNs>{{0, 510}, {1, 2'510}}));
}

TEST_F(RankJobTest, OneRankWithoutAClockAnchorAlignsEveryRankAtItsStart) {
    const auto a =
        save("a.json",
             rankTrace({kClock, 500, "0", std::to_string(kWall) + "," + std::to_string(kClock)}));
    const auto b = save("b.json", rankTrace({kClock + 7'000, 500, "1"}));
    const auto c = save("c.json", rankTrace({kClock, 500, "2", "yesterday,noon"}));
    const RankJob job = loadOrFail({a, b, c});
    EXPECT_EQ(job.alignment, RankAlignment::Start);
    EXPECT_EQ(job.alignmentText,
              "aligned at each trace's start: rank 1 (b.json) and 1 more have no clock anchor");
    const RankJob two = loadOrFail({a, c});
    EXPECT_EQ(two.alignmentText,
              "aligned at each trace's start: rank 2 (c.json) has no clock anchor (its "
              "clock_sync_start 'yesterday,noon' is not a clock pair)");
}

TEST_F(RankJobTest, AForcedAlignmentThatCannotBeMadeIsAnError) {
    const auto a =
        save("a.json",
             rankTrace({kClock, 500, "0", std::to_string(kWall) + "," + std::to_string(kClock)}));
    const auto b = save("b.json", rankTrace({kClock, 500, "1", "", "", 4242, false}));
    RankJobOptions options;
    options.align = RankJobOptions::Align::WallClock;
    auto job = loadRankJob({a, b}, options);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().describe(),
              b + ": no host wall clock to align the ranks by: the trace has no "
                  "clock_sync_start (warpline record) and its times are no dates (PyTorch "
                  "profiler)");
    options.align = RankJobOptions::Align::Range;
    job = loadRankJob({a, b}, options);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().message, "aligning the ranks by a range needs the range's name");
    options.alignRange = "ProfilerStep#7";
    job = loadRankJob({a, b}, options);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().describe(), b + ": no range 'ProfilerStep#' to align the ranks by");
    // Forced to the starts even though rank 0 has a clock.
    options.align = RankJobOptions::Align::Start;
    job = loadRankJob({a, b}, options);
    ASSERT_TRUE(job.ok()) << job.error().describe();
    EXPECT_EQ(job.value().alignmentText, "aligned at each trace's start");
}

// A PyTorch profiler (Kineto) trace of one rank: epoch-microsecond timestamps, distributedInfo.
std::string kinetoRank(int rank, const std::string& kernelTs) {
    return R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": )" +
           std::to_string(rank) + R"(, "world_size": 2},
"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 77, "tid": 77, "ts": )" +
           kernelTs + R"(, "dur": 40},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 77, "tid": 77, "ts": )" +
           kernelTs + R"(, "dur": 5, "args": {"correlation": 9, "cbid": 211}},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 7, "ts": )" +
           kernelTs + R"(.250, "dur": 20.5, "args": {"device": 0, "stream": 7, "correlation": 9}}
]})";
}

TEST_F(RankJobTest, PyTorchProfilerTracesAreOnTheWallClockAlready) {
    const auto a = write("worker1.pt.trace.json", kinetoRank(1, "1682725898236567"));
    const auto b = write("worker0.pt.trace.json", kinetoRank(0, "1682725898236000"));
    const RankJob job = loadOrFail({a, b});
    ASSERT_TRUE(job.trace);
    EXPECT_EQ(job.alignment, RankAlignment::WallClock);
    EXPECT_EQ(job.ranks[0].path, b);
    EXPECT_TRUE(job.ranks[0].rankFromTrace);
    EXPECT_EQ(job.ranks[0].clockOffsetNs, 0);
    EXPECT_EQ(job.ranks[0].pid, 77);
    EXPECT_EQ(job.trace->originNs(), 1'682'725'898'236'000'000);
    EXPECT_EQ(startsOf(*job.trace, "ncclKernel_AllReduce_RING_LL_Sum_float"),
              (std::map<std::int32_t, TimeNs>{{0, 250}, {1, 567'000 + 250}}));
    EXPECT_EQ(job.trace->metadataValue("world_size"), "2");
}

TEST_F(RankJobTest, DifferentWorldSizesAreAWarning) {
    const auto a = save("a.json", rankTrace({kClock, 500, "0", "", "8"}));
    const auto b = save("b.json", rankTrace({kClock, 500, "1", "", "16"}));
    const RankJob job = loadOrFail({a, b});
    ASSERT_EQ(job.warnings.size(), 1u);
    EXPECT_EQ(job.warnings[0],
              "the traces name 2 different world sizes: traces of different jobs?");
    const auto c = save("c.json", rankTrace({kClock, 500, "2", "", "2"}));
    const auto d = save("d.json", rankTrace({kClock, 500, "1", "", "2"}));
    const RankJob beyond = loadOrFail({c, d});
    ASSERT_EQ(beyond.warnings.size(), 1u);
    EXPECT_EQ(beyond.warnings[0], "rank 2 is not below the world size 2");
}

TEST_F(RankJobTest, ProgressIsReportedAndCancellingStopsTheLoad) {
    const auto a = save("a.json", rankTrace({kClock, 500, "0"}));
    const auto b = save("b.json", rankTrace({kClock, 500, "1"}));
    std::vector<double> fractions;
    RankJobOptions options;
    options.progress = [&](double f, const std::string&) { fractions.push_back(f); };
    ASSERT_TRUE(loadRankJob({a, b}, options).ok());
    EXPECT_EQ(fractions, (std::vector<double>{0.45, 0.9, 0.9, 1.0}));

    std::atomic<bool> cancel{true};
    options.cancel = &cancel;
    const auto job = loadRankJob({a, b}, options);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.error().message, "opening the job was cancelled");
}

TEST_F(RankJobTest, TheMergedJobKeepsItsRanksThroughExportAndImport) {
    const auto a = save("a.json", rankTrace({1'000'000'000, 500, "0", "", "", 4242}));
    const auto b = save("b.json", rankTrace({7'000'000'000, 2'500, "1", "", "", 4242}));
    const RankJob job = loadOrFail({a, b});
    ASSERT_TRUE(job.trace);
    const std::string json = ChromeTraceWriter(*job.trace).toString();
    const auto back = ChromeTraceReader().read(json, "job.json");
    ASSERT_TRUE(back.ok()) << back.error().describe();
    const model::Trace& t = *back.value();
    ASSERT_EQ(t.processes().size(), job.trace->processes().size());
    for (std::size_t i = 0; i < t.processes().size(); ++i) {
        const model::Process& was = job.trace->processes()[i];
        const model::Process& is = t.processes()[i];
        EXPECT_EQ(is.rank, was.rank);
        EXPECT_EQ(is.pid, was.pid);  // both ranks' pid 4242 stays theirs
        EXPECT_EQ(is.deviceId, was.deviceId);
        EXPECT_EQ(t.str(is.nameId), job.trace->str(was.nameId));
    }
    EXPECT_EQ(startsOf(t, "gemm"), startsOf(*job.trace, "gemm"));
    EXPECT_EQ(t.metadataValue("rank alignment"), job.alignmentText);
    EXPECT_EQ(t.metadataValue("rank 1.file"), b);
    // Kineto's block names no single rank for a whole job.
    const std::size_t info = json.find("\"distributedInfo\"");
    ASSERT_NE(info, std::string::npos);
    const std::string block = json.substr(info, json.find('}', info) - info);
    EXPECT_EQ(block.find("\"rank\""), std::string::npos) << block;
}

TEST(DistinctRanksOf, TheProcessesOfAJobAreItsRanksAndAProgramsHelpersAreNot) {
    const auto traceOf = [](std::int64_t pid, std::string rank) {
        test::ProcessTraceSpec spec;
        spec.pid = pid;
        spec.rank = std::move(rank);
        return test::makeProcessTrace(spec);
    };
    // torchrun's two ranks.
    EXPECT_EQ(distinctRanksOf({traceOf(10, "1"), traceOf(11, "0")}),
              (std::vector<std::int32_t>{1, 0}));
    // A rank and a data-loader worker that inherited its RANK: one program's processes.
    EXPECT_EQ(distinctRanksOf({traceOf(10, "0"), traceOf(11, "0")}),
              (std::vector<std::int32_t>{-1, -1}));
    // A program that names no rank, and a helper that does.
    EXPECT_EQ(distinctRanksOf({traceOf(10, ""), traceOf(11, "3")}),
              (std::vector<std::int32_t>{-1, -1}));
    EXPECT_EQ(distinctRanksOf({traceOf(10, "x"), traceOf(11, "1")}),
              (std::vector<std::int32_t>{-1, -1}));
    // A rank's rows are named as loadRankJob names them.
    EXPECT_EQ(rankLabelOf(*traceOf(10, "1"), 1), "rank 1 · node1 · pid 10");
}

}  // namespace
}  // namespace wl::io
