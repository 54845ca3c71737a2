#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/GpuOps.h"
#include "model/Trace.h"

namespace wl::analysis {

// Per kernel name, like `nsys stats` cuda_gpu_kern_sum. Times in ns; pct of all kernel time.
struct KernelStats {
    std::string name;       // the full name, as the trace has it
    std::string shortName;  // for tables and charts (analysis::shortKernelName)
    model::StringId nameId = 0;
    std::uint64_t count = 0;
    model::TimeNs totalNs = 0;
    model::TimeNs minNs = 0;
    model::TimeNs maxNs = 0;
    double meanNs = 0.0;
    double pctOfGpuTime = 0.0;
};

// Per copy kind (HtoD, DtoH, ...): bytes moved and the achieved rate. GB/s = 1e9 bytes/s.
struct CopyStats {
    model::CopyKind kind = model::CopyKind::Unknown;
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    std::uint64_t pageableCount = 0;  // copies from or to pageable host memory
    model::TimeNs totalNs = 0;
    double gbPerSecond() const;  // bytes / summed copy time
};

struct Statistics {
    std::vector<KernelStats> kernels;  // by total time, longest first
    std::vector<CopyStats> copies;     // by kind
    model::TimeNs kernelTotalNs = 0;
    std::uint64_t copyBytes = 0;
    model::TimeNs copyTotalNs = 0;
    double copyGbPerSecond() const;  // all copies together
};

Statistics computeStatistics(const model::Trace& trace, const GpuOps& ops);

// The launches of one kernel name (KernelStats::nameId) that overlap the given time ranges (all of
// them when there are none), by track then start: what a statistics row stands for on the
// timeline.
std::vector<model::SliceRef> kernelLaunches(const model::Trace& trace, model::StringId nameId,
                                            const std::vector<model::TimeRange>& parts = {});

}  // namespace wl::analysis
