#include "analysis/DeviceConcurrency.h"

#include <algorithm>
#include <utility>

namespace wl::analysis {

double DeviceConcurrency::pctWithBusy(std::size_t k) const {
    return windowNs > 0 && k < nsWithBusy.size()
               ? 100.0 * static_cast<double>(nsWithBusy[k]) / static_cast<double>(windowNs)
               : 0.0;
}

double DeviceConcurrency::meanBusyDevices() const {
    if (windowNs <= 0)
        return 0.0;
    double weighted = 0.0;
    for (std::size_t k = 1; k < nsWithBusy.size(); ++k)
        weighted += static_cast<double>(k) * static_cast<double>(nsWithBusy[k]);
    return weighted / static_cast<double>(windowNs);
}

DeviceConcurrency deviceConcurrency(const GpuOps& ops, const AnalysisWindow& window) {
    DeviceConcurrency out;
    out.windowNs = window.durationNs();
    // Each device's busy time is a union of intervals inside the window (the ops are clipped to
    // it): +1 where one begins, -1 where it ends; at one instant, ends before starts.
    std::vector<std::pair<model::TimeNs, int>> steps;
    for (std::int32_t device : ops.deviceIds()) {
        const IntervalSet busy = ops.busy(device);
        if (busy.empty())
            continue;
        ++out.devices;
        for (const Interval& i : busy.intervals()) {
            steps.emplace_back(i.startNs, +1);
            steps.emplace_back(i.endNs, -1);
        }
    }
    out.nsWithBusy.assign(static_cast<std::size_t>(out.devices) + 1, 0);
    std::sort(steps.begin(), steps.end());
    model::TimeNs busyAny = 0;
    int level = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        level += steps[i].second;
        if (i + 1 < steps.size() && level > 0) {
            const model::TimeNs span = steps[i + 1].first - steps[i].first;
            out.nsWithBusy[static_cast<std::size_t>(level)] += span;
            busyAny += span;
        }
    }
    out.nsWithBusy[0] = std::max<model::TimeNs>(out.windowNs - busyAny, 0);
    return out;
}

}  // namespace wl::analysis
