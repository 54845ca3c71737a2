// `warpline analyze`: kernels under their short names next to the full ones.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
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

}  // namespace
}  // namespace wl::app
