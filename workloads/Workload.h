#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/Result.h"
#include "workloads/catalog/RunCatalog.h"  // Mode, the names, ranges and defaults

namespace wl::workloads {

// What a run is asked to do. Zero means "the workload's default" for size, repeat, steps and
// checkEvery, so the same struct serves both workloads and the command line.
struct WorkloadParams {
    Mode mode = Mode::Baseline;
    int streams = 1;            // 1..64; async: chunks (reduce) or compute+copy streams (power)
    bool pinned = false;        // host buffers page-locked (cudaHostAlloc) or pageable
    std::int64_t size = 0;      // reduce: elements (default 100,000,000); power: dim (8192)
    int repeat = 0;             // reduce: reductions per chunk (default 1; the seed uses 50)
    bool sharedStream = false;  // reduce async: every chunk on one stream (the seed's bug)
    int maxSteps = 0;           // power: default 1000
    int checkEvery = 0;         // power: default 15
    double dominance = 0.05;    // power: second eigenvalue below 1 - dominance
    double threshold = 1e-10;   // power: residual at which the loop stops
    std::uint64_t seed = 42;    // power: matrix and start vector
    bool quiet = false;         // power: keep the per-check residual lines off stdout
    bool graph = false;  // power async: each batch's steps captured once as a CUDA graph, replayed
    int devices = 1;     // reduce: GPUs 0..devices-1 share the array (1..8)
};

// What the user reads after a run: the check, the number it is about, and host-side timings.
struct WorkloadResult {
    bool passed = false;
    std::string checkText;  // "new sum = 1.0000000 (expected 1 +- 1e-04): ok"
    double value = 0.0;     // reduce: new sum; power: eigenvalue
    double expected = 1.0;
    double residual = 0.0;  // power: last residual read by the host
    int steps = 0;          // power: steps whose result the host read
    int stepsRun = 0;       // power: steps the GPU ran (async runs one batch more)
    double setupMs = 0.0;   // allocation, initialisation, warm-up
    double loopMs = 0.0;    // the timed part: transfers + kernels (reduce) or the loop (power)
    double gpuIdleFraction = -1;  // power: share of the loop the GPU sat idle (CUDA events); -1 n/a
    std::int64_t bytesToDevice = 0;
    std::int64_t bytesToHost = 0;
};

// Progress in [0, 1] with a short label; called from the thread that runs the workload.
using ProgressFn = std::function<void(double fraction, const std::string& label)>;
// Calls `progress` when there is one.
inline void report(const ProgressFn& progress, double fraction, const std::string& label) {
    if (progress)
        progress(fraction, label);
}

// A CUDA workload: validates its parameters, then runs on the current device. Stateless between
// runs: every run allocates what it needs and frees it before returning, also on failure, so a
// process (the GUI) can run many. Emits NVTX ranges but knows nothing of tracing.
class Workload {
public:
    virtual ~Workload() = default;
    virtual std::string name() const = 0;         // "reduce" | "power"
    virtual std::string description() const = 0;  // one line for help texts

    // The parameters with zeros replaced by this workload's defaults.
    virtual WorkloadParams withDefaults(WorkloadParams params) const = 0;
    // Device memory the run needs, in bytes (for the free-memory check).
    virtual std::int64_t deviceBytes(const WorkloadParams& params) const = 0;
    // Range checks that need no GPU; validateOnDevice() adds the free-memory check.
    virtual model::Status validate(const WorkloadParams& params) const = 0;

    // Runs once. Errors (CUDA, cuBLAS, I/O, cancelled) come back as values after everything the
    // run allocated has been freed. A failed check is a result with passed == false, not an error.
    virtual model::Result<WorkloadResult> run(const WorkloadParams& params,
                                              const ProgressFn& progress,
                                              const std::atomic<bool>* cancel) = 0;
    // Same, without progress reports or cancellation.
    model::Result<WorkloadResult> run(const WorkloadParams& params) {
        return run(params, {}, nullptr);
    }
};

// The registry: a new instance of each workload of the catalog (workloadNames()), or an Error
// naming the known workloads.
model::Result<std::unique_ptr<Workload>> makeWorkload(const std::string& name);

// validate() plus the device checks: a CUDA device exists and the run fits in its free memory.
model::Status validateOnDevice(const Workload& workload, const WorkloadParams& params);

}  // namespace wl::workloads
