#pragma once

#include <string_view>

#include "model/Trace.h"

namespace wl::analysis {

// Classifies CUDA runtime/driver API calls by name, as CUPTI ("cudaMemcpy_v3020") and Kineto
// ("cudaMemcpy") spell them. Pure functions.

// The name without a CUPTI version suffix ("_v3020", "_v2", "_ptsz", "_ptds").
std::string_view baseApiName(std::string_view name);
// A slice's name as the user wrote it: API calls without CUPTI's suffix ("cudaMemcpyAsync"),
// everything else as recorded. What the timeline, tooltips and details show.
std::string_view shownName(const model::Trace& trace, const model::Slice& slice);
// The producer's versioned name of an API call (cudaLaunchKernel_v7000: ApiDetail::versionedNameId
// where the name was cut when recorded or read, else the name as recorded). What Details shows
// beside the API name.
std::string_view versionedName(const model::Trace& trace, const model::Slice& slice);
// Calls whose whole purpose is to wait for the GPU (device/stream/event/context synchronize).
bool isExplicitSyncApi(std::string_view name);
// Copies that return only when the copy is done (cudaMemcpy, cuMemcpyDtoH, ...; not *Async).
bool isBlockingCopyApi(std::string_view name);
// Frees that wait for the whole device first (cudaFree, cudaFreeHost, cuMemFree, ...; not the
// stream-ordered cudaFreeAsync).
bool isDeviceSyncFreeApi(std::string_view name);
// Either of the above: the host waits for the GPU inside this call.
inline bool isSynchronizingApi(std::string_view name) {
    return isExplicitSyncApi(name) || isBlockingCopyApi(name) || isDeviceSyncFreeApi(name);
}
// Calls that only read state and do no GPU work (cudaGetDevice, cudaGetLastError,
// cudaStreamIsCapturing, cuPointerGetAttribute, cuDevicePrimaryCtxGetState, ...). Frameworks
// make them in bulk (PyTorch: about 85% of its CUDA calls), and each recorded call costs CUPTI
// time on the program's thread, so `record` leaves them out unless asked. Calls that can load a
// module lazily (cudaFuncGetAttributes, the occupancy calculators, cuKernelGetFunction) are not
// among them: that loading is work a user wants to see.
bool isStateQueryApi(std::string_view name);
// Calls that launch kernels or graphs (cudaLaunchKernel, cuLaunchKernelEx, cudaGraphLaunch, ...).
bool isLaunchApi(std::string_view name);
// The launches of CUDA graphs among them (cudaGraphLaunch, cuGraphLaunch).
bool isGraphLaunchApi(std::string_view name);
// Allocations and frees that are not stream-ordered (cudaMalloc, cudaMallocHost,
// cudaMallocManaged, cudaFree, cuMemAlloc, ...; not cudaMallocAsync/cudaFreeAsync or pools).
bool isSyncAllocationApi(std::string_view name);

}  // namespace wl::analysis
