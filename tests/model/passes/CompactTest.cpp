#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

namespace {

void addSlicesAndSamples(TraceBuilder& b) {
    const auto host = b.hostProcess(1);
    const auto track = b.hostTrack(host, 1);
    const auto counter = b.counterTrack(host, "c", "s");
    for (int i = 0; i < 5; ++i) {  // vectors grow by doubling: room for 8
        b.addSlice(track, i * 10, i * 10 + 5, "a", SliceKind::Other);
        b.addCounterSample(counter, i * 10, double(i));
    }
}

}  // namespace

TEST(CompactPass, GivesTheGrowthSlackBack) {
    TraceBuilder grown;
    addSlicesAndSamples(grown);
    const auto before = wl::test::runPasses(grown, {});
    EXPECT_GT(before->tracks()[0].slices.capacity(), 5u);

    TraceBuilder b;
    addSlicesAndSamples(b);
    const auto trace = wl::test::runPasses(b, {"compact"});
    EXPECT_EQ(trace->tracks()[0].slices.size(), 5u);
    EXPECT_EQ(trace->tracks()[0].slices.capacity(), 5u);
    EXPECT_EQ(trace->counters()[0].samples.capacity(), 5u);
}
