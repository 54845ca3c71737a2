// DeferredMetrics without a GPU (the fake PM sampling API): each device the program opens is
// sampled once, from a thread of its own; a device that cannot be sampled is a warning, not the
// end of the others; the hook that lets `record` write its trace first runs after each start.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>

#include "FakePmSamplingApi.h"
#include "cupti/DeferredMetrics.h"
#include "support/Gate.h"

namespace wl::cupti {
namespace {

class DeferredMetricsTest : public ::testing::Test {
protected:
    std::shared_ptr<test::FakeState> state = std::make_shared<test::FakeState>();
    std::atomic<int> started{0};

    std::unique_ptr<DeferredMetrics> make() {
        return std::make_unique<DeferredMetrics>(
            PmSampler::kDefaultIntervalNs, [this] { ++started; },
            [this] { return std::make_unique<PmSampler>(std::make_unique<test::FakeApi>(state)); });
    }
};

TEST_F(DeferredMetricsTest, EachDeviceIsSampledOnceFromItsFirstContext) {
    auto metrics = make();
    metrics->noteDevice(1);
    metrics->noteDevice(0);
    metrics->noteDevice(1);  // a second context on the same device
    std::vector<std::string> warnings;
    auto samplers = metrics->stop(warnings);
    ASSERT_EQ(samplers.size(), 2u);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(started.load(), 2);
    std::vector<int> devices;
    for (const auto& sampler : samplers) {
        EXPECT_TRUE(sampler->running());
        EXPECT_EQ(sampler->intervalNs(), PmSampler::kDefaultIntervalNs);
        devices.push_back(sampler->deviceId());
    }
    std::sort(devices.begin(), devices.end());
    EXPECT_EQ(devices, (std::vector<int>{0, 1}));
    EXPECT_EQ(state->openedDevices, (std::vector<int>{1, 0}));  // in the order they appeared
    for (auto& sampler : samplers) {
        EXPECT_TRUE(sampler->stop().ok());
    }
}

TEST_F(DeferredMetricsTest, ADeviceThatCannotBeSampledIsAWarningAndTheOthersStillStart) {
    state->absentDevices = {3};
    auto metrics = make();
    metrics->noteDevice(3);
    metrics->noteDevice(0);
    std::vector<std::string> warnings;
    auto samplers = metrics->stop(warnings);
    ASSERT_EQ(samplers.size(), 1u);
    EXPECT_EQ(samplers[0]->deviceId(), 0);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("no CUDA device 3"), std::string::npos) << warnings[0];
    EXPECT_EQ(started.load(), 1);  // only a start that worked asks for the trace to go first
    EXPECT_TRUE(samplers[0]->stop().ok());
}

TEST_F(DeferredMetricsTest, LaunchesWaitUntilSamplingHasStarted) {
    // A start that takes as long as the test says, as CUPTI's takes its time (counter
    // availability, buffer allocation): the sampler's factory waits at a gate, so "not started
    // yet" holds for as long as the test needs it, on any machine.
    wl::test::Gate gate;
    DeferredMetrics metrics(
        PmSampler::kDefaultIntervalNs, [this] { ++started; },
        [this, &gate] {
            gate.waitOpen(std::chrono::seconds(20));
            return std::make_unique<PmSampler>(std::make_unique<test::FakeApi>(state));
        });
    // Opened however the test ends, before ~DeferredMetrics joins the sampling thread.
    const wl::test::GateOpener openAtEnd(gate);
    EXPECT_FALSE(metrics.startsPending());
    EXPECT_TRUE(metrics.waitForStarts(std::chrono::milliseconds(0)));  // nothing to wait for
    metrics.noteDevice(0);
    EXPECT_TRUE(metrics.startsPending());
    EXPECT_FALSE(metrics.waitForStarts(std::chrono::milliseconds(10)));  // gives up
    EXPECT_EQ(started.load(), 0);
    gate.open();  // the start completes now
    EXPECT_TRUE(metrics.waitForStarts(std::chrono::seconds(10)));
    EXPECT_FALSE(metrics.startsPending());
    EXPECT_EQ(started.load(), 1);
    std::vector<std::string> warnings;
    auto samplers = metrics.stop(warnings);
    ASSERT_EQ(samplers.size(), 1u);
    ASSERT_EQ(warnings.size(), 1u);  // the launch that gave up is reported
    EXPECT_NE(warnings[0].find("before sampling had started"), std::string::npos) << warnings[0];
    EXPECT_TRUE(samplers[0]->stop().ok());
}

TEST_F(DeferredMetricsTest, NothingStartsAfterStopOrWithoutAContext) {
    auto metrics = make();
    std::vector<std::string> warnings;
    EXPECT_TRUE(metrics->stop(warnings).empty());
    metrics->noteDevice(0);  // a context created while the trace is being written
    EXPECT_TRUE(metrics->stop(warnings).empty());
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(started.load(), 0);
    EXPECT_TRUE(state->openedDevices.empty());
}

}  // namespace
}  // namespace wl::cupti
