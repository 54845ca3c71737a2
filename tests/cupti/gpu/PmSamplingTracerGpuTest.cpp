// GPU metrics through the tracer: with TracerOptions::gpuMetrics the trace carries the two
// counter tracks on the GPU's process, and after rebasing they line up with the kernel slices of
// the activity records (same clock).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "PmSamplingKernels.h"
#include "cupti/CuptiTracer.h"

namespace wl::cupti {
namespace {

TEST(PmSamplingTracerGpuTest, CounterTracksLineUpWithKernels) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        GTEST_SKIP() << "no CUDA device";
    }
    cudaDeviceProp prop{};
    ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    int clockKHz = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0), cudaSuccess);
    const int warpsPerSm = prop.maxThreadsPerMultiProcessor / 32;
    ASSERT_EQ(test::launchSpin(1, 32, 1000), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    CuptiTracer tracer;
    TracerOptions options;
    options.gpuMetrics = true;
    const auto started = tracer.start(options);
    if (!started.ok() && started.error().message.find("does not support") != std::string::npos) {
        GTEST_SKIP() << started.error().message;
    }
    ASSERT_TRUE(started.ok()) << started.error().message;
    // One warp on every SM for ~40 ms: 1/warpsPerSm occupancy, 100% SM active.
    ASSERT_EQ(test::launchSpin(prop.multiProcessorCount, 32, static_cast<long long>(clockKHz) * 40),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto traced = tracer.stop();
    ASSERT_TRUE(traced.ok()) << traced.error().message;
    const model::Trace& trace = *traced.value();

    const model::Slice* kernel = nullptr;
    for (const auto& track : trace.tracks()) {
        if (track.kind != model::TrackKind::GpuStream || track.deviceId != 0) {
            continue;
        }
        for (const auto& slice : track.slices) {
            if (trace.str(slice.nameId).find("spin") != std::string_view::npos &&
                (!kernel || slice.durationNs > kernel->durationNs)) {
                kernel = &slice;
            }
        }
    }
    ASSERT_NE(kernel, nullptr) << "no spin kernel in the trace";

    int found = 0;
    for (const auto& counter : trace.counters()) {
        const std::string series(trace.str(counter.seriesId));
        // Every device is sampled; the kernel ran on device 0, the others idled.
        if (trace.str(counter.nameId) != "GPU metrics" || counter.samples.size() < 2 ||
            trace.processes()[counter.process].deviceId != 0) {
            continue;
        }
        EXPECT_EQ(trace.str(counter.unitId), "%");
        // Samples whose span lies in the middle 60% of the kernel.
        const model::TimeNs begin = kernel->startNs + kernel->durationNs / 5;
        const model::TimeNs end = kernel->endNs() - kernel->durationNs / 5;
        double sum = 0.0;
        int n = 0;
        for (std::size_t i = 0; i + 1 < counter.samples.size(); ++i) {
            if (counter.samples[i].timestampNs >= begin &&
                counter.samples[i + 1].timestampNs <= end) {
                sum += counter.samples[i].value;
                ++n;
            }
        }
        ASSERT_GT(n, 0) << series << ": no samples under the kernel (clocks not aligned?)";
        const double mean = sum / n;
        std::printf("PM tracer: kernel %.1f ms, %s: %d samples under it, mean %.4f\n",
                    kernel->durationNs / 1e6, series.c_str(), n, mean);
        if (series == "warp occupancy %") {
            // Same tolerance as the phases test in PmSamplingGpuTest.cpp.
            EXPECT_NEAR(mean, 100.0 / warpsPerSm, 0.1);
            ++found;
        } else if (series == "SM active %") {
            EXPECT_NEAR(mean, 100.0, 3.0);
            ++found;
        }
    }
    EXPECT_EQ(found, 2);
}

}  // namespace
}  // namespace wl::cupti
