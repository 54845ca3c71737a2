#pragma once

#include <string>
#include <string_view>

#include <cupti_result.h>

#include "model/Result.h"

namespace wl::cupti {

// Why a PM sampling step failed, in the terms a user can act on.
enum class PmFailure {
    Permission,   // the driver restricts the performance counters to administrators
    Unsupported,  // GPU, driver or environment (MIG, vGPU, WSL, ...) without PM sampling
    Busy,         // another profiler or session holds the counters of the device
    NoDevice,     // no such CUDA device
    Other,
};

PmFailure classifyPmFailure(std::string_view step, CUptiResult result);

// A model::Error whose message names the device, the cause and what to do, and ends with the
// failing CUPTI call and its result ("[cuptiPmSamplingEnable: CUPTI_ERROR_...]").
model::Error pmSamplingError(std::string_view step, CUptiResult result, std::string_view resultName,
                             int deviceId, std::string_view chip = {});

}  // namespace wl::cupti
