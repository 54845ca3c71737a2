#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace wl::workloads {

// Device-side pieces of the power iteration. All vectors are float64 of length n; the matrix is
// n x n, row-major (which is column-major A^T: cuBLAS reads it with CUBLAS_OP_T).

// Builds A = P D P^-1 with P = I + u v^T (P^-1 = I - u v^T / (1 + v^T u), Sherman-Morrison), so
// every element has a closed form and the build is one pass over A instead of an LU inverse.
// D is the notebook's spectrum: 1 at `oneIndex`, (1 - dominance) * U[0,1) elsewhere; u, v have
// entries U[-1,1)/sqrt(n), which keeps P well conditioned (|u v^T| ~ 1/3). `scratch` holds 3n + 2
// doubles. Eigenvalue 1 is exact up to float64 rounding of the build.
cudaError_t buildPowerMatrix(double* a, std::int64_t n, double dominance, std::uint64_t seed,
                             std::int64_t oneIndex, double* scratch, cudaStream_t stream);
// x[i] = U[0,1) from a counter-based hash of (seed, i): the notebook's random start vector.
cudaError_t fillUniform(double* x, std::int64_t n, std::uint64_t seed, cudaStream_t stream);

// y = A x with our own kernel (one warp per row, 16-byte loads), to compare with cuBLAS.
cudaError_t launchMatvecRows(const double* a, const double* x, double* y, std::int64_t n,
                             cudaStream_t stream);
// x = y / |y| (a plain step).
cudaError_t launchNormalize(const double* y, double* x, std::int64_t n, cudaStream_t stream);
// The check step after y = A x: lambda = (x.y)/(x.x), residual = |y - lambda x|, x = y/|y|.
// Writes x also to `snapshot` (what the host copies while the next batch overwrites x) and
// {residual, lambda} to scalars[0..1].
cudaError_t launchCheckStep(const double* y, double* x, double* snapshot, double* scalars,
                            std::int64_t n, cudaStream_t stream);

}  // namespace wl::workloads
