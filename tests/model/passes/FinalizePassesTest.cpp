#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/passes/Passes.h"
#include "support/RunPasses.h"

using namespace wl::model;

TEST(FinalizePasses, RunInTheirOrderUnderNamesOfTheirOwn) {
    std::vector<std::string> names;
    for (const FinalizePass& pass : finalizePasses()) {
        ASSERT_NE(pass.run, nullptr) << pass.name;
        EXPECT_EQ(findFinalizePass(pass.name), &pass);
        names.emplace_back(pass.name);
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"process order", "track order", "rebase", "lane assignment",
                                        "launch flows", "explicit flows", "flow index",
                                        "dependencies", "launch queue", "device memory",
                                        "NVTX projection", "graph launches", "compact", "counts"}));
    EXPECT_EQ(findFinalizePass("no such pass"), nullptr);
}

TEST(FinalizePasses, AnEmptyListLeavesTheEventsAsAdded) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    b.addSlice(b.hostTrack(host, 1), 1000, 1200, "a", SliceKind::Other);
    const auto trace = b.finalize({});
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->tracks()[0].slices[0].startNs, 1000);  // not rebased
    EXPECT_EQ(trace->tracks()[0].laneCount(), 0u);          // no lanes assigned
    EXPECT_EQ(trace->counts().slices, 0u);                  // not counted
    EXPECT_EQ(b.finalize(), nullptr);                       // finalized once
}
