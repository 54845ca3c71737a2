#pragma once

#include "workloads/Workload.h"

namespace wl::workloads {

inline constexpr int kPowerDefaultCheckEvery = 15;
inline constexpr double kPowerEigenvalueTolerance = 1e-4;

// Which matrix-vector product the loop uses.
enum class Matvec { Cublas, OwnKernel };

// Power iteration (float64), the CUDA C++ port of the CuPy notebook: A with a known dominant
// eigenvalue of 1 built on the GPU, then steps of y = A x, x = y/|y|, with every checkEvery-th step
// also computing lambda and the residual, which the host reads, prints and checkpoints.
// Baseline: blocking copies and host I/O at each check (the GPU idles meanwhile). Async: copies
// into host buffers with cudaMemcpyAsync and an event, the next batch enqueued before the host
// waits; with 2+ streams the copies run on copy streams ordered by events.
class PowerIteration final : public Workload {
public:
    using Workload::run;  // the one-argument form
    std::string name() const override { return kPower; }
    std::string description() const override;
    WorkloadParams withDefaults(WorkloadParams params) const override;
    std::int64_t deviceBytes(const WorkloadParams& params) const override;
    model::Status validate(const WorkloadParams& params) const override;
    model::Result<WorkloadResult> run(const WorkloadParams& params, const ProgressFn& progress,
                                      const std::atomic<bool>* cancel) override;

    void setMatvec(Matvec matvec) { m_matvec = matvec; }
    Matvec matvec() const { return m_matvec; }

private:
    Matvec m_matvec = Matvec::Cublas;
};

}  // namespace wl::workloads
