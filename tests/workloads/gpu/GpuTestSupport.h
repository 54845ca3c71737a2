#pragma once

#include <cuda_runtime.h>

#include <string>

namespace wl::workloads::test {

// True when a CUDA device can run kernels; otherwise why not (for GTEST_SKIP).
inline bool hasDevice(std::string* why = nullptr) {
    int count = 0;
    const cudaError_t code = cudaGetDeviceCount(&count);
    if (code != cudaSuccess || count == 0) {
        static_cast<void>(cudaGetLastError());
        if (why != nullptr) {
            *why = code != cudaSuccess ? cudaGetErrorString(code) : "no CUDA device";
        }
        return false;
    }
    return true;
}

}  // namespace wl::workloads::test

#define WL_REQUIRE_GPU()                                  \
    do {                                                  \
        std::string wlWhy_;                               \
        if (!::wl::workloads::test::hasDevice(&wlWhy_)) { \
            GTEST_SKIP() << "no CUDA device: " << wlWhy_; \
        }                                                 \
    } while (false)
