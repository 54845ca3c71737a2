// The timeline's flags: dropped by Ctrl+click on the ruler and by key M, named on the ruler,
// jumped to with . and ',', measured between, the ruler counting from a reference flag, and gone
// with the trace.
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/common/Units.h"
#include "ui/style/Palette.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

struct FlagsFixture : ::testing::Test {
    void SetUp() override {
        small = test::makeSmallTrace();
        view.resize(1240, 600);  // a 1000 px time area next to the 240 px headers
        view.setTrace(small.trace);
        view.setVisibleRange(0, 10'000);  // 10 ns a pixel
    }
    // Widget x of time `t`.
    int xOf(model::TimeNs t) const { return view.headerWidthPx() + int(t / 10); }
    void movePointerTo(QPoint at) {
        QMouseEvent move(QEvent::MouseMove, QPointF(at), view.mapToGlobal(QPointF(at)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
    }
    // Pixels of the flag colour along a line through the ruler's pennants.
    int flagPixelsInRuler() {
        const QImage image = view.grab().toImage();
        int n = 0;
        for (int x = view.headerWidthPx(); x < image.width(); ++x)
            n += image.pixel(x, 7) == Palette::kFlag;
        return n;
    }

    test::SmallTrace small;
    TimelineView view;
};

TEST_F(FlagsFixture, CtrlClickOnTheRulerDropsAFlagAPlainClickDoesNot) {
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(xOf(3'000), 15));
    EXPECT_TRUE(view.flags().flags().empty());
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ControlModifier, QPoint(xOf(3'000), 15));
    ASSERT_EQ(view.flags().flags().size(), 1u);
    EXPECT_NEAR(double(view.flags().flags()[0].timeNs), 3'000.0, 10.0);
    EXPECT_EQ(view.flags().flags()[0].name, QStringLiteral("Flag 1"));
}

TEST_F(FlagsFixture, ItsNameIsShownOnTheRuler) {
    EXPECT_EQ(flagPixelsInRuler(), 0);
    const int id = view.dropFlag(3'000);
    const int shortName = flagPixelsInRuler();
    EXPECT_GT(shortName, 20);  // a pennant with "Flag 1" in it
    ASSERT_TRUE(view.renameFlag(id, QStringLiteral("the start of the second step")));
    EXPECT_EQ(view.flags().find(id)->name, QStringLiteral("the start of the second step"));
    EXPECT_GT(flagPixelsInRuler(), shortName + 30);  // a wider pennant for the longer name
    EXPECT_FALSE(view.renameFlag(id, QStringLiteral("  ")));
}

TEST_F(FlagsFixture, ClosePennantsDoNotCoverEachOther) {
    view.dropFlag(3'000, QStringLiteral("a long name for the first of two flags"));
    view.dropFlag(3'300, QStringLiteral("second"));  // 30 px later
    const QImage image = view.grab().toImage();
    // Pixels of the flag colour down a column of the pennants.
    const auto flagPixelsAt = [&](int x) {
        int n = 0;
        for (int y = 1; y < 14; ++y)
            n += image.pixel(x, y) == Palette::kFlag;
        return n;
    };
    EXPECT_GT(flagPixelsAt(xOf(3'000) + 10), 3);
    EXPECT_EQ(flagPixelsAt(xOf(3'300) - 1), 0);  // the first cut short before the second
    EXPECT_GT(flagPixelsAt(xOf(3'300) + 3), 3);
}

TEST_F(FlagsFixture, HoveringAPennantTellsItsTimeAndTheTimeFromThePrevious) {
    view.dropFlag(1'000);
    view.dropFlag(3'000, QStringLiteral("second"));
    const QPoint at(xOf(3'000) + 10, 7);  // on the pennant's name
    QHelpEvent help(QEvent::ToolTip, at, view.mapToGlobal(at));
    QApplication::sendEvent(&view, &help);
    const QString text = QToolTip::text();
    EXPECT_TRUE(text.contains(QStringLiteral("second"))) << text.toStdString();
    EXPECT_TRUE(text.contains(units::duration(3'000))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("%1 after Flag 1").arg(units::duration(2'000))))
        << text.toStdString();
}

TEST_F(FlagsFixture, KeyMDropsAtThePointerAndMarksASelectionsEdges) {
    movePointerTo(QPoint(xOf(5'000), 200));
    QTest::keyClick(&view, Qt::Key_M);
    ASSERT_EQ(view.flags().flags().size(), 1u);
    EXPECT_NEAR(double(view.flags().flags()[0].timeNs), 5'000.0, 10.0);

    view.clearFlags();
    view.setTimeSelection(model::TimeRange{2'000, 4'000});
    QTest::keyClick(&view, Qt::Key_M);
    ASSERT_EQ(view.flags().flags().size(), 2u);
    EXPECT_EQ(view.flags().flags()[0].timeNs, 2'000);
    EXPECT_EQ(view.flags().flags()[0].name, QStringLiteral("Selection start"));
    EXPECT_EQ(view.flags().flags()[1].timeNs, 4'000);
    EXPECT_EQ(view.flags().flags()[1].name, QStringLiteral("Selection end"));
}

TEST_F(FlagsFixture, NextAndPreviousCentreTheFlags) {
    view.dropFlag(2'000);
    view.dropFlag(8'000);
    view.setVisibleRange(0, 1'000);
    QTest::keyClick(&view, Qt::Key_Period);
    EXPECT_EQ(view.visibleStartNs(), 1'500);
    EXPECT_EQ(view.visibleEndNs(), 2'500);
    QTest::keyClick(&view, Qt::Key_Period);
    EXPECT_EQ(view.visibleStartNs(), 7'500);
    EXPECT_FALSE(view.jumpToFlag(true));  // none after the last
    QTest::keyClick(&view, Qt::Key_Comma);
    EXPECT_EQ(view.visibleStartNs(), 1'500);
    EXPECT_EQ(view.visibleEndNs(), 2'500);
}

TEST_F(FlagsFixture, TheRulerCountsFromAReferenceFlag) {
    EXPECT_FALSE(view.currentRulerOrigin().relative);
    view.dropFlag(1'000);
    const int id = view.dropFlag(3'000);
    view.setReferenceFlag(id);
    const RulerOrigin origin = view.currentRulerOrigin();
    ASSERT_TRUE(origin.relative);
    EXPECT_EQ(origin.anchorNs, 3'000);
    EXPECT_EQ(rulerAnchorText(origin), QStringLiteral("from Flag 2"));
    EXPECT_EQ(rulerLabel(origin, 5'000, 1'000, 0, 10'000), QStringLiteral("+2 µs"));
    EXPECT_EQ(rulerLabel(origin, 1'000, 1'000, 0, 10'000), QStringLiteral("-2 µs"));
    view.setReferenceFlag(std::nullopt);
    EXPECT_FALSE(view.currentRulerOrigin().relative);
}

TEST_F(FlagsFixture, MeasuresBetweenFlagsAndTheSelection) {
    QSignalSpy spy(&view, &TimelineView::measureChanged);
    EXPECT_TRUE(view.measureText().isEmpty());
    view.dropFlag(1'000, QStringLiteral("a"));
    EXPECT_TRUE(view.measureText().isEmpty());  // one flag measures nothing
    view.dropFlag(9'000, QStringLiteral("c"));
    view.dropFlag(4'000, QStringLiteral("b"));
    // The pointer away: the last two dropped, in time order.
    EXPECT_EQ(view.measureText(), measureText("b", 4'000, "c", 9'000));
    ASSERT_FALSE(spy.isEmpty());
    EXPECT_EQ(spy.last().at(0).toString(), view.measureText());
    // The pointer between a and b: those two.
    movePointerTo(QPoint(xOf(2'000), 200));
    EXPECT_EQ(view.measureText(), measureText("a", 1'000, "b", 4'000));
    EXPECT_EQ(spy.last().at(0).toString(), view.measureText());

    view.clearFlags();
    view.setTimeSelection(model::TimeRange{2'000, 4'500});
    EXPECT_EQ(view.measureText(),
              QStringLiteral("Selection %1: %2 to %3")
                  .arg(units::duration(2'500), units::duration(2'000), units::duration(4'500)));
    view.setReferenceFlag(view.dropFlag(4'000, QStringLiteral("ref")));
    EXPECT_EQ(view.measureText(),
              QStringLiteral("Selection %1: -%2 to +%3 from ref")
                  .arg(units::duration(2'500), units::duration(2'000), units::duration(500)));
}

TEST_F(FlagsFixture, ANewTraceClearsThem) {
    view.setReferenceFlag(view.dropFlag(3'000));
    view.dropFlag(6'000);
    EXPECT_FALSE(view.measureText().isEmpty());
    view.setTrace(test::makeSmallTrace().trace);
    EXPECT_TRUE(view.flags().flags().empty());
    EXPECT_FALSE(view.flags().reference());
    EXPECT_TRUE(view.measureText().isEmpty());
    EXPECT_FALSE(view.currentRulerOrigin().relative);
}

}  // namespace
}  // namespace wl::ui
