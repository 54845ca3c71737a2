#include "ui/summary/OperatorsPage.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "analysis/Window.h"
#include "ui/charts/BarChart.h"
#include "ui/summary/OperatorTableModel.h"
#include "ui/summary/SummaryCharts.h"

namespace wl::ui::summary {

OperatorsPage::OperatorsPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout();
    m_byShapes = new QCheckBox(tr("Group by input shapes"), this);
    m_byShapes->setObjectName(QStringLiteral("summaryOperatorShapes"));
    top->addWidget(m_byShapes);
    m_empty = new QLabel(this);
    m_empty->setWordWrap(true);
    top->addWidget(m_empty, 1);
    layout->addLayout(top);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_model = new OperatorTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OperatorTableModel::kSortRole);
    m_table = new QTableView(splitter);
    m_table->setObjectName(QStringLiteral("summaryOperatorTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OperatorTableModel::cHostTotal, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setDefaultSectionSize(84);
    m_table->setColumnWidth(OperatorTableModel::cName, 240);
    m_table->setColumnWidth(OperatorTableModel::cShapes, 160);
    splitter->addWidget(m_table);
    auto* chartArea = new QScrollArea(splitter);
    chartArea->setWidgetResizable(true);
    chartArea->setFrameShape(QFrame::NoFrame);
    chartArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chart = new charts::BarChart(chartArea);
    m_chart->setObjectName(QStringLiteral("summaryOperatorChart"));
    m_chart->setFileBaseName(QStringLiteral("operators"));
    chartArea->setWidget(m_chart);
    splitter->addWidget(chartArea);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    connect(m_byShapes, &QCheckBox::toggled, this, &OperatorsPage::setGroupByShapes);
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { activate(m_proxy->mapToSource(index).row()); });
}

void OperatorsPage::setAnalysis(model::TracePtr trace,
                                std::shared_ptr<const analysis::Summary> summary,
                                std::vector<model::TimeRange> windowParts) {
    m_trace = std::move(trace);
    m_summary = std::move(summary);
    m_parts = std::move(windowParts);
    if (!m_summary) {
        clear();
        return;
    }
    const analysis::OperatorTable& ops = m_summary->operators;
    m_byShapes->setEnabled(!ops.byNameAndShapes.empty());
    m_byShapes->setToolTip(ops.byNameAndShapes.empty()
                               ? tr("The trace records no input shapes (the PyTorch profiler's "
                                    "record_shapes=True does)")
                               : QString());
    m_empty->setText(ops.byName.empty()
                         ? tr("No CPU operators or NVTX ranges in the window.")
                         : (ops.nvtxRanges ? tr("No framework operators in the trace: its NVTX "
                                                "ranges stand for them.")
                                           : QString()));
    setGroupByShapes(m_byShapes->isChecked());
    m_chart->setSpec(topOperatorsChart(ops, kTopOperators));
}

void OperatorsPage::setGroupByShapes(bool byShapes) {
    if (m_byShapes->isChecked() != byShapes) {
        m_byShapes->setChecked(byShapes);  // comes back here
        return;
    }
    if (m_summary) {
        m_model->setOperators(m_summary->operators, byShapes);
    }
    m_table->setColumnHidden(OperatorTableModel::cShapes, !m_model->byShapes());
}

void OperatorsPage::clear() {
    m_trace.reset();
    m_summary.reset();
    m_model->clear();
    m_chart->setSpec({});
    m_empty->clear();
}

void OperatorsPage::activate(int modelRow) {
    const analysis::OperatorStats* op = m_model->operatorAt(modelRow);
    if (op == nullptr || !m_trace) {
        return;
    }
    // Its calls in the window: the CPU operators, else the NVTX ranges, of its name.
    const model::SliceKind kind =
        m_summary->operators.nvtxRanges ? model::SliceKind::Nvtx : model::SliceKind::CpuOp;
    std::vector<model::SliceRef> refs;
    const auto tracks = m_trace->tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const auto& slices = tracks[t].slices;
        for (std::size_t i = 0; i < slices.size(); ++i) {
            const model::Slice& s = slices[i];
            if (s.kind == kind && analysis::overlapsParts(m_parts, s.startNs, s.endNs()) &&
                m_trace->str(s.nameId) == op->name) {
                refs.push_back({model::TrackIndex(t), std::uint32_t(i)});
            }
        }
    }
    emit slicesActivated(std::move(refs));
}

}  // namespace wl::ui::summary
