#pragma once

#include <cstdint>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Window.h"

namespace wl::analysis {

// How many GPUs worked at once over the window: the time with exactly k of them busy (any kernel,
// copy or memset), k = 0..devices. The question a multi-GPU job asks first: did the devices work
// side by side, or one after another?
struct DeviceConcurrency {
    std::int32_t devices = 0;               // GPUs with work in the window
    std::vector<model::TimeNs> nsWithBusy;  // [k]: time with exactly k GPUs busy; size devices+1
    model::TimeNs windowNs = 0;
    double pctWithBusy(std::size_t k) const;  // of the window
    double meanBusyDevices() const;           // time-weighted
};

DeviceConcurrency deviceConcurrency(const GpuOps& ops, const AnalysisWindow& window);

}  // namespace wl::analysis
