#include "workloads/PowerIteration.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "workloads/CublasLibrary.h"
#include "workloads/CudaCheck.h"
#include "workloads/CudaResources.h"
#include "workloads/Nvtx.h"
#include "workloads/PowerKernels.h"
#include "workloads/ProfiledPart.h"
#include "workloads/Validation.h"

namespace wl::workloads {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel != nullptr && cancel->load(std::memory_order_relaxed);
}

model::Error cublasFailure(const CublasLibrary& cublas, cublasStatus_t status, const char* what) {
    return model::Error{std::string(what) + ": " + cublas.statusString(status)};
}

// `cublas` is a CublasHandle; `call` a member of CublasLibrary and its arguments.
#define WL_CUBLAS_TRY(cublas, call)                                               \
    do {                                                                          \
        const cublasStatus_t wlStatus_ = (cublas).library().call;                 \
        if (wlStatus_ != CUBLAS_STATUS_SUCCESS) {                                 \
            return cublasFailure((cublas).library(), wlStatus_, "cuBLAS " #call); \
        }                                                                         \
    } while (false)

// Owns a cuBLAS handle for one run; create() loads cuBLAS if no run has yet.
class CublasHandle {
public:
    CublasHandle() = default;
    ~CublasHandle() {
        if (m_handle != nullptr) {
            static_cast<void>(m_library->destroy(m_handle));
        }
    }
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    model::Status create() {
        auto library = cublasLibrary();
        if (!library.ok()) {
            return library.error();
        }
        m_library = *library;
        WL_CUBLAS_TRY(*this, create(&m_handle));
        return {};
    }
    const CublasLibrary& library() const { return *m_library; }
    cublasHandle_t get() const { return m_handle; }

private:
    const CublasLibrary* m_library = nullptr;
    cublasHandle_t m_handle = nullptr;
};

// The checkpoint file the host writes at each check; removed when the run ends.
class Checkpoint {
public:
    Checkpoint() {
        static std::atomic<int> counter{0};
        m_path = (std::filesystem::temp_directory_path() /
                  ("warpline-power-" + std::to_string(::getpid()) + "-" +
                   std::to_string(counter.fetch_add(1)) + ".bin"))
                     .string();
    }
    ~Checkpoint() {
        std::error_code ignored;
        std::filesystem::remove(m_path, ignored);
    }
    Checkpoint(const Checkpoint&) = delete;
    Checkpoint& operator=(const Checkpoint&) = delete;

    model::Status write(const double* x, std::int64_t n) const {
        std::FILE* file = std::fopen(m_path.c_str(), "wb");
        if (file == nullptr) {
            return model::Error{"cannot write the checkpoint", m_path};
        }
        const std::size_t written =
            std::fwrite(x, sizeof(double), static_cast<std::size_t>(n), file);
        const bool closed = std::fclose(file) == 0;
        if (written != static_cast<std::size_t>(n) || !closed) {
            return model::Error{"writing the checkpoint failed", m_path};
        }
        return {};
    }

private:
    std::string m_path;
};

// What the host read at one check.
struct CheckRead {
    int step = -1;  // the check step, 0-based
    double residual = INFINITY;
    double lambda = NAN;
};

// Everything one run allocates; freed by the destructors, also on failure.
struct PowerState {
    std::int64_t n = 0;
    CublasHandle cublas;
    DeviceArray<double> a;
    DeviceArray<double> x;
    DeviceArray<double> y;
    DeviceArray<double> snapshots;  // 2 slots of n
    DeviceArray<double> scalars;    // 2 slots of {residual, lambda}
    DeviceArray<double> scratch;
    HostArray<double> hostX;        // 2 slots of n
    HostArray<double> hostScalars;  // 2 slots of 2
    StreamSet streams;
    EventSet computeDone;  // per slot: the check step finished (copy streams wait on it)
    EventSet copied;       // per slot: the copies finished (host and next writer wait on it)
    EventSet batchStart;   // timing, per batch
    EventSet batchEnd;     // timing, per batch
    // Graph mode: a batch's steps captured once per (slot, steps in the batch), then replayed.
    std::map<std::pair<std::size_t, int>, std::unique_ptr<CapturedGraph>> graphs;
    Checkpoint checkpoint;
};

// One batch: steps [first, last], the last a check step.
struct Batch {
    int first = 0;
    int last = 0;
};

std::vector<Batch> makeBatches(int maxSteps, int checkEvery) {
    std::vector<Batch> batches;
    for (int first = 0; first < maxSteps; first += checkEvery) {
        batches.push_back({first, std::min(first + checkEvery, maxSteps) - 1});
    }
    return batches;
}

}  // namespace

std::string PowerIteration::description() const {
    return "power iteration: dominant eigenvalue of an n x n float64 matrix (the CuPy notebook)";
}

WorkloadParams PowerIteration::withDefaults(WorkloadParams params) const {
    if (params.size == 0) {
        params.size = kPowerDefaultDim;
    }
    if (params.maxSteps == 0) {
        params.maxSteps = kPowerDefaultMaxSteps;
    }
    if (params.checkEvery == 0) {
        params.checkEvery = kPowerDefaultCheckEvery;
    }
    if (params.repeat == 0) {
        params.repeat = 1;
    }
    if (params.mode == Mode::Baseline) {
        params.streams = 1;
    }
    return params;
}

std::int64_t PowerIteration::deviceBytes(const WorkloadParams& params) const {
    const WorkloadParams p = withDefaults(params);
    const std::int64_t n = p.size;
    return 8 * n * n + 8 * n * 7 + 64 + (4 << 20);  // + cuBLAS workspace
}

model::Status PowerIteration::validate(const WorkloadParams& params) const {
    const WorkloadParams p = withDefaults(params);
    WL_TRY_STATUS(checkStreams(params.streams));
    WL_TRY_STATUS(checkOption(RunOption::Size, kPower, p.size));
    WL_TRY_STATUS(checkOption(RunOption::Steps, kPower, p.maxSteps));
    WL_TRY_STATUS(checkRange("check interval", p.checkEvery, 1, p.maxSteps, "steps"));
    if (p.repeat != 1) {
        return model::Error{"--repeat applies to the reduce workload only"};
    }
    if (p.sharedStream) {
        return model::Error{"--shared-stream applies to the reduce workload only"};
    }
    if (p.devices != 1) {
        return model::Error{"--devices applies to the reduce workload only"};
    }
    if (p.graph && p.mode != Mode::Async) {
        return model::Error{
            "--graph replays the async loop's batches from CUDA graphs: use it with --mode async"};
    }
    if (!(p.dominance > 0.0 && p.dominance < 1.0)) {
        return model::Error{"dominance must be in (0, 1) (got " + std::to_string(p.dominance) +
                            ")"};
    }
    if (!(p.threshold > 0.0)) {
        return model::Error{"residual threshold must be > 0"};
    }
    return {};
}

model::Result<WorkloadResult> PowerIteration::run(const WorkloadParams& params,
                                                  const ProgressFn& progress,
                                                  const std::atomic<bool>* cancel) {
    WL_TRY_STATUS(validate(params));
    const WorkloadParams p = withDefaults(params);
    const bool async = p.mode == Mode::Async;
    const std::int64_t n = p.size;
    const auto nBytes = static_cast<std::size_t>(n) * sizeof(double);
    const std::vector<Batch> batches = makeBatches(p.maxSteps, p.checkEvery);
    WorkloadResult result;
    PowerState st;
    st.n = n;
    cudaStream_t compute = nullptr;  // baseline: the legacy default stream, as CuPy uses
    auto copyStream = [&](std::size_t batch) {
        return st.streams.size() >= 2 ? st.streams[1 + batch % (st.streams.size() - 1)] : compute;
    };
    auto matvec = [&](cudaStream_t) -> model::Status {
        if (m_matvec == Matvec::OwnKernel) {
            WL_CUDA_TRY(launchMatvecRows(st.a.get(), st.x.get(), st.y.get(), n, compute));
            return {};
        }
        // A is stored row-major, i.e. column-major A^T: y = (A^T)^T x.
        const double one = 1.0;
        const double zero = 0.0;
        const int dim = static_cast<int>(n);
        WL_CUBLAS_TRY(st.cublas, dgemv(st.cublas.get(), CUBLAS_OP_T, dim, dim, &one, st.a.get(),
                                       dim, st.x.get(), 1, &zero, st.y.get(), 1));
        return {};
    };

    // Queues the steps of one batch on the compute stream: checkEvery-1 steps, then the check
    // step that also writes the snapshot and {residual, lambda} of `slot`. Per-step NVTX ranges
    // only when the launches happen now: a captured graph's replays have no host calls to mark.
    auto enqueueBatch = [&](const Batch& batch, std::size_t slot, bool markSteps) -> model::Status {
        double* snapshot = st.snapshots.get() + slot * n;
        double* scalars = st.scalars.get() + 2 * slot;
        for (int step = batch.first; step < batch.last; ++step) {
            NvtxRange range(markSteps ? "Compute Step " + std::to_string(step) : std::string(),
                            kNvtxGreen, markSteps);
            WL_TRY_STATUS(matvec(compute));
            WL_CUDA_TRY(launchNormalize(st.y.get(), st.x.get(), n, compute));
        }
        NvtxRange range(
            markSteps ? "Compute & Residual " + std::to_string(batch.last) : std::string(),
            kNvtxGreen, markSteps);
        WL_TRY_STATUS(matvec(compute));
        WL_CUDA_TRY(launchCheckStep(st.y.get(), st.x.get(), snapshot, scalars, n, compute));
        return {};
    };
    // The graph of a batch's shape and slot, captured on first use.
    auto graphFor = [&](const Batch& batch, std::size_t slot) -> model::Result<CapturedGraph*> {
        auto& graph = st.graphs[{slot, batch.last - batch.first + 1}];
        if (!graph) {
            NvtxRange range("Capture graph", kNvtxBlue);
            graph = std::make_unique<CapturedGraph>();
            WL_TRY_STATUS(
                graph->capture(compute, [&] { return enqueueBatch(batch, slot, false); }));
        }
        return graph.get();
    };

    const Clock::time_point setupStart = Clock::now();
    report(progress, 0.0, "building the matrix");
    {
        NvtxRange range("Setup", kNvtxBlue);
        WL_TRY_STATUS(st.cublas.create());
        if (async) {
            WL_TRY_STATUS(st.streams.create(p.streams));
            compute = st.streams[0];
        }
        WL_CUBLAS_TRY(st.cublas, setStream(st.cublas.get(), compute));
        WL_TRY_STATUS(st.a.allocate(static_cast<std::size_t>(n * n), "the matrix"));
        WL_TRY_STATUS(st.x.allocate(n, "x"));
        WL_TRY_STATUS(st.y.allocate(n, "y"));
        WL_TRY_STATUS(st.snapshots.allocate(2 * n, "x snapshots"));
        WL_TRY_STATUS(st.scalars.allocate(4, "residual and eigenvalue"));
        WL_TRY_STATUS(st.scratch.allocate(3 * n + 2, "matrix factors"));
        WL_TRY_STATUS(st.hostX.allocate(2 * n, p.pinned, "x (host)"));
        WL_TRY_STATUS(st.hostScalars.allocate(4, p.pinned, "residual (host)"));
        WL_TRY_STATUS(st.computeDone.create(2, false));
        WL_TRY_STATUS(st.copied.create(2, false));
        WL_TRY_STATUS(st.batchStart.create(static_cast<int>(batches.size()), true));
        WL_TRY_STATUS(st.batchEnd.create(static_cast<int>(batches.size()), true));

        // The eigenvalue 1 sits at a seed-chosen place of the spectrum (the notebook shuffles it).
        const auto oneIndex = static_cast<std::int64_t>((p.seed * 0x9E3779B97F4A7C15ull >> 17) %
                                                        static_cast<std::uint64_t>(n));
        WL_CUDA_TRY(buildPowerMatrix(st.a.get(), n, p.dominance, p.seed, oneIndex, st.scratch.get(),
                                     compute));
        WL_CUDA_TRY(fillUniform(st.x.get(), n, p.seed, compute));
        // Warm-up of the loop's kernels (module load, cuBLAS's first call) on scratch outputs.
        WL_TRY_STATUS(matvec(compute));
        WL_CUDA_TRY(launchNormalize(st.y.get(), st.snapshots.get(), n, compute));
        if (p.graph) {
            // Both slots' graphs of a full batch are made before the timed loop (a shorter last
            // batch gets its own when it comes).
            for (std::size_t slot = 0; slot < 2 && slot < batches.size(); ++slot) {
                auto graph = graphFor(batches[slot], slot);
                if (!graph.ok())
                    return graph.error();
            }
        }
        WL_CUDA_TRY(cudaDeviceSynchronize());
    }
    result.setupMs = msSince(setupStart);
    if (cancelled(cancel)) {
        return model::Error{"run cancelled"};
    }

    CheckRead latest;
    bool converged = false;
    std::size_t batchesRun = 0;
    // Host I/O of one check: print the residual, write a checkpoint of x, test convergence.
    auto hostIo = [&](std::size_t batch) -> model::Status {
        const std::size_t slot = batch % 2;
        latest.step = batches[batch].last;
        latest.residual = st.hostScalars[2 * slot];
        latest.lambda = st.hostScalars[2 * slot + 1];
        NvtxRange range("I/O " + std::to_string(latest.step), kNvtxOrange);
        if (!p.quiet) {
            std::printf("step %d: residual %.3e, eigenvalue %.12f\n", latest.step + 1,
                        latest.residual, latest.lambda);
            std::fflush(stdout);
        }
        WL_TRY_STATUS(st.checkpoint.write(st.hostX.get() + slot * n, n));
        converged = latest.residual < p.threshold;
        report(progress, 0.05 + 0.9 * (latest.step + 1) / p.maxSteps,
               "step " + std::to_string(latest.step + 1));
        return {};
    };
    // Waits for the copies of `batch` (the event only) and does its I/O.
    auto finishBatch = [&](std::size_t batch) -> model::Status {
        WL_CUDA_TRY(cudaEventSynchronize(st.copied[batch % 2]));
        return hostIo(batch);
    };

    const Clock::time_point loopStart = Clock::now();
    {
        const ProfiledPart timedPart;
        NvtxRange loopRange("Loop", kNvtxGreen);
        for (std::size_t b = 0; b < batches.size(); ++b) {
            const Batch& batch = batches[b];
            const std::size_t slot = b % 2;
            double* snapshot = st.snapshots.get() + slot * n;
            double* scalars = st.scalars.get() + 2 * slot;
            {
                NvtxRange stepRange(
                    "Step " + std::to_string(batch.first) + " to " + std::to_string(batch.last),
                    kNvtxGrey);
                if (async && b >= 2 && st.streams.size() >= 2) {
                    // Slot reuse: the copies of batch b-2 must be done before this check writes.
                    WL_CUDA_TRY(cudaStreamWaitEvent(compute, st.copied[slot], 0));
                }
                WL_CUDA_TRY(cudaEventRecord(st.batchStart[b], compute));
                if (p.graph) {
                    auto graph = graphFor(batch, slot);
                    if (!graph.ok())
                        return graph.error();
                    NvtxRange range("Graph launch " + std::to_string(batch.last), kNvtxGreen);
                    WL_TRY_STATUS((*graph)->launch(compute));
                } else {
                    WL_TRY_STATUS(enqueueBatch(batch, slot, true));
                }
                WL_CUDA_TRY(cudaEventRecord(st.batchEnd[b], compute));
                NvtxRange copyRange("Copy " + std::to_string(batch.last), kNvtxYellow);
                double* hostScalars = st.hostScalars.get() + 2 * slot;
                double* hostX = st.hostX.get() + slot * n;
                if (!async) {
                    // Blocking copies: the host waits for the batch, then for each copy.
                    WL_CUDA_TRY(cudaMemcpy(hostScalars, scalars, 2 * sizeof(double),
                                           cudaMemcpyDeviceToHost));
                    WL_CUDA_TRY(cudaMemcpy(hostX, snapshot, nBytes, cudaMemcpyDeviceToHost));
                } else {
                    const cudaStream_t cs = copyStream(b);
                    if (cs != compute) {
                        WL_CUDA_TRY(cudaEventRecord(st.computeDone[slot], compute));
                        WL_CUDA_TRY(cudaStreamWaitEvent(cs, st.computeDone[slot], 0));
                    }
                    WL_CUDA_TRY(cudaMemcpyAsync(hostScalars, scalars, 2 * sizeof(double),
                                                cudaMemcpyDeviceToHost, cs));
                    WL_CUDA_TRY(
                        cudaMemcpyAsync(hostX, snapshot, nBytes, cudaMemcpyDeviceToHost, cs));
                    WL_CUDA_TRY(cudaEventRecord(st.copied[slot], cs));
                }
            }
            batchesRun = b + 1;
            if (!async) {
                WL_TRY_STATUS(hostIo(b));
            } else if (b > 0) {
                // The GPU already has batch b; the host handles batch b-1 meanwhile.
                WL_TRY_STATUS(finishBatch(b - 1));
            }
            if (converged || cancelled(cancel)) {
                break;
            }
        }
        if (async && !converged && !cancelled(cancel)) {
            WL_TRY_STATUS(finishBatch(batchesRun - 1));
        }
        WL_CUDA_TRY(cudaDeviceSynchronize());
    }
    result.loopMs = msSince(loopStart);
    if (cancelled(cancel)) {
        return model::Error{"run cancelled"};
    }

    // GPU idle share of the loop, from the timing events on the compute stream.
    float totalMs = 0.0f;
    WL_CUDA_TRY(cudaEventElapsedTime(&totalMs, st.batchStart[0], st.batchEnd[batchesRun - 1]));
    double idleMs = 0.0;
    for (std::size_t b = 0; b + 1 < batchesRun; ++b) {
        float gapMs = 0.0f;
        WL_CUDA_TRY(cudaEventElapsedTime(&gapMs, st.batchEnd[b], st.batchStart[b + 1]));
        idleMs += gapMs;
    }
    result.gpuIdleFraction = totalMs > 0.0f ? idleMs / totalMs : 0.0;

    result.steps = latest.step + 1;
    result.stepsRun = batches[batchesRun - 1].last + 1;
    result.value = latest.lambda;
    result.expected = 1.0;
    result.residual = latest.residual;
    result.bytesToDevice = 0;
    result.bytesToHost =
        static_cast<std::int64_t>(batchesRun) * (static_cast<std::int64_t>(nBytes) + 16);
    const double error = std::fabs(latest.lambda - 1.0);
    result.passed = std::isfinite(latest.lambda) && error <= kPowerEigenvalueTolerance;
    char text[320];
    std::snprintf(text, sizeof text,
                  "eigenvalue = %.10f (expected 1 +- %.0e, error %.1e), residual %.2e after %d "
                  "steps (%s): %s",
                  latest.lambda, kPowerEigenvalueTolerance, error, latest.residual, result.steps,
                  converged ? "converged" : "step limit reached", result.passed ? "ok" : "FAILED");
    result.checkText = text;
    report(progress, 1.0, "done");
    return result;
}

}  // namespace wl::workloads
