#include "ui/analysis/SelectionSummaryView.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/analysis/SliceSummaryModel.h"
#include "ui/analysis/TopDownModel.h"
#include "ui/common/Units.h"

namespace wl::ui {

namespace {

QSortFilterProxyModel* sortingProxy(QAbstractItemModel* source, int sortRole, QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(sortRole);
    return proxy;
}

// Names are cut in the middle, where C++ names and framework op names differ least.
void setUpView(QAbstractItemView* view, QAbstractItemModel* model, const QString& name) {
    view->setObjectName(name);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setTextElideMode(Qt::ElideMiddle);
}

}  // namespace

SelectionSummaryView::SelectionSummaryView(QWidget* parent) : QWidget(parent) {
    m_slices = new SliceSummaryModel(this);
    m_tree = new TopDownModel(this);
    m_sliceProxy = sortingProxy(m_slices, SliceSummaryModel::kSortRole, this);
    m_treeProxy = sortingProxy(m_tree, TopDownModel::kSortRole, this);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("selectionSummaryTabs"));
    m_tabs->setDocumentMode(true);

    m_sliceTable = new QTableView(m_tabs);
    setUpView(m_sliceTable, m_sliceProxy, QStringLiteral("sliceSummary"));
    m_sliceTable->setSortingEnabled(true);
    m_sliceTable->setWordWrap(false);
    m_sliceTable->verticalHeader()->setVisible(false);
    m_sliceTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // The most time first, as a summary of where it went.
    m_sliceTable->sortByColumn(SliceSummaryModel::kTotal, Qt::DescendingOrder);

    auto* treePage = new QWidget(m_tabs);
    m_treeView = new QTreeView(treePage);
    setUpView(m_treeView, m_treeProxy, QStringLiteral("topDown"));
    m_treeView->setSortingEnabled(true);
    m_treeView->setUniformRowHeights(true);
    m_treeView->sortByColumn(TopDownModel::kHost, Qt::DescendingOrder);
    m_outside = new QLabel(treePage);
    m_outside->setObjectName(QStringLiteral("topDownOutside"));
    m_outside->setWordWrap(true);
    m_outside->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* treeLayout = new QVBoxLayout(treePage);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    treeLayout->addWidget(m_treeView, 1);
    treeLayout->addWidget(m_outside);

    m_tabs->addTab(m_sliceTable, tr("Slices"));
    m_tabs->addTab(treePage, tr("Top-down"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_sliceTable, &QTableView::clicked, this, &SelectionSummaryView::activateSlice);
    connect(m_sliceTable, &QTableView::activated, this, &SelectionSummaryView::activateSlice);
    connect(m_treeView, &QTreeView::clicked, this, &SelectionSummaryView::activateNode);
    connect(m_treeView, &QTreeView::activated, this, &SelectionSummaryView::activateNode);
}

void SelectionSummaryView::setSummary(model::TracePtr trace, const analysis::SliceSummary& slices,
                                      const analysis::TopDown& tree) {
    m_slices->setSummary(trace, slices);
    m_tree->setTree(trace, tree);
    const analysis::TopDown& shown = m_tree->tree();
    m_outside->setText(
        shown.gpuOps > 0
            ? tr("GPU time launched in the window: %1 (%2 ops), of it outside every range: %3")
                  .arg(units::duration(shown.gpuNs))
                  .arg(units::grouped(static_cast<std::int64_t>(shown.gpuOps)))
                  .arg(units::duration(shown.outsideGpuNs))
            : QString());
    m_outside->setVisible(!m_outside->text().isEmpty());
    for (int c = 0; c < SliceSummaryModel::kColumns; ++c)
        m_sliceTable->resizeColumnToContents(c);
    m_sliceTable->setColumnWidth(
        SliceSummaryModel::kName,
        std::min(m_sliceTable->columnWidth(SliceSummaryModel::kName), 320));
    m_treeView->expandToDepth(0);
    m_treeView->resizeColumnToContents(TopDownModel::kName);
    m_treeView->setColumnWidth(TopDownModel::kName,
                               std::min(m_treeView->columnWidth(TopDownModel::kName), 360));
}

void SelectionSummaryView::clear() {
    setSummary(nullptr, {}, {});
}

void SelectionSummaryView::activateSlice(const QModelIndex& proxyIndex) {
    if (const analysis::SliceStats* line =
            m_slices->lineAt(m_sliceProxy->mapToSource(proxyIndex).row())) {
        emit summaryActivated(line->kind, line->nameId);
    }
}

void SelectionSummaryView::activateNode(const QModelIndex& proxyIndex) {
    if (const analysis::TopDownNode* node = m_tree->nodeAt(m_treeProxy->mapToSource(proxyIndex)))
        emit summaryActivated(node->kind, node->nameId);
}

}  // namespace wl::ui
