#pragma once

#include <cuda.h>

#include <string>

namespace wl::cupti {

// The CUDA driver calls the tracer makes itself, looked up in the libcuda the process has loaded
// (or loads) rather than linked: the unit tests run where there is no driver, and the injection
// library runs inside programs that brought their own libcuda. Nothing here uses the CUDA
// runtime: in `record`, GPU metrics start on a thread of their own inside another program, where
// a first runtime call would initialise a runtime of its own and register its teardown as the
// newest exit handler. A function that is not found stays null.
struct CudaDriver {
    CUresult (*init)(unsigned) = nullptr;
    CUresult (*deviceGetCount)(int*) = nullptr;
    CUresult (*deviceGet)(CUdevice*, int) = nullptr;
    CUresult (*deviceGetPciBusId)(char*, int, CUdevice) = nullptr;
    CUresult (*primaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*primaryCtxRelease)(CUdevice) = nullptr;
    CUresult (*ctxPushCurrent)(CUcontext) = nullptr;
    CUresult (*ctxPopCurrent)(CUcontext*) = nullptr;
    CUresult (*getErrorName)(CUresult, const char**) = nullptr;

    // Every function above was found.
    bool usable() const;
    // "CUDA_ERROR_NOT_INITIALIZED", or the number when the driver has no name for it.
    std::string errorText(CUresult result) const;
};

// Looked up once per process.
const CudaDriver& cudaDriver();

}  // namespace wl::cupti
