#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "support/RunPasses.h"

using namespace wl::model;

namespace {

// Each flow as (call name, GPU op name).
std::vector<std::pair<std::string, std::string>> links(const Trace& trace) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Flow& f : trace.flows())
        out.emplace_back(trace.str(trace.slice(f.from).nameId),
                         trace.str(trace.slice(f.to).nameId));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(LaunchFlowsPass, LinksACallToTheWorkOfItsCorrelationIdRuntimeOverDriver) {
    TraceBuilder b;
    const auto api = b.hostApiTrack(b.hostProcess(1), 1);
    const auto gpu = b.gpuProcess(0);
    ApiDetail driver;
    driver.apiKind = ApiKind::Driver;
    b.addApi(api, 10, 40, "cuLaunchKernel", 7, driver);
    b.addApi(api, 0, 50, "cudaLaunchKernel", 7, {});
    b.addKernel(b.gpuStreamTrack(gpu, 13), 60, 90, "k", 7, {});
    b.addMemcpy(b.gpuStreamTrack(gpu, 13), 95, 99, "copy", 8, {});  // no call: no flow
    const auto trace = wl::test::runPasses(b, {"launch flows"});
    EXPECT_EQ(links(*trace),
              (std::vector<std::pair<std::string, std::string>>{{"cudaLaunchKernel", "k"}}));
    EXPECT_EQ(trace->flows()[0].id, 7u);
}

TEST(LaunchFlowsPass, TwoProcessesSharingCorrelationIdsKeepTheirOwnLaunches) {
    // A merged recording of two processes: CUPTI numbers each one's calls from 1, so both have a
    // call 1 and a kernel 1. Each GPU process belongs to its owner's host process.
    TraceBuilder b;
    const auto a = b.hostApiTrack(b.hostProcess(100), 100);
    const auto c = b.hostApiTrack(b.hostProcess(200), 200);
    const auto gpuOfA = b.gpuProcess(0, "GPU 0 · a", 100);
    const auto gpuOfC = b.gpuProcess(0, "GPU 0 · c", 200);
    b.addApi(c, 0, 10, "launch of c", 1, {});
    b.addApi(a, 0, 10, "launch of a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpuOfA, 7), 20, 30, "kernel of a", 1, {});
    b.addKernel(b.gpuStreamTrack(gpuOfC, 7), 20, 30, "kernel of c", 1, {});
    const auto trace = wl::test::runPasses(b, {"launch flows"});
    EXPECT_EQ(links(*trace), (std::vector<std::pair<std::string, std::string>>{
                                 {"launch of a", "kernel of a"}, {"launch of c", "kernel of c"}}));
}

TEST(LaunchFlowsPass, ARanksGpuWorkIsLinkedToThatRanksCalls) {
    // Two ranks of a job, each one process with the same pid on its own host.
    TraceBuilder b;
    const auto r0 = b.hostApiTrack(b.hostProcess(42, {}, 0), 42);
    const auto r1 = b.hostApiTrack(b.hostProcess(42, {}, 1), 42);
    b.addApi(r1, 0, 10, "launch of rank 1", 3, {});
    b.addApi(r0, 0, 10, "launch of rank 0", 3, {});
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0, {}, -1, 0), 7), 20, 30, "kernel of rank 0", 3, {});
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0, {}, -1, 1), 7), 20, 30, "kernel of rank 1", 3, {});
    const auto trace = wl::test::runPasses(b, {"launch flows"});
    EXPECT_EQ(links(*trace), (std::vector<std::pair<std::string, std::string>>{
                                 {"launch of rank 0", "kernel of rank 0"},
                                 {"launch of rank 1", "kernel of rank 1"}}));
}

TEST(LaunchFlowsPass, WorkOfNoKnownHostIsMatchedByIdAlone) {
    // Two host processes make calls and the GPU process names no owner: the id decides.
    TraceBuilder b;
    const auto a = b.hostApiTrack(b.hostProcess(100), 100);
    const auto c = b.hostApiTrack(b.hostProcess(200), 200);
    b.addApi(a, 0, 10, "launch 1", 1, {});
    b.addApi(c, 0, 10, "launch 2", 2, {});
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0), 7);
    b.addKernel(stream, 20, 30, "kernel 1", 1, {});
    b.addKernel(stream, 40, 50, "kernel 2", 2, {});
    const auto trace = wl::test::runPasses(b, {"launch flows"});
    EXPECT_EQ(links(*trace), (std::vector<std::pair<std::string, std::string>>{
                                 {"launch 1", "kernel 1"}, {"launch 2", "kernel 2"}}));
}
