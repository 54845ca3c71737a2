#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "analysis/Summary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// Device memory over the window, one timeline per GPU process with a derived "Device memory" row
// (Summary::memory): the rules are in MemoryTimeline.cpp. Nullopt once `cancel` is set.
std::optional<std::vector<MemoryTimeline>> memoryTimelines(
    const model::Trace& trace, const AnalysisWindow& window,
    const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
