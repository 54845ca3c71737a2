#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/SliceSummary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

inline constexpr std::uint32_t kNoTopDownNode = std::numeric_limits<std::uint32_t>::max();

// One node of the top-down tree: a name path of nested host ranges (NVTX ranges and CPU ops of
// one thread, nested by time whatever row each is on), merged like a call tree: every instance
// of the same name under the same path is one node, over every thread.
struct TopDownNode {
    SummaryKind kind = SummaryKind::Nvtx;  // Nvtx or CpuOp
    model::StringId nameId = 0;
    std::uint32_t parent = kNoTopDownNode;
    std::uint32_t firstChild = 0;  // the children are nodes [firstChild, firstChild + childCount)
    std::uint32_t childCount = 0;
    std::uint64_t count = 0;   // instances
    model::TimeNs hostNs = 0;  // the instances' time inside the window (which holds the children's)
    // What the GPU did under the range: the GPU ops (kernels, copies, memsets) launched by CUDA
    // calls of the same thread that start inside an instance and inside the window, found through
    // their launch flows. Their durations summed (not their union): the GPU time the range asked
    // for, which adds up from children to parents and compares with the kernel statistics. Whole
    // durations, not clipped to the window: an op runs after its launch, often past a selection's
    // end. Inclusive of the children.
    model::TimeNs gpuNs = 0;
    std::uint64_t gpuOps = 0;
};

struct TopDown {
    // Siblings together, longest host time first; the roots are nodes [0, rootCount).
    std::vector<TopDownNode> nodes;
    std::uint32_t rootCount = 0;
    // Over the threads summarised: every GPU op their calls in the window launched, and the part
    // launched outside every range.
    model::TimeNs gpuNs = 0;
    std::uint64_t gpuOps = 0;
    model::TimeNs outsideGpuNs = 0;
    std::uint64_t outsideGpuOps = 0;
};

// The top-down tree of the window: the NVTX ranges and CPU ops of the host threads on the
// window's rows (window.tracks; every row when empty) that overlap the window. Ranges on a GPU's
// rows are left out: the NVTX projected on the GPU (derived from these same ranges) and a
// producer's GPU annotations repeat the host's ranges, and the GPU time is counted through the
// launches instead. A thread's CUDA calls count whether or not their row is selected (the GPU
// time under a range belongs to the range). O(r log r + c log f) for r ranges and c calls in the
// window and f flows; no allocation per range or call beyond reused buffers.
TopDown topDown(const model::Trace& trace, const AnalysisWindow& window);

}  // namespace wl::analysis
