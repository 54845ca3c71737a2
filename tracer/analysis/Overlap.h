#pragma once

#include <cstdint>

#include "analysis/GpuOps.h"

namespace wl::analysis {

// How much GPU work ran at the same time, summed over devices. Times in ns, shares in percent.
struct OverlapStats {
    model::TimeNs copyNs = 0;              // union of copy time
    model::TimeNs kernelNs = 0;            // union of kernel time
    model::TimeNs copyUnderComputeNs = 0;  // copy time during which a kernel ran
    model::TimeNs h2dNs = 0;
    model::TimeNs d2hNs = 0;
    model::TimeNs h2dWithD2hNs = 0;  // time both directions were copying
    std::int32_t maxConcurrentKernels = 0;
    double meanConcurrentKernels = 0.0;  // summed kernel time / time any kernel ran

    double copyComputePct() const;  // copyUnderComputeNs / copyNs
    double h2dD2hPct() const;       // h2dWithD2hNs / union of H2D and D2H time
    model::TimeNs h2dOrD2hNs = 0;
};

OverlapStats computeOverlap(const GpuOps& ops);

}  // namespace wl::analysis
