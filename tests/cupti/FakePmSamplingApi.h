#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cupti/PmSamplingApi.h"

namespace wl::cupti::test {

// PM sampling without a GPU: the fake plays each step of the CUPTI call sequence, records the
// calls, fails the steps a test names and hands out the decode batches a test queues.
using RawSample = PmSamplingApi::RawSample;

struct DecodeBatch {
    std::vector<RawSample> samples;
    bool full = false;
    bool overflow = false;
    CUptiResult status = CUPTI_SUCCESS;
};

// Shared between the test and the fake (which the sampler owns).
struct FakeState {
    std::mutex mutex;
    std::vector<std::string> calls;
    std::map<std::string, CUptiResult> failures;  // step -> result
    std::optional<model::Error> openError;
    std::set<int> absentDevices;  // openDevice fails for these
    std::vector<int> openedDevices;
    std::size_t passes = 1;
    std::deque<DecodeBatch> batches;
    std::vector<RawSample> current;
    std::atomic<int> decodeCalls{0};
    std::uint64_t intervalNs = 0;
    std::size_t hardwareBufferBytes = 0;
    std::uint32_t maxSamplesPerImage = 0;
    std::vector<std::string> metrics;

    std::vector<std::string> callsCopy() {
        std::lock_guard lock(mutex);
        return calls;
    }
    void push(DecodeBatch batch) {
        std::lock_guard lock(mutex);
        batches.push_back(std::move(batch));
    }
    std::size_t pending() {
        std::lock_guard lock(mutex);
        return batches.size();
    }
};

class FakeApi final : public PmSamplingApi {
public:
    explicit FakeApi(std::shared_ptr<FakeState> state) : m_state(std::move(state)) {}

    model::Status openDevice(int deviceId) override {
        record("openDevice");
        if (m_state->openError) {
            return *m_state->openError;
        }
        {
            std::lock_guard lock(m_state->mutex);
            if (m_state->absentDevices.count(deviceId) != 0) {
                return model::Error{"GPU metrics: there is no CUDA device " +
                                    std::to_string(deviceId)};
            }
            m_state->openedDevices.push_back(deviceId);
        }
        return model::Status::success();
    }
    void closeDevice() override { record("closeDevice"); }
    CUptiResult profilerInitialize() override { return step("profilerInitialize"); }
    void profilerDeinitialize() override { record("profilerDeinitialize"); }
    CUptiResult chipName(int, std::string& chip) override {
        chip = "GH100";
        return step("chipName");
    }
    CUptiResult counterAvailability(int, std::vector<std::uint8_t>& image) override {
        image.assign(16, 1);
        return step("counterAvailability");
    }
    CUptiResult hostInitialize(const std::string&, const std::vector<std::uint8_t>&) override {
        return step("hostInitialize");
    }
    void hostDeinitialize() override { record("hostDeinitialize"); }
    CUptiResult configure(const std::vector<std::string>& metrics, std::vector<std::uint8_t>& image,
                          std::size_t& passes) override {
        image.assign(32, 7);
        passes = m_state->passes;
        m_state->metrics = metrics;
        return step("configure");
    }
    CUptiResult enable(int) override { return step("enable"); }
    void disable() override { record("disable"); }
    CUptiResult setConfig(const std::vector<std::uint8_t>&, std::size_t hardwareBufferBytes,
                          std::uint64_t intervalNs) override {
        m_state->intervalNs = intervalNs;
        m_state->hardwareBufferBytes = hardwareBufferBytes;
        return step("setConfig");
    }
    CUptiResult createCounterData(std::uint32_t maxSamples) override {
        m_state->maxSamplesPerImage = maxSamples;
        return step("createCounterData");
    }
    CUptiResult startSampling() override { return step("startSampling"); }
    CUptiResult stopSampling() override { return step("stopSampling"); }
    DecodeResult decode() override {
        ++m_state->decodeCalls;
        std::lock_guard lock(m_state->mutex);
        m_state->calls.push_back("decode");
        DecodeResult out;
        m_state->current.clear();
        if (m_state->batches.empty()) {
            return out;
        }
        DecodeBatch batch = std::move(m_state->batches.front());
        m_state->batches.pop_front();
        out.status = batch.status;
        out.overflow = batch.overflow;
        out.counterDataFull = batch.full;
        out.completedSamples = batch.samples.size();
        m_state->current = std::move(batch.samples);
        return out;
    }
    CUptiResult readSample(std::size_t index, RawSample& sample) override {
        std::lock_guard lock(m_state->mutex);
        if (auto it = m_state->failures.find("readSample"); it != m_state->failures.end()) {
            return it->second;
        }
        sample = m_state->current.at(index);
        return CUPTI_SUCCESS;
    }
    CUptiResult resetCounterData() override { return CUPTI_SUCCESS; }
    std::string resultName(CUptiResult result) override {
        return "RESULT_" + std::to_string(static_cast<int>(result));
    }

private:
    void record(const std::string& name) {
        std::lock_guard lock(m_state->mutex);
        m_state->calls.push_back(name);
    }
    CUptiResult step(const std::string& name) {
        std::lock_guard lock(m_state->mutex);
        m_state->calls.push_back(name);
        auto it = m_state->failures.find(name);
        return it == m_state->failures.end() ? CUPTI_SUCCESS : it->second;
    }

    std::shared_ptr<FakeState> m_state;
};

}  // namespace wl::cupti::test
