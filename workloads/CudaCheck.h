#pragma once

#include <cuda_runtime.h>

#include <string>

#include "model/Result.h"

namespace wl::workloads {

// An Error carrying the CUDA error text ("cudaMalloc(...): out of memory
// [cudaErrorMemoryAllocation]"). Also clears the thread's last error so that a non-sticky failure
// (out of memory, bad launch configuration) does not poison the next run of the process.
model::Error cudaFailure(cudaError_t code, const std::string& what);

}  // namespace wl::workloads

// Returns an Error from the enclosing function (Status or Result<T>) when a CUDA call fails.
#define WL_CUDA_TRY(expr)                                            \
    do {                                                             \
        const cudaError_t wlCudaCode_ = (expr);                      \
        if (wlCudaCode_ != cudaSuccess) {                            \
            return ::wl::workloads::cudaFailure(wlCudaCode_, #expr); \
        }                                                            \
    } while (false)

// Same for a kernel launch: checks the launch itself (configuration, resources).
#define WL_CUDA_TRY_LAUNCH(what) WL_CUDA_TRY((static_cast<void>(what), cudaGetLastError()))

// Propagates an Error out of a Status-returning call.
#define WL_TRY_STATUS(expr)                     \
    do {                                        \
        ::wl::model::Status wlStatus_ = (expr); \
        if (!wlStatus_.ok()) {                  \
            return wlStatus_.error();           \
        }                                       \
    } while (false)
