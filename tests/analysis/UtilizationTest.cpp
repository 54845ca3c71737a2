#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/GpuOps.h"
#include "analysis/Utilization.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

// Stream 1: A [100,200) launched at 10, B [250,350) launched at 220 (after A ended), E [700,800)
// launched at 450 (long before D ended). Stream 2: H2D C [300,400) issued at 240, D [500,600)
// launched at 430. The host waits in cudaStreamSynchronize over [260,420].
model::TracePtr threeGapTrace(bool syncRecord = true) {
    test::HandTrace t;
    t.kernel(1, 100, 200, 10, "A");
    t.kernel(1, 250, 350, 220, "B");
    t.copy(2, 300, 400, CopyKind::HostToDevice, 1000, 240, 245);
    t.streamSync(260, 420, syncRecord);
    t.kernel(2, 500, 600, 430, "D");
    t.kernel(1, 700, 800, 450, "E");
    return t.finish();
}

UtilizationResult run(const model::Trace& trace, model::TimeNs thresholdNs) {
    AnalysisOptions o;
    o.gapThresholdNs = thresholdNs;
    const GpuOps ops(trace);
    return computeUtilization(trace, ops, o);
}

TEST(Utilization, DeviceBusyIsTheUnionOverTheSpan) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    ASSERT_EQ(u.devices.size(), 1u);
    const DeviceUtilization& d = u.devices[0];
    // Union: [100,200) + [250,400) + [500,600) + [700,800) = 100 + 150 + 100 + 100.
    EXPECT_EQ(d.busyNs, 450);
    EXPECT_EQ(d.firstNs, 100);
    EXPECT_EQ(d.lastNs, 800);
    EXPECT_EQ(d.spanNs(), 700);
    EXPECT_EQ(d.idleNs(), 250);
    EXPECT_EQ(d.gapCount, 3u);
    EXPECT_DOUBLE_EQ(d.busyPct(), 100.0 * 450 / 700);
    EXPECT_DOUBLE_EQ(u.busyPct(), 100.0 * 450 / 700);
    EXPECT_EQ(d.opCount, 5u);
}

TEST(Utilization, PerStreamBusyAndSpan) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    ASSERT_EQ(u.devices[0].streams.size(), 2u);
    const StreamUtilization& s1 = u.devices[0].streams[0];
    const StreamUtilization& s2 = u.devices[0].streams[1];
    EXPECT_EQ(s1.streamId, 1);
    EXPECT_EQ(s1.busyNs, 300);
    EXPECT_EQ(s1.spanNs(), 700);
    EXPECT_EQ(s1.opCount, 3u);
    EXPECT_EQ(s2.streamId, 2);
    EXPECT_EQ(s2.busyNs, 200);
    EXPECT_EQ(s2.spanNs(), 300);
    EXPECT_DOUBLE_EQ(s2.busyPct(), 100.0 * 200 / 300);
}

TEST(Utilization, GapsAndTheirCauses) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 50);
    std::vector<IdleGap> device;
    std::vector<IdleGap> streams;
    for (const IdleGap& g : u.gaps) {
        (g.streamId == -1 ? device : streams).push_back(g);
    }
    ASSERT_EQ(device.size(), 3u);
    // [200,250): B's launch (220) came after A ended (200).
    EXPECT_EQ(device[0].startNs, 200);
    EXPECT_EQ(device[0].durationNs, 50);
    EXPECT_EQ(device[0].cause, GapCause::HostLaunch);
    EXPECT_EQ(trace->str(trace->slice(device[0].before).nameId), "A");
    EXPECT_EQ(trace->str(trace->slice(device[0].after).nameId), "B");
    EXPECT_EQ(trace->str(trace->slice(device[0].reason).nameId), "cudaLaunchKernel_v7000");
    // [400,500): the host sat in cudaStreamSynchronize until 420.
    EXPECT_EQ(device[1].startNs, 400);
    EXPECT_EQ(device[1].durationNs, 100);
    EXPECT_EQ(device[1].cause, GapCause::HostSync);
    EXPECT_EQ(trace->slice(device[1].reason).kind, model::SliceKind::Sync);
    // [600,700): E was launched at 450, before D ended, and nobody waited.
    EXPECT_EQ(device[2].startNs, 600);
    EXPECT_EQ(device[2].durationNs, 100);
    EXPECT_EQ(device[2].cause, GapCause::Other);
    EXPECT_FALSE(device[2].reason.valid());

    ASSERT_EQ(streams.size(), 3u);
    EXPECT_EQ(streams[0].streamId, 1);  // [200,250)
    EXPECT_EQ(streams[0].cause, GapCause::HostLaunch);
    EXPECT_EQ(streams[1].streamId, 1);  // [350,700): overlaps the sync
    EXPECT_EQ(streams[1].startNs, 350);
    EXPECT_EQ(streams[1].durationNs, 350);
    EXPECT_EQ(streams[1].cause, GapCause::HostSync);
    EXPECT_EQ(streams[2].streamId, 2);  // [400,500)
    EXPECT_EQ(streams[2].durationNs, 100);
    EXPECT_EQ(streams[2].cause, GapCause::HostSync);
}

TEST(Utilization, BlockingApiCallAloneCountsAsHostSync) {
    const auto trace = threeGapTrace(/*syncRecord=*/false);
    const UtilizationResult u = run(*trace, 50);
    ASSERT_GE(u.gaps.size(), 2u);
    const IdleGap* gap = nullptr;
    for (const IdleGap& g : u.gaps) {
        if (g.streamId == -1 && g.startNs == 400) {
            gap = &g;
        }
    }
    ASSERT_NE(gap, nullptr);
    EXPECT_EQ(gap->cause, GapCause::HostSync);
    EXPECT_EQ(trace->str(trace->slice(gap->reason).nameId), "cudaStreamSynchronize_v3020");
}

TEST(Utilization, ThresholdHidesShortGapsButNotTheirIdleTime) {
    const auto trace = threeGapTrace();
    const UtilizationResult u = run(*trace, 60);
    std::size_t deviceGaps = 0;
    for (const IdleGap& g : u.gaps) {
        EXPECT_GE(g.durationNs, 60);
        deviceGaps += g.streamId == -1 ? 1 : 0;
    }
    EXPECT_EQ(deviceGaps, 2u);
    EXPECT_EQ(u.gaps.size(), 4u);  // stream 1 loses [200,250) too
    EXPECT_EQ(u.devices[0].busyNs, 450);
    EXPECT_EQ(u.devices[0].gapCount, 3u);
    EXPECT_TRUE(run(*trace, 1000).gaps.empty());
}

TEST(Utilization, NoGpuWorkMeansNothingToReport) {
    test::HandTrace t;
    t.api("cudaMalloc_v3020", 0, 100);
    const auto trace = t.finish();
    const UtilizationResult u = run(*trace, 1);
    EXPECT_TRUE(u.devices.empty());
    EXPECT_TRUE(u.gaps.empty());
    EXPECT_DOUBLE_EQ(u.busyPct(), 0.0);
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_TRUE(r.diagnostics.empty());
}

}  // namespace
}  // namespace wl::analysis
