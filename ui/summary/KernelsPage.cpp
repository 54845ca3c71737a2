#include "ui/summary/KernelsPage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "analysis/Summary.h"
#include "ui/analysis/StatisticsModel.h"
#include "ui/charts/BarChart.h"
#include "ui/summary/SummaryCharts.h"

namespace wl::ui::summary {

KernelsPage::KernelsPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(splitter);

    m_model = new StatisticsModel(StatisticsModel::Table::Kernels, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StatisticsModel::kSortRole);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("summaryKernelTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(StatisticsModel::kTotal, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The name first here: with the launch columns the table is wider than its pane, and the
    // name is what a row is read by.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(StatisticsModel::kName,
                                                      QHeaderView::Interactive);
    m_table->horizontalHeader()->moveSection(StatisticsModel::kName, 0);
    m_table->setColumnWidth(StatisticsModel::kName, 260);
    splitter->addWidget(m_table);

    auto* charts = new QWidget(splitter);
    auto* cl = new QVBoxLayout(charts);
    cl->setContentsMargins(0, 0, 0, 0);
    auto* topArea = new QScrollArea(charts);
    topArea->setWidgetResizable(true);
    topArea->setFrameShape(QFrame::NoFrame);
    topArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_top = new charts::BarChart(topArea);
    m_top->setObjectName(QStringLiteral("summaryTopKernels"));
    m_top->setFileBaseName(QStringLiteral("kernels"));
    topArea->setWidget(m_top);
    cl->addWidget(topArea, 3);
    m_histogram = new charts::BarChart(charts);
    m_histogram->setObjectName(QStringLiteral("summaryKernelHistogram"));
    m_histogram->setFileBaseName(QStringLiteral("kernel-durations"));
    cl->addWidget(m_histogram, 2);
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { showHistogram(m_proxy->mapToSource(current).row()); });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { activate(m_proxy->mapToSource(index).row()); });
    connect(m_top, &charts::BarChart::barClicked, this, [this](int category, int) {
        selectKernel(category);  // the chart lists the model's rows in order
        activate(category);
    });
}

void KernelsPage::setAnalysis(model::TracePtr trace,
                              std::shared_ptr<const analysis::AnalysisResult> result) {
    m_trace = std::move(trace);
    m_result = std::move(result);
    if (!m_trace || !m_result) {
        clear();
        return;
    }
    m_model->setStatistics(m_result->statistics);
    m_top->setSpec(topKernelsChart(m_result->statistics, kTopKernels));
    selectKernel(0);
}

void KernelsPage::clear() {
    m_trace.reset();
    m_result.reset();
    m_model->clear();
    m_top->setSpec({});
    m_histogram->setSpec({});
}

void KernelsPage::selectKernel(int row) {
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(row, 0));
    if (shown.isValid()) {
        m_table->setCurrentIndex(shown);  // shows its histogram
    } else {
        m_histogram->setSpec({});
    }
}

void KernelsPage::showHistogram(int modelRow) {
    const analysis::KernelStats* k = m_model->kernelAt(modelRow);
    if (k == nullptr || !m_trace || !m_result) {
        m_histogram->setSpec({});
        return;
    }
    // One pass over the launches of one name: quick enough for the GUI thread even on a trace
    // of a million kernels (a few milliseconds).
    const analysis::DurationHistogram h =
        analysis::kernelDurationHistogram(*m_trace, k->nameId, m_result->window(), kHistogramBins);
    m_histogram->setSpec(durationHistogramChart(h, QString::fromStdString(k->shortName)));
}

void KernelsPage::activate(int modelRow) {
    const analysis::KernelStats* k = m_model->kernelAt(modelRow);
    if (k == nullptr || !m_trace || !m_result) {
        return;
    }
    emit slicesActivated(analysis::kernelLaunches(*m_trace, k->nameId, m_result->window().parts));
}

}  // namespace wl::ui::summary
