#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cupti_result.h>

#include "model/Result.h"

namespace wl::cupti {

// The seam between PmSampler and CUPTI: each method is one step of the PM sampling call sequence
// (see the reference probe) and returns CUPTI's status, so tests can fake the hardware and every
// error path. The implementation owns what it creates (profiler host object, PM sampling object,
// counter data image, retained context) and releases each in the matching teardown method; those
// are safe to call when the matching setup did not run or failed. Not thread-safe: PmSampler calls
// it from one thread at a time.
class PmSamplingApi {
public:
    struct DecodeResult {
        CUptiResult status = CUPTI_SUCCESS;
        bool overflow = false;         // the hardware buffer filled up: samples were lost
        bool counterDataFull = false;  // the host image filled up: decode again after reading it
        std::size_t completedSamples = 0;  // samples now readable with readSample(0..n-1)
    };
    struct RawSample {
        std::uint64_t startNs = 0;  // CUPTI timestamps (the activity records' clock)
        std::uint64_t endNs = 0;
        std::vector<double> values;  // one per metric, in configure() order
    };

    virtual ~PmSamplingApi() = default;

    // CUDA driver: the device exists and its primary context is retained (PM sampling needs one).
    virtual model::Status openDevice(int deviceId) = 0;
    virtual void closeDevice() = 0;
    virtual CUptiResult profilerInitialize() = 0;
    virtual void profilerDeinitialize() = 0;
    virtual CUptiResult chipName(int deviceId, std::string& chip) = 0;
    virtual CUptiResult counterAvailability(int deviceId, std::vector<std::uint8_t>& image) = 0;
    virtual CUptiResult hostInitialize(const std::string& chip,
                                       const std::vector<std::uint8_t>& availability) = 0;
    virtual void hostDeinitialize() = 0;
    // Adds the metrics to the host object and builds the config image; passes > 1 means they
    // cannot be sampled together.
    virtual CUptiResult configure(const std::vector<std::string>& metrics,
                                  std::vector<std::uint8_t>& configImage, std::size_t& passes) = 0;
    virtual CUptiResult enable(int deviceId) = 0;
    virtual void disable() = 0;
    virtual CUptiResult setConfig(const std::vector<std::uint8_t>& configImage,
                                  std::size_t hardwareBufferBytes, std::uint64_t intervalNs) = 0;
    virtual CUptiResult createCounterData(std::uint32_t maxSamples) = 0;
    virtual CUptiResult startSampling() = 0;
    virtual CUptiResult stopSampling() = 0;
    virtual DecodeResult decode() = 0;
    virtual CUptiResult readSample(std::size_t index, RawSample& sample) = 0;
    virtual CUptiResult resetCounterData() = 0;
    virtual std::string resultName(CUptiResult result) = 0;
};

// The real one, over libcupti.
std::unique_ptr<PmSamplingApi> makeCuptiPmSamplingApi();

}  // namespace wl::cupti
