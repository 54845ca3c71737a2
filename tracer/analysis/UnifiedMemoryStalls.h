#pragma once

#include <cstdint>
#include <vector>

#include "analysis/GpuOps.h"
#include "model/Trace.h"

namespace wl::analysis {

// A kernel and the unified-memory traffic of its GPU while it ran: how much of its time the
// driver was servicing page faults or migrating managed memory there, how many faults and how
// many bytes. Times in ns, clipped to the analysis window.
struct KernelUnifiedMemory {
    model::SliceRef kernel;
    model::TimeNs kernelNs = 0;       // its time in the window
    model::TimeNs coveredNs = 0;      // of that, under faults, migrations or throttling of its GPU
    std::uint64_t faults = 0;         // GPU page faults serviced while it ran
    std::uint64_t migratedBytes = 0;  // migrated to or from its GPU while it ran
    std::uint64_t toGpuBytes = 0;     // of which host (or another GPU) to its GPU
    std::vector<model::SliceRef> events;  // those faults and migrations, in time order
};

// The kernels of `ops` that overlap unified-memory events of their own GPU (the unified-memory
// rows of the kernel's GPU process), in time order. Migrations the program asked for
// (cudaMemPrefetchAsync: cause "user") are left out: they are the cure, not the stall.
std::vector<KernelUnifiedMemory> kernelsUnderUnifiedMemory(const model::Trace& trace,
                                                           const GpuOps& ops);

}  // namespace wl::analysis
