#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

TEST(RebasePass, TimesCountFromTheEarliestEvent) {
    TraceBuilder b;
    b.setBaseTimeNs(1'000'000);
    const auto host = b.hostProcess(1);
    const auto track = b.hostTrack(host, 1);
    const auto other = b.hostTrack(host, 2);
    b.addSlice(track, 5000, 5100, "a", SliceKind::Other);
    b.addSlice(other, 5200, 5600, "b", SliceKind::Other);
    const auto counter = b.counterTrack(host, "c", "s");
    b.addCounterSample(counter, 5800, 2.0);
    b.addCounterSample(counter, 4000, 1.0);  // the earliest event, out of order
    b.addCaptureWindow(5500, 5700);
    b.addCaptureWindow(4500, 5000);
    b.addCaptureWindow(4900, 5100);  // overlaps the one before: merged
    const auto trace = wl::test::runPasses(b, {"rebase"});
    EXPECT_EQ(trace->originNs(), 1'004'000);
    EXPECT_EQ(trace->producerBaseNs(), 1'000'000);
    EXPECT_EQ(trace->tracks()[0].slices[0].startNs, 1000);
    EXPECT_EQ(trace->tracks()[1].slices[0].startNs, 1200);
    const auto& samples = trace->counters()[0].samples;
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0].timestampNs, 0);
    EXPECT_EQ(samples[1].timestampNs, 1800);
    EXPECT_EQ(trace->spanNs(), 1800);  // the last sample, after every slice's end
    ASSERT_EQ(trace->captureWindows().size(), 2u);
    EXPECT_EQ(trace->captureWindows()[0], (TimeRange{500, 1100}));
    EXPECT_EQ(trace->captureWindows()[1], (TimeRange{1500, 1700}));
}

TEST(RebasePass, KeptTimesStayAsGiven) {
    TraceBuilder b;
    b.setKeepTimes(true);
    const auto host = b.hostProcess(1);
    b.addSlice(b.hostTrack(host, 1), 5000, 5100, "a", SliceKind::Other);
    const auto trace = wl::test::runPasses(b, {"rebase"});
    EXPECT_EQ(trace->originNs(), 0);
    EXPECT_EQ(trace->tracks()[0].slices[0].startNs, 5000);
    EXPECT_EQ(trace->spanNs(), 5100);
}
