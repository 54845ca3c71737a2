#include "analysis/ApiNames.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>

namespace wl::analysis {

std::string_view baseApiName(std::string_view name) {
    for (;;) {
        const auto pos = name.rfind('_');
        if (pos == std::string_view::npos || pos == 0) {
            return name;
        }
        const std::string_view suffix = name.substr(pos + 1);
        bool version = suffix.size() >= 2 && suffix[0] == 'v';
        for (std::size_t i = 1; version && i < suffix.size(); ++i) {
            version = std::isdigit(static_cast<unsigned char>(suffix[i])) != 0;
        }
        if (version || suffix == "ptsz" || suffix == "ptds") {
            name = name.substr(0, pos);
        } else {
            return name;
        }
    }
}

namespace {

// Whether the call's name, without CUPTI's suffixes, is one of `names`.
bool baseNameIn(std::string_view name, std::span<const std::string_view> names) {
    const std::string_view base = baseApiName(name);
    return std::find(names.begin(), names.end(), base) != names.end();
}

}  // namespace

std::string_view versionedName(const model::Trace& trace, const model::Slice& slice) {
    if (const model::ApiDetail* a = trace.api(slice); a && a->versionedNameId != 0)
        return trace.str(a->versionedNameId);
    return trace.str(slice.nameId);
}

std::string_view shownName(const model::Trace& trace, const model::Slice& slice) {
    const std::string_view name = trace.str(slice.nameId);
    const bool api =
        slice.kind == model::SliceKind::RuntimeApi || slice.kind == model::SliceKind::DriverApi;
    return api ? baseApiName(name) : name;
}

bool isExplicitSyncApi(std::string_view name) {
    static constexpr std::array<std::string_view, 7> kSync = {
        "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
        "cudaThreadSynchronize", "cuCtxSynchronize",      "cuStreamSynchronize",
        "cuEventSynchronize"};
    return baseNameIn(name, kSync);
}

bool isDeviceSyncFreeApi(std::string_view name) {
    const std::string_view base = baseApiName(name);
    return base == "cudaFree" || base == "cudaFreeHost" || base == "cudaFreeArray" ||
           base == "cuMemFree" || base == "cuMemFreeHost";
}

bool isStateQueryApi(std::string_view name) {
    static constexpr std::string_view kQueries[] = {
        // Runtime.
        "cudaChooseDevice", "cudaDeviceCanAccessPeer", "cudaDeviceGetAttribute",
        "cudaDeviceGetLimit", "cudaDeviceGetPCIBusId", "cudaDeviceGetStreamPriorityRange",
        "cudaDriverGetVersion", "cudaEventElapsedTime", "cudaGetDevice", "cudaGetDeviceCount",
        "cudaGetDeviceFlags", "cudaGetDeviceProperties", "cudaGetDriverEntryPoint",
        "cudaGetDriverEntryPointByVersion", "cudaGetErrorName", "cudaGetErrorString",
        "cudaGetLastError", "cudaPeekAtLastError", "cudaPointerGetAttributes",
        "cudaRuntimeGetVersion", "cudaStreamGetCaptureInfo", "cudaStreamGetDevice",
        "cudaStreamGetFlags", "cudaStreamGetId", "cudaStreamGetPriority", "cudaStreamIsCapturing",
        "cudaThreadExchangeStreamCaptureMode",
        // Driver.
        "cuCtxGetApiVersion", "cuCtxGetCacheConfig", "cuCtxGetCurrent", "cuCtxGetDevice",
        "cuCtxGetFlags", "cuCtxGetId", "cuCtxGetLimit", "cuCtxGetStreamPriorityRange",
        "cuDeviceCanAccessPeer", "cuDeviceComputeCapability", "cuDeviceGet", "cuDeviceGetAttribute",
        "cuDeviceGetCount", "cuDeviceGetName", "cuDeviceGetP2PAttribute", "cuDeviceGetPCIBusId",
        "cuDeviceGetUuid", "cuDevicePrimaryCtxGetState", "cuDeviceTotalMem", "cuDriverGetVersion",
        "cuFuncGetAttribute", "cuFuncGetName", "cuGetProcAddress", "cuKernelGetName",
        "cuMemGetAddressRange", "cuPointerGetAttribute", "cuPointerGetAttributes",
        "cuStreamGetCaptureInfo", "cuStreamGetCtx", "cuStreamGetFlags", "cuStreamGetId",
        "cuStreamGetPriority", "cuStreamIsCapturing", "cuThreadExchangeStreamCaptureMode"};
    return baseNameIn(name, kQueries);
}

bool isLaunchApi(std::string_view name) {
    static constexpr std::string_view kLaunches[] = {"cudaLaunchKernel",
                                                     "cudaLaunchKernelExC",
                                                     "cudaLaunchCooperativeKernel",
                                                     "cudaLaunchCooperativeKernelMultiDevice",
                                                     "cudaGraphLaunch",
                                                     "cuLaunchKernel",
                                                     "cuLaunchKernelEx",
                                                     "cuLaunchCooperativeKernel",
                                                     "cuLaunchCooperativeKernelMultiDevice",
                                                     "cuGraphLaunch",
                                                     "cuLaunch",
                                                     "cuLaunchGrid",
                                                     "cuLaunchGridAsync"};
    return baseNameIn(name, kLaunches);
}

bool isGraphLaunchApi(std::string_view name) {
    static constexpr std::string_view kGraphLaunches[] = {"cudaGraphLaunch", "cuGraphLaunch"};
    return baseNameIn(name, kGraphLaunches);
}

bool isSyncAllocationApi(std::string_view name) {
    const std::string_view base = baseApiName(name);
    if (base.find("Async") != std::string_view::npos || base.find("Pool") != std::string_view::npos)
        return false;
    return base.starts_with("cudaMalloc") || base.starts_with("cudaFree") ||
           base.starts_with("cuMemAlloc") || base.starts_with("cuMemFree");
}

bool isBlockingCopyApi(std::string_view name) {
    const std::string_view base = baseApiName(name);
    const bool copy = base.starts_with("cudaMemcpy") || base.starts_with("cuMemcpy");
    return copy && base.find("Async") == std::string_view::npos;
}

}  // namespace wl::analysis
