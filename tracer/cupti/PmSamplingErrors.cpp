#include "cupti/PmSamplingErrors.h"

namespace wl::cupti {

PmFailure classifyPmFailure(std::string_view step, CUptiResult result) {
    switch (result) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            return PmFailure::Permission;
        case CUPTI_ERROR_NOT_SUPPORTED:
        case CUPTI_ERROR_NOT_COMPATIBLE:
        case CUPTI_ERROR_API_NOT_IMPLEMENTED:
        case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        case CUPTI_ERROR_INVALID_CHIP_NAME:
        case CUPTI_ERROR_INVALID_METRIC_NAME:
            return PmFailure::Unsupported;
        case CUPTI_ERROR_HARDWARE_BUSY:
        case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
            return PmFailure::Busy;
        case CUPTI_ERROR_INVALID_DEVICE:
            return PmFailure::NoDevice;
        case CUPTI_ERROR_INVALID_OPERATION:
            // cuptiPmSamplingEnable documents this result for "already enabled on the device".
            return step == "cuptiPmSamplingEnable" ? PmFailure::Busy : PmFailure::Other;
        case CUPTI_ERROR_INVALID_PARAMETER:
            // Adding a metric the chip cannot sample answers INVALID_PARAMETER (seen on GH100
            // with tpc__warps_active_realtime): for us that means an unsupported chip.
            return step == "cuptiProfilerHostConfigAddMetrics" ? PmFailure::Unsupported
                                                               : PmFailure::Other;
        default:
            return PmFailure::Other;
    }
}

model::Error pmSamplingError(std::string_view step, CUptiResult result, std::string_view resultName,
                             int deviceId, std::string_view chip) {
    const std::string gpu = "GPU " + std::to_string(deviceId) +
                            (chip.empty() ? std::string() : " (" + std::string(chip) + ")");
    std::string message = "GPU metrics: ";
    switch (classifyPmFailure(step, result)) {
        case PmFailure::Permission:
            message += "no permission to read the performance counters of " + gpu +
                       ": the driver restricts them to administrators. Run as root, or load the "
                       "nvidia module with NVreg_RestrictProfilingToAdminUsers=0 (see "
                       "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
            break;
        case PmFailure::Unsupported:
            message += gpu +
                       " or its driver does not support CUPTI PM sampling of warp occupancy and "
                       "SM activity (it needs an Ampere GA10x or newer GPU, not in MIG, vGPU or "
                       "WSL mode, and a CUDA 12.6 or newer driver); run without GPU metrics";
            break;
        case PmFailure::Busy:
            message += "the performance counters of " + gpu +
                       " are held by another profiler (Nsight Systems or Compute, DCGM "
                       "profiling, or another GPU metrics session): stop it, or run without GPU "
                       "metrics";
            break;
        case PmFailure::NoDevice:
            message += "GPU " + std::to_string(deviceId) + " does not exist (no CUDA device " +
                       std::to_string(deviceId) + ")";
            break;
        case PmFailure::Other:
            message += "PM sampling failed on " + gpu;
            break;
    }
    message += " [" + std::string(step) + ": " + std::string(resultName) + "]";
    return model::Error{std::move(message)};
}

}  // namespace wl::cupti
