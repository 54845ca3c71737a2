#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QAction>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QXYSeries>

#include "ui/charts/BarChart.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/LineChart.h"

namespace wl::ui::charts {
namespace {

BarChartSpec twoRuns() {
    BarChartSpec spec;
    spec.title = "Kernel time";
    spec.unit = "ms";
    spec.categories = {"first", "second"};
    spec.fullNames = {"first", "void second<float>(float*)"};
    spec.sets = {{"A", {}, {2.0, 0.0}}, {"B", {}, {1.0, 4.0}}};
    return spec;
}

QList<QBarSet*> barSets(const BarChart& chart) {
    auto* series = qobject_cast<QAbstractBarSeries*>(chart.chartView()->chart()->series().front());
    return series->barSets();
}

TEST(ChartStyle, NiceStepsAreOneTwoOrFive) {
    EXPECT_DOUBLE_EQ(niceStep(62.1, 4), 20.0);
    EXPECT_DOUBLE_EQ(niceStep(99.9, 4), 50.0);
    EXPECT_DOUBLE_EQ(niceStep(0.7, 3), 0.5);
    EXPECT_DOUBLE_EQ(niceStep(5.0, 5), 1.0);
    EXPECT_DOUBLE_EQ(niceStep(0.0, 4), 1.0);
    QValueAxis axis;
    setNiceRange(&axis, 62.1, 0.0, 4);
    EXPECT_DOUBLE_EQ(axis.min(), 0.0);
    EXPECT_DOUBLE_EQ(axis.max(), 80.0);
}

TEST(BarChart, TooltipNamesTheBarAndEveryRun) {
    BarChart chart;
    chart.setSpec(twoRuns());
    EXPECT_EQ(chart.toolTipFor(0, 0), "first\nA: 2 ms\nB: 1 ms\nB / A: 0.50×");
    EXPECT_EQ(chart.toolTipFor(1, 1), "void second<float>(float*)\nA: 0 ms\nB: 4 ms");
    EXPECT_TRUE(chart.toolTipFor(2, 0).isEmpty());
}

TEST(BarChart, EveryValueIsWrittenBesideItsBarAndTheFirstCategoryIsOnTop) {
    BarChart chart;
    chart.setSpec(twoRuns());
    const QList<QBarSet*> sets = barSets(chart);
    ASSERT_EQ(sets.size(), 2);
    // Qt Charts draws a horizontal chart's first category at the bottom, and its first series
    // lowest in each: both are given reversed, so the first of each is on top.
    EXPECT_EQ(sets[1]->label(), "A");
    EXPECT_DOUBLE_EQ(sets[1]->at(0), 0.0);
    EXPECT_DOUBLE_EQ(sets[1]->at(1), 2.0);
    EXPECT_EQ(chart.valueLabels(), (std::vector<QStringList>{{"2 ms", "0 ms"}, {"1 ms", "4 ms"}}));
}

TEST(BarChart, AClickNamesTheBarAsGiven) {
    BarChart chart;
    chart.setSpec(twoRuns());
    QSignalSpy clicked(&chart, &BarChart::barClicked);
    emit barSets(chart)[0]->clicked(1);  // the top category's bar of the second series (B)
    ASSERT_EQ(clicked.size(), 1);
    EXPECT_EQ(clicked.front().at(0).toInt(), 0);
    EXPECT_EQ(clicked.front().at(1).toInt(), 1);
}

TEST(BarChart, KeepsTheHeightItsRowsNeed) {
    BarChart chart;
    BarChartSpec spec = twoRuns();
    chart.setSpec(spec);
    const int two = chart.minimumSizeHint().height();
    spec.categories << "third"
                    << "fourth";
    spec.sets[0].values = {1, 2, 3, 4};
    spec.sets[1].values = {1, 2, 3, 4};
    chart.setSpec(spec);
    EXPECT_GE(chart.minimumSizeHint().height() - two, 2 * 2 * 14);
}

TEST(BarChart, LongNamesAreElidedInTheMiddleAndWholeWhenWide) {
    BarChart chart;
    chart.resize(300, 200);
    chart.show();  // resize events from here on
    BarChartSpec spec = twoRuns();
    const QString name = "cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4_with_a_long_tail";
    spec.categories = {name, name + "_2"};
    chart.setSpec(spec);
    const QString drawn = chart.drawnCategories().at(0);
    EXPECT_LT(drawn.size(), name.size());
    EXPECT_TRUE(drawn.startsWith("cutlass_")) << drawn.toStdString();
    EXPECT_TRUE(drawn.endsWith("tail")) << drawn.toStdString();
    EXPECT_NE(chart.drawnCategories().at(0), chart.drawnCategories().at(1));
    chart.resize(2400, 200);
    EXPECT_EQ(chart.drawnCategories().at(0).toStdString(), name.toStdString());
}

TEST(BarChart, ItsDataSavesAsCsvAndTheChartAsPng) {
    BarChart chart;
    BarChartSpec spec = twoRuns();
    spec.categories[1] = "second, \"quoted\"";
    chart.setSpec(spec);
    EXPECT_EQ(chart.csv(), "name,A (ms),B (ms)\r\nfirst,2,1\r\n\"second, \"\"quoted\"\"\",0,4\r\n");
    chart.resize(400, 300);
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(writePng(&chart, dir.filePath("c.png"), &error)) << error.toStdString();
    const QImage image(dir.filePath("c.png"));
    EXPECT_GE(image.width(), 400);
    ASSERT_TRUE(writeCsv(chart.csv(), dir.filePath("c.csv"), &error));
    QFile csv(dir.filePath("c.csv"));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(csv.readAll()), chart.csv());
    // An unwritable place says why and leaves nothing.
    EXPECT_FALSE(writeCsv("x", dir.filePath("missing/c.csv"), &error));
    EXPECT_TRUE(error.contains("missing/c.csv")) << error.toStdString();
}

TEST(LineChart, ValuesAtAPointAreHeldForStepsAndInterpolatedForLines) {
    LineSeriesSpec steps{"in use", {}, {{0, 1}, {10, 5}, {20, 2}}, true};
    EXPECT_DOUBLE_EQ(LineChart::valueAt(steps, 5), 1.0);
    EXPECT_DOUBLE_EQ(LineChart::valueAt(steps, 10), 5.0);
    EXPECT_DOUBLE_EQ(LineChart::valueAt(steps, 25), 2.0);
    LineSeriesSpec line = steps;
    line.steps = false;
    EXPECT_DOUBLE_EQ(LineChart::valueAt(line, 5), 3.0);
    LineChart chart;
    LineChartSpec spec;
    spec.xTitle = "time (ms)";
    spec.yTitle = "MB";
    spec.series = {steps};
    chart.setSpec(spec);
    EXPECT_EQ(chart.toolTipAt(12.0), "time (ms): 12.000\nin use: 5 MB");
    EXPECT_EQ(chart.csv(), "series,time (ms),MB\r\nin use,0,1\r\nin use,10,5\r\nin use,20,2\r\n");
    // Drawn as steps: each value held until the next point.
    auto* drawn = qobject_cast<QXYSeries*>(chart.chartView()->chart()->series().front());
    ASSERT_TRUE(drawn);
    EXPECT_EQ(drawn->count(), 5);
}

}  // namespace
}  // namespace wl::ui::charts

namespace wl::ui::charts {
namespace {

// The context menu's saves go to the window (ExportRequests), which owns the dialogs.
TEST(ChartWidget, ItsContextMenuAsksTheWindowToSave) {
    BarChart chart;
    chart.setSpec(twoRuns());
    chart.setFileBaseName("kernels");
    const QList<QAction*> actions = chart.chartView()->actions();
    ASSERT_EQ(actions.size(), 2);
    QSignalSpy png(&ExportRequests::instance(), &ExportRequests::pngRequested);
    QSignalSpy csv(&ExportRequests::instance(), &ExportRequests::csvRequested);
    actions[0]->trigger();
    ASSERT_EQ(png.size(), 1);
    EXPECT_EQ(png.front().at(0).value<QWidget*>(), chart.chartView());
    EXPECT_EQ(png.front().at(1).toString(), "kernels");
    actions[1]->trigger();
    ASSERT_EQ(csv.size(), 1);
    EXPECT_EQ(csv.front().at(0).toString(), chart.csv());
}

}  // namespace
}  // namespace wl::ui::charts
