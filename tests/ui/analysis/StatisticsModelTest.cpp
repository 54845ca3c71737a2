#include <gtest/gtest.h>
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "analysis/Analysis.h"
#include "analysis/HandTrace.h"  // tests/analysis: hand-built traces
#include "ui/analysis/StatisticsModel.h"
#include "ui/analysis/StatisticsView.h"

namespace wl::ui {
namespace {

analysis::Statistics sampleStatistics() {
    test::HandTrace t;
    // Durations chosen so text order ("10.0 us" < "9.0 us") differs from numeric order.
    t.kernel(1, 0, 9'000, -1, "nine");
    t.kernel(1, 10'000, 20'000, -1, "ten");
    t.kernel(1, 20'000, 20'500, -1, "half");
    t.kernel(1, 21'000, 21'500, -1, "half");
    t.copy(2, 0, 1'000, model::CopyKind::HostToDevice, 8'000, -1, -1);
    t.copy(2, 2'000, 6'000, model::CopyKind::DeviceToHost, 4'000, -1, -1, "cudaMemcpy",
           model::MemoryKind::Pageable);
    const auto trace = t.finish();
    return analysis::analyzeTrace(*trace).statistics;
}

TEST(StatisticsModel, PassesTheModelTester) {
    StatisticsModel kernels(StatisticsModel::Table::Kernels);
    StatisticsModel copies(StatisticsModel::Table::Copies);
    QAbstractItemModelTester kt(&kernels, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester ct(&copies, QAbstractItemModelTester::FailureReportingMode::Fatal);
    kernels.setStatistics(sampleStatistics());
    copies.setStatistics(sampleStatistics());
    EXPECT_EQ(kernels.rowCount(), 3);
    EXPECT_EQ(kernels.columnCount(), 7);
    EXPECT_EQ(copies.rowCount(), 2);
    EXPECT_EQ(copies.columnCount(), 6);
    kernels.clear();
    EXPECT_EQ(kernels.rowCount(), 0);
}

TEST(StatisticsModel, CellsAreFormattedAndRawForSorting) {
    StatisticsModel kernels(StatisticsModel::Table::Kernels);
    kernels.setStatistics(sampleStatistics());
    // Longest total first: "ten" (10 us), "nine" (9 us), "half" (2 x 0.5 us).
    EXPECT_EQ(kernels.data(kernels.index(0, 0)).toString(), "ten");
    EXPECT_EQ(kernels.data(kernels.index(0, 2)).toString(), "10.0 us");
    EXPECT_EQ(kernels.data(kernels.index(0, 2), StatisticsModel::kSortRole).toLongLong(), 10'000);
    EXPECT_EQ(kernels.data(kernels.index(2, 1)).toString(), "2");
    EXPECT_EQ(kernels.data(kernels.index(2, 3)).toString(), "500 ns");
    EXPECT_DOUBLE_EQ(kernels.data(kernels.index(0, 6), StatisticsModel::kSortRole).toDouble(),
                     100.0 * 10'000 / 20'000);
    EXPECT_EQ(kernels.headerData(6, Qt::Horizontal).toString(), "% GPU time");

    StatisticsModel copies(StatisticsModel::Table::Copies);
    copies.setStatistics(sampleStatistics());
    EXPECT_EQ(copies.data(copies.index(0, 0)).toString(), "HtoD");
    EXPECT_EQ(copies.data(copies.index(0, 4)).toString(), "8.0 GB/s");
    EXPECT_EQ(copies.data(copies.index(1, 4)).toString(), "1.0 GB/s");
    EXPECT_EQ(copies.data(copies.index(1, 5)).toString(), "1");  // pageable
}

TEST(StatisticsView, HeaderClickSortsNumerically) {
    StatisticsView view;
    view.setStatistics(sampleStatistics());
    QSortFilterProxyModel* proxy = view.kernelProxy();
    QAbstractItemModelTester tester(proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    view.kernelTable()->sortByColumn(2, Qt::AscendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(0, 0)).toString(), "half");
    EXPECT_EQ(proxy->data(proxy->index(1, 0)).toString(), "nine");
    EXPECT_EQ(proxy->data(proxy->index(2, 0)).toString(), "ten");
    view.kernelTable()->sortByColumn(1, Qt::DescendingOrder);  // by count
    EXPECT_EQ(proxy->data(proxy->index(0, 0)).toString(), "half");
    view.kernelTable()->sortByColumn(0, Qt::AscendingOrder);  // by name
    EXPECT_EQ(proxy->data(proxy->index(2, 0)).toString(), "ten");
}

}  // namespace
}  // namespace wl::ui
