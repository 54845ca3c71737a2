#include "ui/analysis/StatisticsView.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "analysis/Format.h"
#include "ui/analysis/RowStatisticsModel.h"
#include "ui/analysis/SelectionSummaryView.h"
#include "ui/analysis/StatisticsModel.h"

namespace wl::ui {

namespace {

QTableView* makeTable(QWidget* parent, QSortFilterProxyModel* proxy, const QString& name) {
    auto* table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    return table;
}

}  // namespace

StatisticsView::StatisticsView(QWidget* parent) : QWidget(parent) {
    m_kernels = new StatisticsModel(StatisticsModel::Table::Kernels, this);
    m_copies = new StatisticsModel(StatisticsModel::Table::Copies, this);
    m_kernelProxy = new QSortFilterProxyModel(this);
    m_kernelProxy->setSourceModel(m_kernels);
    m_kernelProxy->setSortRole(StatisticsModel::kSortRole);
    m_copyProxy = new QSortFilterProxyModel(this);
    m_copyProxy->setSourceModel(m_copies);
    m_copyProxy->setSortRole(StatisticsModel::kSortRole);

    // Kernels and copies each a page of their own (sharing one, a short dock showed a row of
    // each); the rows of the window (the area-selection summary) have theirs, which a time
    // selection brings forward.
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("statisticsPages"));
    // Its pages' tables scroll: their stacked minimum heights (a tab bar in a tab page) must not
    // hold the bottom docks at 250 px when the window is 700 px high.
    m_pages->setMinimumHeight(4 * fontMetrics().height() + 30);
    m_pages->setDocumentMode(true);
    m_kernelTable = makeTable(m_pages, m_kernelProxy, QStringLiteral("kernelStatistics"));
    m_copyTable = makeTable(m_pages, m_copyProxy, QStringLiteral("copyStatistics"));
    m_rows = new RowStatisticsModel(this);
    m_rowProxy = new QSortFilterProxyModel(this);
    m_rowProxy->setSourceModel(m_rows);
    m_rowProxy->setSortRole(RowStatisticsModel::kSortRole);
    m_rowTable = makeTable(m_pages, m_rowProxy, QStringLiteral("rowStatistics"));
    m_rowTable->setTextElideMode(Qt::ElideMiddle);
    m_rowTable->setWordWrap(false);
    m_rowTable->sortByColumn(RowStatisticsModel::kBusy, Qt::DescendingOrder);
    m_pages->addTab(m_kernelTable, tr("Kernels"));
    m_pages->addTab(m_copyTable, tr("Copies"));
    m_pages->addTab(m_rowTable, tr("Rows"));
    m_summary = new SelectionSummaryView(m_pages);
    // "By name", apart from the window's Summary tab.
    m_pages->addTab(m_summary, tr("By name"));
    connect(m_summary, &SelectionSummaryView::summaryActivated, this,
            &StatisticsView::summaryActivated);
    // The window's totals above both pages: what the GPU and the host did in it.
    m_rowTotals = new QLabel(this);
    m_rowTotals->setObjectName(QStringLiteral("rowTotals"));
    m_rowTotals->setWordWrap(true);
    m_rowTotals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures = new QLabel(this);
    m_figures->setObjectName(QStringLiteral("statisticsFigures"));
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rowTotals);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_figures);
    // Longest kernels first, as nsys stats lists them.
    m_kernelTable->sortByColumn(StatisticsModel::kTotal, Qt::DescendingOrder);
    // The name is shown first, at a third of the width (with median, p95 and std-dev the numbers
    // no longer leave a narrow dock room for it at the end); what does not fit is cut in the
    // middle, so the start (namespace, library prefix) and the end (tile sizes, layout) both
    // stay readable. The numbers follow, and scroll.
    m_kernelTable->setTextElideMode(Qt::ElideMiddle);
    m_kernelTable->setWordWrap(false);
    m_kernelTable->horizontalHeader()->moveSection(StatisticsModel::kName, 0);
    m_kernelTable->setColumnWidth(StatisticsModel::kName, 200);
    // The launch configuration is the Summary's (Kernels): a dock this narrow keeps the timings.
    for (int c = 0; c < StatisticsModel::kKernelColumns; ++c) {
        m_kernelTable->setColumnHidden(c, StatisticsModel::isLaunchColumn(c));
    }
    connect(m_kernelTable, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_kernelProxy->mapToSource(index);
        if (const analysis::KernelStats* k = m_kernels->kernelAt(source.row())) {
            emit kernelActivated(k->nameId);
        }
    });
}

QString StatisticsView::figuresText(const analysis::Statistics& s) {
    auto q = [](const std::string& text) { return QString::fromStdString(text); };
    QStringList lines;
    if (const analysis::DeviceConcurrency& c = s.devicesAtOnce; c.devices >= 2) {
        QStringList shares;
        for (std::size_t k = c.nsWithBusy.size(); k-- > 0;)
            shares << tr("%1: %2").arg(k).arg(q(analysis::formatPercent(c.pctWithBusy(k))));
        lines << tr("GPUs busy at once: %1 of the window (%2 on average)")
                     .arg(shares.join(QStringLiteral(", ")))
                     .arg(c.meanBusyDevices(), 0, 'f', 2);
    }
    for (const auto& l : s.launchQueues) {
        lines << tr("Launch queue of GPU %1: up to %2 ops, %3 on average, empty %4 of the window")
                     .arg(l.deviceId)
                     .arg(l.maxDepth, 0, 'f', 0)
                     .arg(l.meanDepth, 0, 'f', 1)
                     .arg(q(analysis::formatPercent(l.emptyPct)));
    }
    for (const auto& g : s.graphs) {
        lines << tr("CUDA graph %1: %2 launches of %3 nodes, %4 each on average, %5 of GPU time")
                     .arg(g.graphId)
                     .arg(g.launches)
                     .arg(g.nodesPerLaunch(), 0, 'g', 3)
                     .arg(q(analysis::formatDuration(
                         static_cast<model::TimeNs>(g.meanLaunchSpanNs()))))
                     .arg(q(analysis::formatDuration(g.gpuNs)));
    }
    for (const auto& m : s.memory) {
        const QString inUse =
            tr("in use %1 at most, %2 at the end")
                .arg(q(analysis::formatBytes(static_cast<std::uint64_t>(m.peakInUseBytes))))
                .arg(q(analysis::formatBytes(static_cast<std::uint64_t>(m.inUseAtEndBytes))));
        lines << (m.operationsRecorded
                      ? tr("Device memory of GPU %1: %2 allocations, %3 releases; %4")
                            .arg(m.deviceId)
                            .arg(m.allocations)
                            .arg(m.releases)
                            .arg(inUse)
                      : tr("Device memory of GPU %1: %2").arg(m.deviceId).arg(inUse));
    }
    return lines.join(QLatin1Char('\n'));
}

void StatisticsView::setStatistics(const analysis::Statistics& statistics, model::TracePtr trace) {
    m_kernels->setStatistics(statistics);
    m_copies->setStatistics(statistics);
    m_summary->setSummary(trace, statistics.slices, statistics.topDown);
    m_rows->setSummary(std::move(trace), statistics.rows,
                       static_cast<std::size_t>(statistics.devicesAtOnce.devices));
    m_rowTotals->setText(m_rows->totalsText());
    // The names first and readable (a narrow dock scrolls sideways to the numbers).
    for (int c = 0; c < RowStatisticsModel::kColumns; ++c) {
        m_rowTable->resizeColumnToContents(c);
    }
    m_rowTable->setColumnWidth(RowStatisticsModel::kRow,
                               std::min(m_rowTable->columnWidth(RowStatisticsModel::kRow), 260));
    const QString figures = figuresText(statistics);
    m_figures->setText(figures);
    m_figures->setVisible(!figures.isEmpty());
    for (int c = 0; c < StatisticsModel::kName; ++c) {
        m_kernelTable->resizeColumnToContents(c);
    }
}

void StatisticsView::showRows() {
    m_pages->setCurrentWidget(m_rowTable);
}

void StatisticsView::setFullKernelNames(bool full) {
    m_kernels->setFullKernelNames(full);
}

void StatisticsView::clear() {
    m_kernels->clear();
    m_copies->clear();
    m_rows->clear();
    m_summary->clear();
    m_rowTotals->clear();
    m_figures->clear();
    m_figures->setVisible(false);
}

}  // namespace wl::ui
