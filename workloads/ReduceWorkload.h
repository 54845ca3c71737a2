#pragma once

#include "workloads/Workload.h"

namespace wl::workloads {

// The GPU sums the 1280 block partials in float32: 1280 * 2^-24 ~ 7.6e-5 bounds the relative
// error of the total, hence of the normalized sum.
inline constexpr double kReduceTolerance = 1e-4;

// Reduce/normalize (a <- a / sum(a), float32), the CUDA C++ port of the Nsight/Numba seed:
// baseline = v1 (pageable) / v2 (pinned): one stream, synchronous copies; async = v3: the array in
// chunks on N non-blocking streams, one synchronisation, host combine, per-stream divide and copy
// back; sharedStream reproduces `[cuda.stream()] * n`.
class ReduceWorkload final : public Workload {
public:
    using Workload::run;  // the one-argument form
    std::string name() const override { return kReduce; }
    std::string description() const override;
    WorkloadParams withDefaults(WorkloadParams params) const override;
    std::int64_t deviceBytes(const WorkloadParams& params) const override;
    model::Status validate(const WorkloadParams& params) const override;
    model::Result<WorkloadResult> run(const WorkloadParams& params, const ProgressFn& progress,
                                      const std::atomic<bool>* cancel) override;
};

}  // namespace wl::workloads
