#pragma once

#include <cstdint>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// What one timeline row did in an analysis window (a time selection, an NVTX range...): the
// summary an area selection shows. A GPU stream row counts its kernels, copies and memsets; a host
// API row its CUDA calls. Busy is the union of the row's ops clipped to the window; an op that
// crosses the window's edge counts once, with all its bytes, and only its time inside counts.
struct RowStats {
    model::TrackIndex track = 0;
    std::uint64_t ops = 0;
    std::uint64_t kernels = 0;  // GPU rows
    std::uint64_t copies = 0;   // GPU rows
    model::TimeNs busyNs = 0;
    std::uint64_t copyBytes = 0;
    model::TimeNs copyNs = 0;
    double copyGbPerSecond() const;  // bytes / copy time inside the window (1e9 bytes/s)
};

// Every row with an op in the window (of window.tracks, when the selection names some rows), and
// the totals over them. GPU rows first (by track), then host API
// rows; rows with nothing in the window are left out.
struct RowSummary {
    model::TimeNs windowNs = 0;  // the window's duration (summed over its parts)
    std::vector<RowStats> rows;
    // Over the GPU rows: busy is the time at least one of them was busy (not their sum, which
    // counts overlapping streams twice).
    RowStats gpuTotal;
    // Over the host API rows: busy is the time at least one thread was in a CUDA call.
    RowStats hostTotal;
};

// O(n log n) in the window's ops and calls. `ops` must have been built over `window`.
RowSummary rowSummary(const model::Trace& trace, const GpuOps& ops, const AnalysisWindow& window);

}  // namespace wl::analysis
