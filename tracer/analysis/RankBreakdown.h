#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "analysis/Summary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// Each rank's computation and communication over the window (Summary::ranks), for a merged job
// (analysis::jobRanks); empty for any other trace. Per GPU of the rank that holds work of its own
// (JobRank::deviceIds; one idle through the window counts it all as other time), over the
// window's parts (their duration: windowNs): computation is the
// union of its kernels that are no collectives, copies and memsets, communication the union of
// its collective kernels (CollectiveKernels: NCCL), overlap the time in both, other the time in
// neither; each figure is then summed over the rank's GPUs, so
// computeNs + communicationNs - overlapNs + otherNs == windowNs holds exactly, per GPU and in sum.
// A selection's rows are not narrowed to. Nullopt once `cancel` is set.
std::optional<std::vector<RankTimeBreakdown>> rankBreakdown(
    const model::Trace& trace, const AnalysisWindow& window,
    const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
