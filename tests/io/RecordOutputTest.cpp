#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "io/RecordOutput.h"

namespace wl::io {
namespace {

RecordProcess process(std::int64_t pid, bool root, std::map<std::string, std::string> env = {},
                      std::set<std::string> taken = {}) {
    RecordProcess p;
    p.pid = pid;
    p.root = root;
    p.host = "node7";
    p.env = [env = std::move(env)](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    p.exists = [taken = std::move(taken)](const std::string& path) {
        return taken.count(path) > 0;
    };
    return p;
}

TEST(RecordOutput, WithoutAPatternTheRootWritesTheFileAndChildrenWriteBesideIt) {
    EXPECT_EQ(recordOutputPath("mp.json.gz", process(100, true)).value(), "mp.json.gz");
    EXPECT_EQ(recordOutputPath("mp.json.gz", process(4242, false)).value(), "mp.4242.json.gz");
    EXPECT_EQ(recordOutputPath("out/run.json", process(7, false)).value(), "out/run.7.json");
    EXPECT_EQ(recordOutputPath("out.d/trace", process(7, false)).value(), "out.d/trace.7");
    EXPECT_EQ(recordOutputPath("trace.tar.xz", process(7, false)).value(), "trace.tar.7.xz");
}

TEST(RecordOutput, PatternsExpandInEveryProcessAlike) {
    const auto env = std::map<std::string, std::string>{{"RANK", "3"}, {"LOCAL_RANK", "1"}};
    EXPECT_EQ(recordOutputPath("r%q{RANK}-%h-%p.json.gz", process(55, false, env)).value(),
              "r3-node7-55.json.gz");
    // A pattern names each process already: no pid is added for children.
    EXPECT_EQ(recordOutputPath("rank%q{LOCAL_RANK}.json", process(56, false, env)).value(),
              "rank1.json");
    EXPECT_EQ(recordOutputPath("100%%.json", process(1, true)).value(), "100%.json");
}

TEST(RecordOutput, CounterTakesTheFirstFreeNumber) {
    EXPECT_EQ(recordOutputPath("t%n.json", process(1, true)).value(), "t1.json");
    EXPECT_EQ(recordOutputPath("t%n.json", process(1, true, {}, {"t1.json", "t2.json"})).value(),
              "t3.json");
}

TEST(RecordOutput, BadPatternsAreErrorsThatSayWhy) {
    const auto unset = recordOutputPath("r%q{RANK}.json", process(9, true));
    ASSERT_FALSE(unset.ok());
    EXPECT_NE(unset.error().message.find("RANK is not set"), std::string::npos);
    const auto unknown = recordOutputPath("r%z.json", process(9, true));
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("unknown pattern %z"), std::string::npos);
    EXPECT_FALSE(recordOutputPath("r%q{RANK.json", process(9, true)).ok());
    EXPECT_FALSE(recordOutputPath("trailing%", process(9, true)).ok());
    EXPECT_FALSE(recordOutputPath("", process(9, true)).ok());
}

TEST(RecordOutput, TheMergedTraceOfAPatternGoesBesideTheProcessesTraces) {
    EXPECT_EQ(mergedPatternOutputPath("ddp-%q{RANK}.json.gz"), "ddp.merged.json.gz");
    EXPECT_EQ(mergedPatternOutputPath("runs/rank%q{RANK}-%h.json.gz"), "runs/rank.merged.json.gz");
    EXPECT_EQ(mergedPatternOutputPath("out/%p.json"), "out/warpline.merged.json");
    EXPECT_EQ(mergedPatternOutputPath("job_%n_100%%.json.gz"), "job__100%.merged.json.gz");
    // No pattern (the root's trace names it), or traces in one folder per process.
    EXPECT_EQ(mergedPatternOutputPath("mp.json.gz"), "");
    EXPECT_EQ(mergedPatternOutputPath("rank%q{RANK}/trace.json.gz"), "");
}

}  // namespace
}  // namespace wl::io
