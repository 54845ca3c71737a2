#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "model/Derived.h"
#include "support/RunPasses.h"

using namespace wl::model;

TEST(LaunchQueuePass, CountsOpsFromTheirCallsStartToTheirEnd) {
    TraceBuilder b;
    const auto api = b.hostApiTrack(b.hostProcess(1), 1);
    const auto gpu = b.gpuProcess(0);
    b.addApi(api, 0, 5, "cudaLaunchKernel", 1, {});
    b.addApi(api, 10, 15, "cudaLaunchKernel", 2, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 200, "a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 200, 300, "b", 2, {});
    const auto without = [] {
        TraceBuilder none;
        none.addKernel(none.gpuStreamTrack(none.gpuProcess(0), 7), 0, 10, "a", 0, {});
        return wl::test::runPasses(none, {"launch flows", "launch queue"});
    }();
    EXPECT_TRUE(without->counters().empty());  // nothing launched: no row

    const auto trace = wl::test::runPasses(b, {"launch flows", "launch queue"});
    ASSERT_EQ(trace->counters().size(), 1u);
    const CounterTrack& q = trace->counters()[0];
    EXPECT_TRUE(q.derived);
    EXPECT_EQ(trace->str(q.nameId), kLaunchQueueName);
    EXPECT_EQ(q.process, 1u);
    std::vector<std::pair<TimeNs, double>> steps;
    for (const auto& s : q.samples)
        steps.emplace_back(s.timestampNs, s.value);
    // At 200 "a" ends as "b" is still queued.
    EXPECT_EQ(steps, (std::vector<std::pair<TimeNs, double>>{{0, 1}, {10, 2}, {200, 1}, {300, 0}}));
}
