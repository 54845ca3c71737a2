#include "analysis/GpuBusy.h"

namespace wl::analysis {

namespace {

double share(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

double GpuBusy::meanPct() const {
    return share(gpuBusyNs, gpuWindowNs);
}

double GpuBusy::anyPct() const {
    return share(anyBusyNs, windowNs);
}

GpuBusy gpuBusy(const UtilizationResult& utilization, const RowSummary& rows) {
    GpuBusy busy;
    busy.gpus = utilization.devices.size();
    busy.gpuBusyNs = utilization.busyNs;
    busy.gpuWindowNs = utilization.spanNs;
    busy.anyBusyNs = rows.gpuTotal.busyNs;
    busy.windowNs = rows.windowNs;
    return busy;
}

std::string meanOverGpusLabel(const GpuBusy& busy) {
    return busy.gpus > 1 ? "mean over " + std::to_string(busy.gpus) + " GPUs" : std::string();
}

std::string anyGpuBusyLabel(const GpuBusy& busy) {
    return busy.gpus > 1 ? "any GPU busy" : "GPU busy";
}

}  // namespace wl::analysis
