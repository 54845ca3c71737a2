// Draw-list tests: the frame's work is bounded by pixels, merged blocks carry their counts, and
// what is drawn agrees with a brute-force count of the visible slices.
#include <algorithm>
#include <map>
#include <random>
#include <unordered_set>

#include <QFont>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "model/TraceBuilder.h"
#include "ui/style/Palette.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {
namespace {

// Slices a frame over [startNs, endNs) must account for: any that ends at or after the start and
// begins before the end.
std::uint64_t bruteForceVisible(const model::Trace& trace, model::TimeNs startNs,
                                model::TimeNs endNs) {
    std::uint64_t n = 0;
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& s : track.slices) {
            n += (s.endNs() >= startNs && s.startNs < endNs) ? 1 : 0;
        }
    }
    return n;
}

struct Frame {
    TimelineLayout layout;
    OverlayIndex overlays;
    CounterSummary counters;
    LaneIndex lanes;
    DrawList list;
};

Frame buildFrame(const model::TracePtr& trace, model::TimeNs startNs, model::TimeNs endNs,
                 int widthPx, int heightPx = 4000, const TimelineOverlays& overlays = {},
                 bool laneIndex = true, const std::unordered_set<std::uint64_t>& collapsed = {}) {
    Frame f;
    f.overlays.build(trace.get(), overlays);
    f.counters.build(trace.get());
    if (laneIndex) {
        f.lanes.build(trace.get());
    }
    f.layout.build(trace.get(), collapsed, f.overlays.devicesWithGaps());
    DrawListRequest r;
    r.trace = trace.get();
    r.layout = &f.layout;
    r.overlays = &f.overlays;
    r.counters = &f.counters;
    r.lanes = laneIndex ? &f.lanes : nullptr;
    r.mapper = TimeMapper(startNs, endNs, widthPx);
    r.viewportHeightPx = heightPx;
    f.list = DrawListBuilder(QFont()).build(r);
    return f;
}

TEST(DrawListBuilder, MillionSlicesInViewAreBoundedByPixelsAndCounted) {
    // 4 streams x 250k back-to-back 40 ns kernels: about 5,000 slices per pixel column.
    const auto trace = test::makeDenseTrace(250'000, 4, 40, 40);
    ASSERT_EQ(trace->counts().slices, 1'000'000u);
    const int width = 1900;
    const Frame f = buildFrame(trace, 0, trace->spanNs(), width);

    EXPECT_EQ(f.list.lanesDrawn, 4u);
    EXPECT_LE(f.list.sliceItemCount(), std::size_t(width) * f.list.lanesDrawn);
    EXPECT_GT(f.list.mergedItems, 0u);
    std::uint64_t sum = 0;
    for (const DrawBatch& b : f.list.sliceBatches) {
        for (const DrawItem& item : b.items) {
            EXPECT_GE(item.count, 1u);
            EXPECT_GE(item.w, 1);
            EXPECT_GE(item.x, 0);
            EXPECT_LE(item.x + item.w, width);
            sum += item.count;
        }
    }
    EXPECT_EQ(sum, 1'000'000u);
    EXPECT_EQ(f.list.visibleSlices, sum);
    // Back-to-back slices coalesce: far fewer items than pixels.
    EXPECT_LT(f.list.sliceItemCount(), std::size_t(width) * 4);
}

TEST(DrawListBuilder, DenseLanesCountTheSameWithoutTheLaneIndex) {
    const auto trace = test::makeDenseTrace(300'000, 2, 3, 7);
    for (int width : {97, 640, 1913}) {
        const Frame with = buildFrame(trace, 1'000, trace->spanNs() - 5'000, width);
        const Frame without =
            buildFrame(trace, 1'000, trace->spanNs() - 5'000, width, 4000, {}, false);
        EXPECT_EQ(with.list.visibleSlices, without.list.visibleSlices);
        EXPECT_EQ(with.list.visibleSlices,
                  bruteForceVisible(*trace, 1'000, trace->spanNs() - 5'000));
        EXPECT_LE(with.list.sliceItemCount(), std::size_t(width) * 2);
    }
}

TEST(DrawListBuilder, ItemsPerLaneNeverOverlapAndStayUnderTheWidth) {
    // Spaced slices (1 ns every 97 ns) give one merged block per pixel at most.
    const auto trace = test::makeDenseTrace(200'000, 2, 1, 97);
    const int width = 800;
    const Frame f = buildFrame(trace, 0, trace->spanNs(), width);
    std::map<int, std::vector<std::pair<int, int>>> byLaneY;
    for (const DrawBatch& b : f.list.sliceBatches) {
        for (const DrawItem& item : b.items) {
            byLaneY[item.y].push_back({item.x, item.x + item.w});
        }
    }
    ASSERT_EQ(byLaneY.size(), 2u);
    for (auto& [y, spans] : byLaneY) {
        EXPECT_LE(spans.size(), std::size_t(width));
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 1; i < spans.size(); ++i) {
            EXPECT_LE(spans[i - 1].second, spans[i].first) << "overlap in lane y=" << y;
        }
    }
    EXPECT_EQ(f.list.visibleSlices, 400'000u);
}

TEST(DrawListBuilder, CountsMatchBruteForceOnRandomRanges) {
    // Mixed widths: long kernels among bursts of tiny ones, with gaps.
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto track = b.gpuStreamTrack(gpu, 1);
    std::mt19937_64 rng(7);
    model::TimeNs t = 0;
    for (int i = 0; i < 50'000; ++i) {
        const bool wide = rng() % 50 == 0;
        const model::TimeNs dur = wide ? 20'000 + rng() % 100'000 : 1 + rng() % 30;
        b.addKernel(track, t, t + dur, wide ? "wide" : "thin", 0, {});
        t += dur + (rng() % 4 == 0 ? rng() % 5'000 : rng() % 20);
    }
    const auto trace = b.finalize();
    for (int trial = 0; trial < 40; ++trial) {
        const model::TimeNs a = model::TimeNs(rng() % std::uint64_t(trace->spanNs()));
        const model::TimeNs len = 100 + model::TimeNs(rng() % std::uint64_t(trace->spanNs() / 3));
        const int width = 300 + int(rng() % 1700);
        const std::uint64_t expected = bruteForceVisible(*trace, a, a + len);
        // With and without the coarse lane index: the same counts, the same bound.
        for (bool laneIndex : {true, false}) {
            const Frame f = buildFrame(trace, a, a + len, width, 4000, {}, laneIndex);
            EXPECT_EQ(f.list.visibleSlices, expected)
                << "range " << a << "+" << len << " width " << width << " index " << laneIndex;
            EXPECT_LE(f.list.sliceItemCount(), std::size_t(width));
        }
    }
}

TEST(DrawListBuilder, ZoomedInSlicesAreDrawnOneByOneWithLabels) {
    const auto trace = test::makeDenseTrace(1'000'000, 1, 40, 50);
    // 40 slices of 40 ns in 2,000 ns over 1,000 px: each about 20 px wide.
    const model::TimeNs start = 500'000;
    const Frame f = buildFrame(trace, start, start + 2'000, 1000);
    ASSERT_EQ(f.list.visibleSlices, 40u);
    EXPECT_EQ(f.list.mergedItems, 0u);
    EXPECT_EQ(f.list.sliceItemCount(), 40u);
    for (const DrawBatch& b : f.list.sliceBatches) {
        for (const DrawItem& item : b.items) {
            EXPECT_EQ(item.count, 1u);
            EXPECT_NEAR(item.w, 20, 1);
        }
    }
    // 20 px is too narrow for a label; 40 ns over 100 px is not.
    EXPECT_TRUE(f.list.labels.empty());
    const Frame wide = buildFrame(trace, start, start + 200, 1000);
    EXPECT_FALSE(wide.list.labels.empty());
    EXPECT_EQ(wide.list.labels.front().text, QStringLiteral("k"));
}

TEST(DrawListBuilder, WideSliceAfterABurstKeepsItsOwnItem) {
    model::TraceBuilder b;
    const auto track = b.gpuStreamTrack(b.gpuProcess(0), 1);
    for (int i = 0; i < 100; ++i) {
        b.addKernel(track, i * 2, i * 2 + 1, "tiny", 0, {});
    }
    b.addKernel(track, 200, 10'000, "big", 0, {});
    const auto trace = b.finalize();
    const Frame f = buildFrame(trace, 0, 10'000, 1000);
    EXPECT_EQ(f.list.visibleSlices, 101u);
    bool foundBig = false;
    for (const DrawBatch& batch : f.list.sliceBatches) {
        for (const DrawItem& item : batch.items) {
            if (item.count == 1 && item.w > 900) {
                foundBig = true;
                EXPECT_EQ(trace->str(trace->slice(item.first).nameId), "big");
            }
        }
    }
    EXPECT_TRUE(foundBig);
    ASSERT_EQ(f.list.labels.size(), 1u);
    EXPECT_EQ(f.list.labels[0].text, QStringLiteral("big"));
}

TEST(DrawListBuilder, OnlyRowsInsideTheViewportAreBuilt) {
    const auto trace = test::makeDenseTrace(1'000, 20, 10, 20);
    const int laneRow = TimelineLayout::kLaneHeightPx + 2 * TimelineLayout::kRowPaddingPx;
    // Room for the GPU title band and about three stream rows.
    const Frame f =
        buildFrame(trace, 0, trace->spanNs(), 500, TimelineLayout::kProcessHeightPx + 3 * laneRow);
    EXPECT_EQ(f.list.lanesDrawn, 3u);
}

TEST(DrawListBuilder, OverlaysBecomeHatchesGaugesAndMarks) {
    const test::SmallTrace small = test::makeSmallTrace();
    TimelineOverlays overlays;
    overlays.gaps.push_back(GapOverlay{0, -1, 6'000, 2'000, "after_blocking_call", "waiting"});
    overlays.gaps.push_back(GapOverlay{0, 7, 6'000, 4'000, "host", {}});
    const model::SliceRef kernel{small.stream7, 0};
    overlays.kernelBadges = std::make_shared<const std::vector<KernelBadge>>(
        std::vector<KernelBadge>{KernelBadge{kernel, 1.5f, true, "one warp"}});
    const Frame f = buildFrame(small.trace, 0, 10'000, 1000, 4000, overlays);
    ASSERT_GE(f.layout.rowOfDeviceGaps(0), 0);
    ASSERT_EQ(f.list.hatches.size(), 2u);
    EXPECT_EQ(f.list.hatches[0].rect.left(), 600);
    EXPECT_EQ(f.list.lowFillMarks.size(), 1u);
    EXPECT_EQ(f.list.lowFillMarks[0].x(), 200);
    bool gauge = false;
    for (const DrawBatch& b : f.list.fillBatches) {
        for (const DrawItem& item : b.items) {
            // 1.5% of the 400 px kernel.
            gauge |= item.first == kernel && item.w == 6;
        }
    }
    EXPECT_TRUE(gauge);
}

TEST(DrawListBuilder, ALongGapStartingInAShortGapsPixelIsDrawnWhole) {
    // 10 ns per pixel: a 5 ns gap at 6000 and a 3000 ns gap starting at 6005, in the same pixel
    // (the blocking copy's short gap, then the host's long I/O). The hatch must reach 9005.
    const test::SmallTrace small = test::makeSmallTrace();
    TimelineOverlays overlays;
    overlays.gaps.push_back(GapOverlay{0, -1, 6'000, 5, "after_blocking_call", {}});
    overlays.gaps.push_back(GapOverlay{0, -1, 6'005, 3'000, "host", {}});
    const Frame f = buildFrame(small.trace, 0, 10'000, 1000, 4000, overlays);
    ASSERT_FALSE(f.list.hatches.empty());
    int right = 0;
    for (const DrawHatch& h : f.list.hatches) {
        right = std::max(right, h.rect.right());
    }
    EXPECT_GE(right, 900 - 1);
    EXPECT_EQ(f.list.hatches.front().rect.left(), 600);
}

TEST(DrawListBuilder, ACollapsedGpuShowsWhatItHoldsInItsTitleBand) {
    const test::SmallTrace small = test::makeSmallTrace();
    const model::ProcessIndex gpu = small.trace->track(small.stream7).process;
    const Frame open = buildFrame(small.trace, 0, 10'000, 1000);
    const Frame folded =
        buildFrame(small.trace, 0, 10'000, 1000, 4000, {}, true, {TimelineLayout::processKey(gpu)});
    int band = -1;
    for (const TimelineRow& row : folded.layout.rows())
        if (row.kind == RowKind::Process && row.process == gpu)
            band = row.yPx;
    ASSERT_GE(band, 0);
    // Every GPU op of the small trace is drawn in the band (kernels, copies, memset), and only
    // there: none of the GPU's rows is laid out.
    std::uint64_t inBand = 0;
    std::uint64_t labels = 0;
    for (const DrawBatch& b : folded.list.sliceBatches)
        for (const DrawItem& item : b.items)
            if (item.y == band + DrawListBuilder::kSummaryTopPx &&
                small.trace->track(item.first.track).process == gpu)
                inBand += item.count;
    for (const DrawLabel& l : folded.list.labels)
        labels += l.rect.y() == band + DrawListBuilder::kSummaryTopPx ? 1 : 0;
    std::uint64_t gpuOps = 0;
    for (const model::Track& track : small.trace->tracks())
        if (track.process == gpu && track.kind == model::TrackKind::GpuStream)
            gpuOps += track.lane(0).size();
    EXPECT_GT(gpuOps, 0u);
    EXPECT_EQ(inBand, gpuOps);
    EXPECT_EQ(labels, 0u);  // undecorated
    EXPECT_LT(folded.list.lanesDrawn, open.list.lanesDrawn + 1);
}

TEST(DrawListBuilder, CounterRowsDrawMinMaxPerPixel) {
    const test::SmallTrace small = test::makeSmallTrace();
    // 10 us over 10 px: each pixel covers one sample period, alternating 20% / 80%.
    const Frame f = buildFrame(small.trace, 0, 10'000, 10);
    std::size_t counterRects = 0;
    for (const DrawBatch& b : f.list.fillBatches) {
        counterRects += b.items.size();
    }
    EXPECT_GE(counterRects, 10u);
    // Squeezed into 2 px, each column spans both values: a min..max band appears.
    const Frame squeezed = buildFrame(small.trace, 0, 10'000, 2);
    bool band = false;
    for (const DrawBatch& b : squeezed.list.fillBatches) {
        band |= b.color == Palette::kCounterRange && !b.items.empty();
    }
    EXPECT_TRUE(band);
}

TEST(CounterSummary, RangeMatchesScan) {
    model::TraceBuilder b;
    const auto gpu = b.gpuProcess(0);
    const auto c = b.counterTrack(gpu, "m", "v", "");
    std::mt19937_64 rng(3);
    std::vector<double> values;
    for (int i = 0; i < 5'000; ++i) {
        values.push_back(double(rng() % 10'000) / 7.0);
        b.addCounterSample(c, i * 10, values.back());
    }
    const auto trace = b.finalize();
    CounterSummary summary;
    summary.build(trace.get());
    for (int trial = 0; trial < 200; ++trial) {
        std::size_t a = rng() % values.size();
        std::size_t e = a + 1 + rng() % (values.size() - a);
        const auto r = summary.range(0, a, e);
        EXPECT_EQ(r.minValue, *std::min_element(values.begin() + a, values.begin() + e));
        EXPECT_EQ(r.maxValue, *std::max_element(values.begin() + a, values.begin() + e));
    }
}

}  // namespace
}  // namespace wl::ui
