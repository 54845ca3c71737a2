#include <gtest/gtest.h>

#include <algorithm>

#include "ui/common/Units.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/TimeFormat.h"

namespace wl::ui {
namespace {

TEST(TimeFormat, DurationsCarryUnits) {
    EXPECT_EQ(units::duration(850), QStringLiteral("850 ns"));
    EXPECT_EQ(units::duration(12'400), QStringLiteral("12.4 µs"));
    EXPECT_EQ(units::duration(3'070'000), QStringLiteral("3.07 ms"));
    EXPECT_EQ(units::duration(1'250'000'000), QStringLiteral("1.250 s"));
    EXPECT_EQ(units::duration(250'000'000), QStringLiteral("250.00 ms"));
}

TEST(TimeFormat, TickLabelsFollowTheStep) {
    EXPECT_EQ(formatTickLabel(2'000'000, 1'000'000, 9'000'000), QStringLiteral("2 ms"));
    EXPECT_EQ(formatTickLabel(0, 1'000'000, 9'000'000), QStringLiteral("0 ms"));
    EXPECT_EQ(formatTickLabel(1'200'200'000, 200'000, 1'201'000'000), QStringLiteral("1200.2 ms"));
    EXPECT_EQ(formatTickLabel(500, 100, 900), QStringLiteral("500 ns"));
    EXPECT_EQ(formatTickLabel(1'500, 500, 9'000), QStringLiteral("1.5 µs"));
    EXPECT_EQ(formatTickLabel(3'000'000'000, 1'000'000'000, 9'000'000'000), QStringLiteral("3 s"));
}

TEST(TimeFormat, DeepZoomFarIntoATraceCountsFromAnAnchor) {
    // 20 ns visible 1.215 s into a trace: once "1215140.784 µs".
    const model::TimeNs start = 1'215'140'784;
    const RulerOrigin origin = rulerOrigin(start, start + 20, 5);
    ASSERT_TRUE(origin.relative);
    EXPECT_EQ(origin.anchorNs, 1'215'140'000);
    EXPECT_EQ(rulerLabel(origin, 1'215'140'785, 5, start, start + 20), QStringLiteral("+785 ns"));
    EXPECT_EQ(rulerAnchorText(origin), QStringLiteral("from 1215.140 ms"));
    // Panning a few steps keeps the anchor, so the labels do not jump.
    EXPECT_EQ(rulerOrigin(start + 40, start + 60, 5).anchorNs, origin.anchorNs);
    // Near the start, or zoomed out, labels stay absolute.
    EXPECT_FALSE(rulerOrigin(100, 120, 5).relative);
    EXPECT_FALSE(rulerOrigin(1'200'000'000, 1'201'000'000, 200'000).relative);
    EXPECT_EQ(rulerLabel(RulerOrigin{}, 1'200'200'000, 200'000, 1'200'000'000, 1'201'000'000),
              QStringLiteral("1200.2 ms"));
}

TEST(TimeFormat, ARulerCanCountFromAChosenFlag) {
    // A reference flag at 87.6 ms: ticks read from it, before it negative, whatever the zoom.
    const RulerOrigin origin = rulerOriginAt(87'600'000, QStringLiteral("Flag 2"));
    ASSERT_TRUE(origin.relative);
    EXPECT_EQ(rulerAnchorText(origin), QStringLiteral("from Flag 2"));
    const model::TimeNs start = 80'000'000;
    const model::TimeNs end = 110'000'000;
    EXPECT_EQ(rulerLabel(origin, 97'600'000, 5'000'000, start, end), QStringLiteral("+10 ms"));
    EXPECT_EQ(rulerLabel(origin, 84'600'000, 1'000'000, start, end), QStringLiteral("-3 ms"));
    EXPECT_EQ(rulerLabel(origin, 100'000'000, 100'000, start, end), QStringLiteral("+12.4 ms"));
}

TEST(RulerTicks, TicksCanStartFromAnOrigin) {
    // Ticks at the origin plus multiples of the step, so labels counted from it read round.
    const TimeMapper map(1'000, 11'000, 1000);
    const model::TimeNs origin = 3'333;
    const RulerTicks ticks = computeRulerTicks(map, 90.0, origin);
    ASSERT_FALSE(ticks.ticksNs.empty());
    EXPECT_GE(ticks.ticksNs.front(), map.startNs());
    EXPECT_LT(ticks.ticksNs.front() - ticks.stepNs, map.startNs());
    for (model::TimeNs t : ticks.ticksNs)
        EXPECT_EQ((t - origin) % ticks.stepNs, 0) << t;
    EXPECT_NE(std::find(ticks.ticksNs.begin(), ticks.ticksNs.end(), origin), ticks.ticksNs.end());
}

TEST(RulerTicks, StepsAreOneTwoFiveAndFitTheRange) {
    for (model::TimeNs duration : {model::TimeNs(37), model::TimeNs(1'000), model::TimeNs(123'456),
                                   model::TimeNs(9'000'000), model::TimeNs(45'000'000'000)}) {
        const TimeMapper map(1'000, 1'000 + duration, 1000);
        const RulerTicks ticks = computeRulerTicks(map, 90.0);
        model::TimeNs s = ticks.stepNs;
        while (s % 10 == 0) {
            s /= 10;
        }
        EXPECT_TRUE(s == 1 || s == 2 || s == 5) << ticks.stepNs;
        EXPECT_GE(ticks.stepNs / map.nsPerPx(), 90.0 - 1e-6);
        EXPECT_LT(ticks.stepNs / map.nsPerPx(), 90.0 * 2.5 + 1e-6);
        ASSERT_FALSE(ticks.ticksNs.empty());
        for (model::TimeNs t : ticks.ticksNs) {
            EXPECT_EQ(t % ticks.stepNs, 0);
            EXPECT_GE(t, map.startNs());
            EXPECT_LE(t, map.endNs());
        }
    }
}

}  // namespace
}  // namespace wl::ui
