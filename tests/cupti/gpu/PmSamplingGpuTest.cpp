// PmSampler on a real GPU: occupancy phases with known residency, interval accuracy, and one
// session per device (the overhead is measured by tests/bench/gpu/BenchPmSampling.cpp). Skips
// without a device, and where the GPU or driver has no PM sampling (older than Ampere GA10x).
#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <cupti.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "PmSamplingKernels.h"
#include "cupti/PmSampler.h"

namespace wl::cupti {
namespace {

bool hasDevice() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::uint64_t activityNow() {
    std::uint64_t t = 0;
    cuptiGetTimestamp(&t);
    return t;
}

// Starts sampling, or tells the caller to skip where this GPU or driver cannot PM-sample.
bool startOrSkip(PmSampler& sampler, std::int64_t intervalNs, std::string& skipReason) {
    const auto status = sampler.start(0, intervalNs);
    if (status.ok()) {
        return true;
    }
    if (status.error().message.find("does not support") != std::string::npos) {
        skipReason = status.error().message;
        return false;
    }
    ADD_FAILURE() << status.error().message;
    skipReason = "start failed";
    return false;
}

struct WindowStats {
    std::size_t count = 0;
    double mean = NAN;
    double min = NAN;
    double max = NAN;
    std::uint64_t medianSpacingNs = 0;  // between the starts of consecutive samples
    std::uint64_t maxSpacingNs = 0;
};

// Samples whose whole span [t_i, t_{i+1}) lies inside [begin, end).
WindowStats statsIn(const MetricSeries& series, std::uint64_t begin, std::uint64_t end) {
    WindowStats out;
    double sum = 0.0;
    std::vector<std::uint64_t> spacings;
    const auto& s = series.samples;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        const auto t0 = static_cast<std::uint64_t>(s[i].timestampNs);
        const auto t1 = static_cast<std::uint64_t>(s[i + 1].timestampNs);
        if (t0 < begin || t1 > end) {
            continue;
        }
        spacings.push_back(t1 - t0);
        sum += s[i].value;
        out.min = out.count == 0 ? s[i].value : std::min(out.min, s[i].value);
        out.max = out.count == 0 ? s[i].value : std::max(out.max, s[i].value);
        ++out.count;
    }
    if (out.count > 0) {
        out.mean = sum / static_cast<double>(out.count);
        std::sort(spacings.begin(), spacings.end());
        out.medianSpacingNs = spacings[spacings.size() / 2];
        out.maxSpacingNs = spacings.back();
    }
    return out;
}

struct DeviceInfo {
    int sms = 0;
    int warpsPerSm = 0;
    int clockKHz = 0;
    std::string name;
};

DeviceInfo deviceInfo() {
    DeviceInfo info;
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    info.sms = prop.multiProcessorCount;
    info.warpsPerSm = prop.maxThreadsPerMultiProcessor / 32;
    info.name = prop.name;
    cudaDeviceGetAttribute(&info.clockKHz, cudaDevAttrClockRate, 0);
    return info;
}

// Three phases with known residency, each ~80 ms of clock64() spinning, after ~30 ms idle.
//
// Tolerances, and why:
// - Warp occupancy in the one-warp phases: within 0.1 percentage points of resident warps /
//   (SMs x max warps per SM). sm__warps_active averaged over SMs counts the warps resident, so it
//   does not depend on where the block scheduler puts the blocks; the trimmed window (middle 60%
//   of each phase) holds no launch or drain, and the counters are cycle-exact (the reference
//   probe read 1.563 and 0.781 against 1.5625 and 0.78125). 0.1 pp is 6% of one warp per SM:
//   loose enough for sample-boundary rounding, tight enough that a wrong metric fails (the
//   ".pct_of_peak_sustained_active" variant would read 1.56 in the half phase, not 0.78).
// - SM active: within 3 pp of the share of SMs given a block (100%, 50%). On an idle GPU the
//   scheduler spreads one block per SM, but nothing guarantees it; 3 pp is 4 of 132 SMs doubling
//   up or left empty. The probe read 100.000 and 50.000.
// - Full occupancy: the occupancy calculator's resident warps per SM (64 of 64 for this kernel
//   on GH100) minus 3 pp: the first and last blocks of a 2,112-block grid do not start and end in
//   the same cycle, and a sample straddling that ramp would pull the mean down slightly.
// - Idle: below 0.05% for both (the probe read 0.000).
TEST(PmSamplingGpuTest, PhasesReadExpectedOccupancyAndSmActivity) {
    if (!hasDevice()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const DeviceInfo dev = deviceInfo();
    ASSERT_GT(dev.sms, 1);
    ASSERT_GT(dev.warpsPerSm, 0);
    ASSERT_GT(dev.clockKHz, 0);
    // Warm-up: module load and first launch outside the measured phases.
    ASSERT_EQ(test::launchSpin(1, 32, 1000), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    int blocksPerSm = 0;
    ASSERT_EQ(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, test::spinKernel(), 128, 0),
        cudaSuccess);
    const int fullBlocksPerSm = std::min(blocksPerSm, dev.warpsPerSm / 4);
    const double fullOccupancy = 100.0 * fullBlocksPerSm * 4 / dev.warpsPerSm;

    struct Phase {
        const char* name;
        int blocks;
        int threads;
        double occupancy;  // expected %
        double smActive;   // expected %
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
    };
    const int half = dev.sms / 2;
    std::vector<Phase> phases = {
        {"idle", 0, 0, 0.0, 0.0},
        {"1 warp/SM, all SMs", dev.sms, 32, 100.0 / dev.warpsPerSm, 100.0},
        {"1 warp/SM, half the SMs", half, 32, 100.0 * half / (double(dev.sms) * dev.warpsPerSm),
         100.0 * half / dev.sms},
        {"full occupancy", dev.sms * fullBlocksPerSm, 128, fullOccupancy, 100.0},
    };

    PmSampler sampler;
    std::string skip;
    if (!startOrSkip(sampler, PmSampler::kDefaultIntervalNs, skip)) {
        GTEST_SKIP() << skip;
    }
    const long long cycles = static_cast<long long>(dev.clockKHz) * 80;  // ~80 ms
    for (auto& phase : phases) {
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        phase.begin = activityNow();
        if (phase.blocks == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
        } else {
            ASSERT_EQ(test::launchSpin(phase.blocks, phase.threads, cycles), cudaSuccess);
            ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        }
        phase.end = activityNow();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto result = sampler.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    const auto& series = result.value();
    ASSERT_EQ(series.size(), 2u);
    ASSERT_EQ(series[0].name, "warp occupancy %");
    ASSERT_EQ(series[1].name, "SM active %");
    const auto stats = sampler.stats();
    std::printf(
        "PM device %s, %d SMs, %d warps/SM, %d kHz; interval %lld ns; %zu samples, "
        "%llu overflows, %llu invalid, %llu decode passes, %llu full images; %.1f ms decoding, "
        "%.1f ms reading samples\n",
        dev.name.c_str(), dev.sms, dev.warpsPerSm, dev.clockKHz,
        static_cast<long long>(PmSampler::kDefaultIntervalNs), series[0].samples.size(),
        static_cast<unsigned long long>(stats.overflows),
        static_cast<unsigned long long>(stats.invalidSamples),
        static_cast<unsigned long long>(stats.decodePasses),
        static_cast<unsigned long long>(stats.counterDataFull), stats.decodeMs, stats.evaluateMs);
    EXPECT_EQ(stats.overflows, 0u);
    EXPECT_TRUE(stats.warnings.empty());

    for (const auto& phase : phases) {
        const std::uint64_t duration = phase.end - phase.begin;
        const std::uint64_t begin = phase.begin + duration / 5;
        const std::uint64_t end = phase.end - duration / 5;
        const auto occupancy = statsIn(series[0], begin, end);
        const auto smActive = statsIn(series[1], begin, end);
        std::printf(
            "PM phase %-24s %6.1f ms  %5zu samples  occupancy mean %8.4f (min %8.4f max "
            "%8.4f, expected %8.4f)  SM active mean %8.4f (min %8.4f max %8.4f, expected "
            "%8.4f)  spacing median %.1f us, max %.1f us\n",
            phase.name, duration / 1e6, occupancy.count, occupancy.mean, occupancy.min,
            occupancy.max, phase.occupancy, smActive.mean, smActive.min, smActive.max,
            phase.smActive, occupancy.medianSpacingNs / 1e3, occupancy.maxSpacingNs / 1e3);
        // Samples inside the window prove the series is in the activity clock, and their number
        // that the interval is honoured (half to one and a half of the nominal count).
        const double nominal = double(end - begin) / PmSampler::kDefaultIntervalNs;
        EXPECT_GE(double(occupancy.count), 0.5 * nominal) << phase.name;
        EXPECT_LE(double(occupancy.count), 1.5 * nominal) << phase.name;
        if (occupancy.count == 0) {
            continue;
        }
        if (phase.blocks == 0) {
            EXPECT_LT(occupancy.mean, 0.05) << phase.name;
            EXPECT_LT(smActive.mean, 0.05) << phase.name;
        } else if (phase.threads == 32) {
            EXPECT_NEAR(occupancy.mean, phase.occupancy, 0.1) << phase.name;
            EXPECT_NEAR(smActive.mean, phase.smActive, 3.0) << phase.name;
        } else {
            EXPECT_GE(occupancy.mean, phase.occupancy - 3.0) << phase.name;
            EXPECT_LE(occupancy.mean, 100.5) << phase.name;
            EXPECT_GE(smActive.mean, 97.0) << phase.name;
        }
    }
}

// Each interval either is refused with a message or gives samples spaced by it (median within
// 10%): the default must be among those that work.
TEST(PmSamplingGpuTest, IntervalsAreHonoured) {
    if (!hasDevice()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const DeviceInfo dev = deviceInfo();
    for (std::int64_t interval : {std::int64_t{5'000}, std::int64_t{10'000}, std::int64_t{20'000},
                                  PmSampler::kDefaultIntervalNs, std::int64_t{1'000'000}}) {
        PmSampler sampler;
        const auto status = sampler.start(0, interval);
        if (!status.ok()) {
            std::printf("PM interval %lld ns: refused: %s\n", static_cast<long long>(interval),
                        status.error().message.c_str());
            EXPECT_FALSE(status.error().message.empty());
            EXPECT_NE(interval, PmSampler::kDefaultIntervalNs) << status.error().message;
            continue;
        }
        ASSERT_EQ(test::launchSpin(dev.sms, 32, static_cast<long long>(dev.clockKHz) * 40),
                  cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        auto result = sampler.stop();
        ASSERT_TRUE(result.ok()) << result.error().message;
        const auto& samples = result.value()[0].samples;
        ASSERT_GE(samples.size(), 3u) << interval;
        std::vector<std::int64_t> gaps;
        for (std::size_t i = 1; i < samples.size(); ++i) {
            gaps.push_back(samples[i].timestampNs - samples[i - 1].timestampNs);
        }
        std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
        const auto median = gaps[gaps.size() / 2];
        const auto stats = sampler.stats();
        std::printf(
            "PM interval %lld ns: %zu samples, median spacing %lld ns, overflows %llu, full "
            "images %llu, %.1f ms decoding, %.1f ms reading\n",
            static_cast<long long>(interval), samples.size(), static_cast<long long>(median),
            static_cast<unsigned long long>(stats.overflows),
            static_cast<unsigned long long>(stats.counterDataFull), stats.decodeMs,
            stats.evaluateMs);
        EXPECT_NEAR(double(median), double(interval), 0.1 * double(interval));
        // The host keeps up at the default interval and slower; faster ones are for short runs,
        // where a decode that falls behind is reported as an overflow.
        if (interval >= PmSampler::kDefaultIntervalNs) {
            EXPECT_EQ(stats.overflows, 0u) << interval;
            EXPECT_EQ(stats.counterDataFull, 0u) << interval;
        }
    }
}

TEST(PmSamplingGpuTest, OneSessionPerDeviceAndRestartAfterStop) {
    if (!hasDevice()) {
        GTEST_SKIP() << "no CUDA device";
    }
    PmSampler first;
    std::string skip;
    if (!startOrSkip(first, PmSampler::kDefaultIntervalNs, skip)) {
        GTEST_SKIP() << skip;
    }
    PmSampler second;
    const auto refused = second.start(0);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("already being sampled"), std::string::npos);
    ASSERT_TRUE(first.stop().ok());
    // Clean teardown: the device can be sampled again, by another object.
    ASSERT_TRUE(second.start(0).ok());
    ASSERT_EQ(test::launchSpin(4, 32, 100'000), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto result = second.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_FALSE(result.value()[0].samples.empty());
}

// CUPTI allows one PM sampling session per device across processes: a second process must get
// the "held by another profiler" message, not a crash or a silent empty series. The test runs
// itself again as the second process (WL_PM_SECOND_PROCESS=1 selects that role).
TEST(PmSamplingGpuTest, AnotherProcessIsToldTheCountersAreHeld) {
    if (!hasDevice()) {
        GTEST_SKIP() << "no CUDA device";
    }
    if (std::getenv("WL_PM_SECOND_PROCESS")) {
        PmSampler sampler;
        const auto status = sampler.start(0);
        std::printf("PM second process: %s\n",
                    status.ok() ? "started" : status.error().message.c_str());
        std::fflush(stdout);
        if (status.ok()) {
            (void)sampler.stop();
            std::_Exit(3);
        }
        std::_Exit(
            status.error().message.find("held by another profiler") != std::string::npos ? 0 : 4);
    }
    PmSampler sampler;
    std::string skip;
    if (!startOrSkip(sampler, PmSampler::kDefaultIntervalNs, skip)) {
        GTEST_SKIP() << skip;
    }
    std::string filter = "--gtest_filter=PmSamplingGpuTest.AnotherProcessIsToldTheCountersAreHeld";
    std::string self = "/proc/self/exe";
    char* argv[] = {self.data(), filter.data(), nullptr};
    std::vector<std::string> environment = {"WL_PM_SECOND_PROCESS=1"};
    for (char** e = environ; *e; ++e) {
        environment.emplace_back(*e);
    }
    std::vector<char*> envp;
    for (auto& entry : environment) {
        envp.push_back(entry.data());
    }
    envp.push_back(nullptr);
    pid_t child = 0;
    ASSERT_EQ(posix_spawn(&child, "/proc/self/exe", nullptr, nullptr, argv, envp.data()), 0);
    int wstatus = 0;
    ASSERT_EQ(waitpid(child, &wstatus, 0), child);
    ASSERT_TRUE(WIFEXITED(wstatus));
    EXPECT_EQ(WEXITSTATUS(wstatus), 0)
        << "3: the second process could sample too; 4: it failed with another message";
    auto result = sampler.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
}

}  // namespace
}  // namespace wl::cupti
