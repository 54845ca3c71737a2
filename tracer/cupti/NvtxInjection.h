#pragma once

#include <cstdint>

namespace wl::cupti {

class NvtxRecorder;

// NVTX's nvtxGetExportTable, as NVTX passes it to InitializeInjectionNvtx2.
using NvtxExportTableFn = const void* (*)(std::uint32_t exportTableId);

// Warpline's NVTX tool: installs handlers for every NVTX call it records (marks, push/pop and
// start/end ranges in every domain, registered strings, categories, and the naming of threads,
// CUDA devices, contexts, streams and events) into the NVTX instance that asks (each library
// with NVTX headers of its own is one), and sends them to `recorder`. Returns 1 when installed
// (NVTX's convention), 0 when the export table is not one it knows.
//
// Reached two ways: `record` points NVTX_INJECTION64_PATH at warpline_inject, whose
// InitializeInjectionNvtx2 calls this; in-process (`warpline run`, the tests), NVTX's static
// injection hook, which wl_tracer defines, calls it with the process's NvtxRecorder::instance().
int installNvtxInjection(NvtxExportTableFn exportTable, NvtxRecorder& recorder);
int installNvtxInjection(NvtxExportTableFn exportTable);

// The same for an NVTX extension module (NVTX's InitializeInjectionNvtxExtension, given its
// nvtxExtModuleInfo_t): the payload extension's marks, push/pop and start/end ranges go to the
// recorder (NCCL pops its ranges through it). Other extensions are left to NVTX's no-ops.
// Returns 1 when served, 0 before installNvtxInjection has run (NVTX then disables the module).
int installNvtxExtension(void* moduleInfo);

// The name of a range or mark whose message lies in an extended payload (not decoded).
inline constexpr char kPayloadOnlyName[] = "NVTX payload";

// Whether an NVTX instance of this process attached to Warpline's handlers (it does at its
// first NVTX call).
bool nvtxInjectionInstalled();

}  // namespace wl::cupti
