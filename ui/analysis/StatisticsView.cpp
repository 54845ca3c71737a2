#include "ui/analysis/StatisticsView.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

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

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_kernelTable = makeTable(splitter, m_kernelProxy, QStringLiteral("kernelStatistics"));
    m_copyTable = makeTable(splitter, m_copyProxy, QStringLiteral("copyStatistics"));
    splitter->addWidget(m_kernelTable);
    splitter->addWidget(m_copyTable);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    // Longest kernels first, as nsys stats lists them.
    m_kernelTable->sortByColumn(StatisticsModel::kTotal, Qt::DescendingOrder);
    // The name is the last, stretched column; what does not fit is cut in the middle, so the
    // start (namespace, library prefix) and the end (tile sizes, layout) both stay readable.
    m_kernelTable->setTextElideMode(Qt::ElideMiddle);
    m_kernelTable->setWordWrap(false);
    connect(m_kernelTable, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_kernelProxy->mapToSource(index);
        if (const analysis::KernelStats* k = m_kernels->kernelAt(source.row())) {
            emit kernelActivated(k->nameId);
        }
    });
}

void StatisticsView::setStatistics(const analysis::Statistics& statistics) {
    m_kernels->setStatistics(statistics);
    m_copies->setStatistics(statistics);
    for (int c = 0; c < StatisticsModel::kName; ++c) {
        m_kernelTable->resizeColumnToContents(c);
    }
}

void StatisticsView::setFullKernelNames(bool full) {
    m_kernels->setFullKernelNames(full);
}

void StatisticsView::clear() {
    m_kernels->clear();
    m_copies->clear();
}

}  // namespace wl::ui
