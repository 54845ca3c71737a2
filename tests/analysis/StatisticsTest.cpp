#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/GpuOps.h"
#include "analysis/Statistics.h"
#include "io/ChromeTraceReader.h"
#include "model/TraceBuilder.h"
#include "support/TraceFactory.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

TEST(Statistics, PerKernelName) {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1, "k1");
    t.kernel(1, 200, 500, -1, "k1");
    t.kernel(2, 100, 150, -1, "k2");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    EXPECT_EQ(s.kernelTotalNs, 450);
    ASSERT_EQ(s.kernels.size(), 2u);
    const KernelStats& k1 = s.kernels[0];  // longest total first
    EXPECT_EQ(k1.name, "k1");
    EXPECT_EQ(k1.count, 2u);
    EXPECT_EQ(k1.totalNs, 400);
    EXPECT_DOUBLE_EQ(k1.meanNs, 200.0);
    EXPECT_EQ(k1.minNs, 100);
    EXPECT_EQ(k1.maxNs, 300);
    EXPECT_DOUBLE_EQ(k1.pctOfGpuTime, 100.0 * 400 / 450);
    EXPECT_EQ(s.kernels[1].name, "k2");
    EXPECT_EQ(s.kernels[1].count, 1u);
    EXPECT_DOUBLE_EQ(s.kernels[1].pctOfGpuTime, 100.0 * 50 / 450);
}

TEST(Statistics, ShortNamesNextToTheFullOnes) {
    test::HandTrace t;
    const std::string_view full =
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
        "at::native::MeanOps<float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
        "at::native::MeanOps<float, float>, unsigned int, float, 4>)";
    t.kernel(1, 0, 100, -1, full);
    t.kernel(1, 200, 250, -1, "partial_reduce");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_EQ(s.kernels[0].name, full);
    EXPECT_EQ(s.kernels[0].shortName, "reduce_kernel");
    EXPECT_EQ(trace->str(s.kernels[0].nameId), full);
    EXPECT_EQ(s.kernels[1].shortName, "partial_reduce");
    EXPECT_NE(s.kernels[0].nameId, s.kernels[1].nameId);
}

TEST(Statistics, TwoKernelsWithOneShortNameAreTwoRowsThatReadAsTwo) {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1,
             "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1>)");
    t.kernel(1, 200, 250, -1,
             "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
             "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
             "at::detail::Array<char*, 3>)");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_EQ(s.kernels[0].shortName,
              "vectorized_elementwise_kernel<4, FillFunctor<float>, Array<char*, 1>>");
    EXPECT_EQ(s.kernels[1].shortName,
              "vectorized_elementwise_kernel<4, AddFunctor<float>, Array<char*, 3>>");
}

TEST(Statistics, KernelLaunchesOfOneNameInsideTheWindow) {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1, "k1");
    t.kernel(2, 150, 180, -1, "k2");
    t.kernel(1, 200, 500, -1, "k1");
    t.kernel(2, 900, 1000, -1, "k1");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    const KernelStats& k1 = s.kernels[0];
    ASSERT_EQ(k1.name, "k1");
    const auto startsOf = [&](const std::vector<model::SliceRef>& refs) {
        std::vector<model::TimeNs> starts;
        for (const model::SliceRef& r : refs) {
            EXPECT_EQ(trace->slice(r).nameId, k1.nameId);
            starts.push_back(trace->slice(r).startNs);
        }
        std::sort(starts.begin(), starts.end());
        return starts;
    };
    EXPECT_EQ(startsOf(kernelLaunches(*trace, k1.nameId)),
              (std::vector<model::TimeNs>{0, 200, 900}));
    // Only those overlapping the parts: [50, 250) and [950, 2000); [600, 700) holds none.
    EXPECT_EQ(startsOf(kernelLaunches(*trace, k1.nameId, {{50, 250}, {600, 700}, {950, 2000}})),
              (std::vector<model::TimeNs>{0, 200, 900}));
    EXPECT_EQ(startsOf(kernelLaunches(*trace, k1.nameId, {{120, 190}, {600, 700}})),
              (std::vector<model::TimeNs>{}));
    EXPECT_EQ(startsOf(kernelLaunches(*trace, k1.nameId, {{450, 800}})),
              (std::vector<model::TimeNs>{200}));
}

TEST(Statistics, PerCopyKind) {
    test::HandTrace t;
    t.copy(1, 0, 100, CopyKind::HostToDevice, 1000, -1, -1);
    t.copy(1, 200, 600, CopyKind::HostToDevice, 1000, -1, -1, "cudaMemcpy",
           model::MemoryKind::Pageable);
    t.copy(1, 700, 800, CopyKind::DeviceToHost, 5000, -1, -1);
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.copies.size(), 2u);
    EXPECT_EQ(s.copies[0].kind, CopyKind::HostToDevice);
    EXPECT_EQ(s.copies[0].count, 2u);
    EXPECT_EQ(s.copies[0].bytes, 2000u);
    EXPECT_EQ(s.copies[0].totalNs, 500);
    EXPECT_EQ(s.copies[0].pageableCount, 1u);
    EXPECT_DOUBLE_EQ(s.copies[0].gbPerSecond(), 4.0);  // 2000 B / 500 ns
    EXPECT_EQ(s.copies[1].kind, CopyKind::DeviceToHost);
    EXPECT_DOUBLE_EQ(s.copies[1].gbPerSecond(), 50.0);
    EXPECT_EQ(s.copyBytes, 7000u);
    EXPECT_DOUBLE_EQ(s.copyGbPerSecond(), 7000.0 / 600.0);
}

TEST(Statistics, PerCudaGraph) {
    const auto trace = wl::test::makeGraphLaunchTrace();
    const AnalysisResult r = analyzeTrace(*trace);
    ASSERT_EQ(r.statistics.graphs.size(), 1u);
    const GraphStats& g = r.statistics.graphs[0];
    EXPECT_EQ(g.graphId, 4u);
    EXPECT_EQ(g.launches, 2u);
    EXPECT_EQ(g.nodes, 4u);
    EXPECT_DOUBLE_EQ(g.nodesPerLaunch(), 2.0);
    EXPECT_EQ(g.gpuNs, 50 + 40 + 50 + 80);
    EXPECT_DOUBLE_EQ(g.meanLaunchSpanNs(), 100.0);
    // Per node, longest first: node 2 ("b", "b2": 40 + 80) before node 1 ("a": 50 + 50).
    ASSERT_EQ(g.nodeStats.size(), 2u);
    EXPECT_EQ(g.nodeStats[0].nodeId, 2u);
    EXPECT_EQ(g.nodeStats[0].runs, 2u);
    EXPECT_EQ(g.nodeStats[0].totalNs, 120);
    EXPECT_DOUBLE_EQ(g.nodeStats[0].meanNs(), 60.0);
    EXPECT_EQ(g.nodeStats[1].nodeId, 1u);
    EXPECT_EQ(g.nodeStats[1].name, "a");
    EXPECT_EQ(g.nodeStats[1].totalNs, 100);
}

TEST(Statistics, DeviceMemoryOverTheWindow) {
    // A kernel [100,700); 1 MiB allocated at 150, 4 KiB from a pool at 160, the MiB released at
    // 600.
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto memory = b.memoryTrack(gpu);
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 700, "k", 0, {});
    model::MemoryDetail m;
    m.memoryKind = model::MemoryKind::Device;
    m.address = 0x1000;
    m.bytes = 1 << 20;
    b.addMemory(memory, 150, "Allocate (Device)", 0, m);
    model::MemoryDetail pooled = m;
    pooled.address = 0x2000;
    pooled.bytes = 4096;
    pooled.fromPool = true;
    pooled.poolReservedBytes = 2 << 20;
    b.addMemory(memory, 160, "Allocate (Device, pool)", 0, pooled);
    m.op = model::MemoryOp::Release;
    b.addMemory(memory, 600, "Release (Device)", 0, m);
    const auto trace = b.finalize();
    const AnalysisResult r = analyzeTrace(*trace);
    ASSERT_EQ(r.statistics.memory.size(), 1u);
    const MemoryStats& mem = r.statistics.memory[0];
    EXPECT_EQ(mem.deviceId, 0);
    EXPECT_EQ(mem.allocations, 2u);
    EXPECT_EQ(mem.releases, 1u);
    EXPECT_EQ(mem.allocatedBytes, (1u << 20) + 4096);
    EXPECT_EQ(mem.releasedBytes, 1u << 20);
    EXPECT_EQ(mem.poolOperations, 1u);
    EXPECT_DOUBLE_EQ(mem.inUseAtStartBytes, 0.0);
    EXPECT_DOUBLE_EQ(mem.peakInUseBytes, double((1 << 20) + 4096));
    EXPECT_DOUBLE_EQ(mem.inUseAtEndBytes, 4096.0);
}

TEST(Statistics, DeviceMemoryOfAPyTorchTraceComesFromItsRowAlone) {
    // profile_memory=True: the allocator's totals, no allocation recorded as such.
    const std::string json = R"({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "device": 1, "correlation": 3}},
      {"ph": "i", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 15, "args": {"Device Type": 1, "Device Id": 1, "Bytes": 4096, "Total Allocated": 4096, "Total Reserved": 2097152}},
      {"ph": "i", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 25, "args": {"Device Type": 1, "Device Id": 1, "Bytes": -4096, "Total Allocated": 0, "Total Reserved": 2097152}}]})";
    const auto trace = io::ChromeTraceReader().read(json, "memory.json");
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    const auto memory = analyzeTrace(*trace.value()).statistics.memory;
    ASSERT_EQ(memory.size(), 1u);
    EXPECT_FALSE(memory[0].operationsRecorded);
    EXPECT_EQ(memory[0].deviceId, 1);
    EXPECT_EQ(memory[0].allocations, 0u);
    EXPECT_DOUBLE_EQ(memory[0].peakInUseBytes, 4096.0);
    EXPECT_DOUBLE_EQ(memory[0].inUseAtEndBytes, 0.0);
}

TEST(Statistics, HowManyGpusWorkedAtOnce) {
    // GPU 0 busy [0,100) and [200,300); GPU 1 busy [50,250): both [50,100) and [200,250).
    model::TraceBuilder b;
    const auto s0 = b.gpuStreamTrack(b.gpuProcess(0), 7);
    const auto s1 = b.gpuStreamTrack(b.gpuProcess(1), 7);
    b.addKernel(s0, 0, 100, "a", 0, {});
    b.addKernel(s0, 200, 300, "a", 0, {});
    b.addKernel(s1, 50, 250, "b", 0, {});
    const auto trace = b.finalize();
    const DeviceConcurrency c = analyzeTrace(*trace).statistics.devicesAtOnce;
    EXPECT_EQ(c.devices, 2);
    EXPECT_EQ(c.windowNs, 300);
    ASSERT_EQ(c.nsWithBusy.size(), 3u);
    EXPECT_EQ(c.nsWithBusy[2], 100);
    EXPECT_EQ(c.nsWithBusy[1], 200);
    EXPECT_EQ(c.nsWithBusy[0], 0);
    EXPECT_DOUBLE_EQ(c.meanBusyDevices(), (2.0 * 100 + 200) / 300);
    EXPECT_NEAR(c.pctWithBusy(2), 33.33, 0.01);
}

TEST(ApiNames, Classification) {
    EXPECT_EQ(baseApiName("cudaMemcpy_v3020"), "cudaMemcpy");
    EXPECT_EQ(baseApiName("cuMemcpyDtoH_v2"), "cuMemcpyDtoH");
    EXPECT_EQ(baseApiName("cudaStreamSynchronize_ptsz"), "cudaStreamSynchronize");
    EXPECT_EQ(baseApiName("my_value"), "my_value");
    EXPECT_TRUE(isExplicitSyncApi("cudaDeviceSynchronize_v3020"));
    EXPECT_TRUE(isExplicitSyncApi("cuEventSynchronize"));
    EXPECT_FALSE(isExplicitSyncApi("cudaEventRecord_v3020"));
    EXPECT_TRUE(isBlockingCopyApi("cudaMemcpy_v3020"));
    EXPECT_TRUE(isBlockingCopyApi("cuMemcpyDtoH_v2"));
    EXPECT_FALSE(isBlockingCopyApi("cudaMemcpyAsync_v3020"));
    EXPECT_FALSE(isBlockingCopyApi("cuMemcpyHtoDAsync_v2"));
    EXPECT_FALSE(isSynchronizingApi("cudaLaunchKernel_v7000"));
}

TEST(ApiNames, Launches) {
    for (const char* launch :
         {"cudaLaunchKernel_v7000", "cudaLaunchKernel_ptsz_v7000", "cudaLaunchKernelExC_v11060",
          "cuLaunchKernel", "cuLaunchKernelEx", "cudaGraphLaunch_v10000", "cuGraphLaunch_ptsz"}) {
        EXPECT_TRUE(isLaunchApi(launch)) << launch;
    }
    for (const char* call : {"cudaLaunchHostFunc_v10000", "cudaMemcpyAsync_v3020",
                             "cuLaunchHostFunc", "cudaGetDevice_v3020"}) {
        EXPECT_FALSE(isLaunchApi(call)) << call;
    }
}

TEST(ApiNames, StateQueriesAreCallsThatOnlyReadState) {
    // As CUPTI names them, with version and per-thread suffixes.
    for (const char* query :
         {"cudaGetDevice_v3020", "cudaGetLastError_v3020", "cudaStreamIsCapturing_ptsz_v10000",
          "cudaStreamGetCaptureInfo_v2_v11030", "cuDevicePrimaryCtxGetState", "cuKernelGetName",
          "cuGetProcAddress_v2", "cuPointerGetAttribute", "cuCtxGetCurrent"}) {
        EXPECT_TRUE(isStateQueryApi(query)) << query;
    }
    // Work, waits, and queries that can load a module lazily stay recorded.
    for (const char* call :
         {"cudaLaunchKernel_v7000", "cudaStreamSynchronize_v3020", "cudaMemcpyAsync_v3020",
          "cudaSetDevice_v3020", "cudaEventQuery_v3020", "cudaFuncGetAttributes_v3020",
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000", "cuKernelGetFunction",
          "cudaProfilerStart_v4000", "cudaMalloc_v3020", "cudaGetDeviceX"}) {
        EXPECT_FALSE(isStateQueryApi(call)) << call;
    }
}

// The spread of a kernel's durations as numpy gives it: np.median, np.percentile(d, 95) (linear)
// and np.std (ddof 0) of [10, 20, 30, 40] are 25, 38.5 and sqrt(125).
TEST(Statistics, MedianP95AndStdDevAsNumpyGivesThem) {
    test::HandTrace t;
    for (const model::TimeNs d : {40, 10, 30, 20})
        t.kernel(1, 1000 * d, 1000 * d + d, -1, "k");
    for (const model::TimeNs d : {7, 1, 3})
        t.kernel(2, 1000 * d, 1000 * d + d, -1, "odd");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.kernels.size(), 2u);
    const KernelStats& k = s.kernels[0];
    EXPECT_EQ(k.name, "k");
    EXPECT_DOUBLE_EQ(k.medianNs, 25.0);
    EXPECT_DOUBLE_EQ(k.p95Ns, 38.5);
    EXPECT_DOUBLE_EQ(k.stdDevNs, std::sqrt(125.0));
    const KernelStats& odd = s.kernels[1];
    EXPECT_DOUBLE_EQ(odd.medianNs, 3.0);
    EXPECT_DOUBLE_EQ(odd.p95Ns, 6.6);  // 3 + (7 - 3) * 0.9, at index 1.9
    EXPECT_NEAR(odd.stdDevNs, std::sqrt(56.0 / 9.0), 1e-12);
}

// A launch cut by the gaps between a window's parts is one launch of the time of its pieces.
TEST(Statistics, ALaunchCutByAWindowsPartsIsOneDuration) {
    test::HandTrace t;
    t.kernel(1, 90, 130, -1, "k");
    t.kernel(1, 140, 150, -1, "k");
    const auto trace = t.finish();
    AnalysisWindow window;
    window.parts = {{0, 100}, {120, 200}};
    const Statistics s = computeStatistics(*trace, GpuOps(*trace, &window), window);
    ASSERT_EQ(s.kernels.size(), 1u);
    EXPECT_EQ(s.kernels[0].count, 2u);
    EXPECT_DOUBLE_EQ(s.kernels[0].medianNs, 15.0);  // 10 + 10, and 10
    EXPECT_DOUBLE_EQ(s.kernels[0].p95Ns, 19.5);
}

// The launch configuration used most often (the first seen on a tie), its registers and its
// theoretical occupancy on the device; unknown (-1) without the device's limits.
TEST(Statistics, MostUsedLaunchConfigurationAndItsOccupancy) {
    const auto build = [](bool h100) {
        test::HandTrace t;
        if (h100)
            t.addH100();
        t.kernel(1, 0, 10, -1, "k", test::launchConfig(8, 128, 64));
        t.kernel(1, 20, 30, -1, "k", test::launchConfig(4, 256, 32));
        t.kernel(1, 40, 50, -1, "k", test::launchConfig(4, 256, 32));
        t.kernel(1, 60, 70, -1, "k", test::launchConfig(8, 128, 64));
        t.kernel(1, 80, 90, -1, "k", test::launchConfig(4, 256, 32));
        t.kernel(1, 100, 110, -1, "tie", test::launchConfig(2, 64));
        t.kernel(1, 120, 130, -1, "tie", test::launchConfig(1, 32));
        return t.finish();
    };
    const auto trace = build(true);
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const AnalysisResult r = analyzeTrace(*trace, {}, resolveWindow(*trace, whole).value());
    ASSERT_EQ(r.statistics.kernels.size(), 2u);
    const auto find = [&](std::string_view name) -> const KernelStats& {
        return *std::find_if(r.statistics.kernels.begin(), r.statistics.kernels.end(),
                             [&](const KernelStats& k) { return k.name == name; });
    };
    const KernelStats& k = find("k");
    EXPECT_EQ(k.grid, (std::array<std::int32_t, 3>{4, 1, 1}));
    EXPECT_EQ(k.block, (std::array<std::int32_t, 3>{256, 1, 1}));
    EXPECT_EQ(k.registersPerThread, 32);
    const Occupancy expected = computeOccupancy(h100Limits(), 256, 32, 0);
    ASSERT_TRUE(expected.valid);
    EXPECT_DOUBLE_EQ(k.theoreticalOccupancyPct, expected.theoreticalPct);
    EXPECT_GT(k.theoreticalOccupancyPct, 0.0);
    EXPECT_EQ(find("tie").grid[0], 2);  // the first seen
    EXPECT_FALSE(k.tensorCores);

    const auto unknown = build(false);
    const Statistics s = computeStatistics(*unknown, GpuOps(*unknown), AnalysisWindow{});
    EXPECT_EQ(s.kernels[0].grid[0], 4);
    EXPECT_LT(s.kernels[0].theoreticalOccupancyPct, 0.0);
}

// A kernel sized to its input has many configurations: the most used still wins, the first seen
// on a tie.
TEST(Statistics, MostUsedOfManyLaunchConfigurations) {
    test::HandTrace t;
    model::TimeNs at = 0;
    for (std::int32_t grid = 20; grid >= 1; --grid) {
        t.kernel(1, at, at + 10, -1, "sized", test::launchConfig(grid, 128));
        t.kernel(1, at + 20, at + 30, -1, "all once", test::launchConfig(grid, 64));
        at += 100;
    }
    t.kernel(1, at, at + 10, -1, "sized", test::launchConfig(7, 128));
    t.kernel(1, at + 20, at + 30, -1, "sized", test::launchConfig(9, 128));
    t.kernel(1, at + 40, at + 50, -1, "sized", test::launchConfig(7, 128));
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_EQ(s.kernels[0].name, "sized");
    EXPECT_EQ(s.kernels[0].grid[0], 7);  // 3 launches, grid 9 2
    EXPECT_EQ(s.kernels[1].name, "all once");
    EXPECT_EQ(s.kernels[1].grid[0], 20);  // each once: the first seen
    EXPECT_EQ(s.kernels[1].block[0], 64);
}

TEST(Statistics, TensorCoreKernelsSaySo) {
    test::HandTrace t;
    t.kernel(1, 0, 10, -1,
             "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4>("
             "cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4::Params)");
    t.kernel(1, 20, 25, -1, "ampere_sgemm_128x64_nn");
    const auto trace = t.finish();
    const Statistics s = computeStatistics(*trace, GpuOps(*trace), AnalysisWindow{});
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_TRUE(s.kernels[0].tensorCores);
    EXPECT_FALSE(s.kernels[1].tensorCores);
}

}  // namespace
}  // namespace wl::analysis
