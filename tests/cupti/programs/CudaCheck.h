// The test programs' check of a CUDA runtime call: on failure the call, CUDA's message and the
// program's name on stderr, and the program's exit code for a CUDA failure. A program that uses it
// defines kProgramName and kCudaFailureExit.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                   \
    do {                                                              \
        const cudaError_t status_ = (call);                           \
        if (status_ != cudaSuccess) {                                 \
            std::fprintf(stderr, "%s: %s: %s\n", kProgramName, #call, \
                         cudaGetErrorString(status_));                \
            std::exit(kCudaFailureExit);                              \
        }                                                             \
    } while (0)
