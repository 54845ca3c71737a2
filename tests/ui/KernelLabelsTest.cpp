// Kernel names on the timeline: short labels (cached per name), the full name on request and in
// tooltips, and warp marks that say what is low.
#include <QFont>

#include <gtest/gtest.h>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "model/TraceBuilder.h"
#include "ui/analysis/AnalysisOverlays.h"
#include "ui/style/Palette.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/SliceText.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {
namespace {

// cuBLAS's DGEMV as Warpline's power sample records it.
constexpr std::string_view kGemv =
    "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, double, double, "
    "double, double, false, true, true, false, 7, false, cublasGemvParamsEx<int, "
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const>, "
    "cublasGemvTensorStridedBatched<double>, double> >(cublasGemvParamsEx<int, "
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const>, "
    "cublasGemvTensorStridedBatched<double>, double>)";
constexpr std::string_view kNormalize =
    "wl::workloads::(anonymous namespace)::normalizeKernel(double const*, double*, long)";

// GPU 0 on an H100: the gemv (2048 blocks of 128 threads, 164 registers: 18.8% occupancy on
// every SM) at [0, 4000) ns, then normalizeKernel as one block of 1024 threads (low fill) at
// [5000, 9000) ns.
model::TracePtr powerLikeTrace() {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 4000, -1, kGemv, test::launchConfig(2048, 128, 164));
    t.kernel(1, 5000, 9000, -1, kNormalize, test::launchConfig(1, 1024, 20));
    return t.finish();
}

model::SliceRef kernelNamed(const model::Trace& trace, std::string_view name) {
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const auto& slices = trace.track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices[i].kind == model::SliceKind::Kernel && trace.str(slices[i].nameId) == name)
                return {t, i};
        }
    }
    return {};
}

struct Frame {
    OverlayIndex overlays;
    TimelineLayout layout;
    DrawList list;
};

// The frame of [0, 10000) ns over 1000 px: both kernels are hundreds of pixels wide.
void build(Frame& f, const model::TracePtr& trace, TimelineOverlays overlays,
           bool fullKernelNames = false) {
    f.overlays.setFullKernelNames(fullKernelNames);
    f.overlays.build(trace.get(), std::move(overlays));
    f.layout.build(trace.get(), {}, f.overlays.devicesWithGaps());
    CounterSummary counters;
    counters.build(trace.get());
    DrawListRequest r;
    r.trace = trace.get();
    r.layout = &f.layout;
    r.overlays = &f.overlays;
    r.counters = &counters;
    r.mapper = TimeMapper(0, 10'000, 1000);
    r.viewportHeightPx = 4000;
    f.list = DrawListBuilder(QFont()).build(r);
}

QStringList labelTexts(const DrawList& list) {
    QStringList out;
    for (const DrawLabel& l : list.labels)
        out << l.text;
    return out;
}

TEST(KernelLabels, TimelineWritesShortNamesUnlessFullNamesAreAsked) {
    const auto trace = powerLikeTrace();
    Frame f;
    build(f, trace, {});
    EXPECT_EQ(labelTexts(f.list), (QStringList{"gemvx::kernel", "normalizeKernel"}));

    Frame g;
    build(g, trace, {}, /*fullKernelNames=*/true);
    const QStringList texts = labelTexts(g.list);
    ASSERT_EQ(texts.size(), 2);
    // The full names, elided to the slice.
    EXPECT_TRUE(texts[0].startsWith("std::enable_if")) << texts[0].toStdString();
    EXPECT_TRUE(texts[1].startsWith("wl::workloads::")) << texts[1].toStdString();
}

TEST(KernelLabels, LabelCacheBelongsToOneTrace) {
    // Name id 0 of two traces: different names, so the second build must not reuse the first's
    // short names.
    model::TraceBuilder a;
    a.addKernel(a.gpuStreamTrack(a.gpuProcess(0), 1), 0, 10, "void ns::first_kernel<int>(int)", 0,
                {});
    model::TraceBuilder b;
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0), 1), 0, 10, "void ns::second_kernel<int>(int)", 0,
                {});
    const auto ta = a.finalize();
    const auto tb = b.finalize();
    const model::Slice& sa = ta->slice(kernelNamed(*ta, "void ns::first_kernel<int>(int)"));
    const model::Slice& sb = tb->slice(kernelNamed(*tb, "void ns::second_kernel<int>(int)"));
    ASSERT_EQ(sa.nameId, sb.nameId);

    OverlayIndex index;
    index.build(ta.get(), {});
    EXPECT_EQ(index.label(sa), "first_kernel");
    EXPECT_EQ(index.label(sa), "first_kernel");  // from the cache
    index.build(tb.get(), {});
    EXPECT_EQ(index.label(sb), "second_kernel");
}

TEST(KernelLabels, ApiCallsAreLabelledWithoutCuptisVersionSuffix) {
    test::HandTrace t;
    t.api("cudaDeviceSynchronize_v3020", 0, 10);
    const auto trace = t.finish();
    OverlayIndex index;
    index.build(trace.get(), {});
    for (std::uint32_t ti = 0; ti < trace->tracks().size(); ++ti) {
        const auto& slices = trace->tracks()[ti].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (slices[i].kind != model::SliceKind::RuntimeApi) {
                continue;
            }
            EXPECT_EQ(index.label(slices[i]), "cudaDeviceSynchronize");
            const QString tip = sliceTooltip(*trace, {ti, i}, nullptr);
            EXPECT_TRUE(tip.startsWith(QStringLiteral("<b>cudaDeviceSynchronize</b>")))
                << tip.toStdString();
            EXPECT_TRUE(tip.contains(QStringLiteral("cudaDeviceSynchronize_v3020")));  // kept
            return;
        }
    }
    ADD_FAILURE() << "no API call in the trace";
}

TEST(KernelLabels, NonKernelSlicesKeepTheirNames) {
    test::HandTrace t;
    t.api("cudaLaunchKernel", 0, 10);
    const auto trace = t.finish();
    OverlayIndex index;
    index.build(trace.get(), {});
    const model::Slice* api = nullptr;
    for (const model::Track& track : trace->tracks()) {
        for (const model::Slice& s : track.slices)
            api = s.kind == model::SliceKind::RuntimeApi ? &s : api;
    }
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(index.label(*api), "cudaLaunchKernel");
}

TEST(KernelLabels, TooltipGivesTheFullNameTheShortOneAndTheLibrary) {
    const auto trace = powerLikeTrace();
    const model::SliceRef gemv = kernelNamed(*trace, kGemv);
    ASSERT_TRUE(gemv.valid());
    const QString html = sliceTooltip(*trace, gemv, nullptr);
    EXPECT_TRUE(html.contains("internal::gemvx::kernel&lt;int, int, double")) << html.toStdString();
    EXPECT_TRUE(html.contains("Short name</td><td>gemvx::kernel")) << html.toStdString();
    EXPECT_TRUE(html.contains("Library</td><td>cuBLAS")) << html.toStdString();

    // The user's own kernel: no library row.
    const QString own = sliceTooltip(*trace, kernelNamed(*trace, kNormalize), nullptr);
    EXPECT_TRUE(own.contains("Short name</td><td>normalizeKernel")) << own.toStdString();
    EXPECT_FALSE(own.contains("Library")) << own.toStdString();
}

TEST(KernelLabels, LowFillMarkOnlyWhereTheGpuIsEmpty) {
    const auto trace = powerLikeTrace();
    const analysis::AnalysisResult result = analysis::analyzeTrace(*trace);
    const TimelineOverlays overlays = makeOverlays(*trace, result);
    const model::SliceRef gemv = kernelNamed(*trace, kGemv);
    const model::SliceRef normalize = kernelNamed(*trace, kNormalize);
    const KernelBadge* gemvBadge = nullptr;
    const KernelBadge* normalizeBadge = nullptr;
    for (const KernelBadge& b : *overlays.kernelBadges) {
        gemvBadge = b.slice == gemv ? &b : gemvBadge;
        normalizeBadge = b.slice == normalize ? &b : normalizeBadge;
    }
    ASSERT_NE(gemvBadge, nullptr);
    ASSERT_NE(normalizeBadge, nullptr);
    // gemv fills every SM with few warps each: low occupancy, no fill mark.
    EXPECT_NEAR(gemvBadge->occupancyPct, 18.75f, 0.01f);
    EXPECT_TRUE(gemvBadge->lowOccupancy);
    EXPECT_FALSE(gemvBadge->lowFill);
    // One block on one SM of 132: low fill, full occupancy of that SM.
    EXPECT_TRUE(normalizeBadge->lowFill);
    EXPECT_FALSE(normalizeBadge->lowOccupancy);

    // The tooltip warns about what is low and nothing else.
    const QString gemvTip = sliceTooltip(*trace, gemv, gemvBadge);
    EXPECT_TRUE(gemvTip.contains("low theoretical occupancy")) << gemvTip.toStdString();
    EXPECT_FALSE(gemvTip.contains("low GPU fill")) << gemvTip.toStdString();
    const QString normalizeTip = sliceTooltip(*trace, normalize, normalizeBadge);
    EXPECT_TRUE(normalizeTip.contains("low GPU fill")) << normalizeTip.toStdString();
    EXPECT_FALSE(normalizeTip.contains("low theoretical occupancy")) << normalizeTip.toStdString();

    // One triangle, on normalizeKernel (x = 500 px at 5000 ns), none on the gemv.
    Frame f;
    build(f, trace, overlays);
    ASSERT_EQ(f.list.lowFillMarks.size(), 1u);
    EXPECT_EQ(f.list.lowFillMarks[0].x(), 500);

    // The legend names the triangle by what it marks.
    int entries = 0;
    for (const Palette::LegendEntry& e : Palette::legend()) {
        if (e.color == Palette::kLowFillMark) {
            ++entries;
            EXPECT_EQ(e.label, "Low GPU fill");
        }
    }
    EXPECT_EQ(entries, 1);
}

}  // namespace
}  // namespace wl::ui
