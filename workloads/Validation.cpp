#include "workloads/Validation.h"

#include <cuda_runtime.h>

#include <cstdio>

#include "workloads/CudaCheck.h"
#include "workloads/Workload.h"

namespace wl::workloads {

model::Status checkStreams(std::int64_t streams) {
    const OptionSpec& option = runOption(RunOption::Streams);
    return checkInRange(option, option.widest(), streams);
}

std::string formatBytes(std::int64_t bytes) {
    char text[64];
    const double b = static_cast<double>(bytes);
    if (b >= 1e9) {
        std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
    } else if (b >= 1e6) {
        std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
    } else {
        std::snprintf(text, sizeof text, "%lld bytes", static_cast<long long>(bytes));
    }
    return text;
}

model::Status validateOnDevice(const Workload& workload, const WorkloadParams& params) {
    WL_TRY_STATUS(workload.validate(params));
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess) {
        return cudaFailure(code, "no usable CUDA device (cudaGetDeviceCount)");
    }
    if (count == 0) {
        return model::Error{"no CUDA device found"};
    }
    if (params.devices > count) {
        return model::Error{"--devices " + std::to_string(params.devices) +
                            " asks for more GPUs than the " + std::to_string(count) +
                            " this machine has"};
    }
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    WL_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::int64_t needed = workload.deviceBytes(params);
    // Leave room for the context, cuBLAS's workspace and the tracer's buffers.
    const auto usable = static_cast<std::int64_t>(static_cast<double>(freeBytes) * 0.95);
    if (needed > usable) {
        return model::Error{workload.name() + " with these parameters needs " +
                            formatBytes(needed) + " of GPU memory; " +
                            formatBytes(static_cast<std::int64_t>(freeBytes)) +
                            " are free on the device"};
    }
    return {};
}

}  // namespace wl::workloads
