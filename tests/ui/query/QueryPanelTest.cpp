// The Query panel: a query runs off the GUI thread over the trace, its rows fill the table, a
// row with a slice id selects that slice, an error says what and where, and the results save as
// CSV.
#include <gtest/gtest.h>

#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>

#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "query/TraceQuery.h"
#include "ui/query/QueryPanel.h"

namespace wl::ui {
namespace {

model::TracePtr threeKernels() {
    test::HandTrace t;
    t.kernel(1, 0, 1'000, -1, "alpha");
    t.kernel(1, 2'000, 5'000, -1, "beta");
    t.kernel(1, 6'000, 7'000, -1, "alpha");
    return t.finish();
}

bool runAndWait(QueryPanel& panel) {
    QSignalSpy done(&panel, &QueryPanel::finished);
    panel.run();
    return !done.isEmpty() || done.wait(20000);
}

TEST(QueryPanel, RowsFillTheTableAndARowSelectsItsSlice) {
    QSettings().clear();
    const model::TracePtr trace = threeKernels();
    QueryPanel panel;
    panel.setTrace(trace);
    panel.setQuery("SELECT id, name, dur FROM slice WHERE kind = 'kernel' ORDER BY dur DESC");
    ASSERT_TRUE(runAndWait(panel));
    const QAbstractItemModel* model = panel.results()->model();
    ASSERT_EQ(model->rowCount(), 3) << panel.statusText().toStdString();
    EXPECT_EQ(model->index(0, 1).data().toString(), "beta");
    EXPECT_EQ(model->index(0, 2).data().toString(), "3000");
    EXPECT_TRUE(panel.statusText().startsWith("3 row(s)")) << panel.statusText().toStdString();
    EXPECT_EQ(panel.history().front(),
              "SELECT id, name, dur FROM slice WHERE kind = 'kernel' ORDER BY dur DESC");

    // The first row is "beta": a click selects it.
    QSignalSpy selected(&panel, &QueryPanel::sliceActivated);
    emit panel.results()->clicked(model->index(0, 1));
    ASSERT_EQ(selected.size(), 1);
    const auto ref = selected.front().front().value<model::SliceRef>();
    EXPECT_EQ(trace->str(trace->slice(ref).nameId), "beta");

    EXPECT_EQ(panel.resultsCsv().section("\r\n", 0, 0), "id,name,dur");
    QSettings().clear();
}

TEST(QueryPanel, ARowWithTsAndDurSelectsItsSpan) {
    QueryPanel panel;
    panel.setTrace(threeKernels());
    panel.setQuery("SELECT ts, dur FROM slice WHERE name = 'beta'");
    ASSERT_TRUE(runAndWait(panel));
    QSignalSpy spans(&panel, &QueryPanel::rangeActivated);
    emit panel.results()->clicked(panel.results()->model()->index(0, 0));
    ASSERT_EQ(spans.size(), 1);
    EXPECT_EQ(spans.front().front().value<model::TimeRange>(), (model::TimeRange{2'000, 5'000}));
    QSettings().clear();
}

TEST(QueryPanel, AnIdleGapsRowSelectsItsSpanNotTheSliceOfTheSameNumber) {
    // Two kernels 100 µs apart: one idle gap, the second row of the idle_gap table (id 1) and
    // of the slice table alike.
    test::HandTrace t;
    t.kernel(1, 0, 10'000, -1, "alpha");
    t.kernel(1, 110'000, 120'000, -1, "beta");
    QueryPanel panel;
    panel.setTrace(t.finish());
    panel.setQuery("SELECT id, ts, dur FROM idle_gap WHERE stream IS NULL ORDER BY ts");
    ASSERT_TRUE(runAndWait(panel));
    ASSERT_GE(panel.results()->model()->rowCount(), 1) << panel.statusText().toStdString();
    QSignalSpy slices(&panel, &QueryPanel::sliceActivated);
    QSignalSpy spans(&panel, &QueryPanel::rangeActivated);
    emit panel.results()->clicked(panel.results()->model()->index(0, 0));
    EXPECT_TRUE(slices.isEmpty());
    ASSERT_EQ(spans.size(), 1);
    EXPECT_EQ(spans.front().front().value<model::TimeRange>(), (model::TimeRange{10'000, 110'000}));
    QSettings().clear();
}

TEST(QueryPanel, AnErrorSaysWhatAndWhereAndAWriteIsRefused) {
    QueryPanel panel;
    panel.setTrace(threeKernels());
    panel.setQuery("SELECT nme FROM slice");
    ASSERT_TRUE(runAndWait(panel));
    EXPECT_TRUE(panel.statusText().contains("no such column: nme"))
        << panel.statusText().toStdString();
    EXPECT_EQ(panel.results()->model()->rowCount(), 0);
    panel.setQuery("CREATE TABLE t(x)");
    ASSERT_TRUE(runAndWait(panel));
    EXPECT_TRUE(panel.statusText().startsWith("Error:")) << panel.statusText().toStdString();
    QSettings().clear();
}

}  // namespace
}  // namespace wl::ui
