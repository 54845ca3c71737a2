// RecordSettings: what `warpline record` checks before the program starts, hands over through the
// environment and turns into tracer options inside each traced process.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cupti/RecordSettings.h"

namespace wl::cupti {
namespace {

TEST(RecordSettings, EveryOptionCrossesTheEnvironmentUnchanged) {
    RecordSettings sent;
    sent.captureRange = "nvtx:solve";
    sent.captureEnd = "repeat";
    sent.delaySeconds = "0.5";
    sent.durationSeconds = "2";
    ASSERT_TRUE(sent.setTrace("cuda").ok());
    sent.cudaApi = "runtime";
    sent.cudaApiQueries = true;
    ASSERT_TRUE(sent.setBufferSize("32").ok());
    sent.forceOverwrite = true;
    sent.gpuMetrics = true;
    ASSERT_TRUE(sent.setUnifiedMemory("--cuda-um-migrations", "true").ok());
    ASSERT_TRUE(sent.setUnifiedMemory("--cuda-um-cpu-page-faults", "true").ok());
    ASSERT_TRUE(sent.setUnifiedMemory("--cuda-um-gpu-page-faults", "true").ok());
    ASSERT_TRUE(sent.check().ok());
    sent.exportToEnvironment();

    const RecordSettings got = RecordSettings::fromEnvironment();
    EXPECT_EQ(got.captureRange, "nvtx:solve");
    EXPECT_EQ(got.captureEnd, "repeat");
    EXPECT_EQ(got.delaySeconds, "0.5");
    EXPECT_EQ(got.durationSeconds, "2");
    EXPECT_FALSE(got.traceNvtx);
    EXPECT_EQ(got.cudaApi, "runtime");
    EXPECT_TRUE(got.cudaApiQueries);
    EXPECT_EQ(got.bufferMiB, 32u);
    EXPECT_TRUE(got.forceOverwrite);
    EXPECT_TRUE(got.gpuMetrics);
    EXPECT_TRUE(got.unifiedMemory.migrations);
    EXPECT_TRUE(got.unifiedMemory.cpuPageFaults);
    EXPECT_TRUE(got.unifiedMemory.gpuPageFaults);

    TracerOptions options;
    ASSERT_TRUE(got.applyTo(options).ok());
    EXPECT_TRUE(options.gpuMetrics);
    EXPECT_FALSE(options.traceNvtx);
    EXPECT_TRUE(options.traceRuntimeApi);
    EXPECT_FALSE(options.traceDriverApi);
    EXPECT_TRUE(options.recordStateQueries);
    EXPECT_EQ(options.bufferBytes, std::size_t{32} << 20);
    EXPECT_TRUE(options.unifiedMemory.migrations);
    EXPECT_TRUE(options.unifiedMemory.cpuPageFaults);
    EXPECT_TRUE(options.unifiedMemory.gpuPageFaults);

    RecordSettings defaults;
    defaults.exportToEnvironment();
    const RecordSettings plain = RecordSettings::fromEnvironment();
    EXPECT_FALSE(plain.gpuMetrics);  // GPU metrics lock the clocks: only when asked
    EXPECT_TRUE(plain.traceNvtx);
    EXPECT_EQ(plain.cudaApi, "both");
    EXPECT_FALSE(plain.cudaApiQueries);
    // Unified memory only when asked: any of its counters slows the whole recording.
    EXPECT_FALSE(plain.unifiedMemory.migrations);
    EXPECT_FALSE(plain.unifiedMemory.cpuPageFaults);
    EXPECT_FALSE(plain.unifiedMemory.gpuPageFaults);
    // An environment without the keys (a hand-made one) has the defaults too.
    unsetenv("WARPLINE_RECORD_CUDA_UM_MIGRATIONS");
    EXPECT_FALSE(RecordSettings::fromEnvironment().unifiedMemory.migrations);
}

TEST(RecordSettings, BadValuesAreErrorsThatNameTheOption) {
    RecordSettings s;
    const auto trace = s.setTrace("cuda,osrt");
    ASSERT_FALSE(trace.ok());
    EXPECT_NE(trace.error().message.find("'osrt'"), std::string::npos);
    EXPECT_FALSE(s.setTrace("nvtx").ok());  // GPU work is always recorded
    const auto size = s.setBufferSize("512");
    ASSERT_FALSE(size.ok());
    EXPECT_NE(size.error().message.find("--buffer-size"), std::string::npos);
    EXPECT_FALSE(s.setBufferSize("8MB").ok());
    s.cudaApi = "all";
    const auto api = s.check();
    ASSERT_FALSE(api.ok());
    EXPECT_NE(api.error().message.find("--cuda-api 'all'"), std::string::npos);
    const auto um = s.setUnifiedMemory("--cuda-um-gpu-page-faults", "yes");
    ASSERT_FALSE(um.ok());
    EXPECT_NE(um.error().message.find("--cuda-um-gpu-page-faults 'yes' is not true or false"),
              std::string::npos);
    EXPECT_FALSE(s.unifiedMemory.gpuPageFaults);
    EXPECT_FALSE(s.setUnifiedMemory("--cuda-um-everything", "true").ok());
}

}  // namespace
}  // namespace wl::cupti
