// The Summary of real traces against an independent computation from their JSON:
// tests/data/summary/check_summary.py (numpy and the standard library, no Warpline code; its
// docstring says what it computes). The expected figures below are its output:
//   check_summary.py tests/data/recorded/torch_train.json.gz tests/data/pytorch_small.json.gz
//   check_summary.py tests/data/recorded/torch_graph_replay.pt.trace.json.gz
//                    tests/data/recorded/torch_graph_replay.json.gz
//   check_summary.py $WARPLINE_EXTERNAL_TRACES_DIR/hta_df_index_resolver.json.gz
//                    $WARPLINE_EXTERNAL_TRACES_DIR/kineto_tb_resnet50_nw0_2021-01.pt.trace.json.gz
// (tests/data/summary/README.md says where each trace comes from). Kernels' spreads and memory
// peaks are over the whole trace (the first GPU op to the end of the last), the iterations over
// the default window.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/Summary.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::analysis {
namespace {

using model::TimeNs;
using Parts = std::array<TimeNs, kStepPartCount>;

model::TracePtr load(const std::string& path) {
    auto loaded = io::loadTrace(path);
    EXPECT_TRUE(loaded.ok()) << path << ": " << (loaded.ok() ? "" : loaded.error().describe());
    return loaded.ok() ? loaded.value() : nullptr;
}

AnalysisWindow wholeTrace(const model::Trace& trace) {
    WindowRequest r;
    r.kind = WindowRequest::Kind::WholeTrace;
    return resolveWindow(trace, r).value();
}

Summary summarize(const model::Trace& trace, const AnalysisResult& result) {
    auto summary = computeSummary(trace, result);
    EXPECT_TRUE(summary.has_value());
    return summary ? *summary : Summary{};
}

Parts totals(const Summary& s) {
    Parts out{};
    for (const IterationBreakdown& it : s.iterations) {
        EXPECT_EQ(std::accumulate(it.partNs.begin(), it.partNs.end(), TimeNs{0}),
                  it.range.durationNs())
            << it.name;
        for (std::size_t p = 0; p < kStepPartCount; ++p)
            out[p] += it.partNs[p];
    }
    return out;
}

// The one kernel whose name starts with `prefix`.
const KernelStats* kernel(const Statistics& s, std::string_view prefix) {
    const KernelStats* found = nullptr;
    for (const KernelStats& k : s.kernels) {
        if (std::string_view(k.name).starts_with(prefix)) {
            EXPECT_EQ(found, nullptr) << "two kernels start with " << prefix;
            found = &k;
        }
    }
    EXPECT_NE(found, nullptr) << prefix;
    return found;
}

// count, median, p95, std-dev as check_summary.py prints them (three decimals).
void expectSpread(const Statistics& s, std::string_view prefix, std::uint64_t count, double median,
                  double p95, double stdDev) {
    const KernelStats* k = kernel(s, prefix);
    if (k == nullptr)
        return;
    EXPECT_EQ(k->count, count) << prefix;
    EXPECT_NEAR(k->medianNs, median, 1e-3) << prefix;
    EXPECT_NEAR(k->p95Ns, p95, 1e-3) << prefix;
    EXPECT_NEAR(k->stdDevNs, stdDev, 1e-3) << prefix;
}

// An operator's row by name (and shapes, when given), against calls, host total and self, GPU
// total and self (ns) as check_summary.py prints them.
void expectOperator(const std::vector<OperatorStats>& rows, std::string_view name,
                    std::string_view shapes, std::uint64_t calls, TimeNs hostTotalNs,
                    TimeNs hostSelfNs, TimeNs gpuTotalNs, TimeNs gpuSelfNs) {
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const OperatorStats& o) {
        return o.name == name && o.inputShapes == shapes;
    });
    ASSERT_NE(it, rows.end()) << name << " " << shapes;
    EXPECT_EQ(it->calls, calls) << name;
    EXPECT_EQ(it->hostTotalNs, hostTotalNs) << name;
    EXPECT_EQ(it->hostSelfNs, hostSelfNs) << name;
    EXPECT_EQ(it->gpuTotalNs, gpuTotalNs) << name;
    EXPECT_EQ(it->gpuSelfNs, gpuSelfNs) << name;
}

// `warpline record` of a PyTorch training loop (50 NVTX steps "step N" inside "train", memory
// records): the steps' breakdown over the default window, the kernels and the memory peak over
// the whole trace.
TEST(SummaryOfRealTraces, RecordedTrainingLoop) {
    const auto trace = load(test::dataPath("recorded/torch_train.json.gz"));
    ASSERT_TRUE(trace);
    const AnalysisResult byDefault = analyzeTrace(*trace);
    ASSERT_EQ(byDefault.window().source, WindowSource::Iterations);
    const Summary steps = summarize(*trace, byDefault);
    EXPECT_EQ(steps.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(steps.iterations.size(), 50u);
    EXPECT_EQ(steps.iterations[0].name, "step 0");
    EXPECT_EQ(steps.iterations[0].range.durationNs(), 2281533);
    EXPECT_EQ(steps.iterations[0].partNs, (Parts{493439, 19103, 2816, 328733, 0, 0, 1437442}));
    EXPECT_EQ(steps.iterations[49].partNs, (Parts{493570, 19841, 2816, 408436, 0, 0, 1583237}));
    // "train" holds every step: no host compute.
    EXPECT_EQ(totals(steps), (Parts{24797792, 962783, 139910, 19878056, 0, 0, 77835708}));

    const AnalysisWindow whole = wholeTrace(*trace);
    const AnalysisResult all = analyzeTrace(*trace, {}, whole);
    expectSpread(all.statistics,
                 "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true", 55, 59553.000,
                 60201.600, 371.626);
    expectSpread(all.statistics, "void wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>",
                 55, 36672.000, 37318.400, 315.034);
    expectSpread(all.statistics, "void at::native::(anonymous namespace)::max_pool_backward_nchw",
                 110, 16928.000, 22432.000, 5329.388);
    const Summary summary = summarize(*trace, all);
    ASSERT_EQ(summary.memory.size(), 1u);
    EXPECT_EQ(summary.memory[0].deviceId, 0);
    EXPECT_DOUBLE_EQ(summary.memory[0].peakInUseBytes, 330248336.0);
    EXPECT_EQ(summary.memory[0].peakNs - whole.startNs(), 3825972783);
    EXPECT_FALSE(summary.memory[0].runningAtPeak.empty());
    EXPECT_TRUE(summary.operators.nvtxRanges);  // no CPU operators: the NVTX ranges
    // The steps are the iterations' (and so nested in "train" as no operator is).
    ASSERT_EQ(summary.operators.byName.size(), 2u);
    expectOperator(summary.operators.byName, "warmup", "", 1, 706824559, 706824559, 1064996,
                   1064996);
    expectOperator(summary.operators.byName, "train", "", 1, 123697521, 123697521, 10813784,
                   10813784);
    EXPECT_TRUE(summary.ranks.empty());
}

// The PyTorch profiler's trace of two NVTX steps ("step0", "step1") with CPU operators.
TEST(SummaryOfRealTraces, ProfilerStepsWithCpuOperators) {
    const auto trace = load(test::dataPath("pytorch_small.json.gz"));
    ASSERT_TRUE(trace);
    const Summary s = summarize(*trace, analyzeTrace(*trace));
    EXPECT_EQ(s.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(s.iterations.size(), 2u);
    EXPECT_EQ(s.iterations[0].name, "step0");
    EXPECT_EQ(s.iterations[0].range.durationNs(), 1266836);
    EXPECT_EQ(s.iterations[0].partNs, (Parts{60830, 66271, 4193, 478618, 0, 546867, 110057}));
    EXPECT_EQ(s.iterations[1].range.durationNs(), 639552);
    EXPECT_EQ(s.iterations[1].partNs, (Parts{59967, 44833, 4191, 214995, 0, 262015, 53551}));
    EXPECT_FALSE(s.operators.nvtxRanges);
    EXPECT_FALSE(s.operators.byName.empty());

    const AnalysisResult all = analyzeTrace(*trace, {}, wholeTrace(*trace));
    const OperatorTable operators = summarize(*trace, all).operators;
    ASSERT_FALSE(operators.byName.empty());
    EXPECT_EQ(operators.byName[0].name, "aten::randn");
    expectOperator(operators.byName, "aten::randn", "", 3, 3401741, 20008, 4800, 0);
    expectOperator(operators.byName, "aten::copy_", "", 7, 644976, 644976, 111104, 111104);
    expectOperator(operators.byName, "aten::matmul", "", 6, 574626, 12638, 75071, 0);
    expectOperator(operators.byName, "aten::sum", "", 16, 453477, 226982, 92862, 46431);
    EXPECT_TRUE(operators.byNameAndShapes.empty());  // the profiler recorded no shapes
    expectSpread(all.statistics,
                 "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
                 "aligna4_alignc4_execute_kernel__5x_cublas",
                 6, 9680.000, 10040.000, 191.481);
    expectSpread(all.statistics,
                 "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
                 "aligna4_alignc4_execute_split_k_kernel__5x_cublas",
                 6, 2720.000, 2984.000, 124.630);
}

// A CUDA graph replayed 320 times, traced by the PyTorch profiler and by `warpline record`: each
// launch an iteration.
TEST(SummaryOfRealTraces, GraphReplays) {
    struct Expected {
        std::string_view file;
        Parts totals;
        std::uint64_t count;
        double median, p95, stdDev;
        double peakBytes;  // 0: no memory row (the profiler's trace has no memory events)
        TimeNs peakAfterStartNs;
    };
    const Expected traces[] = {
        {"recorded/torch_graph_replay.pt.trace.json.gz",
         {22979502, 614084, 0, 3985024, 0, 693239, 713297},
         640,
         4351.500,
         4896.000,
         534.423,
         0.0,
         0},
        {"recorded/torch_graph_replay.json.gz",
         {22951512, 616131, 0, 4191596, 0, 0, 1335908},
         646,
         4352.500,
         4896.000,
         522.143,
         330180108.0,
         4581410373},
    };
    for (const Expected& e : traces) {
        SCOPED_TRACE(e.file);
        const auto trace = load(test::dataPath(std::string(e.file)));
        ASSERT_TRUE(trace);
        const AnalysisResult byDefault = analyzeTrace(*trace);
        ASSERT_EQ(byDefault.window().source, WindowSource::GraphLaunches);
        const Summary s = summarize(*trace, byDefault);
        EXPECT_EQ(s.iterationSource, IterationSource::GraphLaunches);
        EXPECT_EQ(s.iterations.size(), 320u);
        EXPECT_EQ(totals(s), e.totals);
        const AnalysisWindow whole = wholeTrace(*trace);
        const AnalysisResult all = analyzeTrace(*trace, {}, whole);
        expectSpread(all.statistics,
                     "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_"
                     "ffma_aligna4_alignc4_execute_kernel__5x_cublas",
                     e.count, e.median, e.p95, e.stdDev);
        const Summary summary = summarize(*trace, all);
        if (e.peakBytes == 0.0) {
            EXPECT_TRUE(summary.memory.empty());
            continue;
        }
        ASSERT_EQ(summary.memory.size(), 1u);
        EXPECT_DOUBLE_EQ(summary.memory[0].peakInUseBytes, e.peakBytes);
        EXPECT_EQ(summary.memory[0].peakNs - whole.startNs(), e.peakAfterStartNs);
    }
}

// Holistic Trace Analysis' test trace of 5 profiler steps with the allocator's "[memory]" events
// (the external traces, not part of this repository: skipped without them).
TEST(SummaryOfRealTraces, ProfilerTraceWithMemoryEvents) {
    const std::filesystem::path path =
        std::filesystem::path(WARPLINE_EXTERNAL_TRACES_DIR) / "hta_df_index_resolver.json.gz";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is not here";
    const auto trace = load(path.string());
    ASSERT_TRUE(trace);
    const Summary steps = summarize(*trace, analyzeTrace(*trace));
    EXPECT_EQ(steps.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(steps.iterations.size(), 5u);
    EXPECT_EQ(steps.iterations[0].name, "ProfilerStep#2");
    EXPECT_EQ(steps.iterations[0].partNs,
              (Parts{183865000, 4401000, 176000, 21968000, 0, 123815000, 11598000}));
    EXPECT_EQ(totals(steps),
              (Parts{977859000, 21862000, 892000, 102849000, 0, 578116000, 56324000}));
    EXPECT_TRUE(steps.operators.byNameAndShapes.empty());  // the profiler recorded no shapes

    const AnalysisWindow whole = wholeTrace(*trace);
    const AnalysisResult all = analyzeTrace(*trace, {}, whole);
    expectSpread(all.statistics, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", 2020,
                 11000.000, 495050.000, 425488.382);
    expectSpread(all.statistics, "volta_sgemm_128x32_nt", 380, 162000.000, 1007850.000, 215617.911);
    const Summary summary = summarize(*trace, all);
    const auto& byName = summary.operators.byName;
    ASSERT_FALSE(byName.empty());
    EXPECT_EQ(byName[0].name, "autograd::engine::evaluate_function: CompiledFunctionBackward");
    expectOperator(byName, "autograd::engine::evaluate_function: CompiledFunctionBackward", "", 5,
                   1154054000, 1364000, 743043000, 0);
    expectOperator(byName, "record_param_comms", "", 4040, 174813000, 174813000, 357343000,
                   357343000);
    expectOperator(byName, "aten::mm", "", 1470, 81209000, 81209000, 230578000, 230578000);
    ASSERT_EQ(summary.memory.size(), 1u);
    EXPECT_EQ(summary.memory[0].deviceId, 1);
    EXPECT_DOUBLE_EQ(summary.memory[0].peakInUseBytes, 6629508096.0);
    EXPECT_EQ(summary.memory[0].peakNs - whole.startNs(), 189806000);
    EXPECT_FALSE(summary.memory[0].runningAtPeak.empty());
}

// The PyTorch 1.8 profiler's ResNet-50 sample of the TensorBoard plugin (the external traces):
// CPU operators with their input shapes ("Input dims" in that version), the data loader's calls.
TEST(SummaryOfRealTraces, OperatorsWithInputShapes) {
    const std::filesystem::path path = std::filesystem::path(WARPLINE_EXTERNAL_TRACES_DIR) /
                                       "kineto_tb_resnet50_nw0_2021-01.pt.trace.json.gz";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << path << " is not here";
    const auto trace = load(path.string());
    ASSERT_TRUE(trace);
    const Summary s = summarize(*trace, analyzeTrace(*trace, {}, wholeTrace(*trace)));
    ASSERT_FALSE(s.operators.byName.empty());
    EXPECT_EQ(s.operators.byName[0].name,
              "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    expectOperator(s.operators.byName,
                   "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "", 6, 313370000,
                   151560000, 0, 0);
    expectOperator(s.operators.byName, "aten::cudnn_convolution", "", 636, 234441000, 68971000,
                   257920000, 128960000);
    expectOperator(s.operators.byName, "aten::add_", "", 5988, 202899000, 121795000, 46680000,
                   23340000);
    expectOperator(s.operators.byNameAndShapes, "aten::div", "[[3,224,224],[]]", 384, 73914000,
                   26094000, 0, 0);
    expectOperator(s.operators.byNameAndShapes, "aten::stack", "[[],[]]", 12, 92821000, 898000, 0,
                   0);
}

// A job of two ranks merged on the hosts' wall clock (HTA's sampled ranks, tests/data/ranks): the
// iterations are the first rank's steps, and each rank's breakdown adds up.
TEST(SummaryOfRealTraces, AJobsFirstRankStepsAndEachRanksBreakdown) {
    const std::vector<std::string> files = {test::dataPath("ranks/sampled_rank-0.json.gz"),
                                            test::dataPath("ranks/sampled_rank-1.json.gz")};
    const auto job = io::loadRankJob(files);
    ASSERT_TRUE(job.ok()) << job.error().describe();
    const model::Trace& trace = *job.value().trace;
    const AnalysisResult result = analyzeTrace(trace);
    const Summary s = summarize(trace, result);
    EXPECT_EQ(s.iterationSource, IterationSource::NvtxRanges);
    ASSERT_EQ(s.iterations.size(), 2u);
    EXPECT_EQ(s.iterations[0].name, "ProfilerStep#551");
    EXPECT_EQ(s.iterations[1].name, "ProfilerStep#552");
    totals(s);  // each iteration's parts sum to its span
    // Rank 0's own steps: the first starts with rank 0's "ProfilerStep#551", not rank 1's.
    std::map<std::int32_t, TimeNs> stepStart;  // by rank
    for (const model::Track& track : trace.tracks()) {
        const model::Process& p = trace.processes()[track.process];
        if (p.deviceId >= 0 || track.kind != model::TrackKind::Nvtx)
            continue;
        for (const model::Slice& slice : track.slices) {
            if (trace.str(slice.nameId) == "ProfilerStep#551")
                stepStart[p.rank] = slice.startNs;
        }
    }
    ASSERT_EQ(stepStart.size(), 2u);
    EXPECT_NE(stepStart[0], stepStart[1]);
    EXPECT_EQ(s.iterations[0].range.startNs, stepStart[0]);
    ASSERT_EQ(s.ranks.size(), 2u);
    for (const RankTimeBreakdown& r : s.ranks) {
        EXPECT_EQ(r.windowNs, result.window().durationNs()) << r.rank;  // one GPU each
        EXPECT_GT(r.computeNs, 0) << r.rank;
        EXPECT_GT(r.communicationNs, 0) << r.rank;
        EXPECT_EQ(r.computeNs + r.communicationNs - r.overlapNs + r.otherNs, r.windowNs) << r.rank;
    }
}

}  // namespace
}  // namespace wl::analysis
