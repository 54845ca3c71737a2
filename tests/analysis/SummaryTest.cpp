// The Summary's rules on traces made by hand: the iteration breakdown's parts and their order,
// the iterations' spans, operators' host and GPU times, memory peaks, the ranks' breakdown,
// utilisation over time, cancellation and an empty window.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <string>

#include "HandJob.h"
#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/Summary.h"
#include "model/Derived.h"

namespace wl::analysis {
namespace {

using model::TimeNs;
using test::HandTrace;

constexpr std::string_view kDataLoader =
    "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
constexpr std::string_view kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(Storage<4096ul>)";

AnalysisWindow windowOf(const model::Trace& trace, WindowRequest request) {
    const auto window = resolveWindow(trace, request);
    EXPECT_TRUE(window.ok()) << (window.ok() ? "" : window.error().describe());
    return window.ok() ? window.value() : AnalysisWindow{};
}
AnalysisWindow wholeTrace(const model::Trace& trace) {
    WindowRequest r;
    r.kind = WindowRequest::Kind::WholeTrace;
    return windowOf(trace, r);
}
AnalysisWindow timeWindow(const model::Trace& trace, TimeNs startNs, TimeNs endNs) {
    WindowRequest r;
    r.kind = WindowRequest::Kind::Time;
    r.time = {startNs, endNs};
    return windowOf(trace, r);
}

Summary summarize(const model::Trace& trace, const AnalysisWindow& window) {
    const AnalysisResult result = analyzeTrace(trace, {}, window);
    auto summary = computeSummary(trace, result);
    EXPECT_TRUE(summary.has_value());
    return summary ? *summary : Summary{};
}
Summary summarize(const model::Trace& trace) {
    return summarize(trace, windowOf(trace, {}));
}

using Parts = std::array<TimeNs, kStepPartCount>;

// Kernel, Memcpy, Memset, CUDA API, Data loading, Host compute, Other.
Parts parts(TimeNs kernel, TimeNs copy, TimeNs memset, TimeNs api, TimeNs data, TimeNs host,
            TimeNs other) {
    return {kernel, copy, memset, api, data, host, other};
}

void expectTiled(const std::vector<IterationBreakdown>& iterations) {
    for (std::size_t k = 0; k < iterations.size(); ++k) {
        const IterationBreakdown& it = iterations[k];
        EXPECT_EQ(std::accumulate(it.partNs.begin(), it.partNs.end(), TimeNs{0}),
                  it.range.durationNs())
            << it.name;
        if (k > 0) {
            EXPECT_EQ(it.range.startNs, iterations[k - 1].range.endNs) << it.name;
        }
    }
}

TEST(Summary, PartNames) {
    EXPECT_STREQ(toString(StepPart::Kernel), "Kernel");
    EXPECT_STREQ(toString(StepPart::CudaApi), "CUDA API");
    EXPECT_STREQ(toString(StepPart::DataLoading), "Data loading");
    EXPECT_STREQ(toString(StepPart::HostCompute), "Host compute");
    EXPECT_STREQ(toString(StepPart::Other), "Other");
    EXPECT_STREQ(toString(IterationSource::NvtxRanges), "nvtx_ranges");
    EXPECT_STREQ(toString(IterationSource::GraphLaunches), "graph_launches");
    EXPECT_STREQ(toString(IterationSource::Repeats), "repeats");
    EXPECT_STREQ(toString(IterationSource::Window), "window");
}

// Every ns of a step goes to the first part that holds it: kernel over copy over memset over an
// API call over data loading over other host ranges; the loop's own ranges ("train" around the
// steps, the steps themselves) are no host compute.
TEST(Summary, EachNsOfAStepGoesToTheFirstPartThatHoldsIt) {
    HandTrace t;
    t.nvtx("train", 0, 2100);
    t.nvtx("step 1", 0, 1000);
    t.nvtx("forward", 40, 600);
    t.nvtx(kDataLoader, 600, 700);
    t.kernel(7, 100, 300, 50, "gemm");  // launched by [50, 55)
    t.copy(7, 250, 400, model::CopyKind::HostToDevice, 1024, 200, 260);
    t.builder().addMemset(t.stream(7), 380, 450, "Memset", 0, {});
    t.api("cudaStreamQuery", 650, 660, false);  // inside the data loading
    t.nvtx("step 2", 1000, 2000);
    t.kernel(7, 1950, 2500, 1900, "gemm");
    const auto trace = t.finish();
    const Summary s = summarize(*trace);

    EXPECT_EQ(s.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(s.iterations.size(), 2u);
    const IterationBreakdown& first = s.iterations[0];
    EXPECT_EQ(first.name, "step 1");
    EXPECT_EQ(first.range, (model::TimeRange{0, 1000}));
    // Kernel [100, 300); the copy's [300, 400); the memset's [400, 450); the calls [50, 55) and
    // [650, 660) ([200, 260) is under the kernel); the data loader's range less its call; the
    // rest of "forward": [40, 50), [55, 100), [450, 600).
    EXPECT_EQ(first.partNs, parts(200, 100, 50, 15, 90, 205, 340));
    EXPECT_EQ(first.ns(StepPart::HostCompute), 205);
    // The last step ends with the GPU work it launched.
    const IterationBreakdown& second = s.iterations[1];
    EXPECT_EQ(second.name, "step 2");
    EXPECT_EQ(second.range, (model::TimeRange{1000, 2500}));
    EXPECT_EQ(second.partNs, parts(550, 0, 0, 5, 0, 0, 945));
    expectTiled(s.iterations);
}

// Step k starts after the GPU work step k - 1 launched, so that work is counted in the step that
// launched it even while the GPU runs behind the host.
TEST(Summary, GpuWorkLaunchedInAStepIsCountedInIt) {
    HandTrace t;
    t.nvtx("step 1", 0, 100);
    t.kernel(7, 50, 400, 10);
    t.nvtx("step 2", 100, 200);
    t.kernel(7, 400, 500, 150);
    const auto trace = t.finish();
    const Summary s = summarize(*trace);
    ASSERT_EQ(s.iterations.size(), 2u);
    EXPECT_EQ(s.iterations[0].range, (model::TimeRange{0, 400}));
    EXPECT_EQ(s.iterations[0].ns(StepPart::Kernel), 350);
    EXPECT_EQ(s.iterations[1].range, (model::TimeRange{400, 500}));
    EXPECT_EQ(s.iterations[1].ns(StepPart::Kernel), 100);
    expectTiled(s.iterations);
}

// Each launch of a replayed CUDA graph is an iteration: from its call (or the end of the previous
// launch's work) to the next one's start, the last to its last node's end.
TEST(Summary, EachGraphLaunchIsAnIteration) {
    HandTrace t;
    const model::TrackIndex ops = t.builder().hostTrack(t.builder().hostProcess(100), 1);
    for (TimeNs k = 0; k < 12; ++k) {
        // The framework's wrapper of each launch: host compute, the last one's too.
        t.builder().addSlice(ops, 1000 * k, 1000 * k + 25, "CUDAGraph::replay",
                             model::SliceKind::CpuOp);
        const std::uint64_t call = t.api("cudaGraphLaunch_v10000", 1000 * k, 1000 * k + 20);
        for (const std::uint64_t node : {1, 2}) {
            model::KernelDetail d;
            d.graph = {7, node};
            const TimeNs startNs = 1000 * k + (node == 1 ? 100 : 300);
            t.builder().addKernel(t.stream(7), startNs, startNs + (node == 1 ? 200 : 300), "node",
                                  call, d);
        }
    }
    const auto trace = t.finish();
    const AnalysisWindow window = windowOf(*trace, {});
    ASSERT_EQ(window.source, WindowSource::GraphLaunches);
    const Summary s = summarize(*trace, window);
    EXPECT_EQ(s.iterationSource, IterationSource::GraphLaunches);
    ASSERT_EQ(s.iterations.size(), 12u);
    EXPECT_EQ(s.iterations[0].name, "launch 1 of CUDA graph 7");
    EXPECT_EQ(s.iterations[11].name, "launch 12 of CUDA graph 7");
    EXPECT_EQ(s.iterations[3].range, (model::TimeRange{3000, 4000}));
    EXPECT_EQ(s.iterations[3].partNs, parts(500, 0, 0, 20, 0, 5, 475));
    EXPECT_EQ(s.iterations[11].range, (model::TimeRange{11000, 11600}));
    EXPECT_EQ(s.iterations[11].partNs, parts(500, 0, 0, 20, 0, 5, 75));
    expectTiled(s.iterations);
}

// Without iteration ranges, the window is one bar.
TEST(Summary, AWindowWithoutIterationsIsOneBar) {
    HandTrace t;
    t.kernel(7, 100, 300, 50);
    t.kernel(7, 500, 600, 450);
    t.nvtx("setup", 0, 120);
    const auto trace = t.finish();
    const AnalysisWindow window = wholeTrace(*trace);
    const Summary s = summarize(*trace, window);
    EXPECT_EQ(s.iterationSource, IterationSource::Window);
    ASSERT_EQ(s.iterations.size(), 1u);
    EXPECT_EQ(s.iterations[0].name, "window");
    EXPECT_EQ(s.iterations[0].range, (model::TimeRange{100, 600}));
    // "setup" holds [100, 120) of the window, under the kernel; the call at [450, 455).
    EXPECT_EQ(s.iterations[0].partNs, parts(300, 0, 0, 5, 0, 0, 195));
}

// A window of another kind (a time range) takes the iteration ranges that overlap it.
TEST(Summary, AnyOtherWindowTakesTheIterationRangesItOverlaps) {
    HandTrace t;
    for (TimeNs k = 0; k < 4; ++k) {
        t.nvtx("step " + std::to_string(k), 1000 * k, 1000 * k + 900);
        t.kernel(7, 1000 * k + 100, 1000 * k + 200, 1000 * k + 10);
    }
    const auto trace = t.finish();
    const Summary s = summarize(*trace, timeWindow(*trace, 1500, 2500));
    EXPECT_EQ(s.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(s.iterations.size(), 2u);
    EXPECT_EQ(s.iterations[0].name, "step 1");
    EXPECT_EQ(s.iterations[1].name, "step 2");
    EXPECT_EQ(s.iterations[0].range, (model::TimeRange{1000, 2000}));
    EXPECT_EQ(s.iterations[1].range, (model::TimeRange{2000, 2900}));
}

// Operators: self host time less the nested calls; GPU time from the launches inside a call,
// self from the call itself; the calls of two threads summed by name; shapes kept apart.
TEST(Summary, OperatorsHostAndGpuTimes) {
    HandTrace t;
    model::TraceBuilder& b = t.builder();
    const model::ProcessIndex host = b.hostProcess(100);
    const model::TrackIndex ops = b.hostTrack(host, 1);
    b.addSlice(ops, 0, 1000, "aten::linear", model::SliceKind::CpuOp);
    b.addSlice(ops, 100, 600, "aten::addmm", model::SliceKind::CpuOp);
    b.setLastSliceExtraArgs(ops, R"("External id":3,"Input Dims":[[2, 3], [3]])");
    b.addSlice(ops, 700, 800, "aten::t", model::SliceKind::CpuOp);
    t.kernel(7, 300, 500, 200, "gemm");  // launched from inside aten::addmm
    t.kernel(7, 900, 950, 850, "bias");  // from aten::linear itself
    // Another thread: aten::addmm with other shapes, launching nothing.
    const model::TrackIndex other = b.hostTrack(host, 2);
    b.addSlice(other, 2000, 2300, "aten::addmm", model::SliceKind::CpuOp);
    b.setLastSliceExtraArgs(other, R"("Input Dims":[[4, 4], [4]])");
    const auto trace = t.finish();
    const Summary s = summarize(*trace, timeWindow(*trace, 0, 3000));

    EXPECT_FALSE(s.operators.nvtxRanges);
    ASSERT_EQ(s.operators.byName.size(), 3u);
    const OperatorStats& linear = s.operators.byName[0];  // the longest host total first
    EXPECT_EQ(linear.name, "aten::linear");
    EXPECT_EQ(linear.calls, 1u);
    EXPECT_EQ(linear.hostTotalNs, 1000);
    EXPECT_EQ(linear.hostSelfNs, 400);
    EXPECT_EQ(linear.gpuTotalNs, 250);
    EXPECT_EQ(linear.gpuSelfNs, 50);
    EXPECT_EQ(linear.gpuOps, 2u);
    const OperatorStats& addmm = s.operators.byName[1];
    EXPECT_EQ(addmm.name, "aten::addmm");
    EXPECT_EQ(addmm.calls, 2u);
    EXPECT_EQ(addmm.hostTotalNs, 800);
    EXPECT_EQ(addmm.hostSelfNs, 800);
    EXPECT_EQ(addmm.gpuTotalNs, 200);
    EXPECT_EQ(addmm.gpuSelfNs, 200);
    EXPECT_EQ(addmm.gpuOps, 1u);
    EXPECT_EQ(s.operators.byName[2].name, "aten::t");
    EXPECT_EQ(s.operators.byName[2].hostSelfNs, 100);

    ASSERT_EQ(s.operators.byNameAndShapes.size(), 4u);
    const auto row = [&](std::string_view name, std::string_view shapes) -> const OperatorStats* {
        for (const OperatorStats& o : s.operators.byNameAndShapes) {
            if (o.name == name && o.inputShapes == shapes)
                return &o;
        }
        return nullptr;
    };
    ASSERT_NE(row("aten::addmm", "[[2, 3], [3]]"), nullptr);
    EXPECT_EQ(row("aten::addmm", "[[2, 3], [3]]")->gpuTotalNs, 200);
    ASSERT_NE(row("aten::addmm", "[[4, 4], [4]]"), nullptr);
    EXPECT_EQ(row("aten::addmm", "[[4, 4], [4]]")->hostTotalNs, 300);
    EXPECT_NE(row("aten::linear", ""), nullptr);
}

// Only the calls that start inside the window count.
TEST(Summary, OperatorsOfTheWindowOnly) {
    HandTrace t;
    model::TraceBuilder& b = t.builder();
    const model::TrackIndex ops = b.hostTrack(b.hostProcess(100), 1);
    b.addSlice(ops, 0, 100, "early", model::SliceKind::CpuOp);
    b.addSlice(ops, 200, 300, "inside", model::SliceKind::CpuOp);
    t.kernel(7, 0, 1000, -1);
    const auto trace = t.finish();
    const Summary s = summarize(*trace, timeWindow(*trace, 150, 1000));
    ASSERT_EQ(s.operators.byName.size(), 1u);
    EXPECT_EQ(s.operators.byName[0].name, "inside");
    EXPECT_TRUE(s.operators.byNameAndShapes.empty());  // no call has shapes
}

// A trace without CPU operators: its NVTX ranges (not its marks) are the operators.
TEST(Summary, NvtxRangesAreTheOperatorsOfATraceWithoutCpuOperators) {
    HandTrace t;
    t.nvtx("outer", 0, 1000);
    t.nvtx("inner", 100, 400);
    t.nvtx("mark", 500, 500);
    t.kernel(7, 200, 700, 150);
    const auto trace = t.finish();
    const Summary s = summarize(*trace, timeWindow(*trace, 0, 1000));
    EXPECT_TRUE(s.operators.nvtxRanges);
    ASSERT_EQ(s.operators.byName.size(), 2u);
    EXPECT_EQ(s.operators.byName[0].name, "outer");
    EXPECT_EQ(s.operators.byName[0].hostSelfNs, 700);
    EXPECT_EQ(s.operators.byName[0].gpuTotalNs, 500);
    EXPECT_EQ(s.operators.byName[0].gpuSelfNs, 0);
    EXPECT_EQ(s.operators.byName[1].name, "inner");
    EXPECT_EQ(s.operators.byName[1].gpuSelfNs, 500);
}

model::MemoryDetail memoryOp(model::MemoryOp op, std::uint64_t address, std::uint64_t bytes) {
    model::MemoryDetail d;
    d.op = op;
    d.memoryKind = model::MemoryKind::Device;
    d.address = address;
    d.bytes = bytes;
    return d;
}

// The peak of memory in use in the window, when it was first reached, and what ran then.
TEST(Summary, MemoryPeakAndWhatRanThen) {
    HandTrace t;
    model::TraceBuilder& b = t.builder();
    const model::TrackIndex memory = b.memoryTrack(b.gpuProcess(0));
    using Op = model::MemoryOp;
    b.addMemory(memory, 10, "Allocate", 0, memoryOp(Op::Allocation, 1, 100));
    b.addMemory(memory, 20, "Allocate", 0, memoryOp(Op::Allocation, 2, 50));
    b.addMemory(memory, 30, "Free", 0, memoryOp(Op::Release, 1, 100));
    b.addMemory(memory, 40, "Allocate", 0, memoryOp(Op::Allocation, 3, 200));
    b.addMemory(memory, 50, "Free", 0, memoryOp(Op::Release, 3, 200));
    b.addMemory(memory, 55, "Allocate", 0, memoryOp(Op::Allocation, 4, 200));  // the peak again
    t.kernel(7, 35, 60, -1, "busy");
    t.kernel(8, 10, 20, -1, "before");
    t.nvtx("forward", 30, 50);
    t.nvtx("allocate", 38, 42);
    const auto trace = t.finish();

    const Summary whole = summarize(*trace, timeWindow(*trace, 35, 60));
    ASSERT_EQ(whole.memory.size(), 1u);
    const MemoryTimeline& m = whole.memory[0];
    EXPECT_EQ(m.deviceId, 0);
    EXPECT_DOUBLE_EQ(m.peakInUseBytes, 250.0);
    EXPECT_EQ(m.peakNs, 40);
    ASSERT_EQ(m.series.size(), 1u);
    EXPECT_EQ(m.series[0].name, model::kMemoryInUse);
    // The value in force at the window's start first, then the samples inside it.
    ASSERT_EQ(m.series[0].samples.size(), 4u);
    EXPECT_EQ(m.series[0].samples[0].timestampNs, 35);
    EXPECT_DOUBLE_EQ(m.series[0].samples[0].value, 50.0);
    // The kernel on the device, and the innermost NVTX range of the host thread.
    ASSERT_EQ(m.runningAtPeak.size(), 2u);
    std::vector<std::string> running;
    for (const model::SliceRef ref : m.runningAtPeak)
        running.emplace_back(trace->str(trace->slice(ref).nameId));
    std::sort(running.begin(), running.end());
    EXPECT_EQ(running, (std::vector<std::string>{"allocate", "busy"}));

    // A window before: the peak is what was in use then, at the start if nothing rose after.
    const Summary early = summarize(*trace, timeWindow(*trace, 25, 35));
    ASSERT_EQ(early.memory.size(), 1u);
    EXPECT_DOUBLE_EQ(early.memory[0].peakInUseBytes, 150.0);
    EXPECT_EQ(early.memory[0].peakNs, 25);
}

// The PyTorch profiler's memory rows (its allocator's totals): every series of the device.
TEST(Summary, MemorySeriesOfTheProfilersRows) {
    HandTrace t;
    model::TraceBuilder& b = t.builder();
    const model::ProcessIndex gpu = b.gpuProcess(0);
    const auto inUse = b.counterTrack(gpu, model::kDeviceMemoryName, model::kMemoryInUse, "B");
    b.setCounterDerived(inUse, "allocated");
    const auto reserved =
        b.counterTrack(gpu, model::kDeviceMemoryName, model::kMemoryReserved, "B");
    b.setCounterDerived(reserved, "reserved");
    b.addCounterSample(inUse, 10, 1000);
    b.addCounterSample(inUse, 20, 3000);
    b.addCounterSample(inUse, 30, 2000);
    b.addCounterSample(reserved, 10, 4000);
    t.kernel(7, 0, 100, -1);
    const auto trace = t.finish();
    const Summary s = summarize(*trace, wholeTrace(*trace));
    ASSERT_EQ(s.memory.size(), 1u);
    EXPECT_DOUBLE_EQ(s.memory[0].peakInUseBytes, 3000.0);
    EXPECT_EQ(s.memory[0].peakNs, 20);
    ASSERT_EQ(s.memory[0].series.size(), 2u);
    EXPECT_EQ(s.memory[0].series[0].name, model::kMemoryInUse);
    EXPECT_EQ(s.memory[0].series[1].name, model::kMemoryReserved);
    EXPECT_EQ(s.memory[0].series[1].samples.size(), 2u);  // 0 at the start, then 4000
    EXPECT_EQ(s.memory[0].runningAtPeak.size(), 1u);
}

// Each rank: the union of its computation and of its communication, their overlap and the rest
// of the window; compute + communication - overlap + other = window, per GPU and summed.
TEST(Summary, RanksComputationCommunicationOverlapAndOther) {
    test::HandJob job;
    job.kernel(0, 0, 7, 0, 100, "gemm");
    job.kernel(0, 0, 13, 50, 150, kAllReduce);
    job.kernel(0, 1, 7, 0, 60, "gemm");  // rank 0's second GPU
    job.copy(1, 0, 7, 0, 40);
    job.kernel(1, 0, 7, 20, 30, "gemm");  // under the copy
    job.kernel(1, 0, 13, 100, 150, kAllReduce);
    job.kernel(1, 0, 13, 140, 170, kAllReduce);
    const auto trace = job.finish();
    const Summary s = summarize(*trace, timeWindow(*trace, 0, 170));
    ASSERT_EQ(s.ranks.size(), 2u);
    const RankTimeBreakdown& r0 = s.ranks[0];
    EXPECT_EQ(r0.rank, 0);
    EXPECT_EQ(r0.windowNs, 340);  // two GPUs
    EXPECT_EQ(r0.computeNs, 160);
    EXPECT_EQ(r0.communicationNs, 100);
    EXPECT_EQ(r0.overlapNs, 50);
    EXPECT_EQ(r0.otherNs, 130);
    const RankTimeBreakdown& r1 = s.ranks[1];
    EXPECT_EQ(r1.windowNs, 170);
    EXPECT_EQ(r1.computeNs, 40);
    EXPECT_EQ(r1.communicationNs, 70);
    EXPECT_EQ(r1.overlapNs, 0);
    EXPECT_EQ(r1.otherNs, 60);
    for (const RankTimeBreakdown& r : s.ranks) {
        EXPECT_EQ(r.computeNs + r.communicationNs - r.overlapNs + r.otherNs, r.windowNs);
    }
}

TEST(Summary, ASingleProcessHasNoRanks) {
    HandTrace t;
    t.kernel(7, 0, 100, -1);
    const auto trace = t.finish();
    EXPECT_TRUE(summarize(*trace, wholeTrace(*trace)).ranks.empty());
}

// Utilisation over time: the mean over the GPUs that worked in the window, per bin.
TEST(Summary, UtilizationOverTimeIsTheMeanOverTheWorkingGpus) {
    HandTrace t;
    model::TraceBuilder& b = t.builder();
    t.kernel(7, 0, 100, -1);
    t.kernel(7, 150, 200, -1);
    const model::TrackIndex second = b.gpuStreamTrack(b.gpuProcess(1, "GPU 1"), 7);
    b.addKernel(second, 0, 200, "k", 0, {});
    const model::TrackIndex idle = b.gpuStreamTrack(b.gpuProcess(2, "GPU 2"), 7);
    b.addKernel(idle, 500, 600, "k", 0, {});  // outside the window: no device of it
    const auto trace = t.finish();
    const AnalysisResult result = analyzeTrace(*trace, {}, timeWindow(*trace, 0, 200));
    SummaryOptions options;
    options.utilizationBins = 4;
    const auto s = computeSummary(*trace, result, options);
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->utilization.startNs, 0);
    EXPECT_EQ(s->utilization.binNs, 50);
    EXPECT_EQ(s->utilization.busyPct, (std::vector<double>{100.0, 100.0, 50.0, 100.0}));
}

TEST(Summary, CancelledReturnsNothing) {
    HandTrace t;
    t.nvtx("step 1", 0, 100);
    t.nvtx("step 2", 100, 200);
    t.kernel(7, 50, 150, 10);
    const auto trace = t.finish();
    const AnalysisResult result = analyzeTrace(*trace);
    std::atomic<bool> cancel{true};
    EXPECT_FALSE(computeSummary(*trace, result, {}, &cancel).has_value());
    cancel = false;
    EXPECT_TRUE(computeSummary(*trace, result, {}, &cancel).has_value());
}

TEST(Summary, AnEmptyWindowHasNothingToSay) {
    HandTrace t;
    t.nvtx("step 1", 0, 100);
    const auto trace = t.finish();
    const Summary s = summarize(*trace, AnalysisWindow{});
    EXPECT_TRUE(s.iterations.empty());
    EXPECT_TRUE(s.utilization.busyPct.empty());
    EXPECT_TRUE(s.operators.byName.empty());
    EXPECT_TRUE(s.memory.empty());
    EXPECT_TRUE(s.ranks.empty());
}

// The histogram of one kernel's durations: equal bins from the shortest launch to the longest.
TEST(Summary, KernelDurationHistogram) {
    HandTrace t;
    for (const TimeNs d : {10, 20, 30, 40})
        t.kernel(7, 1000 * d, 1000 * d + d, -1, "k");
    for (const TimeNs d : {100, 101, 105})
        t.kernel(8, 1000 * d, 1000 * d + d, -1, "short range");
    t.kernel(9, 0, 7, -1, "same");
    t.kernel(9, 10, 17, -1, "same");
    const auto trace = t.finish();
    const AnalysisWindow window = wholeTrace(*trace);
    const auto idOf = [&](std::string_view name) {
        for (const model::Track& track : trace->tracks()) {
            for (const model::Slice& s : track.slices) {
                if (trace->str(s.nameId) == name)
                    return s.nameId;
            }
        }
        return model::StringId{0};
    };
    const DurationHistogram h = kernelDurationHistogram(*trace, idOf("k"), window, 3);
    EXPECT_EQ(h.minNs, 10);
    EXPECT_EQ(h.binNs, 10);
    EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{1, 1, 2}));
    const DurationHistogram narrow = kernelDurationHistogram(*trace, idOf("short range"), window);
    EXPECT_EQ(narrow.minNs, 100);
    EXPECT_EQ(narrow.binNs, 1);
    EXPECT_EQ(narrow.counts, (std::vector<std::uint64_t>{1, 1, 0, 0, 0, 1}));
    const DurationHistogram same = kernelDurationHistogram(*trace, idOf("same"), window);
    EXPECT_EQ(same.counts, (std::vector<std::uint64_t>{2}));
    EXPECT_TRUE(kernelDurationHistogram(*trace, idOf("k"), AnalysisWindow{}).counts.empty());
}

}  // namespace
}  // namespace wl::analysis

namespace wl::analysis {
namespace {

// A markerless loop after a long start-up: 6 iterations 100 us apart, each launching "fwd" once
// and "step" twice. Its steady state is cut at each launch of "fwd" (the fewest-run name).
model::TracePtr markerlessLoop() {
    HandTrace t;
    t.kernel(1, 10'000, 20'000, 5'000, "init_weights");
    t.copy(1, 30'000, 40'000, model::CopyKind::HostToDevice, 1 << 20, 25'000, 26'000);
    const TimeNs loop = 10'000'000;  // start-up: 10 ms of nothing on the GPU
    for (int i = 0; i < 6; ++i) {
        const TimeNs at = loop + i * 100'000;
        t.kernel(1, at + 10'000, at + 40'000, at, "fwd");
        t.kernel(1, at + 40'000, at + 50'000, at + 2'000, "step");
        t.kernel(1, at + 50'000, at + 60'000, at + 4'000, "step");
    }
    return t.finish();
}

TEST(SummaryIterations, TheSteadyStateIsCutIntoItsRepeats) {
    const auto trace = markerlessLoop();
    const AnalysisWindow window = windowOf(*trace, {});
    ASSERT_EQ(window.source, WindowSource::SteadyState);
    const Summary s = summarize(*trace, window);
    EXPECT_EQ(s.iterationSource, IterationSource::Repeats);
    ASSERT_EQ(s.iterations.size(), 6u);
    for (std::size_t k = 0; k < s.iterations.size(); ++k) {
        const IterationBreakdown& it = s.iterations[k];
        // Each from the start of its "fwd" on the GPU...
        EXPECT_EQ(it.range.startNs, 10'010'000 + TimeNs(k) * 100'000) << k;
        const TimeNs sum = std::accumulate(it.partNs.begin(), it.partNs.end(), TimeNs{0});
        EXPECT_EQ(sum, it.range.durationNs()) << k;
        // ... holding its three kernels, 50 us of kernel time.
        EXPECT_EQ(it.ns(StepPart::Kernel), 50'000) << k;
        EXPECT_EQ(it.name, "repeat " + std::to_string(k + 1));
    }
    // The last to the window's end, the end of its work.
    EXPECT_EQ(s.iterations.back().range.endNs, 10'000'000 + 5 * 100'000 + 60'000);
}

TEST(SummaryIterations, RepeatsThatAreAFewChunksOfTheWindowAreNotItsIterations) {
    HandTrace t;
    // Three chunks 10 us apart at the start of a 1 ms window, then one long kernel.
    for (int i = 0; i < 3; ++i)
        t.kernel(1 + i, i * 10'000, i * 10'000 + 5'000, -1, "chunk");
    t.kernel(1, 100'000, 1'000'000, -1, "tail");
    const auto trace = t.finish();
    AnalysisWindow window = wholeTrace(*trace);
    window.source = WindowSource::SteadyState;
    EXPECT_EQ(summarize(*trace, window).iterationSource, IterationSource::Window);
}

TEST(SummaryIterations, OpsThatRepeatAtUnrelatedRatesAreOneBar) {
    HandTrace t;
    // "a" 3 times, "b" 4 times, "c" 5 times: no count is a multiple of the fewest for most names.
    TimeNs at = 0;
    for (int i = 0; i < 5; ++i, at += 100'000) {
        if (i < 3)
            t.kernel(1, at, at + 10'000, -1, "a");
        if (i < 4)
            t.kernel(1, at + 20'000, at + 30'000, -1, "b");
        t.kernel(1, at + 40'000, at + 50'000, -1, "c");
    }
    const auto trace = t.finish();
    AnalysisWindow window = wholeTrace(*trace);
    window.source = WindowSource::SteadyState;  // as if the steady state were found
    const Summary s = summarize(*trace, window);
    EXPECT_EQ(s.iterationSource, IterationSource::Window);
    EXPECT_EQ(s.iterations.size(), 1u);
}

}  // namespace
}  // namespace wl::analysis
