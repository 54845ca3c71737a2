// Tooltip text: the facts a person needs about a slice or a gap.
#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "model/TraceBuilder.h"
#include "ui/common/Units.h"
#include "ui/timeline/SliceText.h"

namespace wl::ui {
namespace {

TEST(SliceText, KernelTooltipNamesLaunchAndWarps) {
    const test::SmallTrace small = test::makeSmallTrace();
    const model::SliceRef kernel{small.stream7, 0};
    KernelBadge badge{kernel, 31.25, true, "1 warp of 64 per SM\n1 of 132 SMs"};
    const QString html = sliceTooltip(*small.trace, kernel, &badge);
    EXPECT_TRUE(html.contains("single_thread_sum"));
    EXPECT_TRUE(html.contains("Kernel"));
    EXPECT_TRUE(html.contains("4.0 µs"));  // 2,000..6,000 ns
    EXPECT_TRUE(html.contains("(1, 1, 1)"));
    EXPECT_TRUE(html.contains("cudaLaunchKernel"));
    EXPECT_TRUE(html.contains("Launch latency"));
    EXPECT_TRUE(html.contains("1.0 µs"));  // API call at 1,000 ns, kernel at 2,000 ns
    // As Details writes it (units::percent), and the badge's lines stay lines.
    EXPECT_TRUE(html.contains(units::percent(31.25))) << html.toStdString();
    EXPECT_TRUE(html.contains("1 warp of 64 per SM<br>1 of 132 SMs")) << html.toStdString();
    EXPECT_TRUE(html.contains("low GPU fill"));
}

TEST(SliceText, CopyTooltipHasBytesAndThroughput) {
    const test::SmallTrace small = test::makeSmallTrace();
    const QString html = sliceTooltip(*small.trace, {small.stream13, 0}, nullptr);
    EXPECT_TRUE(html.contains("Memcpy HtoD"));
    EXPECT_TRUE(html.contains("1.0 MB"));
    // 1,048,576 bytes in 1,300 ns.
    EXPECT_TRUE(html.contains("806.6 GB/s"));
}

TEST(SliceText, UnifiedMemoryTooltipSaysWhatMovedWhereAndWhy) {
    model::TraceBuilder b;
    model::UnifiedMemoryDetail d;
    d.kind = model::UnifiedMemoryKind::MigrationHtoD;
    d.bytes = 2 << 20;
    d.address = 0x7f0000200000;
    d.srcDevice = model::kUnifiedMemoryCpu;
    d.dstDevice = 1;
    d.cause = model::UnifiedMemoryCause::Coherence;
    const auto gpu = b.gpuProcess(1);
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, d.kind), 1'000, 3'000, "Migration HtoD", d);
    model::UnifiedMemoryDetail f;
    f.kind = model::UnifiedMemoryKind::GpuPageFault;
    f.faultCount = 1234;
    f.address = 0x7f0000201000;
    f.srcDevice = 1;
    f.access = model::UnifiedMemoryAccess::Write;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, f.kind), 500, 2'500, "GPU page fault", f);
    const auto trace = b.finalize();
    std::vector<QString> tips;
    for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
        if (trace->track(t).kind == model::TrackKind::UnifiedMemory)
            tips.push_back(sliceTooltip(*trace, {t, 0}, nullptr));
    }
    ASSERT_EQ(tips.size(), 2u);
    const QString& migration = tips[0].contains(QStringLiteral("Migration")) ? tips[0] : tips[1];
    const QString& fault = &migration == &tips[0] ? tips[1] : tips[0];
    for (const char* fact : {"Unified memory: Migration HtoD", "2.1 MB (2,097,152 B)", "GB/s",
                             "host", "GPU 1", "page fault", "0x7f0000200000"})
        EXPECT_TRUE(migration.contains(QString::fromUtf8(fact))) << fact << "\n"
                                                                 << migration.toStdString();
    for (const char* fact :
         {"Unified memory: GPU page fault", "Page faults", "1,234", "write", "0x7f0000201000"})
        EXPECT_TRUE(fault.contains(QString::fromUtf8(fact))) << fact << "\n" << fault.toStdString();
    EXPECT_FALSE(fault.contains(QStringLiteral("Bytes")));  // a fault moves nothing itself
}

TEST(SliceText, ApiTooltipNamesWhatItLaunches) {
    const test::SmallTrace small = test::makeSmallTrace();
    const QString html = sliceTooltip(*small.trace, {small.api, 0}, nullptr);
    EXPECT_TRUE(html.contains("Launches"));
    EXPECT_TRUE(html.contains("single_thread_sum"));
}

TEST(SliceText, ACpuOperatorSaysSo) {
    model::TraceBuilder b;
    const auto ops = b.hostTrack(b.hostProcess(4242, "python"), 1);
    b.addSlice(ops, 0, 1'000, "aten::mm", model::SliceKind::CpuOp);
    b.addSlice(ops, 2'000, 3'000, "<built-in method item>", model::SliceKind::Other);
    const auto trace = b.finalize();
    EXPECT_TRUE(sliceTooltip(*trace, {ops, 0}, nullptr).contains("CPU operator"));
    EXPECT_FALSE(sliceTooltip(*trace, {ops, 1}, nullptr).contains("CPU operator"));
}

TEST(SliceText, GapTooltipHasDurationAndCause) {
    const QString html =
        gapTooltip(GapOverlay{0, -1, 0, 2'500'000, "after_blocking_call", "after cudaMemcpy"});
    EXPECT_TRUE(html.contains("2.50 ms"));
    EXPECT_EQ(html.count("2.50 ms"), 1);  // the duration once
    EXPECT_TRUE(html.contains("after_blocking_call"));
    EXPECT_TRUE(html.contains("after cudaMemcpy"));
}

}  // namespace
}  // namespace wl::ui
