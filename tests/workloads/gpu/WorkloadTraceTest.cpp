// The traces of the workloads show the structure the seeds teach: kernels and copies on the
// requested number of distinct streams, pinned vs pageable copies, the seeds' NVTX names, one
// stream for every chunk in the shared-stream bug. Runs the workloads under the CUPTI tracer;
// skips itself without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "GpuTestSupport.h"
#include "analysis/Analysis.h"
#include "cupti/CuptiTracer.h"
#include "model/Trace.h"
#include "workloads/PowerIteration.h"
#include "workloads/ReduceWorkload.h"

namespace wl::workloads {
namespace {

// NVTX reaches Warpline's recorder through NVTX's static injection hook unless
// NVTX_INJECTION64_PATH names another tool, and the untraced tests of this executable make NVTX
// calls: a libcupti left there is cleared before main().
const bool kNvtxInjectionSet = (cupti::CuptiTracer::ensureNvtxInjection(), true);

struct CopyFact {
    model::CopyKind kind = model::CopyKind::Unknown;
    model::MemoryKind src = model::MemoryKind::Unknown;
    model::MemoryKind dst = model::MemoryKind::Unknown;
    std::uint64_t bytes = 0;
    std::int64_t stream = -1;
};

// What the assertions look at, read once from a trace.
struct TraceFacts {
    std::map<std::string, std::set<std::int64_t>> kernelStreams;  // kernel name -> streams
    std::map<std::string, int> kernelCounts;
    std::vector<CopyFact> copies;
    std::multiset<std::string> nvtx;

    // Kernels whose (possibly demangled, qualified) name contains `name`.
    std::set<std::int64_t> streamsOf(const std::string& name) const {
        std::set<std::int64_t> out;
        for (const auto& [k, streams] : kernelStreams) {
            if (k.find(name) != std::string::npos) {
                out.insert(streams.begin(), streams.end());
            }
        }
        return out;
    }
    int count(const std::string& name) const {
        int n = 0;
        for (const auto& [k, c] : kernelCounts) {
            n += k.find(name) != std::string::npos ? c : 0;
        }
        return n;
    }
    std::vector<CopyFact> copiesOf(model::CopyKind kind, std::uint64_t minBytes = 0) const {
        std::vector<CopyFact> out;
        for (const CopyFact& c : copies) {
            if (c.kind == kind && c.bytes >= minBytes) {
                out.push_back(c);
            }
        }
        return out;
    }
    bool hasNvtx(const std::string& name) const { return nvtx.count(name) > 0; }
};

TraceFacts factsOf(const model::Trace& trace) {
    TraceFacts f;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind == model::TrackKind::NvtxProjection)
            continue;  // the ranges' GPU extent, made from them: what was recorded is counted
        for (const model::Slice& s : track.slices) {
            const std::string name(trace.str(s.nameId));
            if (track.kind == model::TrackKind::GpuStream && s.kind == model::SliceKind::Kernel) {
                f.kernelStreams[name].insert(track.streamId);
                ++f.kernelCounts[name];
            } else if (track.kind == model::TrackKind::GpuStream &&
                       s.kind == model::SliceKind::Memcpy) {
                const model::MemcpyDetail* d = trace.memcpy(s);
                if (d != nullptr) {
                    f.copies.push_back(
                        {d->copyKind, d->srcKind, d->dstKind, d->bytes, track.streamId});
                }
            } else if (s.kind == model::SliceKind::Nvtx) {
                f.nvtx.insert(name);
            }
        }
    }
    return f;
}

std::set<std::int64_t> streamsOf(const std::vector<CopyFact>& copies) {
    std::set<std::int64_t> out;
    for (const CopyFact& c : copies) {
        out.insert(c.stream);
    }
    return out;
}

cupti::CuptiTracer& tracer() {
    static cupti::CuptiTracer instance;
    return instance;
}

// Runs the workload under the tracer; the check must pass.
model::TracePtr traced(Workload& workload, const WorkloadParams& p) {
    const model::Status started = tracer().start();
    EXPECT_TRUE(started.ok()) << started.error().describe();
    if (!started.ok()) {
        return nullptr;
    }
    const auto result = workload.run(p);
    auto trace = tracer().stop();
    EXPECT_TRUE(result.ok()) << result.error().describe();
    EXPECT_TRUE(trace.ok()) << trace.error().describe();
    if (!result.ok() || !trace.ok()) {
        return nullptr;
    }
    EXPECT_TRUE(result->passed) << result->checkText;
    EXPECT_EQ((*trace)->diagnostics().droppedRecords, 0u);
    return *trace;
}

WorkloadParams reduce(Mode mode, int streams, bool pinned, bool shared = false, int repeat = 1) {
    WorkloadParams p;
    p.mode = mode;
    p.streams = streams;
    p.pinned = pinned;
    p.sharedStream = shared;
    p.repeat = repeat;
    p.size = 8'000'000;
    return p;
}

constexpr std::uint64_t kChunkBytes8 = 8'000'000 / 8 * 4;

// Reduce over two GPUs: correct both ways; async keeps both GPUs busy at once and sends the sums
// and the total with peer copies that name both devices; baseline uses them one after another.
TEST(ReduceTrace, TwoDevicesBaselineOneAfterAnotherAsyncAtOnce) {
    WL_REQUIRE_GPU();
    int count = 0;
    ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    if (count < 2)
        GTEST_SKIP() << "needs two devices";
    ReduceWorkload workload;
    WorkloadParams p = reduce(Mode::Async, 4, true, false, 20);
    p.size = 100'000'000;
    p.devices = 2;
    const model::TracePtr async = traced(workload, p);
    ASSERT_NE(async, nullptr);
    p.mode = Mode::Baseline;
    const model::TracePtr baseline = traced(workload, p);
    ASSERT_NE(baseline, nullptr);

    // Over the timed part (the capture range): how long both GPUs worked at once.
    const analysis::DeviceConcurrency a = analysis::analyzeTrace(*async).statistics.devicesAtOnce;
    const analysis::DeviceConcurrency b =
        analysis::analyzeTrace(*baseline).statistics.devicesAtOnce;
    ASSERT_EQ(a.devices, 2);
    ASSERT_EQ(b.devices, 2);
    std::printf("  both GPUs busy: async %.1f%% of %.3f ms, baseline %.1f%% of %.3f ms\n",
                a.pctWithBusy(2), a.windowNs / 1e6, b.pctWithBusy(2), b.windowNs / 1e6);
    EXPECT_GT(a.pctWithBusy(2), 40.0) << "async: the GPUs should work at the same time";
    EXPECT_LT(b.pctWithBusy(2), 5.0) << "baseline: one GPU after the other";
    EXPECT_LT(a.windowNs, b.windowNs);

    int peer = 0;
    for (const model::Track& track : async->tracks()) {
        for (const model::Slice& s : track.slices) {
            const model::MemcpyDetail* m = async->memcpy(s);
            if (m == nullptr || m->copyKind != model::CopyKind::PeerToPeer)
                continue;
            ++peer;
            EXPECT_NE(m->srcDevice, m->dstDevice);
            EXPECT_EQ(m->bytes, sizeof(float));
        }
    }
    int direct = 0;
    ASSERT_EQ(cudaDeviceCanAccessPeer(&direct, 0, 1), cudaSuccess);
    std::printf("  %d peer copies (peer access %d)\n", peer, direct);
    if (direct != 0) {  // without it the driver stages the copies through the host
        EXPECT_EQ(peer, 2) << "GPU 1's sum to GPU 0, and the total back";
    }
    const TraceFacts f = factsOf(*async);
    EXPECT_TRUE(f.hasNvtx("GPU 1: H2D Memory Stream 0"));
    EXPECT_TRUE(f.hasNvtx("GPU 0: Gather Sums (peer copies)"));
    EXPECT_TRUE(factsOf(*baseline).hasNvtx("GPU 1: Divide Kernel"));
}

TEST(ReduceTrace, AsyncEightStreamsPinned) {
    WL_REQUIRE_GPU();
    ReduceWorkload workload;
    const model::TracePtr trace = traced(workload, reduce(Mode::Async, 8, true, false, 2));
    ASSERT_NE(trace, nullptr);
    const TraceFacts f = factsOf(*trace);
    // The timed kernels: 8 streams (the warm-up ran on the default stream).
    std::set<std::int64_t> sumStreams = f.streamsOf("single_thread_sum");
    const std::set<std::int64_t> divideStreams = f.streamsOf("divide_by");
    const auto h2d = f.copiesOf(model::CopyKind::HostToDevice, kChunkBytes8);
    const auto d2h = f.copiesOf(model::CopyKind::DeviceToHost, kChunkBytes8);
    ASSERT_EQ(h2d.size(), 8u);
    ASSERT_EQ(d2h.size(), 8u);
    const std::set<std::int64_t> copyStreams = streamsOf(h2d);
    EXPECT_EQ(copyStreams.size(), 8u);
    EXPECT_EQ(streamsOf(d2h), copyStreams);
    for (std::int64_t s : copyStreams) {
        EXPECT_TRUE(sumStreams.count(s)) << "no reduction on copy stream " << s;
        EXPECT_TRUE(divideStreams.count(s)) << "no divide on copy stream " << s;
    }
    // 8 chunks x repeat 2, plus the warm-up.
    EXPECT_EQ(f.count("partial_reduce"), 8 * 2 + 1);
    EXPECT_EQ(f.count("single_thread_sum"), 8 * 2 + 1);
    EXPECT_EQ(f.count("divide_by"), 8 + 1);
    for (const CopyFact& c : h2d) {
        EXPECT_EQ(c.src, model::MemoryKind::Pinned);
        EXPECT_EQ(c.dst, model::MemoryKind::Device);
        EXPECT_EQ(c.bytes, kChunkBytes8);
    }
    for (const CopyFact& c : d2h) {
        EXPECT_EQ(c.dst, model::MemoryKind::Pinned);
    }
    // The per-stream sums come back as 4-byte copies, one per stream.
    EXPECT_EQ(f.copiesOf(model::CopyKind::DeviceToHost).size() - d2h.size(), 8u);
    EXPECT_TRUE(f.hasNvtx("Compilation"));
    EXPECT_TRUE(f.hasNvtx("H2D Memory Default Stream"));
    for (int i = 0; i < 8; ++i) {
        const std::string n = std::to_string(i);
        EXPECT_TRUE(f.hasNvtx("H2D Memory Stream " + n)) << n;
        EXPECT_TRUE(f.hasNvtx("Sum Kernels Stream " + n)) << n;
        EXPECT_TRUE(f.hasNvtx("Divide Kernel Stream " + n)) << n;
        EXPECT_EQ(f.nvtx.count("D2H Memory Stream " + n), 2u) << n;  // the sum, then the chunk
    }
}

TEST(ReduceTrace, AsyncPageableCopiesArePageable) {
    WL_REQUIRE_GPU();
    ReduceWorkload workload;
    const model::TracePtr trace = traced(workload, reduce(Mode::Async, 8, false));
    ASSERT_NE(trace, nullptr);
    const TraceFacts f = factsOf(*trace);
    const auto h2d = f.copiesOf(model::CopyKind::HostToDevice, kChunkBytes8);
    const auto d2h = f.copiesOf(model::CopyKind::DeviceToHost, kChunkBytes8);
    ASSERT_EQ(h2d.size(), 8u);
    ASSERT_EQ(d2h.size(), 8u);
    for (const CopyFact& c : h2d) {
        EXPECT_EQ(c.src, model::MemoryKind::Pageable);
    }
    for (const CopyFact& c : d2h) {
        EXPECT_EQ(c.dst, model::MemoryKind::Pageable);
    }
}

TEST(ReduceTrace, SharedStreamBugPutsEveryChunkOnOneStream) {
    WL_REQUIRE_GPU();
    ReduceWorkload workload;
    const model::TracePtr trace = traced(workload, reduce(Mode::Async, 8, true, true));
    ASSERT_NE(trace, nullptr);
    const TraceFacts f = factsOf(*trace);
    const auto h2d = f.copiesOf(model::CopyKind::HostToDevice, kChunkBytes8);
    const auto d2h = f.copiesOf(model::CopyKind::DeviceToHost, kChunkBytes8);
    ASSERT_EQ(h2d.size(), 8u);
    const std::set<std::int64_t> streams = streamsOf(h2d);
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streamsOf(d2h), streams);
    // The timed kernels all share that stream; the warm-up ran on the default stream.
    EXPECT_TRUE(f.streamsOf("single_thread_sum").count(*streams.begin()));
    EXPECT_EQ(f.streamsOf("divide_by").size(), 2u);
    EXPECT_TRUE(f.hasNvtx("Sum Kernels Stream 7"));
}

TEST(ReduceTrace, BaselinePageableAndPinned) {
    WL_REQUIRE_GPU();
    for (bool pinned : {false, true}) {
        ReduceWorkload workload;
        const model::TracePtr trace = traced(workload, reduce(Mode::Baseline, 1, pinned));
        ASSERT_NE(trace, nullptr);
        const TraceFacts f = factsOf(*trace);
        const auto h2d = f.copiesOf(model::CopyKind::HostToDevice, 8'000'000 * 4);
        const auto d2h = f.copiesOf(model::CopyKind::DeviceToHost, 8'000'000 * 4);
        ASSERT_EQ(h2d.size(), 1u);
        ASSERT_EQ(d2h.size(), 1u);
        const model::MemoryKind host =
            pinned ? model::MemoryKind::Pinned : model::MemoryKind::Pageable;
        EXPECT_EQ(h2d[0].src, host);
        EXPECT_EQ(d2h[0].dst, host);
        // One stream for everything.
        EXPECT_EQ(f.streamsOf("partial_reduce").size(), 1u);
        EXPECT_EQ(f.streamsOf("divide_by"), f.streamsOf("partial_reduce"));
        EXPECT_EQ(h2d[0].stream, *f.streamsOf("partial_reduce").begin());
        for (const char* name : {"Compilation", "H2D Memory", "Kernels", "D2H Memory"}) {
            EXPECT_TRUE(f.hasNvtx(name)) << name;
        }
    }
}

WorkloadParams power(Mode mode, int streams, bool pinned) {
    WorkloadParams p;
    p.mode = mode;
    p.streams = streams;
    p.pinned = pinned;
    p.size = 1024;
    p.quiet = true;
    return p;
}

TEST(PowerTrace, AsyncCopiesRunOnCopyStreams) {
    WL_REQUIRE_GPU();
    PowerIteration workload;
    const model::TracePtr trace = traced(workload, power(Mode::Async, 3, true));
    ASSERT_NE(trace, nullptr);
    const TraceFacts f = factsOf(*trace);
    const auto xCopies = f.copiesOf(model::CopyKind::DeviceToHost, 1024 * 8);
    ASSERT_GT(xCopies.size(), 10u);
    // Two copy streams take turns; none of them is the compute stream.
    const std::set<std::int64_t> copyStreams = streamsOf(xCopies);
    EXPECT_EQ(copyStreams.size(), 2u);
    const std::set<std::int64_t> computeStreams = f.streamsOf("checkStepKernel");
    ASSERT_EQ(computeStreams.size(), 1u);
    EXPECT_FALSE(copyStreams.count(*computeStreams.begin()));
    for (const CopyFact& c : xCopies) {
        EXPECT_EQ(c.dst, model::MemoryKind::Pinned);
    }
    for (const char* name : {"Setup", "Loop", "Step 0 to 14", "Compute Step 0", "Compute Step 13",
                             "Compute & Residual 14", "Copy 14", "I/O 14", "Step 15 to 29"}) {
        EXPECT_TRUE(f.hasNvtx(name)) << name;
    }
}

TEST(PowerTrace, BaselineCopiesShareTheComputeStream) {
    WL_REQUIRE_GPU();
    PowerIteration workload;
    const model::TracePtr trace = traced(workload, power(Mode::Baseline, 1, false));
    ASSERT_NE(trace, nullptr);
    const TraceFacts f = factsOf(*trace);
    const auto xCopies = f.copiesOf(model::CopyKind::DeviceToHost, 1024 * 8);
    ASSERT_GT(xCopies.size(), 10u);
    EXPECT_EQ(streamsOf(xCopies), f.streamsOf("checkStepKernel"));
    for (const CopyFact& c : xCopies) {
        EXPECT_EQ(c.dst, model::MemoryKind::Pageable);
    }
    EXPECT_TRUE(f.hasNvtx("I/O 14"));
    EXPECT_TRUE(f.hasNvtx("Compute & Residual 14"));
}

// The timed part is marked with cudaProfilerStart/Stop: the trace's default analysis window is that
// part alone (not the warm-up kernel, the compilation or the host allocation before it), and every
// timed kernel lies inside it.
TEST(WorkloadTrace, TheTimedPartIsTheDefaultAnalysisWindow) {
    WL_REQUIRE_GPU();
    ReduceWorkload workload;
    const model::TracePtr trace = traced(workload, reduce(Mode::Async, 4, true, false, 2));
    ASSERT_NE(trace, nullptr);
    const auto ranges = analysis::captureRanges(*trace);
    ASSERT_EQ(ranges.size(), 1u) << "cudaProfilerStart/Stop were not traced";
    const auto window = analysis::resolveWindow(*trace);
    ASSERT_TRUE(window.ok()) << window.error().describe();
    EXPECT_EQ(window->source, analysis::WindowSource::Capture);
    // Every single_thread_sum but the warm-up's is inside the window.
    int inside = 0;
    int outside = 0;
    for (const model::Track& track : trace->tracks()) {
        for (const model::Slice& s : track.slices) {
            if (s.kind != model::SliceKind::Kernel ||
                trace->str(s.nameId).find("single_thread_sum") == std::string_view::npos) {
                continue;
            }
            const bool in = s.startNs >= ranges[0].startNs && s.endNs() <= ranges[0].endNs;
            (in ? inside : outside) += 1;
        }
    }
    EXPECT_EQ(inside, 4 * 2);
    EXPECT_EQ(outside, 1);  // the warm-up
    const analysis::AnalysisResult r = analysis::analyzeTrace(*trace);
    EXPECT_EQ(r.window().source, analysis::WindowSource::Capture);
    // The timed part is copies and kernels back to back: far busier than the whole trace.
    analysis::WindowRequest whole;
    whole.kind = analysis::WindowRequest::Kind::WholeTrace;
    const analysis::AnalysisResult w =
        analysis::analyzeTrace(*trace, {}, *analysis::resolveWindow(*trace, whole));
    EXPECT_GT(r.gpuBusyPct(), 50.0);
    EXPECT_GT(r.gpuBusyPct(), w.gpuBusyPct());
}

}  // namespace
}  // namespace wl::workloads
