#include "support/TraceFactory.h"

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "model/TraceBuilder.h"

namespace wl::test {

namespace {

using model::TimeNs;

constexpr std::array<const char*, 6> kKernelNames = {
    "reduce_kernel<256>(float const*, float*, int)",
    "normalize_kernel(float*, float, int)",
    "sgemm_128x64_nn",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",
    "power_iteration_step",
    "scale \"quoted\" \\ kernel",
};

struct CopyShape {
    const char* name;
    model::CopyKind kind;
    model::MemoryKind src;
    model::MemoryKind dst;
    int bandwidthGBps;  // bytes per ns
};

constexpr std::array<CopyShape, 4> kCopies = {{
    {"Memcpy HtoD (Pageable -> Device)", model::CopyKind::HostToDevice, model::MemoryKind::Pageable,
     model::MemoryKind::Device, 12},
    {"Memcpy HtoD (Pinned -> Device)", model::CopyKind::HostToDevice, model::MemoryKind::Pinned,
     model::MemoryKind::Device, 25},
    {"Memcpy DtoH (Device -> Pinned)", model::CopyKind::DeviceToHost, model::MemoryKind::Device,
     model::MemoryKind::Pinned, 25},
    {"Memcpy DtoD (Device -> Device)", model::CopyKind::DeviceToDevice, model::MemoryKind::Device,
     model::MemoryKind::Device, 1500},
}};

enum class OpKind { Kernel, Memcpy, Memset, Sync };

// Picks the next kind with probability proportional to what is left, so kinds interleave.
OpKind pickKind(std::mt19937_64& rng, std::array<std::size_t, 4>& left) {
    const std::size_t total = left[0] + left[1] + left[2] + left[3];
    std::size_t r = std::uniform_int_distribution<std::size_t>(0, total - 1)(rng);
    for (std::size_t k = 0; k < left.size(); ++k) {
        if (r < left[k]) {
            --left[k];
            return static_cast<OpKind>(k);
        }
        r -= left[k];
    }
    --left[0];
    return OpKind::Kernel;
}

}  // namespace

SyntheticTraceSpec gpuOpsSpec(std::size_t gpuOps) {
    SyntheticTraceSpec spec;
    spec.kernels = gpuOps * 8 / 10;
    spec.memcpys = gpuOps * 15 / 100;
    spec.memsets = gpuOps * 5 / 100;
    spec.syncs = gpuOps / 100;
    spec.nvtxRanges = gpuOps / 50;
    spec.streams = 4;
    return spec;
}

model::DeviceProperties h100Properties(std::int32_t id) {
    model::DeviceProperties p;
    p.id = id;
    p.name = "NVIDIA H100 80GB HBM3";
    p.computeMajor = 9;
    p.computeMinor = 0;
    p.smCount = 132;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerSm = 2048;
    p.maxBlocksPerSm = 32;
    p.maxWarpsPerSm = 64;
    p.registersPerSm = 65536;
    p.registersPerBlock = 65536;
    p.sharedMemoryPerSmBytes = 233472;
    p.sharedMemoryPerBlockBytes = 49152;
    p.sharedMemoryPerBlockOptinBytes = 232448;
    p.totalMemoryBytes = 85'017'755'648;
    p.l2CacheBytes = 52'428'800;
    p.clockRateKHz = 1'980'000;
    p.memoryClockRateKHz = 2'619'000;
    p.memoryBusWidthBits = 5120;
    p.pcieGeneration = 5;
    p.pcieLinkWidth = 16;
    p.memoryBandwidthGBps = 3352.32;
    return p;
}

model::TracePtr makeSyntheticTrace(const SyntheticTraceSpec& spec) {
    std::mt19937_64 rng(spec.seed);
    auto uniform = [&](TimeNs lo, TimeNs hi) {
        return std::uniform_int_distribution<TimeNs>(lo, hi)(rng);
    };
    const int devices = std::max(1, spec.devices);
    const int streams = std::max(1, spec.streams);
    constexpr std::int64_t kPid = 4242;
    constexpr TimeNs kClockBase = 1'700'000'000'000'000'000;  // a realistic epoch-ns origin

    model::TraceBuilder b;
    b.setMetadata("producer", "warpline synthetic");
    b.setMetadata("seed", std::to_string(spec.seed));
    const auto host = b.hostProcess(kPid, "synthetic");
    std::vector<model::ProcessIndex> gpus;
    std::vector<model::TrackIndex> apiTracks;
    std::vector<model::TrackIndex> nvtxTracks;
    std::vector<model::TrackIndex> syncTracks;
    std::vector<std::vector<model::TrackIndex>> streamTracks(devices);
    std::vector<std::vector<TimeNs>> streamCursor(devices,
                                                  std::vector<TimeNs>(streams, kClockBase));
    std::vector<TimeNs> hostCursor(devices, kClockBase);
    for (int d = 0; d < devices; ++d) {
        b.addDevice(h100Properties(d));
        gpus.push_back(b.gpuProcess(d));
        const std::int64_t tid = kPid + d;
        apiTracks.push_back(b.hostApiTrack(host, tid));
        nvtxTracks.push_back(b.nvtxTrack(host, tid));
        syncTracks.push_back(b.syncTrack(gpus.back()));
        for (int s = 0; s < streams; ++s) {
            streamTracks[d].push_back(b.gpuStreamTrack(gpus.back(), 7 + 10 * s));
        }
    }

    std::array<std::size_t, 4> left = {spec.kernels, spec.memcpys, spec.memsets, spec.syncs};
    std::uint64_t correlation = 1;
    std::size_t op = 0;
    while (left[0] + left[1] + left[2] + left[3] > 0) {
        const OpKind kind = pickKind(rng, left);
        const int d = static_cast<int>(op % devices);
        const int s = static_cast<int>((op / devices) % streams);
        ++op;
        TimeNs& hostNow = hostCursor[d];
        TimeNs& streamNow = streamCursor[d][s];
        const std::uint64_t corr = spec.launchApiCalls ? correlation++ : 0;
        const TimeNs apiStart = hostNow + uniform(200, 3000);
        const TimeNs apiEnd = apiStart + uniform(2000, 9000);
        const TimeNs gpuStart = std::max(streamNow + uniform(0, 4000), apiStart + 3000);
        model::ApiDetail api;
        api.callbackId = 211;
        std::string_view apiName = "cudaLaunchKernel";
        switch (kind) {
            case OpKind::Kernel: {
                model::KernelDetail k;
                const auto gridX = static_cast<std::int32_t>(uniform(1, 4096));
                k.grid = {gridX, 1, 1};
                k.block = {static_cast<std::int32_t>(32 * uniform(1, 32)), 1, 1};
                k.registersPerThread = static_cast<std::int32_t>(uniform(16, 128));
                k.staticSharedBytes = static_cast<std::int32_t>(1024 * uniform(0, 16));
                k.dynamicSharedBytes = static_cast<std::int32_t>(uniform(0, 1) * 4096);
                const TimeNs end = gpuStart + uniform(1500, 200'000);
                b.addKernel(streamTracks[d][s], gpuStart, end,
                            kKernelNames[uniform(0, kKernelNames.size() - 1)], corr, k);
                streamNow = end;
                break;
            }
            case OpKind::Memcpy: {
                const CopyShape& shape = kCopies[uniform(0, kCopies.size() - 1)];
                model::MemcpyDetail m;
                m.bytes = static_cast<std::uint64_t>(uniform(4, 1 << 20) * 4);
                m.copyKind = shape.kind;
                m.srcKind = shape.src;
                m.dstKind = shape.dst;
                m.srcDevice = d;
                m.dstDevice = d;
                const TimeNs end =
                    gpuStart + 1000 + static_cast<TimeNs>(m.bytes) / shape.bandwidthGBps;
                b.addMemcpy(streamTracks[d][s], gpuStart, end, shape.name, corr, m);
                streamNow = end;
                apiName = "cudaMemcpyAsync";
                api.callbackId = 41;
                break;
            }
            case OpKind::Memset: {
                model::MemsetDetail m;
                m.bytes = static_cast<std::uint64_t>(uniform(1, 1 << 18) * 4);
                m.memoryKind = model::MemoryKind::Device;
                const TimeNs end = gpuStart + 800 + static_cast<TimeNs>(m.bytes) / 900;
                b.addMemset(streamTracks[d][s], gpuStart, end, "Memset (Device)", corr, m);
                streamNow = end;
                apiName = "cudaMemsetAsync";
                api.callbackId = 51;
                break;
            }
            case OpKind::Sync: {
                // The host waits for everything queued on this stream.
                model::SyncDetail sync;
                sync.syncKind = model::SyncKind::StreamSynchronize;
                sync.streamId = 7 + 10 * s;
                const TimeNs waitEnd = std::max(apiStart + 1500, streamNow + uniform(500, 2000));
                b.addSync(syncTracks[d], apiStart + 700, waitEnd - 300, "Stream Sync", corr, sync);
                apiName = "cudaStreamSynchronize";
                api.callbackId = 131;
                if (spec.launchApiCalls) {
                    b.addApi(apiTracks[d], apiStart, waitEnd, apiName, corr, api);
                }
                hostNow = waitEnd;
                continue;
            }
        }
        if (spec.launchApiCalls) {
            b.addApi(apiTracks[d], apiStart, apiEnd, apiName, corr, api);
        }
        hostNow = apiEnd;
    }

    // NVTX: equal top-level ranges over each host thread's time, each with one nested child.
    const std::size_t parents = (spec.nvtxRanges + 1) / 2;
    for (std::size_t i = 0; i < parents; ++i) {
        const int d = static_cast<int>(i % devices);
        const std::size_t perDevice = (parents + devices - 1) / devices;
        const std::size_t slot = i / devices;
        const TimeNs span = std::max<TimeNs>(hostCursor[d] - kClockBase, 1000 * perDevice);
        const TimeNs start =
            kClockBase + span * static_cast<TimeNs>(slot) / static_cast<TimeNs>(perDevice);
        const TimeNs end =
            kClockBase + span * static_cast<TimeNs>(slot + 1) / static_cast<TimeNs>(perDevice) - 1;
        model::NvtxDetail parent;
        parent.colorArgb = 0xff4c9f38u;
        b.addNvtx(nvtxTracks[d], start, end, "iteration " + std::to_string(slot), parent);
        if (2 * i + 1 < spec.nvtxRanges) {
            model::NvtxDetail child;
            child.colorArgb = 0xffd2691eu;
            child.category = 1;
            b.addNvtx(nvtxTracks[d], start + (end - start) / 4, start + (end - start) / 2,
                      "compute", child);
        }
    }

    // Counters: evenly spaced samples of SM activity on each device.
    for (int d = 0; d < devices && spec.counterSamples > 0; ++d) {
        const auto counter = b.counterTrack(gpus[d], "GPU metrics", "sm active %", "%");
        const std::size_t n = spec.counterSamples / devices +
                              (static_cast<std::size_t>(d) < spec.counterSamples % devices);
        const TimeNs span = std::max<TimeNs>(hostCursor[d] - kClockBase, 1);
        for (std::size_t i = 0; i < n; ++i) {
            const TimeNs t = kClockBase + span * static_cast<TimeNs>(i) / static_cast<TimeNs>(n);
            b.addCounterSample(counter, t, static_cast<double>(uniform(0, 1000)) / 10.0);
        }
    }
    return b.finalize();
}

model::TracePtr makeCrossDeviceWaitTrace() {
    constexpr model::TimeNs kUs = 1000;  // gaps over the 20 µs threshold
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "app");
    const auto gpu0 = b.gpuProcess(0, "GPU 0");
    const auto gpu1 = b.gpuProcess(1, "GPU 1");
    const auto api = b.hostApiTrack(host, 100);
    b.addApi(api, 0 * kUs, 10 * kUs, "cudaLaunchKernel", 1, {});
    b.addApi(api, 20 * kUs, 30 * kUs, "cudaLaunchKernel", 2, {});
    b.addApi(api, 40 * kUs, 50 * kUs, "cudaEventRecord", 3, {});
    b.addApi(api, 60 * kUs, 70 * kUs, "cudaStreamWaitEvent", 4, {});
    b.addApi(api, 80 * kUs, 90 * kUs, "cudaLaunchKernel", 5, {});
    b.addKernel(b.gpuStreamTrack(gpu0, 7), 100 * kUs, 200 * kUs, "early", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu1, 27), 100 * kUs, 1000 * kUs, "producer", 2, {});
    b.addKernel(b.gpuStreamTrack(gpu0, 7), 1010 * kUs, 1100 * kUs, "consumer", 5, {});
    model::SyncDetail wait;
    wait.syncKind = model::SyncKind::StreamWaitEvent;
    wait.streamId = 7;
    wait.eventId = 9;
    wait.recordStreamId = 27;
    wait.recordCorrelationId = 3;
    b.addSync(b.syncTrack(gpu0), 60 * kUs, 70 * kUs, "Stream Wait Event", 4, wait);
    return b.finalize();
}

model::TracePtr makeGraphLaunchTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 100);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    b.addApi(api, 0, 10, "cudaGraphLaunch", 10, {});
    b.addApi(api, 20, 30, "cudaGraphLaunch", 20, {});
    model::KernelDetail k;
    k.graph = {4, 1};
    b.addKernel(stream, 100, 150, "a", 10, k);
    b.addKernel(stream, 300, 350, "a", 20, k);
    k.graph = {4, 2};
    b.addKernel(stream, 160, 200, "b", 10, k);
    b.addKernel(stream, 320, 400, "b2", 20, k);
    return b.finalize();
}

model::TracePtr makeEventWaitTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 100);
    b.addApi(api, 0, 10, "cudaLaunchKernel", 1, {});
    b.addApi(api, 20, 30, "cudaEventRecord", 2, {});
    b.addApi(api, 40, 50, "cudaStreamWaitEvent", 3, {});
    b.addApi(api, 60, 70, "cudaLaunchKernel", 4, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 500, "producer", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 9), 510, 900, "consumer", 4, {});
    model::SyncDetail wait;
    wait.syncKind = model::SyncKind::StreamWaitEvent;
    wait.streamId = 9;
    wait.eventId = 5;
    wait.recordStreamId = 7;
    wait.recordCorrelationId = 2;
    b.addSync(b.syncTrack(gpu), 40, 50, "Stream Wait Event", 3, wait);
    return b.finalize();
}

}  // namespace wl::test
