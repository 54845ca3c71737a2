#pragma once

#include <cstdint>

#include "model/Time.h"

namespace wl::analysis {

// Every threshold the analysis uses, in one place so the UI and the command line can tune them.
// Plain value; times in ns, shares in percent (0..100).
struct AnalysisOptions {
    // Idle gaps shorter than this still count as idle time but are not listed or diagnosed.
    // Nsight's 500 ms default would hide every gap these workloads have.
    model::TimeNs gapThresholdNs = 20 * model::kNsPerUs;
    // gpu-gap fires only when the device idled at least this share of the window.
    double minGpuGapIdlePct = 5.0;
    // Idle-time findings (sync-api-in-loop, gpu-gap, host-range-stalls-gpu, devices-wait) whose
    // idle time is less than this share of their GPU's window are information, not warnings, and
    // come after the warnings.
    double minWarningSharePct = 5.0;

    // low-utilization: the device span is cut into this many windows; a window whose busy share
    // is below the threshold is reported.
    std::int32_t utilizationWindows = 20;
    double lowUtilizationPct = 30.0;
    // Spans shorter than this are too short to judge by windows.
    model::TimeNs minUtilizationSpanNs = 100 * model::kNsPerUs;

    // low-occupancy-kernel: theoretical occupancy, GPU fill or lane use below these.
    double lowOccupancyPct = 25.0;
    double lowFillPct = 10.0;
    double lowLaneUsePct = 50.0;
    // ... and only kernels (by name) that take at least this share of all kernel time: many tiny
    // launches of a library are not worth a warning.
    double minKernelSharePct = 0.5;
    // Library kernels (cuBLAS, cuDNN, CUTLASS, CUB, PyTorch, CuPy, ...: analysis::isLibraryKernel)
    // with those findings are listed together in one informational finding, since their launch
    // configuration is the library's choice; one that holds more than this share of all kernel
    // time is reported on its own, with what the caller can change.
    double libraryKernelDominantPct = 50.0;

    // sync-memcpy: host-to-device copies up to this size return early from the driver anyway.
    std::uint64_t smallCopyBytes = 64 * 1024;

    // sync-api-in-loop: this many calls of one synchronising API, each followed by more GPU work
    // from the same thread and each returning into a GPU idle gap of at least minIdleAfterSyncNs
    // (shorter holes are launch latency between queued kernels, not a drained pipeline).
    std::int32_t syncInLoopMinCount = 3;
    // alloc-in-loop: one synchronous allocation or free call made this many times in the window.
    std::int32_t allocInLoopMinCount = 4;
    // ... and the calls take at least this share of the window (a framework's caching allocator
    // growing at start-up costs next to nothing).
    double allocInLoopMinSharePct = 1.0;
    // devices-wait: one GPU's idle time spent waiting (through a CUDA event) for an op on another
    // GPU reaches this share of the window.
    double devicesWaitMinSharePct = 5.0;
    // collective-wait: a GPU's NCCL collective kernels take this share of the window.
    double collectiveWaitMinSharePct = 10.0;
    model::TimeNs minIdleAfterSyncNs = 10 * model::kNsPerUs;

    // sync-api-in-loop also needs this share of the device's idle time to follow blocking calls.
    double minBlockingIdleSharePct = 20.0;
    // ... and leaves out gaps longer than this many times the thread's typical (median) one and
    // longer than syncLoopOutlierMinNs: one-off host tasks after a wait, not the loop's cost.
    std::int64_t syncLoopOutlierFactor = 10;
    model::TimeNs syncLoopOutlierMinNs = 100 * model::kNsPerMs;

    // host-range-stalls-gpu: a host NVTX range name (digits folded) that holds at least this share
    // of the GPU's idle time; at most maxHostRangeFindings of them, largest first.
    double minHostRangeIdleSharePct = 10.0;
    std::size_t maxHostRangeFindings = 3;

    // launch-bound: GPU busy below this share of the window, most idle time is the host's, and most
    // of that lies in holes shorter than shortGapNs: the host spends its time between ops (API and
    // framework dispatch: a PyTorch op costs tens to hundreds of µs of Python), not in one long
    // host task such as I/O.
    double launchBoundBusyPct = 50.0;
    double launchBoundHostIdlePct = 50.0;
    model::TimeNs shortGapNs = model::kNsPerMs;

    // unified-memory-stalls-kernel: a kernel that ran at least this share of its time while the
    // driver serviced GPU page faults or migrated managed memory on its GPU ...
    double unifiedMemoryStallKernelPct = 10.0;
    // ... where such kernels' time under that traffic is at least this share of the window.
    double unifiedMemoryStallWindowPct = 1.0;

    // pageable-memcpy: pageable copies of fewer bytes than this in all are not reported.
    std::uint64_t minPageableBytes = 64 * 1024;

    // streams-serialized: work counts as "on one stream" when one stream holds this share of it.
    double serializedStreamSharePct = 90.0;

    // missed-copy-overlap: copies overlapped by compute below this share, while both copies and
    // kernels each take at least minOverlapCandidatePct of the busy time.
    double missedOverlapPct = 10.0;
    double minOverlapCandidatePct = 5.0;

    // At most this many evidence slices per diagnostic (the count says how many there were).
    std::size_t maxEvidence = 256;
};

}  // namespace wl::analysis
