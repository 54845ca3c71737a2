#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

struct AnalysisResult;

// The Summary view's figures for one analysis window (the TensorBoard plugin's Overview, Operator,
// Memory and Distributed views; the kernel table is Statistics::kernels). A plain value computed
// off the GUI thread from a trace and its analysis; refers to slices by SliceRef, so keep it with
// its trace.

// What an iteration's time went to, as the PyTorch profiler's TensorBoard plugin splits a step:
// every ns of the iteration goes to exactly one part, the first in this order that holds it: GPU
// work (kernel, then copy, then memset, on any GPU the iteration's host launched to), a CUDA API
// call of the host (runtime or driver), data loading (the host inside a DataLoader range),
// other host work (CPU operators, NVTX ranges, Python), and other (nothing recorded).
enum class StepPart : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    CudaApi,
    DataLoading,
    HostCompute,
    Other
};
inline constexpr std::size_t kStepPartCount = 7;
// "Kernel", "Memcpy", "Memset", "CUDA API", "Data loading", "Host compute", "Other"
const char* toString(StepPart part);

// Where the iterations came from: the window's own (NVTX iteration ranges such as ProfilerStep,
// the launches of a replayed CUDA graph), the GPU's work cut into its repeats (the steady state,
// a capture range or the whole trace of a loop that marks no steps), or, failing all
// of these, the window as one bar. The rules are in IterationBreakdown.cpp.
enum class IterationSource : std::uint8_t { NvtxRanges, GraphLaunches, Repeats, Window };
const char* toString(IterationSource source);  // "nvtx_ranges", "graph_launches", ...

struct IterationBreakdown {
    std::string name;        // "ProfilerStep#3", "launch 5 of CUDA graph 2", "repeat 3", "window"
    model::TimeRange range;  // the iteration's span, as split (partNs sums to its duration)
    std::array<model::TimeNs, kStepPartCount> partNs{};
    model::TimeNs ns(StepPart p) const { return partNs[static_cast<std::size_t>(p)]; }
};

// GPU utilisation over the window in equal bins: the share of each bin in which the GPUs were
// busy, as the mean over the devices that worked in the window (0..100; UtilizationSeries.h).
struct UtilizationSeries {
    model::TimeNs startNs = 0;
    model::TimeNs binNs = 0;
    std::vector<double> busyPct;
};

// One operator (a framework CPU operator, else an NVTX range) by name, or by name and input
// shapes. Host times are of its calls on their threads (self: less the operators nested in it);
// GPU times are of the kernels, copies and memsets launched (by launch flows) from inside its
// calls: self from the call itself and not from an operator nested in it, total from anywhere in
// it.
struct OperatorStats {
    std::string name;
    // As the trace wrote them ("Input Dims"; an imported file's white space dropped:
    // "[[32,3,224,224],[]]"); empty: all calls, or calls without shapes
    std::string inputShapes;
    std::uint64_t calls = 0;
    model::TimeNs hostTotalNs = 0;
    model::TimeNs hostSelfNs = 0;
    model::TimeNs gpuTotalNs = 0;
    model::TimeNs gpuSelfNs = 0;
    std::uint64_t gpuOps = 0;  // launched from inside its calls (total)
};
struct OperatorTable {
    // CPU operators (the PyTorch profiler's cpu_op) when the trace has any, else NVTX ranges.
    bool nvtxRanges = false;
    std::vector<OperatorStats> byName;           // by host total, longest first
    std::vector<OperatorStats> byNameAndShapes;  // empty when the trace records no shapes
};

// One series of a device's memory over the window (the derived "Device memory" row: memory in
// use, in pools, reserved by the caching allocator), its samples inside the window, the value at
// the window's start first.
struct MemorySeries {
    std::string name;  // model::kMemoryInUse, kMemoryInPools or kMemoryReserved
    std::vector<model::CounterSample> samples;
};
struct MemoryTimeline {
    std::int32_t deviceId = -1;
    model::ProcessIndex process = 0;
    std::vector<MemorySeries> series;
    double peakInUseBytes = 0.0;  // the largest "memory in use" sample in the window
    model::TimeNs peakNs = 0;     // the first time it was reached
    // What ran then: the GPU ops on the device and the innermost operator or NVTX range of each
    // host thread of the process, at peakNs.
    std::vector<model::SliceRef> runningAtPeak;
};

// One rank of a merged job, over the window, summed over its GPUs (RankBreakdown.h):
// computation (non-collective kernels, copies, memsets), communication (collective kernels),
// their overlap, and the rest. computeNs + communicationNs - overlapNs + otherNs == windowNs.
struct RankTimeBreakdown {
    std::int32_t rank = -1;
    model::TimeNs windowNs = 0;
    model::TimeNs computeNs = 0;        // the union of computation
    model::TimeNs communicationNs = 0;  // the union of communication
    model::TimeNs overlapNs = 0;        // both at once
    model::TimeNs otherNs = 0;          // neither
};

struct Summary {
    IterationSource iterationSource = IterationSource::Window;
    std::vector<IterationBreakdown> iterations;  // in time order
    UtilizationSeries utilization;
    OperatorTable operators;
    // per GPU process with memory samples, by device then process (MemoryTimeline.cpp)
    std::vector<MemoryTimeline> memory;
    // per rank of a merged job, by rank; empty for any other trace (RankBreakdown.h)
    std::vector<RankTimeBreakdown> ranks;
};

struct SummaryOptions {
    std::size_t utilizationBins = 200;
};

// The Summary of the analysed window (result.window(); a selection's rows are not narrowed to).
// `cancel` (when not null) is looked at between the parts and inside the long walks; once set the
// computation stops and returns nothing. Linear in the window's slices after a sort.
std::optional<Summary> computeSummary(const model::Trace& trace, const AnalysisResult& result,
                                      const SummaryOptions& options = {},
                                      const std::atomic<bool>* cancel = nullptr);

// Histogram of one kernel name's durations in the window: `bins` equal bins from the shortest to
// the longest launch (one bin when all are equal).
struct DurationHistogram {
    model::TimeNs minNs = 0;
    model::TimeNs binNs = 0;
    std::vector<std::uint64_t> counts;
};
DurationHistogram kernelDurationHistogram(const model::Trace& trace, model::StringId nameId,
                                          const AnalysisWindow& window, std::size_t bins = 30);

}  // namespace wl::analysis
