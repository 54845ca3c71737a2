#pragma once

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>

namespace wl::test {

// Whether this machine has a CUDA device the GPU tests can use.
inline bool haveGpu() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#ifdef WARPLINE_EXE
// How to start `warpline`: WARPLINE_RECORD_COMMAND when set (a bundle run elsewhere), else the
// executable this build made.
inline std::string warpline() {
    const char* command = std::getenv("WARPLINE_RECORD_COMMAND");
    return command != nullptr && command[0] != '\0' ? command : WARPLINE_EXE;
}
#endif

}  // namespace wl::test
