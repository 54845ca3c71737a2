#include <gtest/gtest.h>

#include "ui/analysis/PairedBars.h"

namespace wl::ui {
namespace {

PairedBarRow row(const QString& label, double first, double second, double scaleMax = 0.0) {
    PairedBarRow r;
    r.label = label;
    r.values = {first, second};
    r.texts = {QString::number(first), QString::number(second)};
    r.scaleMax = scaleMax;
    return r;
}

TEST(PairedBars, AxisTicksAreOneTwoFiveStepsPastTheLargestValue) {
    // The compare chart once read 15.5 / 31 / 46.6 / 62.1.
    EXPECT_EQ(PairedBars::axisTicks(62.1, 4), (std::vector<double>{0, 20, 40, 60, 80}));
    EXPECT_EQ(PairedBars::axisTicks(99.9, 4), (std::vector<double>{0, 50, 100}));
    EXPECT_EQ(PairedBars::axisTicks(0.7, 3), (std::vector<double>{0, 0.5, 1.0}));
    EXPECT_EQ(PairedBars::axisTicks(5.0, 5), (std::vector<double>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(PairedBars::axisTicks(0.0, 4), (std::vector<double>{0, 1}));
}

TEST(PairedBars, TooltipNamesTheRowAndBothRuns) {
    PairedBars bars;
    bars.resize(400, 300);
    bars.setRunNames("A", "B");
    std::vector<PairedBarRow> rows{row("first", 2, 1), row("second", 0, 4)};
    rows[1].fullLabel = "void second<float>(float*)";
    bars.setRows(rows);
    EXPECT_EQ(bars.toolTipAt(bars.rowRect(0).center()), "first\nA: 2\nB: 1\nsecond / first: 0.50×");
    EXPECT_EQ(bars.toolTipAt(bars.rowRect(1).center()), "void second<float>(float*)\nA: 0\nB: 4");
    EXPECT_TRUE(bars.toolTipAt(QPoint(5, 1)).isEmpty());  // the title, not a row
}

TEST(PairedBars, KeepsTheHeightItsRowsNeed) {
    PairedBars bars;
    bars.setTitle("Kernel time");
    bars.setRows({row("a", 1, 2)});
    const int one = bars.minimumSizeHint().height();
    bars.setRows({row("a", 1, 2), row("b", 1, 2), row("c", 1, 2)});
    EXPECT_EQ(bars.minimumSizeHint().height() - one, 2 * bars.rowRect(0).height());
    EXPECT_GE(bars.rowRect(0).height(), 2 * bars.fontMetrics().ascent());
}

TEST(PairedBars, LongLabelsAreElidedInTheMiddle) {
    PairedBars bars;
    bars.resize(300, 200);
    const QString name = "cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4_with_a_long_tail";
    bars.setRows({row(name, 1, 2)});
    const QString drawn = bars.drawnLabel(0);
    EXPECT_LT(drawn.size(), name.size());
    EXPECT_TRUE(drawn.startsWith("cutlass_")) << drawn.toStdString();
    EXPECT_TRUE(drawn.endsWith("tail")) << drawn.toStdString();
    bars.resize(1600, 200);
    EXPECT_EQ(bars.drawnLabel(0).toStdString(), name.toStdString());
}

}  // namespace
}  // namespace wl::ui
