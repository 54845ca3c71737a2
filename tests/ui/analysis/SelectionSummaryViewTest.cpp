// The area-selection summary across every kind of row: the slice table, the top-down tree, their
// sorting and formatting, and the events a click asks for.
#include <gtest/gtest.h>
#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "analysis/SelectionWindow.h"
#include "analysis/SliceSummary.h"
#include "analysis/TopDown.h"
#include "ui/analysis/SelectionSummaryView.h"
#include "ui/analysis/SliceSummaryModel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/analysis/TopDownModel.h"

namespace wl::ui {
namespace {

using analysis::SummaryKind;

// NVTX "step" [0, 30 µs) holding "forward" [1, 12 µs) (holding "inner" [2.5, 5 µs)) and
// "backward" [15, 25 µs); kernels "nine"
// (9 µs, launched in forward) and "ten" (10 µs, in backward), whose text order ("10.0 µs" <
// "9.0 µs") differs from their numeric order; a mangled kernel name.
model::TracePtr sampleTrace() {
    test::HandTrace t;
    t.nvtx("step", 0, 30'000);
    t.nvtx("forward", 1'000, 12'000);
    t.nvtx("inner", 2'500, 5'000);
    t.nvtx("backward", 15'000, 25'000);
    t.kernel(1, 3'000, 12'000, 2'000, "nine");
    t.kernel(1, 16'000, 26'000, 15'500, "ten");
    t.kernel(2, 40'000, 40'500, -1, "_ZN3foo6kernelIiEEvPKfi");
    return t.finish();
}

analysis::AnalysisWindow wholeOf(const model::Trace& trace) {
    return test::selectionOf({{0, trace.spanNs()}});
}

int rowOf(const QAbstractItemModel& model, int column, const QString& text) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.data(model.index(r, column)).toString() == text)
            return r;
    ADD_FAILURE() << "no row " << text.toStdString();
    return -1;
}

TEST(SliceSummaryModel, CellsAreFormattedAndRawForSorting) {
    const auto trace = sampleTrace();
    SliceSummaryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSummary(trace, analysis::sliceSummary(*trace, wholeOf(*trace)));
    EXPECT_EQ(model.columnCount(), 8);
    EXPECT_EQ(model.headerData(SliceSummaryModel::kSelf, Qt::Horizontal).toString(), "Self");
    const int step = rowOf(model, SliceSummaryModel::kName, "step");
    ASSERT_GE(step, 0);
    EXPECT_EQ(model.data(model.index(step, SliceSummaryModel::kKind)).toString(), "NVTX");
    EXPECT_EQ(model.data(model.index(step, SliceSummaryModel::kTotal)).toString(), "30.0 µs");
    EXPECT_EQ(model.data(model.index(step, SliceSummaryModel::kSelf)).toString(), "9.0 µs");
    EXPECT_EQ(model.data(model.index(step, SliceSummaryModel::kTotal), SliceSummaryModel::kSortRole)
                  .toLongLong(),
              30'000);
    EXPECT_EQ(model.data(model.index(step, SliceSummaryModel::kCount)).toString(), "1");
    // A kernel by its short name, the whole name demangled as tooltip.
    const int foo = rowOf(model, SliceSummaryModel::kName, "foo::kernel");
    ASSERT_GE(foo, 0);
    EXPECT_EQ(model.data(model.index(foo, SliceSummaryModel::kName), Qt::ToolTipRole).toString(),
              "void foo::kernel<int>(float const*, int)");
    EXPECT_EQ(model.data(model.index(foo, SliceSummaryModel::kMean)).toString(), "500 ns");
    EXPECT_EQ(model.lineAt(foo)->kind, SummaryKind::Kernel);
    EXPECT_EQ(model.lineAt(model.rowCount()), nullptr);

    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    // No trace, no names: nothing shown.
    model.setSummary(nullptr, analysis::sliceSummary(*trace, wholeOf(*trace)));
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(SelectionSummaryView, HeaderClickSortsNumerically) {
    const auto trace = sampleTrace();
    SelectionSummaryView view;
    view.setSummary(trace, analysis::sliceSummary(*trace, wholeOf(*trace)),
                    analysis::topDown(*trace, wholeOf(*trace)));
    QSortFilterProxyModel* proxy = view.sliceProxy();
    QAbstractItemModelTester tester(proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    // Opens on the most time first.
    EXPECT_EQ(proxy->data(proxy->index(0, SliceSummaryModel::kName)).toString(), "step");
    view.sliceTable()->sortByColumn(SliceSummaryModel::kTotal, Qt::AscendingOrder);
    const auto nameAt = [proxy](int row) {
        return proxy->data(proxy->index(row, SliceSummaryModel::kName)).toString();
    };
    QStringList kernels;
    for (int r = 0; r < proxy->rowCount(); ++r) {
        if (nameAt(r) == "nine" || nameAt(r) == "ten")
            kernels << nameAt(r);
    }
    EXPECT_EQ(kernels, (QStringList{"nine", "ten"}));
    // By kind: kernels before NVTX ranges.
    view.sliceTable()->sortByColumn(SliceSummaryModel::kKind, Qt::AscendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(0, SliceSummaryModel::kKind)).toString(), "kernel");
    EXPECT_EQ(proxy->data(proxy->index(proxy->rowCount() - 1, SliceSummaryModel::kKind)).toString(),
              "NVTX");
}

TEST(TopDownModel, ATreeOfRangesWithTheirGpuTime) {
    const auto trace = sampleTrace();
    TopDownModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setTree(trace, analysis::topDown(*trace, wholeOf(*trace)));
    ASSERT_EQ(model.rowCount(), 1);
    const QModelIndex step = model.index(0, TopDownModel::kName);
    EXPECT_EQ(model.data(step).toString(), "step");
    EXPECT_EQ(model.data(model.index(0, TopDownModel::kGpu)).toString(), "19.0 µs");
    EXPECT_EQ(model.data(model.index(0, TopDownModel::kHost)).toString(), "30.0 µs");
    EXPECT_EQ(model.data(model.index(0, TopDownModel::kCount)).toString(), "1");
    EXPECT_EQ(model.data(model.index(0, TopDownModel::kGpu), TopDownModel::kSortRole).toLongLong(),
              19'000);
    EXPECT_EQ(model.data(step, Qt::ToolTipRole).toString(),
              "NVTX step: 2 GPU ops launched inside it");
    ASSERT_EQ(model.rowCount(step), 2);
    const QModelIndex backward = model.index(1, TopDownModel::kName, step);
    EXPECT_EQ(model.data(backward).toString(), "backward");
    EXPECT_EQ(model.data(model.index(1, TopDownModel::kGpu, step)).toString(), "10.0 µs");
    EXPECT_EQ(model.parent(backward), step);
    const QModelIndex forward = model.index(0, TopDownModel::kName, step);
    ASSERT_EQ(model.rowCount(forward), 1);
    const QModelIndex inner = model.index(0, TopDownModel::kHost, forward);
    EXPECT_EQ(model.data(inner).toString(), "2.5 µs");
    EXPECT_EQ(model.parent(inner), forward);
    EXPECT_EQ(model.nodeAt(backward)->nameId,
              model.tree().nodes[model.tree().nodes[0].firstChild + 1].nameId);
    EXPECT_EQ(model.headerData(TopDownModel::kGpu, Qt::Horizontal).toString(), "GPU time");
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(SelectionSummaryView, TreeSortsEachLevelAndNamesTheGpuTimeOutsideRanges) {
    const auto trace = sampleTrace();
    SelectionSummaryView view;
    view.setSummary(trace, analysis::sliceSummary(*trace, wholeOf(*trace)),
                    analysis::topDown(*trace, wholeOf(*trace)));
    QSortFilterProxyModel* proxy = view.topDownProxy();
    QAbstractItemModelTester tester(proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.topDownTree()->sortByColumn(TopDownModel::kGpu, Qt::DescendingOrder);
    const QModelIndex step = proxy->index(0, 0);
    EXPECT_EQ(proxy->data(proxy->index(0, 0, step)).toString(), "backward");  // 10 µs over 9 µs
    view.topDownTree()->sortByColumn(TopDownModel::kGpu, Qt::AscendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(0, 0, proxy->index(0, 0))).toString(), "forward");
    // The kernel launched by no call: no GPU time launched outside ranges is claimed for it.
    EXPECT_EQ(view.outsideLabel()->text(),
              "GPU time launched in the window: 19.0 µs (2 ops), of it outside every range: 0 ns");
    EXPECT_EQ(view.tabs()->count(), 2);
    EXPECT_EQ(view.tabs()->tabText(0), "Slices");
    EXPECT_EQ(view.tabs()->tabText(1), "Top-down");
    view.clear();
    EXPECT_EQ(view.sliceModel()->rowCount(), 0);
    EXPECT_EQ(view.topDownModel()->rowCount(), 0);
    EXPECT_TRUE(view.outsideLabel()->text().isEmpty());
}

TEST(SelectionSummaryView, ALineOrNodeAsksForItsEvents) {
    const auto trace = sampleTrace();
    SelectionSummaryView view;
    const analysis::SliceSummary slices = analysis::sliceSummary(*trace, wholeOf(*trace));
    view.setSummary(trace, slices, analysis::topDown(*trace, wholeOf(*trace)));
    QSignalSpy activated(&view, &SelectionSummaryView::summaryActivated);
    // Whatever the order and the column, the clicked line's kind and name.
    view.sliceTable()->sortByColumn(SliceSummaryModel::kTotal, Qt::AscendingOrder);
    QSortFilterProxyModel* proxy = view.sliceProxy();
    const int ten = rowOf(*proxy, SliceSummaryModel::kName, "ten");
    emit view.sliceTable()->clicked(proxy->index(ten, SliceSummaryModel::kCount));
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.back().at(0).value<SummaryKind>(), SummaryKind::Kernel);
    EXPECT_EQ(trace->str(activated.back().at(1).value<model::StringId>()), "ten");
    // Enter on a line (activated) asks too.
    emit view.sliceTable()->activated(proxy->index(0, SliceSummaryModel::kName));
    ASSERT_EQ(activated.count(), 2);
    EXPECT_EQ(activated.back().at(1).value<model::StringId>(),
              view.sliceModel()->lineAt(proxy->mapToSource(proxy->index(0, 0)).row())->nameId);
    // A node of the tree: its range's name.
    QSortFilterProxyModel* tree = view.topDownProxy();
    emit view.topDownTree()->clicked(tree->index(0, TopDownModel::kHost));
    ASSERT_EQ(activated.count(), 3);
    EXPECT_EQ(activated.back().at(0).value<SummaryKind>(), SummaryKind::Nvtx);
    EXPECT_EQ(trace->str(activated.back().at(1).value<model::StringId>()), "step");
}

TEST(StatisticsView, TheSummaryPageShowsTheWindowsSlicesAndForwardsClicks) {
    const auto trace = sampleTrace();
    analysis::Statistics stats = analysis::analyzeTrace(*trace).statistics;
    stats.slices = analysis::sliceSummary(*trace, wholeOf(*trace));
    stats.topDown = analysis::topDown(*trace, wholeOf(*trace));
    StatisticsView view;
    view.setStatistics(stats, trace);
    SelectionSummaryView* summary = view.summaryView();
    ASSERT_NE(summary, nullptr);
    EXPECT_EQ(summary->sliceModel()->rowCount(), static_cast<int>(stats.slices.rows.size()));
    EXPECT_EQ(summary->topDownModel()->rowCount(), 1);
    QSignalSpy activated(&view, &StatisticsView::summaryActivated);
    emit summary->sliceTable()->clicked(summary->sliceProxy()->index(0, 0));
    EXPECT_EQ(activated.count(), 1);
    view.clear();
    EXPECT_EQ(summary->sliceModel()->rowCount(), 0);
    EXPECT_EQ(summary->topDownModel()->rowCount(), 0);
}

}  // namespace
}  // namespace wl::ui
