#include "ui/timeline/RowTypes.h"

#include <gtest/gtest.h>

#include <deque>
#include <tuple>
#include <unordered_set>

#include "TimelineTestTraces.h"
#include "model/TraceBuilder.h"

namespace wl::ui {
namespace {

// A canvas that records what a row asks of it.
class RecordingCanvas final : public RowCanvas {
public:
    explicit RecordingCanvas(DrawListRequest r) : m_request(r) {}

    const DrawListRequest& request() const override { return m_request; }
    void lane(model::TrackIndex track, std::uint32_t depth, int y, int h, bool decorated) override {
        lanes.emplace_back(track, depth, y, h, decorated);
    }
    void gaps(const std::vector<std::uint32_t>& list, int, int) override {
        gapCalls += 1;
        gapCount += list.size();
    }
    DrawBatch& fills(QRgb color) override {
        batches.push_back(DrawBatch{color, {}});
        return batches.back();
    }

    std::vector<std::tuple<model::TrackIndex, std::uint32_t, int, int, bool>> lanes;
    int gapCalls = 0;
    std::size_t gapCount = 0;
    std::deque<DrawBatch> batches;

private:
    DrawListRequest m_request;
};

struct Fixture {
    test::SmallTrace small = test::makeSmallTrace();
    TimelineLayout layout;
    DrawListRequest request;

    explicit Fixture(const std::unordered_set<std::uint64_t>& collapsed = {}) {
        layout.build(small.trace.get(), collapsed, {});
        request.trace = small.trace.get();
        request.layout = &layout;
        request.mapper = TimeMapper(0, small.trace->spanNs(), 800);
        request.viewportHeightPx = layout.totalHeightPx();
    }
    const TimelineRow& rowOf(model::TrackIndex t) const {
        return layout.rows()[std::size_t(layout.rowOfTrack(t))];
    }
};

TEST(RowTypes, EachKindHasItsOwnBehaviour) {
    const std::unordered_set<const RowType*> types{
        &rowType(RowKind::Process), &rowType(RowKind::Track), &rowType(RowKind::DeviceGaps),
        &rowType(RowKind::Counter), &rowType(RowKind::UnifiedMemory)};
    EXPECT_EQ(types.size(), 5u);
}

// A GPU whose kernel ran while the driver migrated three regions at once (three lanes: 0-40,
// 10-30 and 20-60 µs) and serviced a batch of page faults.
struct UnifiedMemoryFixture {
    model::TracePtr trace;
    model::TrackIndex migrations = 0;
    TimelineLayout layout;
    DrawListRequest request;

    UnifiedMemoryFixture() {
        model::TraceBuilder b;
        b.setKeepTimes(true);
        const auto gpu = b.gpuProcess(0, "GPU 0");
        b.addKernel(b.gpuStreamTrack(gpu, 7), 0, 60'000, "scale", 0, {});
        model::UnifiedMemoryDetail d;
        d.kind = model::UnifiedMemoryKind::MigrationHtoD;
        d.bytes = 2 << 20;
        const auto row = b.unifiedMemoryTrack(gpu, d.kind);
        b.addUnifiedMemory(row, 0, 40'000, "Migration HtoD", d);
        b.addUnifiedMemory(row, 10'000, 30'000, "Migration HtoD", d);
        b.addUnifiedMemory(row, 20'000, 60'000, "Migration HtoD", d);
        model::UnifiedMemoryDetail f;
        f.kind = model::UnifiedMemoryKind::GpuPageFault;
        f.faultCount = 12;
        b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, f.kind), 0, 5'000, "GPU page fault", f);
        trace = b.finalize();
        for (model::TrackIndex t = 0; t < trace->tracks().size(); ++t) {
            if (trace->track(t).unifiedMemoryKind == d.kind)
                migrations = t;
        }
        layout.build(trace.get(), {}, {});
        request.trace = trace.get();
        request.layout = &layout;
        request.mapper = TimeMapper(0, trace->spanNs(), 600);
        request.viewportHeightPx = layout.totalHeightPx();
    }
    const TimelineRow& row() const {
        return layout.rows()[std::size_t(layout.rowOfTrack(migrations))];
    }
};

TEST(RowTypes, AUnifiedMemoryRowIsOneBandOfAllItsLanes) {
    UnifiedMemoryFixture f;
    ASSERT_EQ(f.trace->track(f.migrations).laneCount(), 3u);
    const TimelineRow& row = f.row();
    EXPECT_EQ(row.kind, RowKind::UnifiedMemory);
    EXPECT_EQ(row.title, "Unified memory HtoD");
    EXPECT_EQ(row.laneCount, 3u);
    EXPECT_EQ(row.lanesShown, 1u);
    EXPECT_FALSE(row.collapsible);
    EXPECT_EQ(row.heightPx, TimelineLayout::kLaneHeightPx + 2 * TimelineLayout::kRowPaddingPx);
    const int band = row.yPx + TimelineLayout::kRowPaddingPx;
    const int index = f.layout.rowOfTrack(f.migrations);
    for (std::uint32_t d = 0; d < 3; ++d)
        EXPECT_EQ(f.layout.laneY(index, d), band) << d;
    EXPECT_FALSE(f.layout.laneY(index, 3).has_value());

    RecordingCanvas canvas(f.request);
    rowType(row.kind).draw(canvas, row);
    ASSERT_EQ(canvas.lanes.size(), 3u);
    // The last lane first, the first on top and the only one with labels.
    for (std::uint32_t i = 0; i < 3; ++i) {
        const auto& [track, depth, y, h, decorated] = canvas.lanes[i];
        EXPECT_EQ(track, f.migrations);
        EXPECT_EQ(depth, 2 - i);
        EXPECT_EQ(y, band + 1);
        EXPECT_EQ(h, TimelineLayout::kLaneHeightPx - 2);
        EXPECT_EQ(decorated, depth == 0);
    }
}

TEST(RowTypes, AUnifiedMemoryRowHitsTheEventOnTopOrTheOnlyOneThere) {
    UnifiedMemoryFixture f;
    const TimelineRow& row = f.row();
    const auto hitAt = [&](double tNs) {
        const RowProbe probe{*f.trace, nullptr, tNs, 0.0, row.yPx + 5};
        HitResult hit;
        rowType(row.kind).hit(probe, row, hit);
        return hit;
    };
    // 25 µs: all three overlap; the first lane's, drawn on top, is the one.
    HitResult top = hitAt(25'000.0);
    ASSERT_EQ(top.kind, HitResult::Kind::Slice);
    EXPECT_EQ(f.trace->slice(top.slice).depth, 0u);
    EXPECT_EQ(f.trace->slice(top.slice).startNs, 0);
    // 50 µs: only the third.
    HitResult only = hitAt(50'000.0);
    ASSERT_EQ(only.kind, HitResult::Kind::Slice);
    EXPECT_EQ(f.trace->slice(only.slice).startNs, 20'000);
    // Past every event: nothing.
    EXPECT_EQ(hitAt(70'000.0).kind, HitResult::Kind::None);
}

TEST(RowTypes, ATrackRowDrawsEachLaneItShowsDecorated) {
    Fixture f;
    const TimelineRow& row = f.rowOf(f.small.nvtx);
    ASSERT_EQ(row.lanesShown, 2u) << "outer and inner ranges";
    RecordingCanvas canvas(f.request);
    rowType(row.kind).draw(canvas, row);
    ASSERT_EQ(canvas.lanes.size(), 2u);
    for (std::uint32_t d = 0; d < 2; ++d) {
        const auto& [track, depth, y, h, decorated] = canvas.lanes[d];
        EXPECT_EQ(track, f.small.nvtx);
        EXPECT_EQ(depth, d);
        EXPECT_EQ(y, row.yPx + TimelineLayout::kRowPaddingPx +
                         int(d) * TimelineLayout::kLaneHeightPx + 1);
        EXPECT_EQ(h, TimelineLayout::kLaneHeightPx - 2);
        EXPECT_TRUE(decorated);
    }
    EXPECT_EQ(canvas.gapCalls, 0) << "no overlays";
}

TEST(RowTypes, AnOpenProcessDrawsNothingAFoldedOneItsUndecoratedSummary) {
    Fixture open;
    const TimelineRow& header = open.layout.rows()[0];
    ASSERT_EQ(header.kind, RowKind::Process);
    RecordingCanvas openCanvas(open.request);
    rowType(RowKind::Process).draw(openCanvas, header);
    EXPECT_TRUE(openCanvas.lanes.empty());

    Fixture folded({TimelineLayout::processKey(header.process)});
    RecordingCanvas canvas(folded.request);
    rowType(RowKind::Process).draw(canvas, folded.layout.rows()[0]);
    ASSERT_FALSE(canvas.lanes.empty());
    for (const auto& [track, depth, y, h, decorated] : canvas.lanes) {
        EXPECT_EQ(folded.small.trace->track(track).process, header.process);
        EXPECT_EQ(depth, 0u);
        EXPECT_EQ(y, DrawListBuilder::kSummaryTopPx);
        EXPECT_EQ(h, DrawListBuilder::kSummaryHeightPx);
        EXPECT_FALSE(decorated);
    }
}

TEST(RowTypes, ATrackRowHitsTheSliceOfTheLaneUnderThePoint) {
    Fixture f;
    const TimelineRow& row = f.rowOf(f.small.nvtx);
    // 2 µs into the trace, in the second lane: the inner range (1 to 4 µs).
    const RowProbe probe{
        *f.small.trace, nullptr, 2'000.0, 0.0,
        row.yPx + TimelineLayout::kRowPaddingPx + TimelineLayout::kLaneHeightPx + 5};
    HitResult hit;
    rowType(row.kind).hit(probe, row, hit);
    ASSERT_EQ(hit.kind, HitResult::Kind::Slice);
    EXPECT_EQ(f.small.trace->str(f.small.trace->slice(hit.slice).nameId), "inner");

    HitResult none;
    rowType(RowKind::Process).hit(probe, f.layout.rows()[0], none);
    EXPECT_EQ(none.kind, HitResult::Kind::None);
}

}  // namespace
}  // namespace wl::ui
