#include "workloads/CublasLibrary.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace wl::workloads {
namespace {

// The major version of the headers we compiled against: CublasLibrary's function types are its ABI.
const std::string kLibraryName = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

model::Result<CublasLibrary> load() {
    void* handle = dlopen(kLibraryName.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = dlerror();
        return model::Error{
            "the power-iteration workload needs cuBLAS, which could not be loaded (" +
            std::string(why != nullptr ? why : kLibraryName) +
            "): install the CUDA toolkit's cuBLAS " + std::to_string(CUBLAS_VER_MAJOR) +
            " or add its folder to LD_LIBRARY_PATH"};
    }
    CublasLibrary library;
    std::string missing;
    auto resolve = [&](auto& function, const char* symbol) {
        using Function = std::remove_reference_t<decltype(function)>;
        function = reinterpret_cast<Function>(dlsym(handle, symbol));
        if (function == nullptr) {
            missing += missing.empty() ? symbol : std::string(", ") + symbol;
        }
    };
    // The exported names: cublas_v2.h maps cublasCreate to cublasCreate_v2 and so on.
    resolve(library.create, "cublasCreate_v2");
    resolve(library.destroy, "cublasDestroy_v2");
    resolve(library.setStream, "cublasSetStream_v2");
    resolve(library.dgemv, "cublasDgemv_v2");
    resolve(library.statusString, "cublasGetStatusString");
    if (!missing.empty()) {
        dlclose(handle);
        return model::Error{kLibraryName + " lacks " + missing +
                            ": it is not the cuBLAS this build of Warpline was made for"};
    }
    return library;
}

}  // namespace

model::Result<const CublasLibrary*> cublasLibrary() {
    static const model::Result<CublasLibrary> loaded = load();
    if (!loaded.ok()) {
        return loaded.error();
    }
    return &loaded.value();
}

}  // namespace wl::workloads
