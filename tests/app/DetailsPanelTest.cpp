#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QLabel>

#include "analysis/Format.h"

#include "app/gui/DocumentAnalysis.h"
#include "app/gui/SampleTraces.h"
#include "io/TraceFile.h"
#include "model/TraceBuilder.h"
#include "support/TraceFactory.h"
#include "ui/common/Units.h"
#include "ui/details/ArgMembers.h"
#include "ui/details/DetailsPanel.h"

namespace wl::ui {
namespace {

// A trace with one launch (API call -> kernel) and one pageable copy, all times known.
model::TracePtr launchTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 100);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    model::DeviceProperties dev;
    dev.id = 0;
    dev.name = "Test GPU";
    b.addDevice(dev);
    b.addApi(api, 1'000, 6'000, "cudaLaunchKernel", 42, {});
    model::KernelDetail k;
    k.grid = {1280, 1, 1};
    k.block = {256, 1, 1};
    k.registersPerThread = 32;
    k.staticSharedBytes = 1024;
    k.dynamicSharedBytes = 2048;
    b.addKernel(stream, 9'000, 29'000, "partial_reduce", 42, k);
    b.addApi(api, 30'000, 40'000, "cudaMemcpy", 43, {});
    model::MemcpyDetail m{8'000'000, model::CopyKind::HostToDevice, model::MemoryKind::Pageable,
                          model::MemoryKind::Device};
    b.addMemcpy(stream, 31'000, 1'031'000, "Memcpy HtoD", 43, m);
    return b.finalize();
}

model::SliceRef findSlice(const model::Trace& t, std::string_view name) {
    for (std::uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const auto& slices = t.track(ti).slices;
        for (std::uint32_t si = 0; si < slices.size(); ++si) {
            if (t.str(slices[si].nameId) == name)
                return {ti, si};
        }
    }
    return {};
}

TEST(DetailsPanel, KernelShowsLaunchConfigurationAndLatency) {
    auto trace = launchTrace();
    DetailsPanel panel;
    panel.setTrace(trace);
    const model::SliceRef kernel = findSlice(*trace, "partial_reduce");
    ASSERT_TRUE(kernel.valid());
    panel.showSlice(kernel);

    EXPECT_EQ(panel.title(), "partial_reduce");
    EXPECT_EQ(panel.value("Kind"), "Kernel");
    EXPECT_EQ(panel.value("Duration"), "20.0 µs");
    EXPECT_EQ(panel.value("Stream"), "7");
    EXPECT_EQ(panel.value("Device"), "Test GPU (GPU 0)");
    EXPECT_EQ(panel.value("Grid"), "1280 × 1 × 1");
    EXPECT_EQ(panel.value("Block"), "256 × 1 × 1");
    EXPECT_EQ(panel.value("Registers per thread"), "32");
    EXPECT_TRUE(panel.value("Shared memory").startsWith("3.1 KB per block"));
    EXPECT_EQ(panel.value("Warps per block"), "8");
    // Rebased: the API call starts at 0 and the kernel 8 µs later.
    EXPECT_TRUE(panel.value("Launched by").startsWith("cudaLaunchKernel at 0.000000 ms"));
    EXPECT_EQ(panel.value("Launch latency"), "8.0 µs");
    EXPECT_EQ(panel.value("API call duration"), "5.0 µs");
}

TEST(DetailsPanel, KernelShowsItsFullShortNameAndLibrary) {
    model::TraceBuilder b;
    const auto stream = b.gpuStreamTrack(b.gpuProcess(0, "GPU 0"), 7);
    // Mangled, as a producer without a demangler leaves it.
    b.addKernel(stream, 0, 1'000, "_ZN6thrust8cuda_cub4core13_kernel_agentIiEEvv", 1, {});
    b.addKernel(stream, 2'000, 3'000, "partial_reduce", 2, {});
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "_ZN6thrust8cuda_cub4core13_kernel_agentIiEEvv"));
    // Under its short name; the whole demangled name a row below.
    EXPECT_EQ(panel.title(), "core::_kernel_agent");
    EXPECT_EQ(panel.value("Full name"), "void thrust::cuda_cub::core::_kernel_agent<int>()");
    EXPECT_EQ(panel.value("Library"), "Thrust");

    panel.showSlice(findSlice(*trace, "partial_reduce"));
    EXPECT_EQ(panel.title(), "partial_reduce");
    EXPECT_TRUE(panel.value("Full name").isEmpty());  // the title says it all
    EXPECT_TRUE(panel.value("Library").isEmpty());    // the user's own code
}

TEST(DetailsPanel, CopyShowsBytesThroughputAndMemoryKinds) {
    auto trace = launchTrace();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "Memcpy HtoD"));
    EXPECT_EQ(panel.value("Direction"), "HtoD");
    EXPECT_EQ(panel.value("Bytes"), "8.0 MB (8,000,000 B)");
    EXPECT_EQ(panel.value("Throughput"), "8.0 GB/s");  // 8e6 B in 1 ms
    EXPECT_EQ(panel.value("Memory kinds"), "Pageable → Device");
    EXPECT_FALSE(panel.value("Note").isEmpty());
    EXPECT_EQ(panel.value("Launch latency"), "1.0 µs");
}

// The producer's args the model has no field for (Kineto's "External id", "Input Dims", ...) are
// shown under "Arguments", in the file's order, numbers exactly as written.
TEST(DetailsPanel, ShowsTheProducersOtherArguments) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "python");
    const auto thread = b.hostTrack(host, 100);
    b.addSlice(thread, 0, 10, "aten::mm", model::SliceKind::Other);
    const std::string longDims = "[" + std::string(300, '1') + "]";
    b.setLastSliceExtraArgs(thread, R"("External id":18446744073709551615,"Input Dims":[[64,64]],)"
                                    R"("name \"q\"":"caf\u00e9","long":)" +
                                        longDims);
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "aten::mm"));
    EXPECT_EQ(panel.value("External id"), "18446744073709551615");
    EXPECT_EQ(panel.value("Input Dims"), "[[64,64]]");
    EXPECT_EQ(panel.value("name \"q\""), QStringLiteral("caf\u00e9"));
    EXPECT_EQ(panel.value("long").size(), 201);  // elided, the whole value in its tooltip
    const auto pairs =
        splitArgMembers(trace->extraArgs(trace->slice(findSlice(*trace, "aten::mm"))));
    ASSERT_EQ(pairs.size(), 4u);
    EXPECT_EQ(pairs[0].first, "External id");
    EXPECT_EQ(pairs[3].first, "long");
}

TEST(DetailsPanel, ApiCallNamesTheWorkItLaunched) {
    auto trace = launchTrace();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "cudaLaunchKernel"));
    EXPECT_EQ(panel.value("Kind"), "CUDA runtime API");
    EXPECT_EQ(panel.value("Launches"), "partial_reduce on stream 7");
    EXPECT_EQ(panel.value("Grid"), "");
}

TEST(DetailsPanel, AFlowBetweenHostSlicesIsNoLaunch) {
    // Perfetto's flow test traces: "SenderB" on one process's thread flows to "Blergh" on
    // another's. Neither is a launch: no stream, no launch latency.
    model::TraceBuilder b;
    const auto sender = b.hostTrack(b.hostProcess(15903, "sender"), 15904);
    const auto receiver = b.hostTrack(b.hostProcess(15875, "receiver"), 15895);
    b.addSlice(sender, 0, 10'000, "SenderB", model::SliceKind::Other);
    b.addSlice(receiver, 1'002'000, 1'102'000, "Blergh", model::SliceKind::Other);
    b.addFlow(0x403, sender, 1'000, receiver, 1'050'000);
    auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "SenderB"));
    EXPECT_EQ(panel.value("Launches"), "");
    EXPECT_EQ(panel.value("Launch latency"), "");
    EXPECT_TRUE(panel.value("Flow to").startsWith("Blergh on "))
        << panel.value("Flow to").toStdString();
    EXPECT_FALSE(panel.value("Flow to").contains("stream"));
    panel.showSlice(findSlice(*trace, "Blergh"));
    EXPECT_EQ(panel.value("Launched by"), "");
    EXPECT_EQ(panel.value("Launch latency"), "");
    EXPECT_TRUE(panel.value("Flow from").startsWith("SenderB on "));
}

TEST(DetailsPanel, ApiCallIsNamedWithoutCuptisVersionSuffix) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "python3");
    const auto api = b.hostApiTrack(host, 100);
    b.addApi(api, 0, 1'000, "cudaDeviceSynchronize_v3020", 1, {});
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "cudaDeviceSynchronize_v3020"));
    EXPECT_EQ(panel.title(), "cudaDeviceSynchronize");
    EXPECT_EQ(panel.value("CUPTI name"), "cudaDeviceSynchronize_v3020");
    // The kernel's "Launched by" names its call the same way.
    {
        model::TraceBuilder kb;
        const auto kh = kb.hostProcess(100, "python3");
        const auto kgpu = kb.gpuProcess(0, "GPU 0");
        kb.addApi(kb.hostApiTrack(kh, 100), 0, 1'000, "cudaLaunchKernel_v7000", 2, {});
        kb.addKernel(kb.gpuStreamTrack(kgpu, 7), 2'000, 3'000, "k", 2, {});
        const auto kt = kb.finalize();
        panel.setTrace(kt);
        panel.showSlice(findSlice(*kt, "k"));
        EXPECT_TRUE(panel.value("Launched by").startsWith("cudaLaunchKernel at "))
            << panel.value("Launched by").toStdString();
    }
    // A name without a suffix gets no second row.
    auto plain = launchTrace();
    panel.setTrace(plain);
    panel.showSlice(findSlice(*plain, "cudaLaunchKernel"));
    EXPECT_EQ(panel.title(), "cudaLaunchKernel");
    EXPECT_EQ(panel.value("CUPTI name"), "");
}

TEST(DetailsPanel, OpsSayWhatTheyWaitedForThroughAnEvent) {
    const auto trace = test::makeEventWaitTrace();

    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "consumer"));
    EXPECT_EQ(panel.value("Waits for"), "producer on stream 7 via event 5");
    EXPECT_EQ(panel.value("Awaited by"), "");
    panel.showSlice(findSlice(*trace, "producer"));
    EXPECT_EQ(panel.value("Awaited by"), "consumer on stream 9 via event 5");
}

TEST(DetailsPanel, GraphNodesSayWhichLaunchTheyBelongTo) {
    // The second launch's nodes run [300,350) and [320,400).
    const auto trace = test::makeGraphLaunchTrace();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "b2"));
    EXPECT_EQ(panel.value("CUDA graph"), "graph 4, node 2");
    EXPECT_EQ(panel.value("Graph launch"), "launch 2 of 2: 2 nodes over " + units::duration(100));
}

TEST(Units, CounterValuesInBytesReadAsSizes) {
    EXPECT_EQ(units::counterValue(2.0 * 1024 * 1024, "B", 0), "2.1 MB");
    EXPECT_EQ(units::counterValue(512, "B", 0), "512 B");
    EXPECT_EQ(units::counterValue(42, "ops", 0), "42 ops");
    EXPECT_EQ(units::counterValue(87.5, "%", 2), "87.50 %");
    EXPECT_EQ(units::counterValue(3, "", 0), "3");
}

TEST(DetailsPanel, MemoryOperationsShowBytesAddressAndPool) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    model::MemoryDetail m;
    m.memoryKind = model::MemoryKind::Device;
    m.address = 0x7f0000001000;
    m.bytes = 4096;
    m.streamId = 7;
    m.fromPool = true;
    m.poolAddress = 0x7f0000000000;
    m.poolReservedBytes = 2 << 20;
    b.addMemory(b.memoryTrack(gpu), 100, "Allocate (Device, pool)", 0, m);
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice({0, 0});
    EXPECT_EQ(panel.value("Kind"), "Device memory operation");
    EXPECT_EQ(panel.value("Bytes"), "4.1 KB (4,096 B)");
    EXPECT_EQ(panel.value("Address"), "0x7f0000001000");
    EXPECT_EQ(panel.value("Memory kind"), "Device");
    EXPECT_EQ(panel.value("Stream"), "7 (stream-ordered)");
    EXPECT_EQ(panel.value("Memory pool"), "0x7f0000000000");
    EXPECT_EQ(panel.value("Pool holds"), "2.1 MB");
}

TEST(DetailsPanel, UnifiedMemoryShowsWhatMovedWhereAndWhy) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    model::UnifiedMemoryDetail d;
    d.kind = model::UnifiedMemoryKind::MigrationHtoD;
    d.bytes = 2 << 20;
    d.address = 0x7f0000200000;
    d.srcDevice = model::kUnifiedMemoryCpu;
    d.dstDevice = 0;
    d.cause = model::UnifiedMemoryCause::Prefetch;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, d.kind), 100, 2'100, "Migration HtoD", d);
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice({0, 0});
    EXPECT_EQ(panel.value("Kind"), "Unified memory");
    EXPECT_EQ(panel.value("Row"), "Unified memory HtoD");
    EXPECT_EQ(panel.value("Device"), "GPU 0");
    EXPECT_EQ(panel.value("Event"), "Migration HtoD");
    EXPECT_EQ(panel.value("Bytes"), "2.1 MB (2,097,152 B)");
    EXPECT_EQ(panel.value("Throughput"), units::gbPerSecond(2 << 20, 2'000));
    EXPECT_EQ(panel.value("From"), "host");
    EXPECT_EQ(panel.value("To"), "GPU 0");
    EXPECT_EQ(panel.value("Cause"), "driver's speculative prefetch");
    EXPECT_EQ(panel.value("Address"), "0x7f0000200000");
}

// A Kineto kernel as PyTorch writes it: a long demangled name, long argument keys and values
// that cannot wrap. At a narrow dock every value must still be shown beside its key, inside the
// panel, and the name must not widen the panel.
TEST(DetailsPanel, ValuesStayInViewInANarrowPanel) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto stream = b.gpuStreamTrack(gpu, 7);
    const std::string name =
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3>)";
    model::KernelDetail k;
    k.grid = {1280, 1, 1};
    k.block = {128, 1, 1};
    k.registersPerThread = 28;
    k.estimatedOccupancyPct = 31.25f;
    b.addKernel(stream, 1'000, 9'000, name, 5, k);
    b.setLastSliceExtraArgs(stream, R"("queued":0,"an argument key far longer than any other":)"
                                    R"("0123456789abcdef0123456789abcdef0123456789abcdef0123")");
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, name));
    ASSERT_FALSE(panel.rows().empty());
    constexpr int kNarrowPx = 300;
    EXPECT_LE(panel.minimumSizeHint().width(), kNarrowPx);
    panel.resize(kNarrowPx, 900);
    panel.show();
    QCoreApplication::processEvents();
    const auto labels = panel.findChildren<QLabel*>();
    int checked = 0;
    for (const auto& [field, value] : panel.rows()) {
        if (value.isEmpty())
            continue;
        for (const QLabel* label : labels) {
            QString shown = label->text();
            shown.remove(QChar(0x200B));
            if (shown != value || !label->isVisibleTo(&panel))
                continue;
            const QRect inPanel(label->mapTo(&panel, QPoint(0, 0)), label->size());
            EXPECT_GT(inPanel.width(), 20) << field.toStdString();
            EXPECT_LE(inPanel.right(), kNarrowPx) << field.toStdString();
            ++checked;
            break;
        }
    }
    // Kind, times, device, stream, launch configuration, occupancy and both arguments at least.
    EXPECT_GE(checked, 10);
    EXPECT_FALSE(panel.value("Grid").isEmpty());
}

TEST(DetailsPanel, APyTorchOperatorIsACpuOperator) {
    model::TraceBuilder b;
    const auto ops = b.hostTrack(b.hostProcess(100, "python3"), 100);
    b.addSlice(ops, 0, 1'000, "aten::mm", model::SliceKind::CpuOp);
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice({ops, 0});
    EXPECT_EQ(panel.value("Kind"), "CPU operator");
}

// The thread of a host row as people know it: Kineto's negative 32-bit ids unsigned, and none
// for a row of no numbered thread (the profiler's own rows, a thread written as a name).
TEST(DetailsPanel, AHostRowSaysItsThreadOnlyWhenItHasANumber) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(100, "python3");
    const auto nccl = b.hostTrack(host, -549452224);
    const auto named = b.hostTrack(host, model::kSyntheticIdBase + 5);
    b.addSlice(nccl, 0, 1'000, "ncclAllReduce", model::SliceKind::CpuOp);
    b.addSlice(named, 0, 1'000, "PyTorch Profiler (0)", model::SliceKind::Other);
    const auto trace = b.finalize();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "ncclAllReduce"));
    EXPECT_EQ(panel.value("Thread"), "3745515072");
    panel.showSlice(findSlice(*trace, "PyTorch Profiler (0)"));
    EXPECT_EQ(panel.value("Thread"), "");
    EXPECT_FALSE(panel.value("Row").isEmpty());
}

// The PyTorch profiler's small values as Details shows them: an 8-byte device copy of 1.568 µs
// moved 0.0051 GB/s, and a one-block kernel's 0.037 warps per SM; neither reads as zero.
TEST(DetailsPanel, APyTorchTracesSmallValuesDoNotReadAsZero) {
    const std::string path = std::string(WARPLINE_EXTERNAL_TRACES_DIR) + "/hta_nccl_data.json.gz";
    if (!QFile::exists(QString::fromStdString(path)))
        GTEST_SKIP() << path << " is not there";
    const auto loaded = io::loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::TracePtr trace = loaded.value();
    model::SliceRef copy;
    model::SliceRef kernel;
    for (std::uint32_t t = 0; t < trace->tracks().size(); ++t) {
        const auto& slices = trace->track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            const model::Slice& s = slices[i];
            const auto* m = trace->memcpy(s);
            if (!copy.valid() && m && m->bytes == 8 && s.durationNs == 1'568)
                copy = {t, i};
            const auto* k = trace->kernel(s);
            if (!kernel.valid() && k && k->warpsPerSm > 0.0f && k->warpsPerSm < 0.05f)
                kernel = {t, i};
        }
    }
    ASSERT_TRUE(copy.valid() && kernel.valid());
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(copy);
    EXPECT_EQ(panel.value("Throughput"), "0.0051 GB/s");
    panel.showSlice(kernel);
    const QString warps = panel.value("Warps per SM");
    EXPECT_TRUE(warps.startsWith("0.0")) << warps.toStdString();
    EXPECT_GT(warps.toDouble(), 0.0) << warps.toStdString();
}

TEST(DetailsPanel, InvalidRefClears) {
    auto trace = launchTrace();
    DetailsPanel panel;
    panel.setTrace(trace);
    panel.showSlice(findSlice(*trace, "partial_reduce"));
    ASSERT_FALSE(panel.rows().empty());
    panel.showSlice(model::SliceRef{});
    EXPECT_TRUE(panel.rows().empty());
    EXPECT_TRUE(panel.title().isEmpty());
    panel.showSlice(model::SliceRef{999, 0});  // out of range: ignored, no crash
    EXPECT_TRUE(panel.rows().empty());
}

TEST(Units, ReadableValues) {
    EXPECT_EQ(units::duration(850), "850 ns");
    EXPECT_EQ(units::duration(12'345), "12.3 µs");
    EXPECT_EQ(units::duration(4'210'000), "4.21 ms");
    EXPECT_EQ(units::timestamp(12'345'678), "12.345678 ms");
    EXPECT_EQ(units::bytes(512), "512 B");
    EXPECT_EQ(units::bytes(64 * 1024), "65.5 KB");
    EXPECT_EQ(units::gbPerSecond(1'000'000, 0), "n/a");
    EXPECT_EQ(units::gbPerSecond(8'000'000, 1'000'000), "8.0 GB/s");
    EXPECT_EQ(units::percent(12.34), "12.3%");
    // One unit system: the panels write what the analysis' messages and report write.
    for (const std::uint64_t b : {999ull, 4'096ull, 2'097'152ull, 3'000'000'000ull})
        EXPECT_EQ(units::bytes(b).toStdString(), analysis::formatBytes(b));
    for (const model::TimeNs t :
         {model::TimeNs{999}, model::TimeNs{12'345}, model::TimeNs{7'654'321}})
        EXPECT_EQ(units::duration(t).toStdString(), analysis::formatDuration(t));
    EXPECT_EQ(units::grouped(1234567), "1,234,567");
    EXPECT_EQ(units::grouped(-1000), "-1,000");
}

TEST(SyntheticSample, LooksLikeAnAsyncReduceRun) {
    auto trace = app::syntheticSampleTrace();
    ASSERT_TRUE(trace);
    int streams = 0;
    for (const auto& track : trace->tracks()) {
        if (track.kind == model::TrackKind::GpuStream)
            ++streams;
    }
    EXPECT_EQ(streams, 4);
    EXPECT_EQ(trace->counts().kernel, 12u);
    EXPECT_EQ(trace->counts().memcpy, 16u);
    EXPECT_EQ(trace->counts().flows, 28u);  // every GPU op has its launching call
    EXPECT_GT(trace->counts().nvtx, 0u);
}

}  // namespace
}  // namespace wl::ui

namespace wl::app {
namespace {

TEST(GpuFocusRange, LeavesOutAWarmUpKernelAndHostSetup) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 1);
    const auto stream = b.gpuStreamTrack(gpu, 7);
    b.addApi(api, 0, 100'000'000, "cudaHostAlloc", 1, {});        // 100 ms of setup
    b.addKernel(stream, 1'000'000, 1'010'000, "warm_up", 2, {});  // 10 µs
    for (int i = 0; i < 100; ++i) {  // the work: 100 × 100 µs from 300 ms to 310 ms
        const model::TimeNs start = 300'000'000 + i * 100'000;
        b.addKernel(stream, start, start + 100'000, "work", 10 + i, {});
    }
    b.addApi(api, 390'000'000, 400'000'000, "cudaFree", 200, {});
    auto trace = b.finalize();
    const auto focus = gpuFocusRange(*trace);
    ASSERT_TRUE(focus);
    // 10 ms of work plus a 4 % margin each side: [299.6 ms, 310.4 ms].
    EXPECT_EQ(focus->first, 299'600'000);
    EXPECT_EQ(focus->second, 310'400'000);
}

TEST(GpuFocusRange, NothingToFocusWhenTheWorkFillsTheTrace) {
    auto trace = syntheticSampleTrace();
    EXPECT_FALSE(gpuFocusRange(*trace));
    model::TraceBuilder empty;
    empty.addApi(empty.hostApiTrack(empty.hostProcess(1), 1), 0, 10, "cudaFree", 1, {});
    EXPECT_FALSE(gpuFocusRange(*empty.finalize()));
}

}  // namespace
}  // namespace wl::app
