// A run's trace keeps its request in its metadata, by the run catalog's keys: every option
// written, and read back to the same request.
#include <gtest/gtest.h>

#include "app/RunOptions.h"
#include "model/TraceBuilder.h"
#include "ui/analysis/RunMetrics.h"

namespace wl::app {
namespace {

using workloads::RunOption;

model::TracePtr traceWith(const std::map<std::string, std::string>& metadata) {
    model::TraceBuilder b;
    for (const auto& [key, value] : metadata)
        b.setMetadata(key, value);
    return b.finalize();
}

// A request whose every number is given (0 would come back as the workload's default).
RunRequest explicitRequest() {
    RunRequest r;
    r.size = 1000;
    r.repeat = 2;
    r.steps = 3;
    return r;
}

// `r` with option `id` set to something other than explicitRequest()'s.
void change(RunOption id, RunRequest& r) {
    switch (id) {
        case RunOption::Workload:
            r.workload = workloads::kPower;
            break;
        case RunOption::Mode:
            r.mode = workloads::kAsync;
            break;
        case RunOption::Streams:
            r.streams = 8;
            break;
        case RunOption::Size:
            r.size = 123'456;
            break;
        case RunOption::Repeat:
            r.repeat = 50;
            break;
        case RunOption::Steps:
            r.steps = 77;
            break;
        case RunOption::Devices:
            r.devices = 4;
            break;
        case RunOption::Pinned:
            r.pinned = true;
            break;
        case RunOption::Pageable:
            r.pinned = false;
            break;
        case RunOption::SharedStream:
            r.sharedStreamBug = true;
            break;
        case RunOption::Graph:
            r.graph = true;
            break;
        case RunOption::GpuMetrics:
            r.gpuMetrics = true;
            break;
    }
}

TEST(RunMetadata, EveryOptionRoundTrips) {
    for (const workloads::OptionSpec& option : workloads::runOptions()) {
        SCOPED_TRACE(option.name);
        RunRequest request = explicitRequest();
        if (option.id == RunOption::Pageable)
            request.pinned = true;  // so that --pageable changes it
        const RunRequest before = request;
        change(option.id, request);
        ASSERT_NE(request, before) << "the test changes nothing for " << option.name;
        const auto metadata = runMetadata(request);
        if (const char* key = workloads::metadataKey(option.id)) {
            EXPECT_TRUE(metadata.count(key)) << key;
        }
        const auto back = runRequestOf(*traceWith(metadata));
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(*back, request);
    }
}

TEST(RunMetadata, ADefaultIsWrittenAsTheWorkloadsDefault) {
    RunRequest request;  // size, repeat and steps 0: the workload's defaults
    const auto metadata = runMetadata(request);
    EXPECT_EQ(metadata.at("producer"), "warpline run");
    EXPECT_EQ(metadata.at("size"), std::to_string(workloads::kReduceDefaultSize));
    EXPECT_EQ(metadata.at("repeat"), std::to_string(workloads::kReduceDefaultRepeat));
    EXPECT_EQ(metadata.at("steps"), "0");  // reduce takes no steps: as it was
    request.workload = workloads::kPower;
    EXPECT_EQ(runMetadata(request).at("steps"), std::to_string(workloads::kPowerDefaultMaxSteps));
    // And reads back as a request that runs the same.
    const auto back = runRequestOf(*traceWith(runMetadata(request)));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->size, workloads::kPowerDefaultDim);
    EXPECT_EQ(back->steps, workloads::kPowerDefaultMaxSteps);
}

TEST(RunMetadata, OnlyRunsOfOursAreRequestsAndBadValuesAreBroughtIntoRange) {
    EXPECT_FALSE(runRequestOf(*traceWith({{"producer", "PyTorch profiler (Kineto)"}})));
    const auto back = runRequestOf(*traceWith({{"producer", "warpline run"},
                                               {"workload", "matmul"},
                                               {"streams", "1000"},
                                               {"devices", "x"},
                                               {"gpu_metrics", "true"}}));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->workload, workloads::kReduce);
    EXPECT_EQ(back->streams, workloads::kMaxStreams);
    EXPECT_EQ(back->devices, RunRequest{}.devices);
    EXPECT_TRUE(back->gpuMetrics);
}

TEST(RunMetadata, TheWallTimeAWritesIsTheOneTheMetricsRead) {
    auto metadata = runMetadata(explicitRequest());
    metadata[workloads::kWallTimeKey] = "123.500";
    const auto trace = traceWith(metadata);
    analysis::AnalysisResult result;  // over the whole trace
    EXPECT_DOUBLE_EQ(ui::runMetrics(*trace, result).wallMs, 123.5);
}

}  // namespace
}  // namespace wl::app
