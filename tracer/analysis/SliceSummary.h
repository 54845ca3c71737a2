#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// What a line of the slice summary counts: the kind of event, as an area selection groups them
// (Perfetto's "Slices" tab, with the kinds a CUDA trace has).
enum class SummaryKind : std::uint8_t {
    Kernel,
    Copy,  // any direction: producers name copies by direction ("Memcpy HtoD (Pinned -> Device)")
    Memset,
    CudaApi,  // runtime and driver calls
    Sync,     // the device's record of a host waiting on it
    Nvtx,     // NVTX ranges and marks of host threads (a PyTorch profiler's record_function)
    GpuNvtx,  // ranges a producer recorded on a GPU's row (a PyTorch profiler's GPU annotations)
    CpuOp,    // any other slice of a host thread (a PyTorch profiler's CPU ops, Python functions)
    Other,    // instants, profiler overhead, memory operations
};
inline constexpr int kSummaryKinds = static_cast<int>(SummaryKind::Other) + 1;
// "kernel", "copy", "memset", "CUDA API", "sync", "NVTX", "NVTX (GPU)", "CPU op", "other"
const char* toString(SummaryKind kind);

// The kind a slice of `track` is summarised as; nullopt for the rows finalize() derives from
// other rows (the NVTX ranges projected on the GPU, graph launches), which repeat events counted
// where they were recorded.
std::optional<SummaryKind> summaryKind(const model::Trace& trace, const model::Track& track,
                                       const model::Slice& slice);

// One (kind, name) over the slices of an area selection. Every time is the slices' time inside
// the window, clipped to its parts (as the Rows page and the kernel statistics count it): a
// selection's figures add up to what happened in it, and a slice crossing its edge counts once
// with its time inside. (Perfetto counts such a slice whole; over a selection that holds whole
// slices, such as the whole trace, the two agree.)
struct SliceStats {
    SummaryKind kind = SummaryKind::Other;
    model::StringId nameId = 0;
    std::uint64_t count = 0;
    model::TimeNs totalNs = 0;
    // Total minus the time of direct children on the same row (rows that nest: CUDA API, NVTX,
    // CPU ops); equal to total where nothing nests (GPU ops).
    model::TimeNs selfNs = 0;
    model::TimeNs minNs = 0;
    model::TimeNs maxNs = 0;
    double meanNs() const;
};

struct SliceSummary {
    std::vector<SliceStats> rows;  // longest total first (then kind, then name)
    std::uint64_t slices = 0;      // all rows' counts together
};

// Every slice that overlaps the window on its rows (window.tracks; every row when empty), by
// (kind, name). One pass over each row's slices in the window (binary searches per lane), no
// allocation per slice: O(k log p) for k slices in the window's span and p parts.
SliceSummary sliceSummary(const model::Trace& trace, const AnalysisWindow& window);

// The slices one summary line (or a top-down node: TopDown.h) stands for: those of that kind and
// name overlapping the window on its rows, by track then lane then start. What selecting the line
// selects on the timeline.
std::vector<model::SliceRef> summarySlices(const model::Trace& trace, const AnalysisWindow& window,
                                           SummaryKind kind, model::StringId nameId);

}  // namespace wl::analysis
