#include "workloads/CudaCheck.h"

namespace wl::workloads {

model::Error cudaFailure(cudaError_t code, const std::string& what) {
    // Reading the last error resets it unless the context is corrupted (a sticky error such as an
    // illegal address): those cannot be cleared in-process, and the message says which one it was.
    static_cast<void>(cudaGetLastError());
    return model::Error{what + ": " + cudaGetErrorString(code) + " [" + cudaGetErrorName(code) +
                        "]"};
}

}  // namespace wl::workloads
