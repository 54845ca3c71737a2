#include "analysis/Overlap.h"

#include <algorithm>
#include <utility>

namespace wl::analysis {

namespace {
double percent(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
}  // namespace

double OverlapStats::copyComputePct() const {
    return percent(copyUnderComputeNs, copyNs);
}
double OverlapStats::h2dD2hPct() const {
    return percent(h2dWithD2hNs, h2dOrD2hNs);
}

OverlapStats computeOverlap(const GpuOps& ops) {
    OverlapStats out;
    model::TimeNs kernelSumNs = 0;
    for (std::int32_t device : ops.deviceIds()) {
        const IntervalSet copies = ops.busyOf(device, GpuOpKind::Memcpy);
        const IntervalSet kernels = ops.busyOf(device, GpuOpKind::Kernel);
        const IntervalSet h2d = ops.copiesOf(device, model::CopyKind::HostToDevice);
        const IntervalSet d2h = ops.copiesOf(device, model::CopyKind::DeviceToHost);
        out.copyNs += copies.totalNs();
        out.kernelNs += kernels.totalNs();
        out.copyUnderComputeNs += copies.intersectionNs(kernels);
        out.h2dNs += h2d.totalNs();
        out.d2hNs += d2h.totalNs();
        out.h2dWithD2hNs += h2d.intersectionNs(d2h);
        out.h2dOrD2hNs += h2d.unite(d2h).totalNs();

        // Kernel concurrency per device: +1 at each start, -1 at each end; ends first at a tie
        // so back-to-back kernels do not count as concurrent.
        std::vector<std::pair<model::TimeNs, int>> events;
        for (const GpuOp& op : ops.all()) {
            if (op.deviceId == device && op.kind == GpuOpKind::Kernel && op.endNs > op.startNs) {
                events.emplace_back(op.startNs, +1);
                events.emplace_back(op.endNs, -1);
                kernelSumNs += op.endNs - op.startNs;
            }
        }
        std::sort(events.begin(), events.end());
        int running = 0;
        for (const auto& [t, delta] : events) {
            running += delta;
            out.maxConcurrentKernels = std::max(out.maxConcurrentKernels, running);
        }
    }
    out.meanConcurrentKernels =
        out.kernelNs > 0 ? static_cast<double>(kernelSumNs) / static_cast<double>(out.kernelNs)
                         : 0.0;
    return out;
}

}  // namespace wl::analysis
