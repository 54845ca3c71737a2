#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "model/Result.h"
#include "model/Trace.h"
#include "workloads/catalog/RunCatalog.h"

namespace wl::app {

// What the user asks for in the run panel or on `warpline run`. Names, ranges and defaults: the
// run catalog (workloads/catalog/RunCatalog.h); applyRunOption() (app/RunOptions.h) fills one.
struct RunRequest {
    std::string workload = workloads::kReduce;  // kReduce | kPower
    std::string mode = workloads::kBaseline;    // kBaseline | kAsync
    int streams = 1;                            // 1..kMaxStreams
    bool pinned = false;
    std::int64_t size = 0;         // 0 = the workload's default (elements, or matrix dim)
    int repeat = 0;                // 0 = the workload's default
    bool sharedStreamBug = false;  // reduce async: all chunks on one stream (the seed's bug)
    bool gpuMetrics = false;       // PM sampling rows
    int steps = 0;                 // power: most steps (0 = the workload's default, 1000)
    bool graph = false;            // power async: batches replayed from captured CUDA graphs
    int devices = 1;               // reduce: GPUs sharing the array (1..kMaxReduceDevices)

    bool operator==(const RunRequest&) const = default;
};

// What a finished run gives back: the trace, the check the user reads, and a short summary.
struct RunOutcome {
    model::TracePtr trace;
    bool checkPassed = false;
    std::string checkText;    // "normalized sum = 1.0000001 (ok)" / "eigenvalue = 1.0000 ..."
    std::string summaryText;  // one screen: wall time, GPU time, copies and GB/s
    double wallTimeMs = 0.0;
    double timedPartMs = 0.0;  // copies + kernels (reduce) or the loop (power), host clock
};

// Progress in [0, 1] with a short label; called from the worker thread.
using ProgressFn = std::function<void(double fraction, const std::string& label)>;

// Validates the request without touching the GPU beyond querying it (streams 1..64, sizes > 0 and
// within free device memory): an Error with a clear message, or success.
model::Status validateRun(const RunRequest& request);

// The checks of validateRun() that need no GPU (names, ranges, combinations): a bad request is
// told apart from a machine that cannot run. Success in builds without CUDA.
model::Status checkRequest(const RunRequest& request);

// Prepares the process for runs; cheap, loads nothing. NVTX reaches CUPTI only when its injection
// path is in the environment before the process's first NVTX call, and changing the environment
// is only safe while no other thread reads it: call this on the main thread before runDevice()
// goes to a worker. runDevice() calls it too.
void prepareRuns();

// Name of the CUDA device runs go to, or an Error saying why none can run (built without CUDA,
// no driver, no GPU). The first call loads and initialises the CUDA driver when there is one:
// with a GPU that takes a while, so interactive callers ask from a worker thread.
model::Result<std::string> runDevice();

// Runs the workload under the tracer. Blocking; call from a worker thread. Device-side failures
// come back as an Error and leave the process ready for the next run. `cancel` is polled between
// phases.
model::Result<RunOutcome> runTraced(const RunRequest& request, const ProgressFn& progress = {},
                                    const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::app
