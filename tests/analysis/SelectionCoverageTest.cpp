// A selection of some rows: findings about a whole device come only from all of its streams that
// worked in the selected span, or are left out and the result says so.
#include <gtest/gtest.h>

#include "HandTrace.h"
#include "SelectionWindow.h"
#include "analysis/Analysis.h"

namespace wl::analysis {
namespace {

// Two streams asked for; stream 13 does nearly all the work, stream 14 a little, both throughout.
model::TracePtr twoStreamRun() {
    test::HandTrace t;
    t.builder().setMetadata("streams", "2");
    t.builder().setMetadata("mode", "async");
    for (int i = 0; i < 4; ++i) {
        t.kernel(13, 1000 * i, 1000 * i + 900, -1);
        t.kernel(14, 1000 * i + 900, 1000 * i + 950, -1);
    }
    return t.finish();
}

TEST(SelectionCoverage, OneOfTheDevicesWorkingStreamsDrawsNoDeviceFinding) {
    const auto trace = twoStreamRun();
    // Over the whole trace stream 13 did 95% of the work, but stream 14 did some: not serialised.
    EXPECT_FALSE(analyzeTrace(*trace).fired(RuleId::StreamsSerialized));
    EXPECT_TRUE(analyzeTrace(*trace).partialDevices.empty());

    // Only stream 13's row selected: the rows left out worked too, so no finding about the device.
    const AnalysisResult one =
        analyzeTrace(*trace, {}, test::selectionOf({{0, 4000}}, {test::streamTrack(*trace, 13)}));
    EXPECT_FALSE(one.fired(RuleId::StreamsSerialized));
    ASSERT_EQ(one.partialDevices.size(), 1u);
    EXPECT_EQ(one.partialDevices[0].deviceId, 0);
    EXPECT_EQ(one.partialDevices[0].streamsSelected, 1u);
    EXPECT_EQ(one.partialDevices[0].streamsWorking, 2u);
    const std::string said = describeCoverage(one);
    EXPECT_NE(said.find("1 of the 2 streams that worked on GPU 0"), std::string::npos) << said;
    EXPECT_NE(said.find("left out"), std::string::npos) << said;
    // What the selected stream did is still measured from it alone.
    ASSERT_EQ(one.statistics.kernels.size(), 1u);
    EXPECT_EQ(one.statistics.kernels[0].count, 4u);
    EXPECT_EQ(one.statistics.kernels[0].totalNs, 3600);
}

TEST(SelectionCoverage, EveryWorkingStreamSelectedLeavesNothingOut) {
    const auto trace = twoStreamRun();
    const AnalysisResult both = analyzeTrace(
        *trace, {},
        test::selectionOf({{0, 4000}},
                          {test::streamTrack(*trace, 13), test::streamTrack(*trace, 14)}));
    EXPECT_TRUE(both.partialDevices.empty());
    EXPECT_TRUE(describeCoverage(both).empty());
}

TEST(SelectionCoverage, ASpanWhereOnlyTheSelectedStreamWorkedKeepsTheDeviceFindings) {
    // Four streams asked for, one used: selecting that stream's row over the span still shows
    // the serialisation, since no other stream of the device worked there.
    test::HandTrace t;
    t.builder().setMetadata("streams", "4");
    t.builder().setMetadata("mode", "async");
    for (int i = 0; i < 4; ++i)
        t.kernel(13, 1000 * i, 1000 * i + 900, -1);
    const auto trace = t.finish();
    const AnalysisResult one =
        analyzeTrace(*trace, {}, test::selectionOf({{0, 4000}}, {test::streamTrack(*trace, 13)}));
    EXPECT_TRUE(one.partialDevices.empty());
    EXPECT_TRUE(one.fired(RuleId::StreamsSerialized));
}

TEST(SelectionCoverage, FindingsAboutSingleOpsStayWithAPartialSelection) {
    // A kernel's own finding (its occupancy) is a fact of that kernel, whatever else is selected.
    test::HandTrace t;
    t.addH100();
    t.kernel(13, 0, 1000, -1, "heavy", test::launchConfig(1024, 256, 255));
    t.kernel(14, 0, 1000, -1, "other");
    const auto trace = t.finish();
    const AnalysisResult one =
        analyzeTrace(*trace, {}, test::selectionOf({{0, 1000}}, {test::streamTrack(*trace, 13)}));
    EXPECT_EQ(one.partialDevices.size(), 1u);
    EXPECT_TRUE(one.fired(RuleId::LowOccupancyKernel));
}

}  // namespace
}  // namespace wl::analysis
