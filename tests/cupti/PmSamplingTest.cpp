// PmSampler without a GPU: a fake PmSamplingApi plays CUPTI, so the call sequence, the teardown
// after every failing step, the error messages, the decode loop and the series come out checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "FakePmSamplingApi.h"
#include "cupti/PmSampler.h"
#include "cupti/PmSamplingApi.h"
#include "cupti/PmSamplingErrors.h"
#include "cupti/PmSamplingSeries.h"

namespace wl::cupti {
namespace {

using RawSample = PmSamplingApi::RawSample;
using test::DecodeBatch;
using test::FakeApi;
using test::FakeState;

RawSample sample(std::uint64_t start, std::uint64_t end, double occupancy, double smActive) {
    return RawSample{start, end, {occupancy, smActive}};
}

std::vector<std::string> withoutDecodes(const std::vector<std::string>& calls) {
    std::vector<std::string> out;
    for (const auto& call : calls) {
        if (call != "decode") {
            out.push_back(call);
        }
    }
    return out;
}

const std::vector<std::string> kSetupCalls = {
    "openDevice",        "profilerInitialize", "chipName", "counterAvailability",
    "hostInitialize",    "configure",          "enable",   "setConfig",
    "createCounterData", "startSampling"};

class PmSamplerTest : public ::testing::Test {
protected:
    std::shared_ptr<FakeState> state = std::make_shared<FakeState>();
    std::unique_ptr<PmSampler> makeSampler() {
        return std::make_unique<PmSampler>(std::make_unique<FakeApi>(state));
    }
};

TEST_F(PmSamplerTest, RejectsIntervalsOutOfRangeBeforeTouchingCupti) {
    auto sampler = makeSampler();
    for (std::int64_t interval : {std::int64_t{0}, std::int64_t{-20'000},
                                  PmSampler::kMinIntervalNs - 1, PmSampler::kMaxIntervalNs + 1}) {
        const auto status = sampler->start(0, interval);
        ASSERT_FALSE(status.ok()) << interval;
        EXPECT_NE(status.error().message.find("sampling interval"), std::string::npos);
    }
    EXPECT_TRUE(state->callsCopy().empty());
    EXPECT_FALSE(sampler->running());
}

TEST_F(PmSamplerTest, RejectsNegativeDevice) {
    auto sampler = makeSampler();
    const auto status = sampler->start(-1);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("no CUDA device -1"), std::string::npos);
    EXPECT_TRUE(state->callsCopy().empty());
}

TEST_F(PmSamplerTest, StartsInProbeOrderAndTearsDownInReverse) {
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0, 50'000).ok());
    EXPECT_TRUE(sampler->running());
    EXPECT_EQ(sampler->intervalNs(), 50'000);
    EXPECT_EQ(state->intervalNs, 50'000u);
    EXPECT_GT(state->hardwareBufferBytes, 0u);
    ASSERT_EQ(state->metrics.size(), 2u);
    EXPECT_EQ(state->metrics[0], "sm__warps_active.avg.pct_of_peak_sustained_elapsed");
    EXPECT_EQ(state->metrics[1], "sm__cycles_active.avg.pct_of_peak_sustained_elapsed");
    EXPECT_EQ(withoutDecodes(state->callsCopy()), kSetupCalls);

    auto result = sampler->stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    auto expected = kSetupCalls;
    for (const char* call :
         {"stopSampling", "disable", "hostDeinitialize", "profilerDeinitialize", "closeDevice"}) {
        expected.emplace_back(call);
    }
    EXPECT_EQ(withoutDecodes(state->callsCopy()), expected);
    // The final drain runs after sampling stopped and before the object is disabled.
    const auto calls = state->callsCopy();
    const auto stopAt = std::find(calls.begin(), calls.end(), "stopSampling");
    const auto disableAt = std::find(calls.begin(), calls.end(), "disable");
    EXPECT_NE(std::find(stopAt, disableAt, "decode"), disableAt);
    EXPECT_FALSE(sampler->running());
}

TEST_F(PmSamplerTest, TimesEachStartAndStopStep) {
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    std::vector<std::string> names;
    for (const auto& [name, ms] : sampler->stats().stepMs) {
        names.push_back(name);
        EXPECT_GE(ms, 0.0);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"openDevice", "profilerInitialize", "chipName",
                                               "counterAvailability", "hostInitialize", "configure",
                                               "enable", "setConfig", "createCounterData",
                                               "startSampling"}));
    ASSERT_TRUE(sampler->stop().ok());
    names.clear();
    for (const auto& step : sampler->stats().stepMs) {
        names.push_back(step.first);
    }
    ASSERT_EQ(names.size(), 10u + 6u);
    EXPECT_EQ(std::vector<std::string>(names.begin() + 10, names.end()),
              (std::vector<std::string>{"joinDecodeThread", "stopSampling", "finalDrain", "disable",
                                        "hostDeinitialize", "closeDevice"}));
}

TEST_F(PmSamplerTest, DefaultIntervalIsTheDocumentedOne) {
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    EXPECT_EQ(state->intervalNs, static_cast<std::uint64_t>(PmSampler::kDefaultIntervalNs));
    EXPECT_EQ(state->hardwareBufferBytes, PmSampler::kDefaultHardwareBufferBytes);
    ASSERT_TRUE(sampler->stop().ok());
}

TEST_F(PmSamplerTest, HardwareBufferSizeIsConfigurableWithAFloor) {
    auto sampler = makeSampler();
    sampler->setHardwareBufferBytes(PmSampler::kMinHardwareBufferBytes - 1);
    const auto refused = sampler->start(0);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("below 1 MiB"), std::string::npos);
    EXPECT_TRUE(state->callsCopy().empty());
    sampler->setHardwareBufferBytes(std::size_t{32} << 20);
    ASSERT_TRUE(sampler->start(0).ok());
    EXPECT_EQ(state->hardwareBufferBytes, std::size_t{32} << 20);
    ASSERT_TRUE(sampler->stop().ok());
}

TEST_F(PmSamplerTest, TurnsDecodedSamplesIntoOneSeriesPerMetric) {
    // Queued before start: the decode thread or the final drain reads them, in order.
    state->push({{sample(1000, 1020, 1.5625, 100.0), sample(1020, 1040, 0.78125, 50.0)}, true});
    state->push({{sample(1040, 1060, 100.0, 100.0)}, false});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    const auto& series = result.value();
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].name, "warp occupancy %");
    EXPECT_EQ(series[1].name, "SM active %");
    EXPECT_EQ(series[0].unit, "%");
    EXPECT_EQ(series[1].unit, "%");
    ASSERT_EQ(series[0].samples.size(), 3u);
    ASSERT_EQ(series[1].samples.size(), 3u);
    EXPECT_EQ(series[0].samples[0].timestampNs, 1000);
    EXPECT_EQ(series[0].samples[1].timestampNs, 1020);
    EXPECT_EQ(series[0].samples[2].timestampNs, 1040);
    EXPECT_DOUBLE_EQ(series[0].samples[1].value, 0.78125);
    EXPECT_DOUBLE_EQ(series[1].samples[1].value, 50.0);
    EXPECT_DOUBLE_EQ(series[0].samples[2].value, 100.0);
    const auto stats = sampler->stats();
    EXPECT_EQ(stats.decodedSamples, 3u);
    EXPECT_EQ(stats.counterDataFull, 1u);
    EXPECT_EQ(stats.overflows, 0u);
    // A full host image is decoded again, but what did not fit may be gone: said, not hidden.
    ASSERT_EQ(stats.warnings.size(), 1u);
    EXPECT_NE(stats.warnings[0].find("filled its host buffer 1 time(s)"), std::string::npos)
        << stats.warnings[0];
}

TEST_F(PmSamplerTest, TheHostImageHoldsASecondOfSamplesWithinBounds) {
    // A decode call that fills the image leaves a hole in the series: with 4,096 samples at
    // 20 µs they were 20-130 ms long on an H100.
    const std::pair<std::int64_t, std::uint32_t> cases[] = {
        {100'000, 10'000}, {20'000, 50'000}, {5'000, 50'000}, {1'000'000, 4096}};
    for (const auto& [interval, samples] : cases) {
        auto sampler = makeSampler();
        ASSERT_TRUE(sampler->start(0, interval).ok());
        EXPECT_EQ(state->maxSamplesPerImage, samples) << interval;
        ASSERT_TRUE(sampler->stop().ok());
    }
}

TEST_F(PmSamplerTest, TheLastDrainEmptiesTheBufferHoweverManyImagesItTakes) {
    // More full images than a drain takes while sampling (64): after stop nothing is left behind.
    for (int i = 0; i < 100; ++i) {
        state->push({{sample(1000 + 20 * i, 1020 + 20 * i, 1.0, 2.0)}, true});
    }
    state->push({{sample(3000, 3020, 1.0, 2.0)}, false});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(result.value()[0].samples.size(), 101u);
    EXPECT_EQ(state->pending(), 0u);
}

TEST_F(PmSamplerTest, DecodeThreadDrainsWhileSampling) {
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    state->push({{sample(5000, 5020, 10.0, 20.0)}, false});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (state->pending() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_EQ(state->pending(), 0u) << "the decode thread never drained the buffer";
    EXPECT_TRUE(sampler->running());
    const auto calls = state->callsCopy();
    EXPECT_EQ(std::find(calls.begin(), calls.end(), "stopSampling"), calls.end());
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result.value()[0].samples.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value()[1].samples[0].value, 20.0);
}

struct FailureCase {
    const char* step;
    CUptiResult result;
    const char* messagePart;
};

class PmSamplerFailureTest : public PmSamplerTest,
                             public ::testing::WithParamInterface<FailureCase> {};

TEST_P(PmSamplerFailureTest, ExplainsTheCauseAndUndoesWhatWasSetUp) {
    const FailureCase& c = GetParam();
    state->failures[c.step] = c.result;
    auto sampler = makeSampler();
    const auto status = sampler->start(3);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find(c.messagePart), std::string::npos)
        << status.error().message;
    EXPECT_NE(status.error().message.find("GPU 3"), std::string::npos) << status.error().message;
    EXPECT_FALSE(sampler->running());

    // Every setup that succeeded has its teardown, and nothing else is torn down.
    const auto calls = state->callsCopy();
    const auto has = [&](const char* name) {
        return std::find(calls.begin(), calls.end(), name) != calls.end();
    };
    const auto succeeded = [&](const char* name) {
        return has(name) && std::string(c.step) != name;
    };
    EXPECT_EQ(has("closeDevice"), succeeded("openDevice"));
    EXPECT_EQ(has("profilerDeinitialize"), succeeded("profilerInitialize"));
    EXPECT_EQ(has("hostDeinitialize"), succeeded("hostInitialize"));
    EXPECT_EQ(has("disable"), succeeded("enable"));
    EXPECT_FALSE(has("stopSampling"));

    // The device was released: a later start on it works.
    state->failures.clear();
    EXPECT_TRUE(sampler->start(3).ok());
    EXPECT_TRUE(sampler->stop().ok());
}

INSTANTIATE_TEST_SUITE_P(
    Steps, PmSamplerFailureTest,
    ::testing::Values(
        FailureCase{"profilerInitialize", CUPTI_ERROR_NOT_SUPPORTED, "does not support"},
        FailureCase{"chipName", CUPTI_ERROR_INVALID_DEVICE, "no CUDA device 3"},
        FailureCase{"counterAvailability", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "no permission"},
        FailureCase{"hostInitialize", CUPTI_ERROR_INVALID_CHIP_NAME, "does not support"},
        FailureCase{"configure", CUPTI_ERROR_INVALID_PARAMETER, "does not support"},
        FailureCase{"enable", CUPTI_ERROR_INVALID_OPERATION, "held by another profiler"},
        FailureCase{"enable", CUPTI_ERROR_HARDWARE_BUSY, "held by another profiler"},
        FailureCase{"enable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "no permission"},
        FailureCase{"setConfig", CUPTI_ERROR_NOT_SUPPORTED, "does not support"},
        FailureCase{"createCounterData", CUPTI_ERROR_OUT_OF_MEMORY, "PM sampling failed"},
        FailureCase{"startSampling", CUPTI_ERROR_UNKNOWN, "PM sampling failed"}));

TEST_F(PmSamplerTest, ErrorNamesTheFailingCallAndResult) {
    state->failures["enable"] = CUPTI_ERROR_HARDWARE_BUSY;
    auto sampler = makeSampler();
    const auto status = sampler->start(1);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("[cuptiPmSamplingEnable: RESULT_26]"), std::string::npos)
        << status.error().message;
    EXPECT_NE(status.error().message.find("GH100"), std::string::npos);
}

TEST_F(PmSamplerTest, DriverErrorPassesThroughWithoutCuptiCalls) {
    state->openError = model::Error{"GPU metrics: there is no CUDA device 7 (1 present)"};
    auto sampler = makeSampler();
    const auto status = sampler->start(7);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, "GPU metrics: there is no CUDA device 7 (1 present)");
    EXPECT_EQ(state->callsCopy(), std::vector<std::string>{"openDevice"});
}

TEST_F(PmSamplerTest, MetricsNeedingSeveralPassesAreUnsupported) {
    state->passes = 2;
    auto sampler = makeSampler();
    const auto status = sampler->start(0);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("2 passes"), std::string::npos);
    const auto calls = state->callsCopy();
    EXPECT_EQ(std::find(calls.begin(), calls.end(), "enable"), calls.end());
    EXPECT_NE(std::find(calls.begin(), calls.end(), "hostDeinitialize"), calls.end());
}

TEST_F(PmSamplerTest, OneSessionPerDevice) {
    auto first = makeSampler();
    auto second = makeSampler();
    ASSERT_TRUE(first->start(2).ok());
    const auto status = second->start(2);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("already being sampled"), std::string::npos);
    EXPECT_TRUE(first->running());
    ASSERT_TRUE(second->start(5).ok());  // another device is fine
    ASSERT_TRUE(second->stop().ok());
    ASSERT_TRUE(first->stop().ok());
    EXPECT_TRUE(second->start(2).ok());  // released by stop()
    EXPECT_TRUE(second->stop().ok());
}

TEST_F(PmSamplerTest, StartTwiceIsAnError) {
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    EXPECT_FALSE(sampler->start(1).ok());
    EXPECT_EQ(sampler->deviceId(), 0);
    EXPECT_TRUE(sampler->stop().ok());
}

TEST_F(PmSamplerTest, OverflowIsCountedAndReportedButKeepsTheSamples) {
    state->push({{sample(100, 120, 1.0, 2.0)}, false, true, CUPTI_SUCCESS});
    state->push({{sample(200, 220, 3.0, 4.0)}, false, false, CUPTI_ERROR_OUT_OF_MEMORY});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    // Let the decode thread see both batches (it takes one per pass when none is full).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (state->pending() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.value()[0].samples.size(), 2u);
    const auto stats = sampler->stats();
    EXPECT_EQ(stats.overflows, 2u);
    ASSERT_FALSE(stats.warnings.empty());
    EXPECT_NE(stats.warnings[0].find("overflowed 2 time(s)"), std::string::npos);
}

TEST_F(PmSamplerTest, DecodeFailureWithoutSamplesIsAnError) {
    state->push({{}, false, false, CUPTI_ERROR_UNKNOWN});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    auto result = sampler->stop();
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("cuptiPmSamplingDecodeData"), std::string::npos);
    // Torn down all the same.
    const auto calls = state->callsCopy();
    EXPECT_NE(std::find(calls.begin(), calls.end(), "disable"), calls.end());
    EXPECT_NE(std::find(calls.begin(), calls.end(), "closeDevice"), calls.end());
    EXPECT_FALSE(sampler->running());
}

TEST_F(PmSamplerTest, DecodeFailureAfterSamplesKeepsThemWithAWarning) {
    state->push({{sample(100, 120, 1.0, 2.0)}, false});
    state->push({{}, false, false, CUPTI_ERROR_UNKNOWN});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (state->pending() > 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.value()[0].samples.size(), 1u);
    const auto stats = sampler->stats();
    ASSERT_EQ(stats.warnings.size(), 1u);
    EXPECT_NE(stats.warnings[0].find("series end early"), std::string::npos);
}

TEST_F(PmSamplerTest, StopFailureIsAWarningAndTeardownStillRuns) {
    state->failures["stopSampling"] = CUPTI_ERROR_UNKNOWN;
    state->push({{sample(100, 120, 1.0, 2.0)}, false});
    auto sampler = makeSampler();
    ASSERT_TRUE(sampler->start(0).ok());
    auto result = sampler->stop();
    ASSERT_TRUE(result.ok());
    const auto stats = sampler->stats();
    ASSERT_EQ(stats.warnings.size(), 1u);
    EXPECT_NE(stats.warnings[0].find("cuptiPmSamplingStop"), std::string::npos);
    const auto calls = state->callsCopy();
    EXPECT_NE(std::find(calls.begin(), calls.end(), "disable"), calls.end());
}

TEST_F(PmSamplerTest, StopWithoutStartIsAnError) {
    auto sampler = makeSampler();
    EXPECT_FALSE(sampler->stop().ok());
    EXPECT_TRUE(state->callsCopy().empty());
}

TEST_F(PmSamplerTest, DestructorTearsDownARunningSession) {
    {
        auto sampler = makeSampler();
        ASSERT_TRUE(sampler->start(4).ok());
    }
    const auto calls = state->callsCopy();
    EXPECT_EQ(calls.back(), "closeDevice");
    EXPECT_NE(std::find(calls.begin(), calls.end(), "stopSampling"), calls.end());
    auto again = makeSampler();
    EXPECT_TRUE(again->start(4).ok());
    EXPECT_TRUE(again->stop().ok());
}

TEST(PmSamplingSeriesTest, DropsInvalidTimeRangesAndNonFiniteValues) {
    PmSamplingSeries series({"a", "b"});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double ok[] = {1.0, 2.0};
    const double half[] = {3.0, nan};
    const double one[] = {5.0};
    series.add(0, 10, ok);     // zero start
    series.add(30, 20, ok);    // reversed
    series.add(40, 40, ok);    // empty
    series.add(50, 60, half);  // b dropped
    series.add(70, 80, one);   // wrong width
    series.add(90, 100, ok);
    EXPECT_EQ(series.acceptedSamples(), 1u);
    EXPECT_EQ(series.invalidSamples(), 5u);
    const auto out = series.finish();
    ASSERT_EQ(out.size(), 2u);
    ASSERT_EQ(out[0].samples.size(), 2u);
    ASSERT_EQ(out[1].samples.size(), 1u);
    EXPECT_EQ(out[0].samples[0].timestampNs, 50);
    EXPECT_DOUBLE_EQ(out[0].samples[0].value, 3.0);
    EXPECT_EQ(out[1].samples[0].timestampNs, 90);
    EXPECT_EQ(out[0].unit, "%");
}

TEST(PmSamplingSeriesTest, SortsOutOfOrderSamplesAndKeepsActivityClockValues) {
    PmSamplingSeries series({"x"}, "%");
    const double v1[] = {1.0};
    const double v2[] = {2.0};
    // Realistic CUPTI timestamps (~1.8e18 ns): kept exactly, not rebased.
    series.add(1'795'234'752'895'472'763ULL, 1'795'234'752'895'492'763ULL, v2);
    series.add(1'795'234'752'895'452'763ULL, 1'795'234'752'895'472'763ULL, v1);
    const auto out = series.finish();
    ASSERT_EQ(out[0].samples.size(), 2u);
    EXPECT_EQ(out[0].samples[0].timestampNs, 1'795'234'752'895'452'763LL);
    EXPECT_DOUBLE_EQ(out[0].samples[0].value, 1.0);
    EXPECT_DOUBLE_EQ(out[0].samples[1].value, 2.0);
}

TEST(PmSamplingErrorsTest, ClassifiesResultsByWhatTheUserCanDo) {
    EXPECT_EQ(classifyPmFailure("cuptiPmSamplingEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES),
              PmFailure::Permission);
    EXPECT_EQ(classifyPmFailure("cuptiPmSamplingEnable", CUPTI_ERROR_INVALID_OPERATION),
              PmFailure::Busy);
    EXPECT_EQ(classifyPmFailure("cuptiPmSamplingStart", CUPTI_ERROR_INVALID_OPERATION),
              PmFailure::Other);
    EXPECT_EQ(classifyPmFailure("cuptiProfilerHostConfigAddMetrics", CUPTI_ERROR_INVALID_PARAMETER),
              PmFailure::Unsupported);
    EXPECT_EQ(classifyPmFailure("cuptiPmSamplingSetConfig", CUPTI_ERROR_INVALID_PARAMETER),
              PmFailure::Other);
    EXPECT_EQ(classifyPmFailure("x", CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED), PmFailure::Unsupported);
    EXPECT_EQ(classifyPmFailure("x", CUPTI_ERROR_HARDWARE_BUSY), PmFailure::Busy);
    EXPECT_EQ(classifyPmFailure("x", CUPTI_ERROR_INVALID_DEVICE), PmFailure::NoDevice);

    const auto error = pmSamplingError("cuptiPmSamplingGetCounterAvailability",
                                       CUPTI_ERROR_INSUFFICIENT_PRIVILEGES,
                                       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", 1, "GH100");
    EXPECT_NE(error.message.find("GPU 1 (GH100)"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos);
    EXPECT_NE(error.message.find("[cuptiPmSamplingGetCounterAvailability: "
                                 "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES]"),
              std::string::npos);
    EXPECT_TRUE(error.file.empty());
}

}  // namespace
}  // namespace wl::cupti
