// `warpline analyze` on a job's ranks: two PyTorch profiler traces of a real job.
#include <gtest/gtest.h>

#include <simdjson.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "support/TestData.h"

namespace wl::app {
namespace {

std::pair<int, std::string> analyze(const std::vector<std::string>& args) {
    std::ostringstream out;
    std::streambuf* old = std::cout.rdbuf(out.rdbuf());
    const int rc = analyzeCommand(args);
    std::cout.rdbuf(old);
    return {rc, out.str()};
}

const std::string kRank0 = test::dataPath("ranks/sampled_rank-0.json.gz");
const std::string kRank1 = test::dataPath("ranks/sampled_rank-1.json.gz");

TEST(AnalyzeRanks, TwoTracesAreComparedRankByRank) {
    // Whole traces: each rank's GPU from its own first op to its last, as the trace alone (the
    // default window is the job's ProfilerStep iterations, checked below).
    const auto [rc, text] = analyze({kRank1, kRank0, "--whole-trace"});
    ASSERT_EQ(rc, kExitOk);
    EXPECT_EQ(
        text.rfind("job of 2 ranks:\n  rank 0: " + kRank0 + "\n  rank 1: " + kRank1 + "\n", 0), 0u)
        << text.substr(0, 400);
    EXPECT_NE(text.find("\nWindow: whole trace"), std::string::npos);  // the usual report
    EXPECT_NE(text.find("\nRanks: 2, aligned by host wall clock\n"), std::string::npos) << text;
    // Rank 0: 1154 kernels, 10 of them NCCL; busy as the trace alone says (44.8%).
    EXPECT_NE(text.find("  0     -                0        44.8%   675.19 ms     1154 (606.52 ms)  "
                        "     10 (396.20 ms)\n"),
              std::string::npos)
        << text.substr(text.find("\nRanks:"));
    EXPECT_NE(text.find("'ProfilerStep#': 2 iterations; slowest most often: rank 1 (2 of 2)"),
              std::string::npos);
    const auto [rcSteps, steps] = analyze({kRank1, kRank0});
    ASSERT_EQ(rcSteps, kExitOk);
    EXPECT_NE(steps.find("\nWindow: 2 iterations 'ProfilerStep#'"), std::string::npos)
        << steps.substr(0, 600);
}

TEST(AnalyzeRanks, TheJsonHasARanksObject) {
    const auto [rc, json] = analyze({kRank0, kRank1, "--json", "--rank-buckets", "8"});
    ASSERT_EQ(rc, kExitOk);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json.substr(0, 400);
    EXPECT_EQ(doc["files"].get_array().size(), 2u);
    EXPECT_TRUE(doc["file"].error() == simdjson::NO_SUCH_FIELD);
    const auto ranks = doc["ranks"];
    EXPECT_EQ(std::string_view(ranks["alignment"].get_string().value()), "wall_clock");
    EXPECT_EQ(ranks["count"].get_uint64().value(), 2u);
    const auto rank1 = ranks["ranks"].at(1);
    EXPECT_EQ(rank1["rank"].get_int64().value(), 1);
    EXPECT_EQ(rank1["kernels"].get_uint64().value(), 1104u);
    EXPECT_EQ(rank1["comms_kernels"].get_uint64().value(), 10u);
    EXPECT_EQ(std::string_view(rank1["file"].get_string().value()), kRank1);
    EXPECT_TRUE(rank1["rank_from_trace"].get_bool().value());
    EXPECT_EQ(ranks["overview"]["buckets"].get_uint64().value(), 8u);
    EXPECT_EQ(ranks["overview"]["busy_fraction"].at(0).get_array().size(), 8u);
    const auto step = ranks["stragglers"].at(0);
    EXPECT_EQ(std::string_view(step["name"].get_string().value()), "ProfilerStep#");
    EXPECT_EQ(step["per_iteration"].get_array().size(), 2u);
}

TEST(AnalyzeRanks, OneFileKeepsTheSingleTraceReport) {
    const auto [rc, text] = analyze({kRank0});
    ASSERT_EQ(rc, kExitOk);
    EXPECT_EQ(text.rfind(kRank0 + "\nspan: ", 0), 0u) << text.substr(0, 200);
    EXPECT_EQ(text.find("Ranks:"), std::string::npos);
    EXPECT_EQ(text.find("rank 0"), std::string::npos);
}

TEST(AnalyzeRanks, AFolderWithABadTraceIsRefusedNamingIt) {
    const std::string dir = test::makeTempDir("warpline-analyze-ranks");
    std::filesystem::copy_file(kRank0, dir + "/rank-0.json.gz");
    std::ofstream(dir + "/rank-1.json") << "{\"traceEvents\": [";
    // (printError writes to the C stream stderr.)
    ::testing::internal::CaptureStderr();
    const auto [rc, text] = analyze({dir});
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(rc, kExitBadInput);
    EXPECT_TRUE(text.empty());
    EXPECT_EQ(err.rfind("warpline: error: " + dir + "/rank-1.json: ", 0), 0u) << err;
    std::filesystem::remove_all(dir);
}

// A real DDP job's two ranks (tests/data/collectives/README.md): rank 1, slowed every third step,
// is last at every all-reduce; figures as check_collectives.py computes them from the JSON.
const std::string kDdp0 = test::dataPath("collectives/ddp_kineto_rank-0.json.gz");
const std::string kDdp1 = test::dataPath("collectives/ddp_kineto_rank-1.json.gz");

TEST(AnalyzeRanks, TheCollectivesSayWhoArrivedLastAndWhatTheOthersWaited) {
    const auto [rc, text] = analyze({kDdp0, kDdp1, "--whole-trace"});
    ASSERT_EQ(rc, kExitOk);
    const std::size_t at = text.find("\nCollectives ");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string part = text.substr(at);
    EXPECT_NE(part.find("  process group 0 (default_pg): 60 in the window, matched by the "
                        "profiler's process group args\n"),
              std::string::npos)
        << part;
    EXPECT_NE(part.find("  last most often: rank 1 (60 of 60, late by 269.23 ms in all); the "
                        "ranks waited 269.23 ms in all\n"),
              std::string::npos)
        << part;
    // The costliest: the first step's all-reduce, then the 49th (the 25th step's first).
    EXPECT_NE(part.find("    allreduce             1     1     26.85 ms       26.85 ms\n"
                        "    allreduce            49     1     22.50 ms       22.50 ms\n"),
              std::string::npos)
        << part;
    EXPECT_EQ(part.find("mismatch"), std::string::npos);

    const auto [rcJson, json] = analyze({kDdp0, kDdp1, "--whole-trace", "--json"});
    ASSERT_EQ(rcJson, kExitOk);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json.substr(0, 400);
    const auto c = doc["ranks"]["collectives"];
    EXPECT_EQ(c["matched"].get_uint64().value(), 60u);
    EXPECT_EQ(c["total_wait_ns"].get_int64().value(), 269'226'093);
    EXPECT_EQ(c["most_often_last_rank"].get_int64().value(), 1);
    EXPECT_EQ(std::string_view(c["communicators"].at(0)["matched_by"].get_string().value()),
              "process_group");
    EXPECT_EQ(c["per_rank"].at(1)["last_count"].get_uint64().value(), 60u);
    EXPECT_EQ(c["per_rank"].at(0)["wait_ns"].get_int64().value(), 269'226'093);
    const auto costliest = c["costliest"].at(0);
    EXPECT_EQ(std::string_view(costliest["name"].get_string().value()), "allreduce");
    EXPECT_EQ(costliest["sequence"].get_uint64().value(), 1u);
    EXPECT_EQ(costliest["last_rank"].get_int64().value(), 1);
    EXPECT_EQ(costliest["lateness_ns"].get_int64().value(), 26'850'315);
    EXPECT_EQ(costliest["others_wait_ns"].get_int64().value(), 26'850'315);
    EXPECT_EQ(c["per_collective"].get_array().size(), 60u);
    EXPECT_EQ(c["mismatches"].get_array().size(), 0u);

    const auto [rcHelp, help] = analyze({"--help"});
    EXPECT_EQ(rcHelp, kExitOk);
    EXPECT_NE(help.find("collective by collective"), std::string::npos) << help;
}

// A profiler trace of one rank with NCCL all-reduces starting at `startsUs` (us).
std::string rankTrace(int rank, const std::vector<int>& startsUs) {
    std::string events;
    for (const int ts : startsUs) {
        events += std::string(events.empty() ? "" : ",") +
                  R"({"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL",)" +
                  R"("pid":0,"tid":7,"ts":)" + std::to_string(ts) +
                  R"(,"dur":5,"args":{"device":0,"stream":7,"Collective name":"allreduce",)" +
                  R"("Process Group Name":"0","Process Group Ranks":"[0, 1]"}})";
    }
    return R"({"distributedInfo":{"backend":"nccl","rank":)" + std::to_string(rank) +
           R"(,"world_size":2},"baseTimeNanoseconds":1700000000000000000,"traceEvents":[)" +
           events + "]}";
}

TEST(AnalyzeRanks, ACollectiveARankLacksIsReported) {
    const std::string dir = test::makeTempDir("warpline-analyze-collectives");
    std::ofstream(dir + "/rank-0.json") << rankTrace(0, {100, 200, 300});
    std::ofstream(dir + "/rank-1.json") << rankTrace(1, {110, 220});
    const auto [rc, text] = analyze({dir + "/rank-0.json", dir + "/rank-1.json"});
    ASSERT_EQ(rc, kExitOk);
    EXPECT_NE(text.find("  mismatch: rank 1 ran 2 collectives on process group 0, 1 fewer than "
                        "another rank"),
              std::string::npos)
        << text;
    const auto [rcJson, json] = analyze({dir + "/rank-0.json", dir + "/rank-1.json", "--json"});
    ASSERT_EQ(rcJson, kExitOk);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json.substr(0, 400);
    const auto mismatch = doc["ranks"]["collectives"]["mismatches"].at(0);
    EXPECT_EQ(std::string_view(mismatch["kind"].get_string().value()), "fewer_on_rank");
    EXPECT_EQ(mismatch["rank"].get_int64().value(), 1);
    EXPECT_EQ(mismatch["count"].get_uint64().value(), 1u);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace wl::app
