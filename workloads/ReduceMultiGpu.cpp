#include "workloads/ReduceMultiGpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "workloads/CudaCheck.h"
#include "workloads/CudaResources.h"
#include "workloads/Nvtx.h"
#include "workloads/ReduceKernels.h"

namespace wl::workloads {

std::vector<Chunk> splitChunks(std::int64_t size, int parts) {
    std::vector<Chunk> chunks;
    const std::int64_t step = (size + parts - 1) / parts;
    for (int i = 0; i < parts; ++i) {
        const std::int64_t start = std::min<std::int64_t>(i * step, size);
        const std::int64_t end = std::min<std::int64_t>(start + step, size);
        chunks.push_back({start, end - start});
    }
    return chunks;
}

// What one device holds. Made and freed with its device current (streams and events belong to
// it), so the destructor makes it current before the members go.
struct DeviceSide {
    int device = 0;
    Chunk part;                   // of the whole array
    std::vector<Chunk> pieces;    // of `part`, one per stream (async)
    DeviceArray<float> array;     // the part
    DeviceArray<float> partials;  // kReduceBlocksPerGrid per stream, + one set to combine
    DeviceArray<float> sums;      // one per stream
    DeviceArray<float> deviceSum;
    DeviceArray<float> gathered;  // GPU 0: every device's sum
    DeviceArray<float> total;
    StreamSet streams;
    EventSet piecesSummed;  // per stream
    EventSet summed;        // the device's sum is ready
    EventSet totalHere;     // the total has arrived

    ~DeviceSide() { static_cast<void>(cudaSetDevice(device)); }
};

namespace {

std::string on(int device, const std::string& what) {
    return "GPU " + std::to_string(device) + ": " + what;
}

model::Status allocate(const WorkloadParams& p, const Chunk& part, DeviceSide& d) {
    WL_CUDA_TRY(cudaSetDevice(d.device));
    const int streams = p.mode == Mode::Async ? p.streams : 1;
    d.part = part;
    d.pieces = splitChunks(part.count, streams);
    WL_TRY_STATUS(d.array.allocate(static_cast<std::size_t>(std::max<std::int64_t>(part.count, 1)),
                                   "the array's part"));
    WL_TRY_STATUS(d.partials.allocate(static_cast<std::size_t>(streams + 1) * kReduceBlocksPerGrid,
                                      "partial sums"));
    WL_TRY_STATUS(d.sums.allocate(static_cast<std::size_t>(streams), "sums"));
    WL_TRY_STATUS(d.deviceSum.allocate(1, "the device's sum"));
    WL_TRY_STATUS(d.gathered.allocate(static_cast<std::size_t>(p.devices), "gathered sums"));
    WL_TRY_STATUS(d.total.allocate(1, "total"));
    if (p.mode == Mode::Async) {
        WL_TRY_STATUS(d.streams.create(streams));
        WL_TRY_STATUS(d.piecesSummed.create(streams, false));
        WL_TRY_STATUS(d.summed.create(1, false));
        WL_TRY_STATUS(d.totalHere.create(1, false));
    }
    return {};
}

// Sums `n` floats at `values` into `out` with the seed's two kernels (grid-stride partials, one
// thread adding them).
model::Status sumOf(const float* values, std::int64_t n, float* scratch, float* out,
                    cudaStream_t stream) {
    WL_CUDA_TRY(launchPartialReduce(values, n, scratch, stream));
    WL_CUDA_TRY(launchSingleThreadSum(scratch, out, stream));
    return {};
}

model::Status runBaseline(const WorkloadParams& p, float* host,
                          std::vector<std::unique_ptr<DeviceSide>>& sides,
                          const ProgressFn& progress) {
    std::vector<float> sums(sides.size(), 0.0f);
    for (std::size_t i = 0; i < sides.size(); ++i) {
        DeviceSide& d = *sides[i];
        report(progress, 0.2 + 0.3 * double(i) / double(sides.size()),
               on(d.device, "copy and sum"));
        WL_CUDA_TRY(cudaSetDevice(d.device));
        const auto bytes = static_cast<std::size_t>(d.part.count) * sizeof(float);
        {
            NvtxRange range(on(d.device, "H2D Memory"), kNvtxYellow);
            WL_CUDA_TRY(
                cudaMemcpy(d.array.get(), host + d.part.start, bytes, cudaMemcpyHostToDevice));
        }
        {
            NvtxRange range(on(d.device, "Sum Kernels"), kNvtxGreen);
            for (int r = 0; r < p.repeat; ++r)
                WL_TRY_STATUS(sumOf(d.array.get(), d.part.count, d.partials.get(),
                                    d.deviceSum.get(), nullptr));
        }
        NvtxRange range(on(d.device, "D2H Memory Sum"), kNvtxOrange);
        WL_CUDA_TRY(cudaMemcpy(&sums[i], d.deviceSum.get(), sizeof(float), cudaMemcpyDeviceToHost));
    }
    double combined = 0.0;  // on the host, in double
    for (float s : sums)
        combined += s;
    const auto total = static_cast<float>(combined);
    for (std::size_t i = 0; i < sides.size(); ++i) {
        DeviceSide& d = *sides[i];
        report(progress, 0.5 + 0.4 * double(i) / double(sides.size()),
               on(d.device, "divide and copy back"));
        WL_CUDA_TRY(cudaSetDevice(d.device));
        {
            NvtxRange range(on(d.device, "H2D Memory Total"), kNvtxOrange);
            WL_CUDA_TRY(cudaMemcpy(d.total.get(), &total, sizeof(float), cudaMemcpyHostToDevice));
        }
        {
            NvtxRange range(on(d.device, "Divide Kernel"), kNvtxGreen);
            WL_CUDA_TRY(launchDivideBy(d.array.get(), d.part.count, d.total.get(), nullptr));
        }
        NvtxRange range(on(d.device, "D2H Memory"), kNvtxOrange);
        WL_CUDA_TRY(cudaMemcpy(host + d.part.start, d.array.get(),
                               static_cast<std::size_t>(d.part.count) * sizeof(float),
                               cudaMemcpyDeviceToHost));
    }
    return {};
}

model::Status runAsync(const WorkloadParams& p, float* host,
                       std::vector<std::unique_ptr<DeviceSide>>& sides,
                       const ProgressFn& progress) {
    report(progress, 0.2, "copies and sums on " + std::to_string(sides.size()) + " GPUs");
    // Every device at once: its pieces up, summed per stream, then the device's sum.
    for (auto& side : sides) {
        DeviceSide& d = *side;
        WL_CUDA_TRY(cudaSetDevice(d.device));
        for (std::size_t i = 0; i < d.pieces.size(); ++i) {
            const Chunk& c = d.pieces[i];
            const cudaStream_t s = d.streams[i];
            const std::string index = std::to_string(i);
            {
                NvtxRange range(on(d.device, "H2D Memory Stream " + index), kNvtxYellow);
                WL_CUDA_TRY(cudaMemcpyAsync(d.array.get() + c.start, host + d.part.start + c.start,
                                            static_cast<std::size_t>(c.count) * sizeof(float),
                                            cudaMemcpyHostToDevice, s));
            }
            NvtxRange range(on(d.device, "Sum Kernels Stream " + index), kNvtxGreen);
            for (int r = 0; r < p.repeat; ++r)
                WL_TRY_STATUS(sumOf(d.array.get() + c.start, c.count,
                                    d.partials.get() + i * kReduceBlocksPerGrid, d.sums.get() + i,
                                    s));
            WL_CUDA_TRY(cudaEventRecord(d.piecesSummed[i], s));
        }
        const cudaStream_t main = d.streams[0];
        for (std::size_t i = 1; i < d.pieces.size(); ++i)
            WL_CUDA_TRY(cudaStreamWaitEvent(main, d.piecesSummed[i], 0));
        NvtxRange range(on(d.device, "Device Sum"), kNvtxGreen);
        WL_TRY_STATUS(sumOf(d.sums.get(), static_cast<std::int64_t>(d.pieces.size()),
                            d.partials.get() + d.pieces.size() * kReduceBlocksPerGrid,
                            d.deviceSum.get(), main));
        WL_CUDA_TRY(cudaEventRecord(d.summed[0], main));
    }
    // GPU 0 gathers the sums with peer copies, each after its device's sum is ready, and adds them.
    DeviceSide& first = *sides[0];
    WL_CUDA_TRY(cudaSetDevice(first.device));
    const cudaStream_t gather = first.streams[0];
    {
        NvtxRange range(on(first.device, "Gather Sums (peer copies)"), kNvtxOrange);
        for (std::size_t k = 0; k < sides.size(); ++k) {
            DeviceSide& d = *sides[k];
            if (k == 0) {
                WL_CUDA_TRY(cudaMemcpyAsync(first.gathered.get(), d.deviceSum.get(), sizeof(float),
                                            cudaMemcpyDeviceToDevice, gather));
                continue;
            }
            WL_CUDA_TRY(cudaStreamWaitEvent(gather, d.summed[0], 0));
            WL_CUDA_TRY(cudaMemcpyPeerAsync(first.gathered.get() + k, first.device,
                                            d.deviceSum.get(), d.device, sizeof(float), gather));
        }
    }
    {
        NvtxRange range(on(first.device, "Total"), kNvtxGreen);
        WL_TRY_STATUS(sumOf(first.gathered.get(), static_cast<std::int64_t>(sides.size()),
                            first.partials.get(), first.total.get(), gather));
        WL_CUDA_TRY(cudaEventRecord(first.totalHere[0], gather));
    }
    report(progress, 0.5, "divide and copy back");
    // The total goes back to every device (peer copies), which divides its part and copies it home.
    for (std::size_t k = 0; k < sides.size(); ++k) {
        DeviceSide& d = *sides[k];
        WL_CUDA_TRY(cudaSetDevice(d.device));
        if (k != 0) {
            NvtxRange range(on(d.device, "Total from GPU 0 (peer copy)"), kNvtxOrange);
            WL_CUDA_TRY(cudaStreamWaitEvent(d.streams[0], first.totalHere[0], 0));
            WL_CUDA_TRY(cudaMemcpyPeerAsync(d.total.get(), d.device, first.total.get(),
                                            first.device, sizeof(float), d.streams[0]));
            WL_CUDA_TRY(cudaEventRecord(d.totalHere[0], d.streams[0]));
        }
        for (std::size_t i = 0; i < d.pieces.size(); ++i) {
            const Chunk& c = d.pieces[i];
            const cudaStream_t s = d.streams[i];
            const std::string index = std::to_string(i);
            if (i != 0)
                WL_CUDA_TRY(cudaStreamWaitEvent(s, d.totalHere[0], 0));
            {
                NvtxRange range(on(d.device, "Divide Kernel Stream " + index), kNvtxGreen);
                WL_CUDA_TRY(launchDivideBy(d.array.get() + c.start, c.count, d.total.get(), s));
            }
            NvtxRange range(on(d.device, "D2H Memory Stream " + index), kNvtxOrange);
            WL_CUDA_TRY(cudaMemcpyAsync(host + d.part.start + c.start, d.array.get() + c.start,
                                        static_cast<std::size_t>(c.count) * sizeof(float),
                                        cudaMemcpyDeviceToHost, s));
        }
    }
    // The one wait of the host: every device done.
    for (auto& side : sides) {
        WL_CUDA_TRY(cudaSetDevice(side->device));
        WL_CUDA_TRY(cudaDeviceSynchronize());
    }
    return {};
}

}  // namespace

ReduceOnDevices::ReduceOnDevices() = default;

ReduceOnDevices::~ReduceOnDevices() {
    if (m_sides.empty())
        return;       // a one-GPU run never used it: leave the current device alone
    m_sides.clear();  // device by device, each made current by its destructor
    static_cast<void>(cudaSetDevice(0));
}

model::Status ReduceOnDevices::allocate(const WorkloadParams& p) {
    m_params = p;
    // GPU 0 and each other GPU copy to each other directly where the hardware allows (NVLink or
    // PCIe peer-to-peer); elsewhere cudaMemcpyPeerAsync still works, staged through the host.
    for (int device = 1; device < p.devices; ++device) {
        for (auto [from, to] : {std::pair{0, device}, std::pair{device, 0}}) {
            int can = 0;
            WL_CUDA_TRY(cudaDeviceCanAccessPeer(&can, from, to));
            if (can == 0)
                continue;
            WL_CUDA_TRY(cudaSetDevice(from));
            const cudaError_t enabled = cudaDeviceEnablePeerAccess(to, 0);
            if (enabled == cudaErrorPeerAccessAlreadyEnabled)
                static_cast<void>(cudaGetLastError());  // enabled by an earlier run: fine
            else
                WL_CUDA_TRY(enabled);
        }
    }
    const std::vector<Chunk> parts = splitChunks(p.size, p.devices);
    for (int device = 0; device < p.devices; ++device) {
        m_sides.push_back(std::make_unique<DeviceSide>());
        m_sides.back()->device = device;
        const model::Status status =
            wl::workloads::allocate(p, parts[static_cast<std::size_t>(device)], *m_sides.back());
        if (!status.ok())
            return status;
    }
    WL_CUDA_TRY(cudaSetDevice(0));
    return {};
}

model::Status ReduceOnDevices::run(float* host, const ProgressFn& progress) {
    const model::Status status = m_params.mode == Mode::Async
                                     ? runAsync(m_params, host, m_sides, progress)
                                     : runBaseline(m_params, host, m_sides, progress);
    WL_CUDA_TRY(cudaSetDevice(0));
    return status;
}

}  // namespace wl::workloads
