#include "cupti/CudaDriver.h"

#include <dlfcn.h>

#include <type_traits>

namespace wl::cupti {

bool CudaDriver::usable() const {
    return init && deviceGetCount && deviceGet && deviceGetPciBusId && primaryCtxRetain &&
           primaryCtxRelease && ctxPushCurrent && ctxPopCurrent && getErrorName;
}

std::string CudaDriver::errorText(CUresult result) const {
    const char* name = nullptr;
    return getErrorName != nullptr && getErrorName(result, &name) == CUDA_SUCCESS && name != nullptr
               ? std::string(name)
               : "CUDA driver error " + std::to_string(static_cast<int>(result));
}

const CudaDriver& cudaDriver() {
    static const CudaDriver driver = [] {
        CudaDriver out;
        void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (cuda == nullptr) {
            cuda = dlopen("libcuda.so.1", RTLD_NOW);
        }
        if (cuda == nullptr) {
            return out;
        }
        // The versioned names are the ones cuda.h maps the calls to.
        const auto load = [cuda](auto& function, const char* name) {
            function =
                reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(cuda, name));
        };
        load(out.init, "cuInit");
        load(out.deviceGetCount, "cuDeviceGetCount");
        load(out.deviceGet, "cuDeviceGet");
        load(out.deviceGetPciBusId, "cuDeviceGetPCIBusId");
        load(out.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
        load(out.primaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
        load(out.ctxPushCurrent, "cuCtxPushCurrent_v2");
        load(out.ctxPopCurrent, "cuCtxPopCurrent_v2");
        load(out.getErrorName, "cuGetErrorName");
        return out;
    }();
    return driver;
}

}  // namespace wl::cupti
