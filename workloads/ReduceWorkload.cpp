#include "workloads/ReduceWorkload.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "workloads/CudaCheck.h"
#include "workloads/CudaResources.h"
#include "workloads/Nvtx.h"
#include "workloads/ProfiledPart.h"
#include "workloads/ReduceKernels.h"
#include "workloads/ReduceMultiGpu.h"
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

model::Error cancelledError() {
    return model::Error{"run cancelled"};
}

// Runs the three kernels once on a tiny array so the module is loaded before the timed part (the
// seed's "Compilation" range: Numba's JIT; here the lazy module load of CUDA 12+).
model::Status warmUp() {
    NvtxRange range("Compilation", kNvtxRed);
    DeviceArray<float> a;
    DeviceArray<float> partial;
    DeviceArray<float> sum;
    WL_TRY_STATUS(a.allocate(kReduceBlocksPerGrid, "warm-up array"));
    WL_TRY_STATUS(partial.allocate(kReduceBlocksPerGrid, "warm-up partial sums"));
    WL_TRY_STATUS(sum.allocate(1, "warm-up sum"));
    WL_CUDA_TRY(cudaMemset(a.get(), 0, a.bytes()));
    WL_CUDA_TRY(launchPartialReduce(a.get(), kReduceBlocksPerGrid, partial.get(), nullptr));
    WL_CUDA_TRY(launchSingleThreadSum(partial.get(), sum.get(), nullptr));
    // Divides 0 by 0 on purpose: the values are thrown away, only the launch matters.
    WL_CUDA_TRY(launchDivideBy(a.get(), kReduceBlocksPerGrid, sum.get(), nullptr));
    WL_CUDA_TRY(cudaDeviceSynchronize());
    return {};
}

// Everything a run allocates, made before the timed part (the seed times from the first copy to
// the last one) and freed by the destructors, also on failure.
struct ReduceBuffers {
    HostArray<float> host;
    DeviceArray<float> device;
    DeviceArray<float> partials;  // kReduceBlocksPerGrid per chunk
    DeviceArray<float> sums;      // one per chunk
    DeviceArray<float> total;
    HostArray<float> hostSums;  // pinned, as in the seed (cuda.pinned_array)
    HostArray<float> hostTotal;
    StreamSet streams;
};

model::Status allocate(const WorkloadParams& p, ReduceBuffers& b) {
    const auto chunks = static_cast<std::size_t>(p.streams);
    // Device first: a size the GPU cannot hold fails before the host touches gigabytes.
    WL_TRY_STATUS(b.device.allocate(static_cast<std::size_t>(p.size), "the array"));
    WL_TRY_STATUS(b.partials.allocate(chunks * kReduceBlocksPerGrid, "partial sums"));
    WL_TRY_STATUS(b.sums.allocate(chunks, "sums"));
    WL_TRY_STATUS(b.total.allocate(1, "total"));
    WL_TRY_STATUS(b.host.allocate(static_cast<std::size_t>(p.size), p.pinned, "the array"));
    WL_TRY_STATUS(b.hostSums.allocate(chunks, true, "per-stream sums (host)"));
    WL_TRY_STATUS(b.hostTotal.allocate(1, true, "total (host)"));
    if (p.mode == Mode::Async) {
        // The bug: `[cuda.stream()] * n` makes one stream and repeats it n times.
        WL_TRY_STATUS(b.streams.create(p.sharedStream ? 1 : p.streams));
    }
    return {};
}

// v1/v2: one stream (the legacy default stream, as Numba uses), synchronous copies.
model::Status runBaseline(const WorkloadParams& p, ReduceBuffers& b, const ProgressFn& progress,
                          const std::atomic<bool>* cancel) {
    const std::size_t bytes = static_cast<std::size_t>(p.size) * sizeof(float);
    report(progress, 0.3, "copying to the GPU");
    {
        NvtxRange range("H2D Memory", kNvtxYellow);
        WL_CUDA_TRY(cudaMemcpy(b.device.get(), b.host.get(), bytes, cudaMemcpyHostToDevice));
    }
    if (cancelled(cancel)) {
        return cancelledError();
    }
    report(progress, 0.5, "kernels");
    {
        NvtxRange range("Kernels", kNvtxGreen);
        for (int r = 0; r < p.repeat; ++r) {
            WL_CUDA_TRY(launchPartialReduce(b.device.get(), p.size, b.partials.get(), nullptr));
            WL_CUDA_TRY(launchSingleThreadSum(b.partials.get(), b.sums.get(), nullptr));
        }
        WL_CUDA_TRY(launchDivideBy(b.device.get(), p.size, b.sums.get(), nullptr));
    }
    report(progress, 0.7, "copying back");
    {
        NvtxRange range("D2H Memory", kNvtxOrange);
        WL_CUDA_TRY(cudaMemcpy(b.host.get(), b.device.get(), bytes, cudaMemcpyDeviceToHost));
    }
    WL_CUDA_TRY(cudaDeviceSynchronize());
    return {};
}

// v3: chunks on N non-blocking streams (or, with the bug, N times the same stream).
model::Status runAsync(const WorkloadParams& p, ReduceBuffers& b, const ProgressFn& progress,
                       const std::atomic<bool>* cancel) {
    auto streamOf = [&](int i) {
        return b.streams[p.sharedStream ? 0 : static_cast<std::size_t>(i)];
    };
    const std::vector<Chunk> chunks = splitChunks(p.size, p.streams);
    HostArray<float>& host = b.host;
    DeviceArray<float>& device = b.device;
    HostArray<float>& hostSums = b.hostSums;
    DeviceArray<float>& partials = b.partials;
    DeviceArray<float>& sums = b.sums;
    std::fill(hostSums.get(), hostSums.get() + p.streams, std::nanf(""));

    report(progress, 0.3, "copies and sums on " + std::to_string(p.streams) + " streams");
    for (int i = 0; i < p.streams; ++i) {
        const Chunk& c = chunks[i];
        const cudaStream_t s = streamOf(i);
        float* partial = partials.get() + static_cast<std::size_t>(i) * kReduceBlocksPerGrid;
        const std::string index = std::to_string(i);
        {
            NvtxRange range("H2D Memory Stream " + index, kNvtxYellow);
            WL_CUDA_TRY(cudaMemcpyAsync(device.get() + c.start, host.get() + c.start,
                                        c.count * sizeof(float), cudaMemcpyHostToDevice, s));
        }
        {
            NvtxRange range("Sum Kernels Stream " + index, kNvtxGreen);
            for (int r = 0; r < p.repeat; ++r) {
                WL_CUDA_TRY(launchPartialReduce(device.get() + c.start, c.count, partial, s));
                WL_CUDA_TRY(launchSingleThreadSum(partial, sums.get() + i, s));
            }
        }
        {
            NvtxRange range("D2H Memory Stream " + index, kNvtxOrange);
            WL_CUDA_TRY(cudaMemcpyAsync(hostSums.get() + i, sums.get() + i, sizeof(float),
                                        cudaMemcpyDeviceToHost, s));
        }
    }
    // Ensure all streams are caught up (the seed's cuda.synchronize()).
    WL_CUDA_TRY(cudaDeviceSynchronize());
    if (cancelled(cancel)) {
        return cancelledError();
    }

    // Host combine; double so the host adds no error of its own.
    double combined = 0.0;
    for (int i = 0; i < p.streams; ++i) {
        combined += hostSums[i];
    }
    b.hostTotal[0] = static_cast<float>(combined);
    {
        NvtxRange range("H2D Memory Default Stream", kNvtxOrange);
        WL_CUDA_TRY(
            cudaMemcpy(b.total.get(), b.hostTotal.get(), sizeof(float), cudaMemcpyHostToDevice));
    }

    report(progress, 0.6, "divide and copy back");
    for (int i = 0; i < p.streams; ++i) {
        const Chunk& c = chunks[i];
        const cudaStream_t s = streamOf(i);
        const std::string index = std::to_string(i);
        {
            NvtxRange range("Divide Kernel Stream " + index, kNvtxGreen);
            WL_CUDA_TRY(launchDivideBy(device.get() + c.start, c.count, b.total.get(), s));
        }
        {
            NvtxRange range("D2H Memory Stream " + index, kNvtxOrange);
            WL_CUDA_TRY(cudaMemcpyAsync(host.get() + c.start, device.get() + c.start,
                                        c.count * sizeof(float), cudaMemcpyDeviceToHost, s));
        }
    }
    WL_CUDA_TRY(cudaDeviceSynchronize());
    return {};
}

double hostSum(const HostArray<float>& host, std::int64_t n) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        sum += host[static_cast<std::size_t>(i)];
    }
    return sum;
}

}  // namespace

std::string ReduceWorkload::description() const {
    return "reduce/normalize: a <- a / sum(a), float32 (the Nsight/Numba seed)";
}

WorkloadParams ReduceWorkload::withDefaults(WorkloadParams params) const {
    if (params.size == 0) {
        params.size = kReduceDefaultSize;
    }
    if (params.repeat == 0) {
        params.repeat = kReduceDefaultRepeat;
    }
    if (params.devices == 0) {
        params.devices = 1;
    }
    if (params.mode == Mode::Baseline) {
        params.streams = 1;
        params.sharedStream = false;
    }
    return params;
}

std::int64_t ReduceWorkload::deviceBytes(const WorkloadParams& params) const {
    const WorkloadParams p = withDefaults(params);
    const std::int64_t perStream = (kReduceBlocksPerGrid + 1) * 4;
    // Per device: each of the devices holds its part of the array.
    const std::int64_t devices = std::max(p.devices, 1);
    return (p.size + devices - 1) / devices * 4 +
           static_cast<std::int64_t>(p.streams + 1) * perStream + 4 * (devices + 2);
}

model::Status ReduceWorkload::validate(const WorkloadParams& params) const {
    const WorkloadParams p = withDefaults(params);
    WL_TRY_STATUS(checkStreams(params.streams));
    WL_TRY_STATUS(checkOption(RunOption::Size, kReduce, p.size));
    WL_TRY_STATUS(checkOption(RunOption::Repeat, kReduce, p.repeat));
    if (params.sharedStream && p.mode != Mode::Async) {
        return model::Error{"--shared-stream applies to --mode async only"};
    }
    if (params.graph) {
        return model::Error{"--graph applies to the power workload only"};
    }
    WL_TRY_STATUS(checkOption(RunOption::Devices, kReduce, p.devices));
    if (p.devices > 1 && p.sharedStream) {
        return model::Error{"--shared-stream applies to one GPU (leave out --devices)"};
    }
    if (p.size < p.devices) {
        return model::Error{"size must be at least the number of devices (" +
                            std::to_string(p.devices) + ")"};
    }
    return {};
}

model::Result<WorkloadResult> ReduceWorkload::run(const WorkloadParams& params,
                                                  const ProgressFn& progress,
                                                  const std::atomic<bool>* cancel) {
    WL_TRY_STATUS(validate(params));
    const WorkloadParams p = withDefaults(params);
    WorkloadResult result;
    const Clock::time_point setupStart = Clock::now();

    report(progress, 0.0, "warm-up");
    if (p.devices > 1) {
        for (int device = p.devices - 1; device >= 0; --device) {  // ends on device 0
            WL_CUDA_TRY(cudaSetDevice(device));
            WL_TRY_STATUS(warmUp());
        }
    } else {
        WL_TRY_STATUS(warmUp());  // on the current device, as before
    }

    report(progress, 0.1, "allocating");
    ReduceBuffers buffers;
    ReduceOnDevices devices;
    if (p.devices > 1) {
        WL_TRY_STATUS(
            buffers.host.allocate(static_cast<std::size_t>(p.size), p.pinned, "the array"));
        WL_TRY_STATUS(devices.allocate(p));
    } else {
        WL_TRY_STATUS(allocate(p, buffers));
    }
    std::fill(buffers.host.get(), buffers.host.get() + p.size, 1.0f);
    const double oldSum = hostSum(buffers.host, p.size);
    result.setupMs = msSince(setupStart);
    if (cancelled(cancel)) {
        return cancelledError();
    }

    const Clock::time_point loopStart = Clock::now();
    {
        const ProfiledPart timedPart;
        if (p.devices > 1) {
            WL_TRY_STATUS(devices.run(buffers.host.get(), progress));
        } else if (p.mode == Mode::Baseline) {
            WL_TRY_STATUS(runBaseline(p, buffers, progress, cancel));
        } else {
            WL_TRY_STATUS(runAsync(p, buffers, progress, cancel));
        }
    }
    result.loopMs = msSince(loopStart);
    result.bytesToDevice = p.size * 4;
    result.bytesToHost = p.size * 4;

    report(progress, 0.9, "checking");
    const double newSum = hostSum(buffers.host, p.size);
    result.value = newSum;
    result.expected = 1.0;
    result.passed = std::isfinite(newSum) && std::fabs(newSum - 1.0) <= kReduceTolerance;
    char text[256];
    std::snprintf(text, sizeof text, "old sum = %.3f, new sum = %.7f (expected 1 +- %.0e): %s",
                  oldSum, newSum, kReduceTolerance, result.passed ? "ok" : "FAILED");
    result.checkText = text;
    report(progress, 1.0, "done");
    return result;
}

}  // namespace wl::workloads
