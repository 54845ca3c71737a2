#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "model/Trace.h"

namespace wl::analysis {

// What the Summary's parts share (Summary.h).

// The processes whose host and GPU the iteration breakdown reads: for a merged job, the first
// rank's (each rank runs the same steps, and one rank's steps are what a step-time bar can show;
// the ranks' breakdown compares them), else every process of the trace but the pseudo-processes
// an importer makes for a producer's own rows (a synthetic pid: the PyTorch profiler's spans and
// markers, which cover every step and are no work of the program).
struct SummaryScope {
    std::int32_t rank = -1;       // the rank read, -1 for a trace that is no job
    std::vector<bool> byProcess;  // by ProcessIndex
    bool contains(model::ProcessIndex p) const { return p < byProcess.size() && byProcess[p]; }
};
SummaryScope summaryScope(const model::Trace& trace);

// Whether the caller called the computation off (`cancel` set); null: never.
inline bool cancelled(const std::atomic<bool>* cancel) {
    return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}
// How many slices a long walk handles between two looks at `cancel`.
inline constexpr std::size_t kCancelStride = 1 << 14;

}  // namespace wl::analysis
