// The timeline's flags controller without a widget: a viewport, a selection and a pointer time
// stand for the view.
#include <QSignalSpy>
#include <optional>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineFlagsController.h"

namespace wl::ui {
namespace {

using timeline_geometry::kHeaderWidthPx;

struct FlagsControllerFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        viewport.includeTrace(small.trace->spanNs());
        viewport.setRange(0, 10'000);
        flags.setTrace(small.trace.get());
    }
    // A 1000 px time area right of the headers over the view's range: 10 ns a pixel.
    TimelineFrame frame() const {
        TimelineFrame f;
        f.sizePx = QSize(kHeaderWidthPx + 1000, 600);
        f.timeArea = QRect(kHeaderWidthPx, timeline_geometry::kRulerHeightPx, 1000, 500);
        f.map = viewport.mapper(1000);
        f.trace = small.trace.get();
        return f;
    }

    test::SmallTrace small;
    TimeViewport viewport;
    TimelineSelection selection;
    std::optional<model::TimeNs> pointerNs;
    TimelineFlagsController flags{viewport, selection, [this] { return pointerNs; }};
};

TEST_F(FlagsControllerFixture, DropRenameRemoveSignalAndKeepTheMeasure) {
    QSignalSpy changed(&flags, &TimelineFlagsController::changed);
    QSignalSpy measure(&flags, &TimelineFlagsController::measureChanged);
    const int a = flags.drop(1'000);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(measure.count(), 0);  // one flag measures nothing
    const int b = flags.drop(4'000, QStringLiteral("end"));
    ASSERT_EQ(measure.count(), 1);
    EXPECT_EQ(measure.last().at(0).toString(),
              ui::measureText(QStringLiteral("Flag 1"), 1'000, QStringLiteral("end"), 4'000));

    EXPECT_FALSE(flags.rename(a, QStringLiteral("   ")));  // a blank name is refused
    EXPECT_TRUE(flags.rename(a, QStringLiteral("  start ")));
    EXPECT_EQ(flags.flags().find(a)->name, QStringLiteral("start"));
    EXPECT_TRUE(flags.measureText().startsWith(QStringLiteral("start")));

    EXPECT_TRUE(flags.remove(b));
    EXPECT_FALSE(flags.remove(b));
    EXPECT_TRUE(flags.measureText().isEmpty());
    EXPECT_EQ(measure.last().at(0).toString(), QString());
}

TEST_F(FlagsControllerFixture, MarkDropsAtTheSelectionsEdgesElseThePointerElseTheSlice) {
    selection.time = model::TimeRange{2'000, 3'000};
    flags.mark();
    ASSERT_EQ(flags.flags().flags().size(), 2u);
    EXPECT_EQ(flags.flags().flags()[0].timeNs, 2'000);
    EXPECT_EQ(flags.flags().flags()[0].name, QStringLiteral("Selection start"));
    EXPECT_EQ(flags.flags().flags()[1].timeNs, 3'000);

    flags.clear();
    selection.time.reset();
    pointerNs = 7'500;
    flags.mark();
    ASSERT_EQ(flags.flags().flags().size(), 1u);
    EXPECT_EQ(flags.flags().flags()[0].timeNs, 7'500);

    flags.clear();
    pointerNs.reset();
    selection.slice = model::SliceRef{small.stream7, 0};  // the kernel at 2,000 ns
    flags.mark();
    ASSERT_EQ(flags.flags().flags().size(), 1u);
    EXPECT_EQ(flags.flags().flags()[0].timeNs, 2'000);

    flags.clear();
    selection.slice = {};
    flags.mark();
    ASSERT_EQ(flags.flags().flags().size(), 1u);
    EXPECT_EQ(flags.flags().flags()[0].timeNs, 5'000);  // the view's middle
}

TEST_F(FlagsControllerFixture, JumpCentresTheNextFlagAndGoesOnFromIt) {
    viewport.setRange(4'000, 6'000);
    flags.drop(7'000);
    flags.drop(8'000);
    flags.drop(2'000);
    ASSERT_TRUE(flags.jump(true));
    EXPECT_EQ(viewport.startNs(), 6'000);
    EXPECT_EQ(viewport.endNs(), 8'000);
    ASSERT_TRUE(flags.jump(true));
    EXPECT_EQ((viewport.startNs() + viewport.endNs()) / 2, 8'000);
    EXPECT_FALSE(flags.jump(true));  // none after the last
    ASSERT_TRUE(flags.jump(false));
    EXPECT_EQ((viewport.startNs() + viewport.endNs()) / 2, 7'000);
}

TEST_F(FlagsControllerFixture, TheMeasureIsBetweenTheFlagsAroundThePointer) {
    flags.drop(1'000);
    flags.drop(3'000);
    flags.drop(9'000);
    // Without a pointer: the last two dropped.
    EXPECT_EQ(flags.measureText(),
              ui::measureText(QStringLiteral("Flag 2"), 3'000, QStringLiteral("Flag 3"), 9'000));
    pointerNs = 2'000;
    EXPECT_EQ(flags.measureText(),
              ui::measureText(QStringLiteral("Flag 1"), 1'000, QStringLiteral("Flag 2"), 3'000));
    selection.time = model::TimeRange{4'000, 5'000};
    EXPECT_TRUE(flags.measureText().contains(QStringLiteral("Selection")));
}

TEST_F(FlagsControllerFixture, AFlagIsHitOnTheRulerAndANewTraceClearsThem) {
    const int id = flags.drop(5'000);
    const int x = kHeaderWidthPx + 500;  // 5,000 ns at 10 ns a pixel
    const Flag* hit = flags.flagAt(QPoint(x + 2, 5), frame());
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->id, id);
    EXPECT_EQ(flags.flagAt(QPoint(x + 2, 200), frame()), nullptr);  // below the ruler
    EXPECT_EQ(flags.flagAt(QPoint(x - 100, 5), frame()), nullptr);
    EXPECT_TRUE(flags.toolTipAt(QPoint(x, 5), frame()).contains(QStringLiteral("Flag 1")));

    flags.setReference(id);
    EXPECT_EQ(flags.rulerOrigin(frame().map, flags.rulerTicks(frame().map)).anchorNs, 5'000);

    flags.setTrace(nullptr);
    EXPECT_TRUE(flags.flags().flags().empty());
    EXPECT_FALSE(flags.flags().reference().has_value());
}

}  // namespace
}  // namespace wl::ui
