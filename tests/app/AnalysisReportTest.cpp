// `warpline analyze`: kernels under their short names next to the full ones.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "analysis/Summary.h"
#include "app/cli/AnalysisReport.h"
#include "io/JsonWriter.h"

namespace wl::app {
namespace {

constexpr std::string_view kReduce =
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float>, unsigned int, float, 4>)";

model::TracePtr reduceTrace() {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 4000, -1, kReduce, test::launchConfig(1280, 256, 32));
    return t.finish();
}

TEST(AnalysisReport, JsonKernelsHaveShortNamesNextToFullOnes) {
    const auto trace = reduceTrace();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    std::string json;
    io::JsonWriter out(json);
    out.beginObject();
    appendAnalysisJson(out, *trace, result);
    out.endObject();
    const std::string kernels = json.substr(json.find("\"kernels\":"));
    std::string name;
    io::appendJsonString(name, kReduce);
    EXPECT_EQ(kernels.find("\"kernels\":[{\"name\":" + name + ",\"short_name\":\"reduce_kernel\""),
              0u)
        << kernels.substr(0, 400);
    const std::string warps = json.substr(json.find("\"warps\":"));
    EXPECT_EQ(warps.find("\"warps\":[{\"name\":" + name + ",\"short_name\":\"reduce_kernel\""), 0u)
        << warps.substr(0, 400);
}

TEST(AnalysisReport, TextNamesKernelsByTheirShortNames) {
    const auto trace = reduceTrace();
    std::ostringstream text;
    printAnalysisText(text, *trace, analysis::analyzeTrace(*trace));
    const std::string report = text.str();
    EXPECT_NE(report.find("100.0%  reduce_kernel\n"), std::string::npos) << report;
    EXPECT_NE(report.find("\n  reduce_kernel: grid 1280x1x1"), std::string::npos) << report;
    EXPECT_EQ(report.find("at::native"), std::string::npos) << report;
}

TEST(AnalysisReport, SaysWhatTheSteadyStateLeavesOut) {
    // One upload, 10 us of start-up, then ten kernels of one loop.
    test::HandTrace t;
    t.copy(1, 0, 100, model::CopyKind::HostToDevice, 1'000, -1, -1);
    for (int i = 0; i < 10; ++i) {
        t.kernel(1, 10'000 + i * 1'000, 10'800 + i * 1'000, -1, "step");
    }
    const auto trace = t.finish();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    ASSERT_EQ(result.window().source, analysis::WindowSource::SteadyState);

    std::ostringstream text;
    printAnalysisText(text, *trace, result);
    const std::string report = text.str();
    EXPECT_NE(report.find("\nWindow: steady state (9.8 \u00b5s), 10.0 \u00b5s to 19.8 \u00b5s\n"
                          "  start-up: 10.0 \u00b5s before the steady state, not analysed\n"),
              std::string::npos)
        << report;

    std::string json;
    io::JsonWriter out(json);
    out.beginObject();
    appendAnalysisJson(out, *trace, result);
    out.endObject();
    EXPECT_NE(json.find("\"source\":\"steady_state\""), std::string::npos) << json.substr(0, 600);
    EXPECT_NE(json.find("\"left_out\":[{\"kind\":\"start-up\",\"name\":null,\"start_ns\":0,"
                        "\"end_ns\":10000,\"duration_ns\":10000,"),
              std::string::npos)
        << json.substr(0, 600);
}

TEST(AnalysisReport, ATraceWithoutGpuWorkSaysSoInsteadOfAnEmptyWindow) {
    // A program whose one kernel failed before it ran: CUDA calls, nothing on the GPU.
    test::HandTrace t;
    t.api("cudaLaunchKernel", 0, 100);
    t.api("cudaDeviceSynchronize", 100, 5'000);
    const auto trace = t.finish();
    std::ostringstream text;
    printAnalysisText(text, *trace, analysis::analyzeTrace(*trace));
    const std::string report = text.str();
    EXPECT_NE(report.find("\nWindow: whole trace: no GPU work in it (no kernels, copies or "
                          "memsets)\n"),
              std::string::npos)
        << report;
    EXPECT_EQ(report.find("0 ns to 0 ns"), std::string::npos) << report;
    EXPECT_EQ(report.find("GPU utilisation"), std::string::npos) << report;
    EXPECT_EQ(report.find("Overlap:"), std::string::npos) << report;
}

// Two NVTX steps: the kernel table's spread and launch configuration, the Summary's iterations.
model::TracePtr twoSteps() {
    test::HandTrace t;
    t.addH100();
    t.nvtx("step 1", 0, 1000);
    t.kernel(1, 100, 300, 50, "gemm", test::launchConfig(64, 256, 32));
    t.nvtx("step 2", 1000, 2000);
    t.kernel(1, 1100, 1500, 1050, "gemm", test::launchConfig(64, 256, 32));
    return t.finish();
}

TEST(AnalysisReport, JsonKernelsHaveTheirSpreadAndLaunchConfiguration) {
    const auto trace = twoSteps();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    std::string json;
    io::JsonWriter out(json);
    out.beginObject();
    appendAnalysisJson(out, *trace, result);
    out.endObject();
    // The keys that were there first, unchanged, then the new ones.
    EXPECT_NE(json.find("\"kernels\":[{\"name\":\"gemm\",\"short_name\":\"gemm\",\"count\":2,"
                        "\"total_ns\":600,\"mean_ns\":300,\"min_ns\":200,\"max_ns\":400,"
                        "\"pct\":100,\"median_ns\":300,\"p95_ns\":390,\"std_dev_ns\":100,"
                        "\"grid\":\"64x1x1\",\"block\":\"256x1x1\",\"registers\":32,"
                        "\"theoretical_occupancy_pct\":100,\"tensor_cores\":false}]"),
              std::string::npos)
        << json.substr(json.find("\"kernels\""), 500);
    EXPECT_EQ(json.find("\"summary\""), std::string::npos);  // only when given one
}

TEST(AnalysisReport, JsonSummaryHasEachIterationsParts) {
    const auto trace = twoSteps();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    const auto summary = analysis::computeSummary(*trace, result);
    ASSERT_TRUE(summary.has_value());
    std::string json;
    io::JsonWriter out(json);
    out.beginObject();
    appendAnalysisJson(out, *trace, result, &*summary);
    out.endObject();
    const std::size_t at = json.find("\"summary\":");
    ASSERT_NE(at, std::string::npos) << json;
    const std::string s = json.substr(at);
    EXPECT_EQ(s.find("\"summary\":{\"iteration_source\":\"nvtx_ranges\",\"iterations\":["
                     "{\"name\":\"step 1\",\"start_ns\":0,\"end_ns\":1000,\"duration_ns\":1000,"
                     "\"parts_ns\":{\"kernel\":200,\"memcpy\":0,\"memset\":0,\"cuda_api\":5,"
                     "\"data_loading\":0,\"host_compute\":0,\"other\":795}},"),
              0u)
        << s;
    EXPECT_NE(s.find("\"operators\":{\"source\":\"nvtx_ranges\",\"names\":0,"), std::string::npos)
        << s;
    EXPECT_NE(s.find("\"memory\":[],\"ranks\":[]}"), std::string::npos) << s;
}

TEST(AnalysisReport, TextHasTheIterationsAndTheKernelsSpread) {
    const auto trace = twoSteps();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    const auto summary = analysis::computeSummary(*trace, result);
    ASSERT_TRUE(summary.has_value());
    std::ostringstream text;
    printAnalysisText(text, *trace, result, &*summary);
    const std::string report = text.str();
    // 2 steps of 1 us each; 600 ns of kernels and 10 ns of calls in their 2 us.
    EXPECT_NE(report.find("Iterations (NVTX ranges): 2, 1.0 \u00b5s on average\n"
                          "  of their time: Kernel 30.0%, CUDA API 0.5%, Other 69.5%\n"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find(" median "), std::string::npos) << report;
    EXPECT_NE(report.find(" std-dev "), std::string::npos) << report;
}

}  // namespace
}  // namespace wl::app
