#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/Trace.h"

namespace wl::analysis {

// Readable kernel names. CUPTI, Kineto and nsys give a kernel's full demangled signature:
// `std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, double, ...>(...)` or
// Numba's `kernels::divide_by[abi:v3][abi:cw51...](Array<float, 1, C, mutable, aligned>)`; a
// timeline label or a table cell needs `gemvx::kernel` and `divide_by`. Pure functions, no state;
// safe from any thread. Callers that name many slices compute each distinct name once.

// The demangled form of an Itanium-mangled name (`_Z...`); any other name, or one the demangler
// rejects, unchanged.
std::string demangleKernelName(std::string_view name);

// The short display name of a kernel, never empty:
//  - mangled names are demangled first; one the demangler rejects (truncated by its producer) is
//    named by the identifiers its mangling starts with, else kept raw;
//  - no return type, parameter list, template arguments or Numba `[abi:...]` tags;
//  - namespaces and classes are dropped: `at::native::reduce_kernel<...>` -> `reduce_kernel`;
//  - except where the base name alone says nothing (`kernel`, `Kernel`, `Kernel2`, `operator()`,
//    a lambda): then one qualifying scope is kept, skipping `(anonymous namespace)`, `detail`,
//    `internal` and Numba's `cudapy`/`__main__` (`internal::gemvx::kernel<int, ...>` ->
//    `gemvx::kernel`), and when its first template argument names a type rather than a scalar
//    or a number, that type's short name is kept in angle brackets, since it is what tells such
//    wrappers apart (`cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>`);
//  - a lambda's call operator reads as `enclosing_function::lambda#1`;
//  - plain C names (`partial_reduce`, `cupy_multiply__float_float_float`, `volta_sgemm_128x64_nn`)
//    stay as they are.
std::string shortKernelName(std::string_view demangledOrMangled);

// The short names of distinct kernels (full names, each once), told apart, in the order given.
// Where two full names have one short name (two instantiations of PyTorch's
// `vectorized_elementwise_kernel`), each gets its template arguments up to the last one in which
// they differ, without namespaces, parameter lists or call operators, a lambda named by the
// function it is in (`vectorized_elementwise_kernel<4, CUDAFunctor_add<float>, Array<char*, 3>>`,
// `unrolled_elementwise_kernel<addcmul_cuda_kernel::lambda#1, ...>`); names still alike
// (overloads that differ in their parameters only) get " #2", " #3", ... after the first.
// Names that differ already stay short. Every table and finding that shows kernels by short name
// takes its names from here, so one kernel reads the same everywhere.
std::vector<std::string> distinctShortKernelNames(const std::vector<std::string_view>& fullNames);

// The library a kernel comes from ("cuBLAS", "cuDNN", "CUTLASS", "CUB", "Thrust", "PyTorch",
// "CuPy", "NCCL", "FlashAttention", ...), or empty for the user's own code. Judged by the name's
// namespaces, the libraries' naming schemes (ampere_sgemm_*, cupy_*, ncclKernel_*) and their
// internal types (cublasGemvParams, cudnnKernelDataType_t), not by common types in the
// parameters: a user's PyTorch extension kernel taking at:: tensors stays user code, and so does a
// user's gemm_kernel. Triton kernels are user code (the user wrote them). Mangled names are
// demangled first.
std::string_view kernelLibrary(std::string_view name);
inline bool isLibraryKernel(std::string_view name) {
    return !kernelLibrary(name).empty();
}

// Whether a kernel's name says it runs on tensor cores (cuBLAS/CUTLASS "tensorop", "wmma", "hmma",
// "xmma", "gmma", "mma" tiles, cuDNN's tensor-core convolutions), as the PyTorch profiler's
// TensorBoard plugin judged it from a list of name patterns: a guess from the name only.
bool usesTensorCores(std::string_view kernelName);

// Which kernel names of a trace are collectives (NCCL's all-reduce, all-gather, ...): the kernels
// a rank that arrives early waits inside until the others join. Each name is classified once
// (kernelLibrary demangles); one per thread, as it caches.
class CollectiveKernels {
public:
    explicit CollectiveKernels(const model::Trace& trace) : m_trace(trace) {}
    bool contains(model::StringId nameId);

private:
    const model::Trace& m_trace;
    std::unordered_map<model::StringId, bool> m_known;
};

}  // namespace wl::analysis
