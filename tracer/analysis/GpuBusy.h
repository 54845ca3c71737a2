#pragma once

#include <cstdint>
#include <string>

#include "analysis/RowStatistics.h"
#include "analysis/Utilization.h"
#include "model/Time.h"

namespace wl::analysis {

// How busy the GPUs were in an analysed window: the two figures every view and command shows,
// computed here once. On one GPU they are the same number; on several they answer different
// questions (two GPUs each busy half the time, one after the other: mean 50 %, any GPU busy
// 100 %), so wherever both could be read, each says which it is (gpusLabel, anyGpuLabel).
struct GpuBusy {
    std::size_t gpus = 0;  // GPUs with work in the window
    // Mean over the GPUs: every GPU's busy time over every GPU's window, summed (a GPU's window
    // is the analysis window, or on the whole trace its own first to last op): the share of the
    // GPUs' time they were used (UtilizationResult::busyPct).
    model::TimeNs gpuBusyNs = 0;
    model::TimeNs gpuWindowNs = 0;
    // Any GPU busy: the time at least one GPU (of the selected rows) was busy, of the window.
    model::TimeNs anyBusyNs = 0;
    model::TimeNs windowNs = 0;

    double meanPct() const;  // 0..100; 0 without GPU work
    double anyPct() const;   // 0..100; 0 for an empty window
};

GpuBusy gpuBusy(const UtilizationResult& utilization, const RowSummary& rows);

// What the mean figure is where the other could be taken for it: "" on one GPU, "mean over 2
// GPUs" on several.
std::string meanOverGpusLabel(const GpuBusy& busy);
// What the other figure is: "any GPU busy" on several GPUs, "GPU busy" on one.
std::string anyGpuBusyLabel(const GpuBusy& busy);

}  // namespace wl::analysis
