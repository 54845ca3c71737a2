#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "analysis/Summary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// The iterations of a window and what each one's time went to (Summary::iterations). The rules
// are in IterationBreakdown.cpp. Nullopt once `cancel` is set.
struct Iterations {
    IterationSource source = IterationSource::Window;
    std::vector<IterationBreakdown> iterations;  // in time order
};
std::optional<Iterations> computeIterations(const model::Trace& trace, const AnalysisWindow& window,
                                            const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
