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
