#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/TrackOrder.h"
#include "support/RunPasses.h"

using namespace wl::model;

namespace {

std::vector<std::string> trackNames(const Trace& trace) {
    std::vector<std::string> names;
    for (const Track& t : trace.tracks())
        names.emplace_back(trace.str(t.nameId));
    return names;
}

}  // namespace

TEST(TrackOrder, KindsInTheOrderTheTimelineShowsThem) {
    const TrackKind order[] = {
        TrackKind::HostApi,   TrackKind::Host,           TrackKind::Nvtx,
        TrackKind::NvtxAsync, TrackKind::GpuStream,      TrackKind::Sync,
        TrackKind::Memory,    TrackKind::NvtxProjection, TrackKind::UnifiedMemory};
    for (std::size_t i = 1; i < std::size(order); ++i)
        EXPECT_LT(trackKindRank(order[i - 1]), trackKindRank(order[i])) << i;
    EXPECT_EQ(trackKindRank(TrackKind::GraphLaunches), trackKindRank(TrackKind::GpuStream));
}

TEST(TrackOrder, KindThenSortIndexThenKeyAndAGraphRowUnderItsStream) {
    TraceBuilder b;
    const StringId a = b.intern("a");
    const StringId z = b.intern("z");
    const Trace& trace = b.pending();
    Track api;
    api.kind = TrackKind::HostApi;
    api.sortIndex = 9;
    Track host;
    host.kind = TrackKind::Host;
    host.sortIndex = 0;
    EXPECT_TRUE(trackOrderLess(trace, api, host));  // the kind first, whatever the sort index
    EXPECT_FALSE(trackOrderLess(trace, host, api));

    Track s1;
    s1.kind = TrackKind::GpuStream;
    s1.streamId = 20;
    s1.sortIndex = 0;
    Track s2 = s1;
    s2.streamId = 7;
    s2.sortIndex = 1;
    EXPECT_TRUE(trackOrderLess(trace, s1, s2));  // by sort index
    EXPECT_TRUE(trackKeyLess(trace, s2, s1));    // by key where no sort index counts

    Track graph = s1;
    graph.kind = TrackKind::GraphLaunches;
    EXPECT_TRUE(trackOrderLess(trace, s1, graph));
    EXPECT_FALSE(trackOrderLess(trace, graph, s1));
    EXPECT_TRUE(trackOrderLess(trace, graph, s2));

    // NVTX domains by name, not by when their name was first seen.
    Track nz;
    nz.kind = TrackKind::Nvtx;
    nz.domainId = z;
    Track na = nz;
    na.domainId = a;
    EXPECT_TRUE(trackOrderLess(trace, na, nz));
    EXPECT_FALSE(trackOrderLess(trace, nz, na));
}

TEST(TrackOrderPass, OrdersTracksByTheRuleAndNumbersThemWhereNoIndexWasGiven) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto gpu = b.gpuProcess(0);
    b.syncTrack(gpu);
    b.gpuStreamTrack(gpu, 20);
    b.gpuStreamTrack(gpu, 7);
    b.nvtxTrack(host, 1, "z");
    b.nvtxTrack(host, 1, "a");
    b.hostTrack(host, 1);
    b.hostApiTrack(host, 1);
    const auto trace = wl::test::runPasses(b, {"track order"});
    // By process (as created: this pass does not order processes), then by trackOrderLess.
    EXPECT_EQ(trackNames(*trace),
              (std::vector<std::string>{"CUDA API (thread 1)", "Thread 1", "NVTX a (thread 1)",
                                        "NVTX z (thread 1)", "Stream 7", "Stream 20",
                                        "Synchronization"}));
    // Numbered from 0 in each process, in the order they are listed.
    std::vector<std::int32_t> sortIndices;
    for (const Track& t : trace->tracks())
        sortIndices.push_back(t.sortIndex);
    EXPECT_EQ(sortIndices, (std::vector<std::int32_t>{0, 1, 2, 3, 0, 1, 2}));
}

TEST(TrackOrderPass, AGivenSortIndexIsKeptAndOrdersWithinTheKind) {
    TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    b.setTrackSortIndex(b.gpuStreamTrack(gpu, 7), 5);
    b.setTrackSortIndex(b.gpuStreamTrack(gpu, 20), 1);
    b.setTrackSortIndex(b.syncTrack(gpu), 0);
    const auto trace = wl::test::runPasses(b, {"track order"});
    EXPECT_EQ(trackNames(*trace),
              (std::vector<std::string>{"Stream 20", "Stream 7", "Synchronization"}));
    EXPECT_EQ(trace->tracks()[0].sortIndex, 1);
    EXPECT_EQ(trace->tracks()[1].sortIndex, 5);
    EXPECT_EQ(trace->tracks()[2].sortIndex, 0);
}

TEST(TrackOrderPass, ExplicitFlowsFollowTheirTracks) {
    TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto late = b.hostTrack(host, 9);  // listed after thread 2 once ordered
    const auto early = b.hostTrack(host, 2);
    b.addSlice(late, 0, 10, "from", SliceKind::Other);
    b.addSlice(early, 20, 30, "to", SliceKind::Other);
    b.addFlow(1, late, 5, early, 25);
    const auto trace = wl::test::runPasses(b, {"track order", "lane assignment", "explicit flows"});
    ASSERT_EQ(trace->flows().size(), 1u);
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[0].from).nameId), "from");
    EXPECT_EQ(trace->str(trace->slice(trace->flows()[0].to).nameId), "to");
}
