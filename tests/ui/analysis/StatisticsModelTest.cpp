#include <gtest/gtest.h>
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
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
    // Durations chosen so text order ("10.0 µs" < "9.0 µs") differs from numeric order.
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
    EXPECT_EQ(kernels.columnCount(), 15);
    EXPECT_EQ(copies.rowCount(), 2);
    EXPECT_EQ(copies.columnCount(), 6);
    kernels.clear();
    EXPECT_EQ(kernels.rowCount(), 0);
}

TEST(StatisticsModel, CellsAreFormattedAndRawForSorting) {
    StatisticsModel kernels(StatisticsModel::Table::Kernels);
    kernels.setStatistics(sampleStatistics());
    // Numbers first, the name last. Longest total first: "ten" (10 us), "nine" (9 us), "half"
    // (2 x 0.5 us).
    EXPECT_EQ(kernels.data(kernels.index(0, StatisticsModel::kName)).toString(), "ten");
    EXPECT_EQ(kernels.data(kernels.index(0, StatisticsModel::kTotal)).toString(), "10.0 µs");
    EXPECT_EQ(kernels.data(kernels.index(0, StatisticsModel::kTotal), StatisticsModel::kSortRole)
                  .toLongLong(),
              10'000);
    EXPECT_EQ(kernels.data(kernels.index(2, StatisticsModel::kCount)).toString(), "2");
    EXPECT_EQ(kernels.data(kernels.index(2, StatisticsModel::kMean)).toString(), "500 ns");
    EXPECT_DOUBLE_EQ(
        kernels.data(kernels.index(0, StatisticsModel::kPct), StatisticsModel::kSortRole)
            .toDouble(),
        100.0 * 10'000 / 20'000);
    EXPECT_EQ(kernels.headerData(0, Qt::Horizontal).toString(), "Count");
    EXPECT_EQ(kernels.headerData(StatisticsModel::kMedian, Qt::Horizontal).toString(), "Median");
    EXPECT_EQ(kernels.headerData(StatisticsModel::kPct, Qt::Horizontal).toString(), "% GPU time");
    EXPECT_EQ(kernels.headerData(StatisticsModel::kName, Qt::Horizontal).toString(), "Kernel");
    EXPECT_TRUE(kernels.headerData(StatisticsModel::kTensorCores, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("name"));
    EXPECT_EQ(kernels.data(kernels.index(0, StatisticsModel::kName), Qt::TextAlignmentRole).toInt(),
              int(Qt::AlignLeft | Qt::AlignVCenter));
    EXPECT_EQ(
        kernels.data(kernels.index(0, StatisticsModel::kTotal), Qt::TextAlignmentRole).toInt(),
        int(Qt::AlignRight | Qt::AlignVCenter));

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
    constexpr int name = StatisticsModel::kName;
    view.kernelTable()->sortByColumn(StatisticsModel::kTotal, Qt::AscendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(0, name)).toString(), "half");
    EXPECT_EQ(proxy->data(proxy->index(1, name)).toString(), "nine");
    EXPECT_EQ(proxy->data(proxy->index(2, name)).toString(), "ten");
    view.kernelTable()->sortByColumn(StatisticsModel::kCount, Qt::DescendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(0, name)).toString(), "half");
    view.kernelTable()->sortByColumn(name, Qt::AscendingOrder);
    EXPECT_EQ(proxy->data(proxy->index(2, name)).toString(), "ten");
}

// Two kernels with long C++ names, the longer-running first.
analysis::Statistics longNameStatistics() {
    test::HandTrace t;
    t.kernel(1, 0, 9'000, -1,
             "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
             "at::native::MeanOps<float, float>, unsigned int, float, 4> >(at::native::ReduceOp<"
             "float, at::native::MeanOps<float, float>, unsigned int, float, 4>)");
    t.kernel(1, 10'000, 11'000, -1, "_ZN3foo6kernelIiEEvPKfi");  // mangled
    const auto trace = t.finish();
    return analysis::analyzeTrace(*trace).statistics;
}

TEST(StatisticsModel, ShortNamesUnlessFullNamesAreAskedFullNameAsTooltip) {
    StatisticsModel kernels(StatisticsModel::Table::Kernels);
    QAbstractItemModelTester tester(&kernels,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    kernels.setStatistics(longNameStatistics());
    const QModelIndex reduce = kernels.index(0, StatisticsModel::kName);
    const QModelIndex mangled = kernels.index(1, StatisticsModel::kName);
    EXPECT_EQ(kernels.data(reduce).toString(), "reduce_kernel");
    EXPECT_EQ(kernels.data(mangled).toString(), "foo::kernel");
    // The whole name, demangled, on every cell of the row.
    EXPECT_TRUE(kernels.data(reduce, Qt::ToolTipRole)
                    .toString()
                    .startsWith("void at::native::reduce_kernel<512, 1,"));
    EXPECT_EQ(kernels.data(kernels.index(1, StatisticsModel::kTotal), Qt::ToolTipRole).toString(),
              "void foo::kernel<int>(float const*, int)");

    QSignalSpy changed(&kernels, &QAbstractItemModel::dataChanged);
    kernels.setFullKernelNames(true);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_TRUE(kernels.data(reduce).toString().startsWith("void at::native::reduce_kernel<512"));
    EXPECT_EQ(kernels.data(mangled).toString(), "void foo::kernel<int>(float const*, int)");
    kernels.setFullKernelNames(true);  // no change, no signal
    EXPECT_EQ(changed.count(), 1);
    kernels.setFullKernelNames(false);
    EXPECT_EQ(kernels.data(reduce).toString(), "reduce_kernel");
}

TEST(StatisticsView, NameColumnIsShownFirstElidedInTheMiddleAndClickAsksForLaunches) {
    const analysis::Statistics stats = longNameStatistics();
    StatisticsView view;
    view.setStatistics(stats);
    QTableView* table = view.kernelTable();
    EXPECT_EQ(table->textElideMode(), Qt::ElideMiddle);
    EXPECT_TRUE(table->horizontalHeader()->stretchLastSection());
    EXPECT_EQ(view.kernelModel()
                  ->headerData(StatisticsModel::kKernelColumns - 1, Qt::Horizontal)
                  .toString(),
              "Kernel");
    // Last in the model, first on the screen: a narrow dock always shows which kernel a row is.
    EXPECT_EQ(table->horizontalHeader()->visualIndex(StatisticsModel::kName), 0);

    QSignalSpy activated(&view, &StatisticsView::kernelActivated);
    // Sorted by total ascending the shorter, mangled kernel comes first: a click names the
    // clicked row's kernel, whatever the order and the column.
    table->sortByColumn(StatisticsModel::kTotal, Qt::AscendingOrder);
    emit table->clicked(view.kernelProxy()->index(0, StatisticsModel::kCount));
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.front().front().value<model::StringId>(), stats.kernels[1].nameId);
    emit table->clicked(view.kernelProxy()->index(1, StatisticsModel::kName));
    ASSERT_EQ(activated.count(), 2);
    EXPECT_EQ(activated.back().front().value<model::StringId>(), stats.kernels[0].nameId);

    view.setFullKernelNames(true);
    EXPECT_TRUE(view.kernelModel()->fullKernelNames());
}

TEST(StatisticsView, FiguresNameTheLaunchQueueGraphsAndMemory) {
    analysis::Statistics s;
    EXPECT_TRUE(StatisticsView::figuresText(s).isEmpty());
    s.launchQueues.push_back({0, 42.0, 3.84, 78.4});
    analysis::GraphStats g;
    g.graphId = 2;
    g.launches = 5;
    g.nodes = 20;
    g.gpuNs = 3'000'000;
    g.launchSpanTotalNs = 6'000'000;
    s.graphs.push_back(g);
    analysis::MemoryStats m;
    m.deviceId = 0;
    m.operationsRecorded = true;
    m.allocations = 16;
    m.releases = 16;
    m.peakInUseBytes = 2'000'000;
    s.memory.push_back(m);
    const QStringList lines = StatisticsView::figuresText(s).split(QLatin1Char('\n'));
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines[0].toStdString(),
              "Launch queue of GPU 0: up to 42 ops, 3.8 on average, empty 78.4% of the window");
    EXPECT_EQ(lines[1].toStdString(),
              "CUDA graph 2: 5 launches of 4 nodes, 1.20 ms each on average, 3.00 ms of GPU time");
    EXPECT_EQ(lines[2].toStdString(),
              "Device memory of GPU 0: 16 allocations, 16 releases; in use 2.0 MB at most, 0 B "
              "at the end");
    StatisticsView view;
    view.setStatistics(s);
    EXPECT_FALSE(view.figuresLabel()->isHidden());
    view.clear();
    EXPECT_TRUE(view.figuresLabel()->isHidden());
}

}  // namespace
}  // namespace wl::ui

namespace wl::ui {
namespace {

// Kernels and copies are pages of their own: sharing one, each got a row's height in a short
// dock (1024x700, or 1600x1000 with the dock at its default share).
TEST(StatisticsView, KernelsAndCopiesAreEachAPage) {
    StatisticsView view;
    view.resize(600, 220);
    view.show();
    view.setStatistics(sampleStatistics());
    QCoreApplication::processEvents();
    auto* pages = view.findChild<QTabWidget*>(QStringLiteral("statisticsPages"));
    ASSERT_TRUE(pages);
    const int kernels = pages->indexOf(view.kernelTable());
    const int copies = pages->indexOf(view.copyTable());
    ASSERT_GE(kernels, 0);
    ASSERT_GE(copies, 0);
    EXPECT_NE(kernels, copies);
    EXPECT_EQ(pages->tabText(kernels), "Kernels");
    EXPECT_EQ(pages->tabText(copies), "Copies");
    // The kernel page shows every one of its three rows.
    pages->setCurrentIndex(kernels);
    QCoreApplication::processEvents();
    const int rowHeight = view.kernelTable()->verticalHeader()->defaultSectionSize();
    EXPECT_GE(view.kernelTable()->viewport()->height(), 3 * rowHeight);
}

}  // namespace
}  // namespace wl::ui
