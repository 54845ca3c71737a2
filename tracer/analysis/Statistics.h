#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/DeviceConcurrency.h"
#include "analysis/DeviceLimits.h"
#include "analysis/GpuOps.h"
#include "analysis/LaunchQueue.h"
#include "analysis/RowStatistics.h"
#include "analysis/SliceSummary.h"
#include "analysis/TopDown.h"
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
    double medianNs = 0.0;  // of the launches' durations (the mean of the middle two when even)
    double p95Ns = 0.0;     // 95th percentile, linearly interpolated (numpy's default)
    double stdDevNs = 0.0;  // population standard deviation (numpy's default, ddof 0)
    double pctOfGpuTime = 0.0;
    // The launch configuration used most often (the first seen on a tie), its registers, and its
    // theoretical occupancy on its device (0..100; negative when the device's limits are unknown).
    // A configuration is grid, block, registers, shared memory and device; kernels without
    // details (some producers write no grid or block) keep these defaults.
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    std::int32_t registersPerThread = 0;
    double theoreticalOccupancyPct = -1.0;
    // Whether the name says it runs on tensor cores (usesTensorCores), as the PyTorch profiler's
    // TensorBoard plugin judged it: a guess from the name, not a measurement.
    bool tensorCores = false;
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

// One node of a CUDA graph over its runs in the window (a node runs once per launch).
struct GraphNodeStats {
    std::uint64_t nodeId = 0;
    std::string name;  // the kernel's short name, or the copy's or memset's name
    std::uint64_t runs = 0;
    model::TimeNs totalNs = 0;
    double meanNs() const;
};

// Per CUDA graph: its launches (cudaGraphLaunch calls) whose nodes ran in the window, the nodes
// run and their summed GPU time, and the span of each launch (first node start to last node end).
struct GraphStats {
    std::uint32_t graphId = 0;
    std::uint64_t launches = 0;
    std::uint64_t nodes = 0;  // over all launches
    model::TimeNs gpuNs = 0;  // summed node time
    model::TimeNs launchSpanTotalNs = 0;
    std::vector<GraphNodeStats> nodeStats;  // per node id, longest total first
    double nodesPerLaunch() const;
    double meanLaunchSpanNs() const;
};

// Device memory of one device over the window, from its memory operations (cudaMalloc, cudaFree,
// cudaMallocAsync, ...) and the derived "Device memory" row. A PyTorch profiler trace has the row
// (its allocator's totals) but no operations: the counts stay 0 and operationsRecorded says so.
struct MemoryStats {
    std::int32_t deviceId = -1;
    bool operationsRecorded = false;
    std::uint64_t allocations = 0;
    std::uint64_t releases = 0;
    std::uint64_t allocatedBytes = 0;
    std::uint64_t releasedBytes = 0;
    std::uint64_t poolOperations = 0;  // of both, those made through a pool (stream-ordered)
    double inUseAtStartBytes = 0.0;
    double inUseAtEndBytes = 0.0;
    double peakInUseBytes = 0.0;
};

struct Statistics {
    std::vector<KernelStats> kernels;            // by total time, longest first
    std::vector<CopyStats> copies;               // by kind
    std::vector<GraphStats> graphs;              // by graph id
    std::vector<MemoryStats> memory;             // by device, for devices with memory operations
    std::vector<LaunchQueueStats> launchQueues;  // by GPU process that has a launch queue
    DeviceConcurrency devicesAtOnce;             // how many GPUs worked at once
    RowSummary rows;                             // per timeline row, and in total
    // Every kind of slice by name, and the top-down tree of the host's ranges, in the window: the
    // rest of the area-selection summary. Left empty by computeStatistics (the command line shows
    // neither, and each is another pass over the window's slices): the window's analysis fills
    // them for its Statistics dock (app/gui analyzeDocument).
    SliceSummary slices;
    TopDown topDown;
    model::TimeNs kernelTotalNs = 0;
    std::uint64_t copyBytes = 0;
    model::TimeNs copyTotalNs = 0;
    double copyGbPerSecond() const;  // all copies together
};

// `limits`: each device's limits, for the kernels' theoretical occupancy (AnalysisResult::limits);
// null: deviceLimits(trace, device), once per device. A launch cut by the gaps between a window's
// parts counts once, with the time of its pieces: its duration in the median, p95 and std-dev.
Statistics computeStatistics(const model::Trace& trace, const GpuOps& ops,
                             const AnalysisWindow& window,
                             const std::map<std::int32_t, DeviceLimits>* limits = nullptr);

// The launches of one kernel name (KernelStats::nameId) that overlap the given time ranges (all of
// them when there are none), by track then start: what a statistics row stands for on the
// timeline.
std::vector<model::SliceRef> kernelLaunches(const model::Trace& trace, model::StringId nameId,
                                            const std::vector<model::TimeRange>& parts = {});

}  // namespace wl::analysis
