#pragma once

#include <atomic>
#include <cstddef>
#include <optional>

#include "analysis/Summary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// GPU utilisation over the window in at most `bins` equal bins (Summary::utilization). The bins
// cover the window's span, from its first part's start to its last part's end, binNs each (the
// span over `bins`, rounded up, so the last bin may be shorter); a bin's value is, over the
// devices that ran GPU ops in the window, the mean of each device's busy time (the union of its
// kernels, copies and memsets, clipped to the window's parts) over the bin's time inside the
// parts, in percent: 0 for a bin between two parts. A selection's rows are not narrowed to.
// Nullopt once `cancel` is set.
std::optional<UtilizationSeries> utilizationSeries(const model::Trace& trace,
                                                   const AnalysisWindow& window, std::size_t bins,
                                                   const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
