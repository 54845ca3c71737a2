#pragma once

#include <cublas_v2.h>

#include "model/Result.h"

namespace wl::workloads {

// The few cuBLAS functions the power iteration calls, from libcublas opened with dlopen when a run
// first needs it. Linking cuBLAS instead would map it and cuBLASLt (about 200 MB of memory once
// relocated) into every start of warpline, also where it only reads traces. Loaded once per
// process, never unloaded; safe to ask from any thread. cublas_v2.h names the types.
struct CublasLibrary {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) setStream = nullptr;
    decltype(&cublasDgemv_v2) dgemv = nullptr;
    decltype(&cublasGetStatusString) statusString = nullptr;
};

// The loaded library, or an Error naming it and saying why it could not be loaded (asked again,
// the same answer: the process keeps its first outcome).
model::Result<const CublasLibrary*> cublasLibrary();

}  // namespace wl::workloads
