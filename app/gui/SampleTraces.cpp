#include "app/gui/SampleTraces.h"

#include <QDir>
#include <string>

#include "model/TraceBuilder.h"

// resources.qrc lives in the static library wl_app: nothing would pull its registration into
// the executable without this call, which must be made outside any namespace.
static void initWarplineResources() {
    Q_INIT_RESOURCE(resources);
}

namespace wl::app {

void registerResources() {
    static const bool registered = [] {
        initWarplineResources();
        return true;
    }();
    static_cast<void>(registered);
}

QStringList bundledSamples() {
    registerResources();
    QStringList names = QDir(QStringLiteral(":/samples"))
                            .entryList({QStringLiteral("*.json.gz"), QStringLiteral("*.json")},
                                       QDir::Files, QDir::Name);
    // The async reduce run shows the most at a glance: streams, overlap, NVTX.
    std::stable_sort(names.begin(), names.end(), [](const QString& a, const QString& b) {
        auto rank = [](const QString& n) {
            return (n.contains(QLatin1String("reduce")) ? 0 : 4) +
                   (n.contains(QLatin1String("async")) ? 0 : 2) +
                   (n.contains(QLatin1String("bug")) ? 1 : 0);
        };
        return rank(a) < rank(b);
    });
    QStringList paths;
    for (const QString& n : names)
        paths << QStringLiteral(":/samples/") + n;
    return paths;
}

std::vector<SamplePair> bundledSamplePairs() {
    registerResources();
    struct Pair {
        const char* title;
        const char* first;
        const char* second;
    };
    static constexpr Pair kPairs[] = {
        {"Reduce: pageable vs pinned (baseline)", "reduce-baseline-pageable",
         "reduce-baseline-pinned"},
        {"Reduce: baseline vs async (8 streams)", "reduce-baseline-pinned",
         "reduce-async-8streams-repeat50"},
        {"Reduce: async vs the shared-stream bug", "reduce-async-8streams-repeat50",
         "reduce-async-8streams-repeat50-shared-stream-bug"},
        {"Power iteration: baseline vs async", "power-baseline-pinned",
         "power-async-2streams-pinned"},
        {"Power iteration: async vs CUDA graphs", "power-async-2streams-pinned",
         "power-graph-2streams-pinned"},
    };
    const QStringList bundled = bundledSamples();
    auto pathOf = [&](const char* stem) {
        const QString path = QStringLiteral(":/samples/%1.json.gz").arg(QLatin1String(stem));
        return bundled.contains(path) ? path : QString();
    };
    std::vector<SamplePair> out;
    for (const Pair& p : kPairs) {
        const QString first = pathOf(p.first);
        const QString second = pathOf(p.second);
        if (!first.isEmpty() && !second.isEmpty())
            out.push_back({QString::fromLatin1(p.title), first, second});
    }
    return out;
}

model::TracePtr syntheticSampleTrace() {
    using model::TimeNs;
    constexpr TimeNs kBase = 1'000'000'000'000;  // producer clock at the start
    constexpr TimeNs kUs = 1'000;
    constexpr int kStreams = 4;
    constexpr std::uint64_t kChunkBytes = 25'000'000ull * 4;  // 25M floats per stream
    constexpr TimeNs kCopyNs = 4'000 * kUs;                   // 100 MB at 25 GB/s
    constexpr TimeNs kReduceNs = 520 * kUs;
    constexpr TimeNs kSingleNs = 310 * kUs;
    constexpr TimeNs kDivideNs = 640 * kUs;

    model::TraceBuilder b;
    const auto host = b.hostProcess(4242, "warpline (reduce)");
    const auto gpu = b.gpuProcess(0, "GPU 0: NVIDIA H100 80GB HBM3");
    const auto api = b.hostApiTrack(host, 4242);
    const auto nvtx = b.nvtxTrack(host, 4242);
    const auto sync = b.syncTrack(gpu);
    std::vector<model::TrackIndex> streams;
    for (int i = 0; i < kStreams; ++i)
        streams.push_back(b.gpuStreamTrack(gpu, 13 + i));

    model::DeviceProperties dev;
    dev.id = 0;
    dev.name = "NVIDIA H100 80GB HBM3";
    dev.computeMajor = 9;
    dev.smCount = 132;
    dev.maxThreadsPerBlock = 1024;
    dev.maxThreadsPerSm = 2048;
    dev.maxBlocksPerSm = 32;
    dev.maxWarpsPerSm = 64;
    dev.registersPerSm = 65536;
    dev.registersPerBlock = 65536;
    dev.sharedMemoryPerSmBytes = 233472;
    dev.sharedMemoryPerBlockBytes = 49152;
    dev.sharedMemoryPerBlockOptinBytes = 232448;
    dev.totalMemoryBytes = 85'000'000'000;
    dev.pcieGeneration = 5;
    dev.pcieLinkWidth = 16;
    dev.memoryBandwidthGBps = 3350.0;
    b.addDevice(dev);
    b.setMetadata("producer", "warpline synthetic sample");
    b.setMetadata("workload", "reduce");
    b.setMetadata("mode", "async");
    b.setMetadata("streams", std::to_string(kStreams));
    b.setMetadata("pinned", "true");

    model::ApiDetail runtime;
    std::uint64_t correlation = 100;
    TimeNs hostNs = kBase + 50 * kUs;
    TimeNs h2dEngineFree = kBase;  // copies in one direction share a copy engine
    TimeNs d2hEngineFree = kBase;
    auto apiCall = [&](const char* name, TimeNs durationNs) {
        const std::uint64_t id = ++correlation;
        b.addApi(api, hostNs, hostNs + durationNs, name, id, runtime);
        const TimeNs start = hostNs;
        hostNs += durationNs + 2 * kUs;
        return std::pair{id, start};
    };

    model::MemcpyDetail h2d{kChunkBytes, model::CopyKind::HostToDevice, model::MemoryKind::Pinned,
                            model::MemoryKind::Device};
    model::MemcpyDetail d2hSum{4, model::CopyKind::DeviceToHost, model::MemoryKind::Device,
                               model::MemoryKind::Pinned};
    model::MemcpyDetail h2dSum{4, model::CopyKind::HostToDevice, model::MemoryKind::Pinned,
                               model::MemoryKind::Device};
    model::MemcpyDetail d2h{kChunkBytes, model::CopyKind::DeviceToHost, model::MemoryKind::Device,
                            model::MemoryKind::Pinned};
    model::KernelDetail reduce;
    reduce.grid = {1280, 1, 1};
    reduce.block = {256, 1, 1};
    reduce.registersPerThread = 16;
    reduce.staticSharedBytes = 1024;
    model::KernelDetail single;
    single.registersPerThread = 8;
    model::KernelDetail divide;
    divide.grid = {97657, 1, 1};
    divide.block = {256, 1, 1};
    divide.registersPerThread = 10;

    const TimeNs kernelsStart = hostNs;
    std::vector<TimeNs> streamFree(kStreams, kBase);
    for (int i = 0; i < kStreams; ++i) {
        const std::string n = std::to_string(i);
        const TimeNs rangeStart = hostNs;
        auto [copyId, copyCall] = apiCall("cudaMemcpyAsync", 9 * kUs);
        const TimeNs copyStart = std::max({copyCall + 4 * kUs, h2dEngineFree, streamFree[i]});
        b.addMemcpy(streams[i], copyStart, copyStart + kCopyNs, "Memcpy HtoD (Pinned -> Device)",
                    copyId, h2d);
        h2dEngineFree = streamFree[i] = copyStart + kCopyNs;
        b.addNvtx(nvtx, rangeStart, hostNs, "H2D Memory Stream " + n, {0xFF4C9BE8u});

        const TimeNs sumStart = hostNs;
        auto [reduceId, reduceCall] = apiCall("cudaLaunchKernel", 5 * kUs);
        const TimeNs reduceStart = std::max(reduceCall + 6 * kUs, streamFree[i]);
        b.addKernel(streams[i], reduceStart, reduceStart + kReduceNs, "partial_reduce", reduceId,
                    reduce);
        auto [singleId, singleCall] = apiCall("cudaLaunchKernel", 4 * kUs);
        const TimeNs singleStart = std::max(singleCall + 6 * kUs, reduceStart + kReduceNs + kUs);
        b.addKernel(streams[i], singleStart, singleStart + kSingleNs, "single_thread_sum", singleId,
                    single);
        streamFree[i] = singleStart + kSingleNs;
        b.addNvtx(nvtx, sumStart, hostNs, "Sum Kernels Stream " + n, {0xFF76B900u});

        auto [sumCopyId, sumCopyCall] = apiCall("cudaMemcpyAsync", 7 * kUs);
        const TimeNs sumCopyStart = std::max({sumCopyCall + 4 * kUs, streamFree[i], d2hEngineFree});
        b.addMemcpy(streams[i], sumCopyStart, sumCopyStart + 2 * kUs,
                    "Memcpy DtoH (Device -> Pinned)", sumCopyId, d2hSum);
        d2hEngineFree = streamFree[i] = sumCopyStart + 2 * kUs;
    }
    // The host waits for every partial sum.
    const TimeNs allSums = *std::max_element(streamFree.begin(), streamFree.end());
    {
        const TimeNs start = hostNs;
        const TimeNs end = allSums + 8 * kUs;
        const std::uint64_t id = ++correlation;
        b.addApi(api, start, end, "cudaDeviceSynchronize", id, runtime);
        b.addSync(sync, start + 3 * kUs, end - 2 * kUs, "Context Sync", id,
                  {model::SyncKind::ContextSynchronize, -1, 0});
        hostNs = end + 20 * kUs;  // the host adds the partial sums
    }
    b.addNvtx(nvtx, kernelsStart, hostNs, "Kernels", {0xFFE8A33Cu});

    const TimeNs divideRange = hostNs;
    for (int i = 0; i < kStreams; ++i) {
        const std::string n = std::to_string(i);
        const TimeNs rangeStart = hostNs;
        auto [totalId, totalCall] = apiCall("cudaMemcpyAsync", 6 * kUs);
        const TimeNs totalStart = std::max({totalCall + 4 * kUs, streamFree[i], h2dEngineFree});
        b.addMemcpy(streams[i], totalStart, totalStart + 2 * kUs, "Memcpy HtoD (Pinned -> Device)",
                    totalId, h2dSum);
        h2dEngineFree = streamFree[i] = totalStart + 2 * kUs;
        auto [divId, divCall] = apiCall("cudaLaunchKernel", 5 * kUs);
        const TimeNs divStart = std::max(divCall + 6 * kUs, streamFree[i]);
        b.addKernel(streams[i], divStart, divStart + kDivideNs, "divide_by", divId, divide);
        streamFree[i] = divStart + kDivideNs;
        b.addNvtx(nvtx, rangeStart, hostNs, "Divide Kernel Stream " + n, {0xFF76B900u});
        const TimeNs copyRange = hostNs;
        auto [backId, backCall] = apiCall("cudaMemcpyAsync", 9 * kUs);
        const TimeNs backStart = std::max({backCall + 4 * kUs, streamFree[i], d2hEngineFree});
        b.addMemcpy(streams[i], backStart, backStart + kCopyNs, "Memcpy DtoH (Device -> Pinned)",
                    backId, d2h);
        d2hEngineFree = streamFree[i] = backStart + kCopyNs;
        b.addNvtx(nvtx, copyRange, hostNs, "D2H Memory Stream " + n, {0xFFD9534Fu});
    }
    const TimeNs allDone = *std::max_element(streamFree.begin(), streamFree.end());
    {
        const TimeNs start = hostNs;
        const TimeNs end = allDone + 8 * kUs;
        const std::uint64_t id = ++correlation;
        b.addApi(api, start, end, "cudaDeviceSynchronize", id, runtime);
        b.addSync(sync, start + 3 * kUs, end - 2 * kUs, "Context Sync", id,
                  {model::SyncKind::ContextSynchronize, -1, 0});
        hostNs = end + 5 * kUs;
    }
    b.addNvtx(nvtx, divideRange, hostNs, "D2H Memory", {0xFFD9534Fu});
    return b.finalize();
}

}  // namespace wl::app
