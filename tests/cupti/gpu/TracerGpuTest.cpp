// The tracer on a real GPU: known work must come back as exactly that work (kinds, streams,
// nesting, flows, no lost records), repeated runs in one process must work, and a million launches
// must all be traced and matched to their API calls. Skips without a device.
#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "GpuTestSupport.h"

#include "TracerTestKernels.h"
#include "analysis/Analysis.h"
#include "cupti/CuptiTracer.h"

namespace wl::cupti {
namespace {

using model::SliceKind;
using model::TrackKind;

using wl::test::haveGpu;

#define SKIP_WITHOUT_GPU()                    \
    do {                                      \
        if (!haveGpu()) {                     \
            GTEST_SKIP() << "no CUDA device"; \
        }                                     \
    } while (0)

std::vector<const model::Track*> tracksOf(const model::Trace& trace, TrackKind kind) {
    std::vector<const model::Track*> out;
    for (const auto& track : trace.tracks()) {
        if (track.kind == kind) {
            out.push_back(&track);
        }
    }
    return out;
}

void printTracks(const model::Trace& trace) {
    for (const auto& track : trace.tracks()) {
        std::printf(
            "  track kind=%d device=%d stream=%lld thread=%lld name='%s' domain='%s' slices=%zu\n",
            static_cast<int>(track.kind), track.deviceId, static_cast<long long>(track.streamId),
            static_cast<long long>(track.threadId), std::string(trace.str(track.nameId)).c_str(),
            std::string(trace.str(track.domainId)).c_str(), track.slices.size());
    }
    std::printf("  default streams: %s\n",
                trace.metadataValue("default streams", "identified").c_str());
    const auto& d = trace.diagnostics();
    std::printf(
        "  diagnostics: dropped=%llu invalid=%llu unknown=%llu unmatched=%llu warnings=%llu\n",
        static_cast<unsigned long long>(d.droppedRecords),
        static_cast<unsigned long long>(d.invalidTimestamps),
        static_cast<unsigned long long>(d.unknownRecords),
        static_cast<unsigned long long>(d.unmatchedEnds),
        static_cast<unsigned long long>(d.warningCount));
    for (const auto& w : d.warnings) {
        std::printf("  warning: %s\n", w.c_str());
    }
}

nvtxEventAttributes_t colored(const char* message, std::uint32_t argb) {
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    return a;
}

class TracerGpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!haveGpu()) {
            return;
        }
        CuptiTracer::ensureNvtxInjection();  // before this process's first NVTX call
        ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
        // Context and module loaded before tracing, so the counts below are exact.
        ASSERT_EQ(test::launchTracerSpin(nullptr, 1, 32, 1000, nullptr), cudaSuccess);
        ASSERT_EQ(test::launchTracerEmpty(nullptr), cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    }
};

constexpr int kStreams = 4;
constexpr int kKernelsPerStream = 6;
constexpr std::size_t kBytes = 1 << 20;
constexpr std::uint32_t kOuterColor = 0xFF3366CCu;
constexpr std::uint32_t kInnerColor = 0xFF00AA00u;
constexpr std::uint32_t kDomainColor = 0xFFAA0000u;

TEST_F(TracerGpuTest, KnownWorkYieldsExactlyThatTrace) {
    SKIP_WITHOUT_GPU();
    void* device = nullptr;
    void* pinned = nullptr;
    std::vector<char> pageable(kBytes, 1);
    ASSERT_EQ(cudaMalloc(&device, kBytes), cudaSuccess);
    ASSERT_EQ(cudaMallocHost(&pinned, kBytes), cudaSuccess);

    CuptiTracer tracer;
    const model::Status started = tracer.start();
    ASSERT_TRUE(started.ok()) << started.error().message;

    const auto mainTid = static_cast<std::uint32_t>(syscall(SYS_gettid));
    nvtxNameOsThreadA(mainTid, "tracer-test-main");
    nvtxDomainHandle_t domain = nvtxDomainCreateA("warpline-test");
    cudaStream_t streams[kStreams];
    for (auto& s : streams) {
        ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    }

    auto outer = colored("known work", kOuterColor);
    nvtxRangePushEx(&outer);
    auto inner = colored("launch kernels", kInnerColor);
    nvtxRangePushEx(&inner);
    for (int k = 0; k < kKernelsPerStream; ++k) {
        for (auto& s : streams) {
            ASSERT_EQ(test::launchTracerSpin(s, 2, 64, 20000, nullptr), cudaSuccess);
        }
    }
    nvtxRangePop();

    auto copies = colored("copies", kDomainColor);
    nvtxDomainRangePushEx(domain, &copies);
    ASSERT_EQ(cudaMemcpyAsync(device, pinned, kBytes, cudaMemcpyHostToDevice, streams[0]),
              cudaSuccess);
    ASSERT_EQ(cudaMemsetAsync(device, 0, kBytes, streams[1]), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(pageable.data(), device, kBytes, cudaMemcpyDeviceToHost), cudaSuccess);
    nvtxDomainRangePop(domain);

    const nvtxRangeId_t crossing = nvtxRangeStartA("cross-thread");
    std::thread([crossing] {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        nvtxRangeEnd(crossing);
    }).join();
    nvtxMarkA("checkpoint");

    ASSERT_EQ(cudaStreamSynchronize(streams[0]), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    nvtxRangePop();

    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    for (auto& s : streams) {
        cudaStreamDestroy(s);
    }
    cudaFree(device);
    cudaFreeHost(pinned);
    const model::Trace& trace = *result.value();
    printTracks(trace);

    const auto& diag = trace.diagnostics();
    EXPECT_EQ(diag.droppedRecords, 0u);
    EXPECT_EQ(diag.invalidTimestamps, 0u);

    // Kernels: exactly kKernelsPerStream on each of kStreams stream rows, each launched by a
    // cudaLaunchKernel call it is linked to.
    std::map<std::int64_t, int> kernelsPerStream;
    std::int64_t copyStreamId = -1;
    int memcpys = 0;
    int memsets = 0;
    for (const auto* track : tracksOf(trace, TrackKind::GpuStream)) {
        EXPECT_EQ(track->deviceId, 0);
        for (std::uint32_t i = 0; i < track->slices.size(); ++i) {
            const model::Slice& s = track->slices[i];
            const model::SliceRef ref{static_cast<std::uint32_t>(track - trace.tracks().data()), i};
            if (s.kind == SliceKind::Kernel) {
                EXPECT_NE(trace.str(s.nameId).find("tracer_spin"), std::string_view::npos);
                ++kernelsPerStream[track->streamId];
                const model::Flow* flow = trace.flowTo(ref);
                ASSERT_NE(flow, nullptr) << "kernel without its launch";
                const model::Slice& launch = trace.slice(flow->from);
                EXPECT_EQ(launch.kind, SliceKind::RuntimeApi);
                EXPECT_EQ(trace.str(launch.nameId).rfind("cudaLaunchKernel", 0), 0u);
                EXPECT_EQ(launch.correlationId, s.correlationId);
                EXPECT_LE(launch.startNs, s.startNs);
            } else if (s.kind == SliceKind::Memcpy) {
                ++memcpys;
                const auto* m = trace.memcpy(s);
                ASSERT_NE(m, nullptr);
                EXPECT_EQ(m->bytes, kBytes);
                if (m->copyKind == model::CopyKind::HostToDevice) {
                    EXPECT_EQ(m->srcKind, model::MemoryKind::Pinned);
                    EXPECT_EQ(m->dstKind, model::MemoryKind::Device);
                    copyStreamId = track->streamId;
                } else {
                    EXPECT_EQ(m->copyKind, model::CopyKind::DeviceToHost);
                    EXPECT_EQ(m->srcKind, model::MemoryKind::Device);
                    EXPECT_EQ(m->dstKind, model::MemoryKind::Pageable);
                    EXPECT_EQ(trace.str(track->nameId).rfind("Default stream (legacy", 0), 0u);
                    std::printf("  blocking D2H ran on '%s'\n",
                                std::string(trace.str(track->nameId)).c_str());
                }
                EXPECT_NE(trace.flowTo(ref), nullptr);
            } else if (s.kind == SliceKind::Memset) {
                ++memsets;
                ASSERT_NE(trace.memset(s), nullptr);
                EXPECT_EQ(trace.memset(s)->bytes, kBytes);
            }
        }
    }
    ASSERT_EQ(kernelsPerStream.size(), static_cast<std::size_t>(kStreams));
    for (const auto& [stream, count] : kernelsPerStream) {
        EXPECT_EQ(count, kKernelsPerStream) << "stream " << stream;
    }
    EXPECT_EQ(memcpys, 2);
    EXPECT_EQ(memsets, 1);
    EXPECT_EQ(trace.counts().kernel, static_cast<std::uint64_t>(kStreams * kKernelsPerStream));
    EXPECT_TRUE(kernelsPerStream.count(copyStreamId)) << "the async copy ran on a stream of ours";

    // Synchronisations: the stream sync names the copy stream; the device sync is a context sync.
    bool streamSync = false;
    bool contextSync = false;
    for (const auto* track : tracksOf(trace, TrackKind::Sync)) {
        for (const auto& s : track->slices) {
            const auto* d = trace.sync(s);
            ASSERT_NE(d, nullptr);
            if (d->syncKind == model::SyncKind::StreamSynchronize && d->streamId == copyStreamId) {
                streamSync = true;
            }
            contextSync |= d->syncKind == model::SyncKind::ContextSynchronize;
        }
    }
    EXPECT_TRUE(streamSync);
    EXPECT_TRUE(contextSync);

    // NVTX: nesting and colours per domain, the mark, and the range that crossed threads.
    std::map<std::string, std::pair<const model::Slice*, const model::Track*>> ranges;
    for (const auto& track : trace.tracks()) {
        if (track.kind != TrackKind::Nvtx && track.kind != TrackKind::NvtxAsync) {
            continue;
        }
        for (const auto& s : track.slices) {
            ranges[std::string(trace.str(s.nameId))] = {&s, &track};
        }
    }
    ASSERT_TRUE(ranges.count("known work"));
    ASSERT_TRUE(ranges.count("launch kernels"));
    ASSERT_TRUE(ranges.count("copies"));
    ASSERT_TRUE(ranges.count("cross-thread"));
    ASSERT_TRUE(ranges.count("checkpoint"));
    const auto& [outerSlice, outerTrack] = ranges["known work"];
    const auto& [innerSlice, innerTrack] = ranges["launch kernels"];
    EXPECT_EQ(outerTrack, innerTrack);
    EXPECT_EQ(outerTrack->kind, TrackKind::Nvtx);
    EXPECT_EQ(outerSlice->depth, 0);
    EXPECT_EQ(innerSlice->depth, 1);
    EXPECT_EQ(trace.nvtx(*outerSlice)->colorArgb, kOuterColor);
    EXPECT_EQ(trace.nvtx(*innerSlice)->colorArgb, kInnerColor);
    EXPECT_LE(outerSlice->startNs, innerSlice->startNs);
    EXPECT_GE(outerSlice->endNs(), innerSlice->endNs());
    const auto& [copiesSlice, copiesTrack] = ranges["copies"];
    EXPECT_EQ(trace.str(copiesTrack->domainId), "warpline-test");
    EXPECT_EQ(trace.nvtx(*copiesSlice)->colorArgb, kDomainColor);
    EXPECT_NE(copiesTrack, outerTrack);
    const auto& [crossSlice, crossTrack] = ranges["cross-thread"];
    EXPECT_EQ(crossTrack->kind, TrackKind::NvtxAsync);
    EXPECT_GE(crossSlice->durationNs, 2 * model::kNsPerMs);
    EXPECT_EQ(ranges["checkpoint"].first->durationNs, 0);
    EXPECT_EQ(diag.unmatchedEnds, 0u);

    // The thread name given through NVTX names the thread's rows.
    bool named = false;
    for (const auto* track : tracksOf(trace, TrackKind::HostApi)) {
        named |= trace.str(track->nameId).find("tracer-test-main") != std::string_view::npos;
    }
    EXPECT_TRUE(named);

    const model::DeviceProperties* props = trace.device(0);
    ASSERT_NE(props, nullptr);
    EXPECT_FALSE(props->name.empty());
    EXPECT_GT(props->smCount, 0);
    EXPECT_GT(props->maxWarpsPerSm, 0);
    EXPECT_GT(props->registersPerSm, 0);
    EXPECT_GT(props->memoryBandwidthGBps, 100.0);
    std::printf("  device 0: %s, %d SMs, %d warps/SM, %.0f GB/s\n", props->name.c_str(),
                props->smCount, props->maxWarpsPerSm, props->memoryBandwidthGBps);
}

TEST_F(TracerGpuTest, RepeatedRunsInOneProcess) {
    SKIP_WITHOUT_GPU();
    CuptiTracer tracer;
    for (int run = 1; run <= 3; ++run) {
        ASSERT_TRUE(tracer.start().ok()) << "run " << run;
        for (int i = 0; i < 10 * run; ++i) {
            ASSERT_EQ(test::launchTracerEmpty(nullptr), cudaSuccess);
        }
        auto trace = tracer.stop();
        ASSERT_TRUE(trace.ok()) << trace.error().message;
        EXPECT_EQ(trace.value()->counts().kernel, static_cast<std::uint64_t>(10 * run));
        EXPECT_EQ(trace.value()->diagnostics().droppedRecords, 0u);
    }
}

// NVTX ranges and marks whose message is a registered string (nvtxDomainRegisterStringA: what
// NVTX's C++ API and libraries that annotate every call use) are named by that string.
TEST_F(TracerGpuTest, RegisteredNvtxStringsNameTheirRanges) {
    SKIP_WITHOUT_GPU();
    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    nvtxDomainHandle_t domain = nvtxDomainCreateA("warpline-registered");
    const nvtxStringHandle_t rangeName = nvtxDomainRegisterStringA(domain, "registered range");
    const nvtxStringHandle_t markName = nvtxDomainRegisterStringA(domain, "registered mark");
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = rangeName;
    nvtxDomainRangePushEx(domain, &a);
    ASSERT_EQ(test::launchTracerEmpty(nullptr), cudaSuccess);
    a.message.registered = markName;
    nvtxDomainMarkEx(domain, &a);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    nvtxDomainRangePop(domain);
    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    const model::Trace& trace = *result.value();
    std::vector<std::string> names;
    for (const auto& track : trace.tracks()) {
        if (track.kind == TrackKind::Nvtx && trace.str(track.domainId) == "warpline-registered") {
            for (const model::Slice& s : track.slices) {
                names.emplace_back(trace.str(s.nameId));
                std::printf("  registered-domain slice '%s' (%lld ns)\n", names.back().c_str(),
                            static_cast<long long>(s.durationNs));
            }
        }
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"registered mark", "registered range"}));
}

// cudaEventRecord on stream A, cudaStreamWaitEvent on stream B and cudaEventSynchronize on the
// host: the trace ties the op before the record to the op after the wait and to the host's call.
TEST_F(TracerGpuTest, EventWaitsBecomeDependenciesBetweenTheRightOps) {
    SKIP_WITHOUT_GPU();
    cudaStream_t a = nullptr;
    cudaStream_t b = nullptr;
    cudaEvent_t e = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), cudaSuccess);
    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    ASSERT_EQ(test::launchTracerSpin(a, 1, 32, 20'000'000, nullptr), cudaSuccess);  // ~10 ms
    ASSERT_EQ(cudaEventRecord(e, a), cudaSuccess);
    ASSERT_EQ(test::launchTracerEmpty(a), cudaSuccess);  // after the record: not waited for
    ASSERT_EQ(cudaStreamWaitEvent(b, e, 0), cudaSuccess);
    ASSERT_EQ(test::launchTracerEmpty(b), cudaSuccess);
    ASSERT_EQ(cudaEventSynchronize(e), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    const model::Trace& trace = *result.value();
    cudaEventDestroy(e);
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);

    ASSERT_EQ(trace.dependencies().size(), 2u)
        << "sync records with event ids: " << trace.counts().sync;
    bool gpuWaiter = false;
    bool hostWaiter = false;
    for (const model::Dependency& d : trace.dependencies()) {
        const model::Slice& from = trace.slice(d.from);
        const model::Slice& to = trace.slice(d.to);
        std::printf("  dependency: %s -> %s\n", std::string(trace.str(from.nameId)).c_str(),
                    std::string(trace.str(to.nameId)).c_str());
        // Names are CUPTI's demangled signatures: "tracer_spin(long long, float*)".
        EXPECT_EQ(trace.str(from.nameId).rfind("tracer_spin", 0), 0u);
        if (to.kind == SliceKind::Kernel) {
            gpuWaiter = true;
            EXPECT_EQ(trace.str(to.nameId).rfind("tracer_empty", 0), 0u);
            EXPECT_NE(d.to.track, d.from.track);  // the other stream
            EXPECT_GE(to.startNs, from.endNs());  // it did wait
        } else {
            hostWaiter = true;
            EXPECT_EQ(to.kind, SliceKind::RuntimeApi);
            EXPECT_EQ(trace.str(to.nameId).rfind("cudaEventSynchronize", 0), 0u);
            EXPECT_GE(to.endNs(), from.endNs());
        }
    }
    EXPECT_TRUE(gpuWaiter);
    EXPECT_TRUE(hostWaiter);
}

// A graph captured from two streams (a fork and a join) with three kernels and a memset, launched
// five times: every node carries its graph and node ids and a launch arrow from cudaGraphLaunch,
// and nodes that run at once are no overlap warning.
TEST_F(TracerGpuTest, GraphNodesAreTiedToTheirLaunchWithoutOverlapWarnings) {
    SKIP_WITHOUT_GPU();
    cudaStream_t s = nullptr;
    cudaStream_t side = nullptr;
    cudaEvent_t fork = nullptr;
    cudaEvent_t join = nullptr;
    void* buffer = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming), cudaSuccess);
    ASSERT_EQ(cudaEventCreateWithFlags(&join, cudaEventDisableTiming), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&buffer, 4096), cudaSuccess);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ASSERT_EQ(test::launchTracerSpin(s, 1, 32, 400'000, nullptr), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(fork, s), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(side, fork, 0), cudaSuccess);
    ASSERT_EQ(test::launchTracerSpin(side, 1, 32, 400'000, nullptr), cudaSuccess);
    ASSERT_EQ(test::launchTracerSpin(s, 1, 32, 400'000, nullptr), cudaSuccess);
    ASSERT_EQ(cudaEventRecord(join, side), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(s, join, 0), cudaSuccess);
    ASSERT_EQ(cudaMemsetAsync(buffer, 0, 4096, s), cudaSuccess);
    ASSERT_EQ(cudaStreamEndCapture(s, &graph), cudaSuccess);
    ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    for (int i = 0; i < 5; ++i)
        ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    const model::Trace& trace = *result.value();
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(buffer);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(s);
    cudaStreamDestroy(side);

    EXPECT_EQ(trace.counts().kernel, 15u);
    EXPECT_EQ(trace.counts().memset, 5u);
    for (const std::string& w : trace.diagnostics().warnings) {
        std::printf("  warning: %s\n", w.c_str());
        EXPECT_EQ(w.find("did not nest"), std::string::npos) << w;
    }
    std::size_t nodes = 0;
    std::size_t concurrent = 0;
    for (std::uint32_t ti = 0; ti < trace.tracks().size(); ++ti) {
        const model::Track& track = trace.track(ti);
        if (track.kind != TrackKind::GpuStream)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const model::Slice& op = track.slices[si];
            const model::GraphNode* g = nullptr;
            if (const auto* k = trace.kernel(op))
                g = &k->graph;
            else if (const auto* m = trace.memset(op))
                g = &m->graph;
            ASSERT_NE(g, nullptr);
            EXPECT_NE(g->graphId, 0u);
            EXPECT_NE(g->nodeId, 0u);
            const model::Flow* launch = trace.flowTo({ti, si});
            ASSERT_NE(launch, nullptr) << "node without its launch";
            EXPECT_EQ(trace.str(trace.slice(launch->from).nameId).rfind("cudaGraphLaunch", 0), 0u);
            concurrent += (op.flags & model::kSliceConcurrentInLaunch) ? 1 : 0;
            ++nodes;
        }
    }
    EXPECT_EQ(nodes, 20u);
    std::printf("  %zu graph nodes, %zu ran beside another node of their launch\n", nodes,
                concurrent);
}

// cudaMalloc/cudaFree around a kernel, eight times, then the same with cudaMallocAsync and
// cudaFreeAsync: every allocation and release is on the device's memory row with the call that
// made it, the device memory in use comes back to where it started, the pool shows what it holds,
// and the analysis names the allocation in the loop.
TEST_F(TracerGpuTest, AllocationsInALoopMakeTheMemoryRowAndTheRuleFire) {
    SKIP_WITHOUT_GPU();
    constexpr std::size_t kMiB = 1 << 20;
    constexpr int kRounds = 8;
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    for (int i = 0; i < kRounds; ++i) {
        void* p = nullptr;
        ASSERT_EQ(cudaMalloc(&p, kMiB), cudaSuccess);
        ASSERT_EQ(test::launchTracerSpin(s, 1, 32, 200'000, nullptr), cudaSuccess);
        ASSERT_EQ(cudaFree(p), cudaSuccess);  // waits for the kernel: the GPU idles after it
    }
    for (int i = 0; i < kRounds; ++i) {
        void* p = nullptr;
        ASSERT_EQ(cudaMallocAsync(&p, kMiB, s), cudaSuccess);
        ASSERT_EQ(test::launchTracerSpin(s, 1, 32, 200'000, nullptr), cudaSuccess);
        ASSERT_EQ(cudaFreeAsync(p, s), cudaSuccess);
    }
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    cudaStreamDestroy(s);
    const model::Trace& trace = *result.value();

    const auto memoryTracks = tracksOf(trace, TrackKind::Memory);
    ASSERT_EQ(memoryTracks.size(), 1u);
    std::map<std::string, int> byCall;
    int pooled = 0;
    const auto memoryTrack = static_cast<std::uint32_t>(memoryTracks[0] - trace.tracks().data());
    for (std::uint32_t i = 0; i < memoryTracks[0]->slices.size(); ++i) {
        const model::MemoryDetail* d = trace.memory(memoryTracks[0]->slices[i]);
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->bytes, kMiB);
        pooled += d->fromPool ? 1 : 0;
        const model::Flow* call = trace.flowTo({memoryTrack, i});
        ASSERT_NE(call, nullptr) << "memory operation without its call";
        std::string name(trace.str(trace.slice(call->from).nameId));
        name = name.substr(0, name.find('_'));
        ++byCall[name];
    }
    for (const auto& [name, count] : byCall)
        std::printf("  %s: %d memory operations\n", name.c_str(), count);
    EXPECT_EQ(byCall["cudaMalloc"], kRounds);
    EXPECT_EQ(byCall["cudaFree"], kRounds);
    EXPECT_EQ(byCall["cudaMallocAsync"], kRounds);
    EXPECT_EQ(byCall["cudaFreeAsync"], kRounds);
    EXPECT_EQ(pooled, 2 * kRounds);

    const model::CounterTrack* inUse = nullptr;
    const model::CounterTrack* pools = nullptr;
    for (const auto& c : trace.counters()) {
        if (trace.str(c.nameId) == "Device memory")
            (trace.str(c.seriesId) == "memory in use" ? inUse : pools) = &c;
    }
    ASSERT_NE(inUse, nullptr);
    ASSERT_FALSE(inUse->samples.empty());
    double peak = 0;
    for (const auto& sample : inUse->samples)
        peak = std::max(peak, sample.value);
    EXPECT_GE(peak, double(kMiB));
    EXPECT_LE(peak, double(2 * kMiB));  // at most one of each kind at a time
    EXPECT_EQ(inUse->samples.back().value, 0.0) << "memory in use must return to its start";
    ASSERT_NE(pools, nullptr);
    EXPECT_GE(pools->samples.back().value, double(kMiB));
    std::printf("  in use peaked at %.0f B; the pool holds %.0f B at the end\n", peak,
                pools->samples.back().value);

    const analysis::AnalysisResult analysis = analysis::analyzeTrace(trace);
    const auto findings = analysis.findings(analysis::RuleId::AllocInLoop);
    ASSERT_FALSE(findings.empty()) << "allocation in a loop not found";
    std::printf("  %s\n", findings.front()->message.c_str());
}

TEST_F(TracerGpuTest, EveryDeviceGetsItsOwnProcess) {
    SKIP_WITHOUT_GPU();
    int count = 0;
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    if (count < 2) {
        GTEST_SKIP() << "needs two devices";
    }
    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    for (int d = 0; d < count; ++d) {
        ASSERT_EQ(cudaSetDevice(d), cudaSuccess);
        ASSERT_EQ(test::launchTracerEmpty(nullptr), cudaSuccess);
    }
    cudaSetDevice(0);
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    std::map<int, int> kernelsPerDevice;
    for (const auto* track : tracksOf(*trace.value(), TrackKind::GpuStream)) {
        kernelsPerDevice[track->deviceId] += static_cast<int>(track->slices.size());
    }
    EXPECT_EQ(kernelsPerDevice.size(), static_cast<std::size_t>(count));
}

// A peer copy from GPU 0 to GPU 1 (cudaMemcpyPeerAsync on a stream of GPU 1, with peer access
// where the link allows it): one PtoP copy that names both devices, and its bytes.
TEST_F(TracerGpuTest, PeerCopiesNameBothDevices) {
    SKIP_WITHOUT_GPU();
    int count = 0;
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    if (count < 2) {
        GTEST_SKIP() << "needs two devices";
    }
    constexpr std::size_t kBytes = std::size_t{64} << 20;
    void* src = nullptr;
    void* dst = nullptr;
    cudaStream_t s = nullptr;
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&src, kBytes), cudaSuccess);
    ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dst, kBytes), cudaSuccess);
    int canAccess = 0;
    ASSERT_EQ(cudaDeviceCanAccessPeer(&canAccess, 1, 0), cudaSuccess);
    if (canAccess) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(0, 0);
        ASSERT_TRUE(e == cudaSuccess || e == cudaErrorPeerAccessAlreadyEnabled);
    }
    ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    CuptiTracer tracer;
    ASSERT_TRUE(tracer.start().ok());
    ASSERT_EQ(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, s), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    auto result = tracer.stop();
    ASSERT_TRUE(result.ok()) << result.error().message;
    cudaStreamDestroy(s);
    cudaFree(dst);
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    cudaFree(src);
    const model::Trace& trace = *result.value();

    std::size_t peer = 0;
    for (const auto* track : tracksOf(trace, TrackKind::GpuStream)) {
        for (const model::Slice& c : track->slices) {
            const model::MemcpyDetail* m = trace.memcpy(c);
            if (m == nullptr || m->copyKind != model::CopyKind::PeerToPeer)
                continue;
            ++peer;
            std::printf(
                "  peer copy '%s' on GPU %d: %llu bytes in %lld ns (%.1f GB/s), peer access %d\n",
                std::string(trace.str(c.nameId)).c_str(), track->deviceId,
                static_cast<unsigned long long>(m->bytes), static_cast<long long>(c.durationNs),
                c.durationNs > 0 ? double(m->bytes) / double(c.durationNs) : 0.0, canAccess);
            EXPECT_EQ(m->bytes, kBytes);
            EXPECT_EQ(m->srcDevice, 0);
            EXPECT_EQ(m->dstDevice, 1);
            EXPECT_NE(trace.str(c.nameId).find("GPU 0 -> GPU 1"), std::string::npos);
        }
    }
    EXPECT_EQ(peer, 1u);
}

TEST_F(TracerGpuTest, MillionLaunchesAllTracedAndMatched) {
    SKIP_WITHOUT_GPU();
    constexpr int kBatches = 10;
    constexpr int kPerBatch = 100'000;
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    CuptiTracer tracer;
    TracerOptions options;
    options.traceNvtx = false;
    ASSERT_TRUE(tracer.start(options).ok());
    const auto begin = std::chrono::steady_clock::now();
    for (int b = 0; b < kBatches; ++b) {
        for (int i = 0; i < kPerBatch; ++i) {
            if (test::launchTracerEmpty(stream) != cudaSuccess) {
                FAIL() << "launch failed";
            }
        }
        ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    }
    const auto launched = std::chrono::steady_clock::now();
    auto result = tracer.stop();
    const auto stopped = std::chrono::steady_clock::now();
    ASSERT_TRUE(result.ok()) << result.error().message;
    cudaStreamDestroy(stream);
    const model::Trace& trace = *result.value();
    std::printf(
        "  1M launches: %.0f ms launching, %.0f ms stop (flush + translate + finalize), %llu "
        "slices\n",
        std::chrono::duration<double, std::milli>(launched - begin).count(),
        std::chrono::duration<double, std::milli>(stopped - launched).count(),
        static_cast<unsigned long long>(trace.counts().slices));

    EXPECT_EQ(trace.diagnostics().droppedRecords, 0u);
    EXPECT_EQ(trace.counts().kernel, static_cast<std::uint64_t>(kBatches) * kPerBatch);
    std::uint64_t launches = 0;
    std::uint64_t matchedLaunches = 0;
    std::uint64_t matchedKernels = 0;
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const model::Track& track = trace.tracks()[t];
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            if (s.kind == SliceKind::RuntimeApi &&
                trace.str(s.nameId).rfind("cudaLaunchKernel", 0) == 0) {
                ++launches;
                const model::Flow* flow = trace.flowFrom({t, i});
                if (flow != nullptr && trace.slice(flow->to).kind == SliceKind::Kernel) {
                    ++matchedLaunches;
                }
            } else if (s.kind == SliceKind::Kernel && trace.flowTo({t, i}) != nullptr) {
                ++matchedKernels;
            }
        }
    }
    EXPECT_EQ(launches, static_cast<std::uint64_t>(kBatches) * kPerBatch);
    EXPECT_EQ(matchedLaunches, launches);
    EXPECT_EQ(matchedKernels, static_cast<std::uint64_t>(kBatches) * kPerBatch);
}

}  // namespace
}  // namespace wl::cupti
