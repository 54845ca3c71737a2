#include "ui/summary/RanksPage.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "analysis/Format.h"
#include "ui/charts/BarChart.h"
#include "ui/summary/SummaryCharts.h"

namespace wl::ui::summary {

namespace {

QTableWidgetItem* item(const QString& text, bool number) {
    auto* cell = new QTableWidgetItem(text);
    cell->setTextAlignment(number ? (Qt::AlignRight | Qt::AlignVCenter)
                                  : (Qt::AlignLeft | Qt::AlignVCenter));
    return cell;
}

QString duration(model::TimeNs ns) {
    return QString::fromStdString(analysis::formatDuration(ns));
}

}  // namespace

RanksPage::RanksPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* chartArea = new QScrollArea(splitter);
    chartArea->setWidgetResizable(true);
    chartArea->setFrameShape(QFrame::NoFrame);
    chartArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chart = new charts::BarChart(chartArea);
    m_chart->setObjectName(QStringLiteral("summaryRanks"));
    m_chart->setFileBaseName(QStringLiteral("ranks"));
    chartArea->setWidget(m_chart);
    splitter->addWidget(chartArea);
    auto* right = new QWidget(splitter);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    m_caption = new QLabel(right);
    m_caption->setWordWrap(true);
    rl->addWidget(m_caption);
    m_collectives = new QTableWidget(right);
    m_collectives->setObjectName(QStringLiteral("summarySlowCollectives"));
    m_collectives->setColumnCount(5);
    m_collectives->setHorizontalHeaderLabels({tr("Collective"), tr("Communicator"), tr("Last rank"),
                                              tr("Late by"), tr("Others waited")});
    m_collectives->verticalHeader()->hide();
    m_collectives->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_collectives->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_collectives->horizontalHeader()->setStretchLastSection(true);
    rl->addWidget(m_collectives, 1);
    splitter->addWidget(right);
    layout->addWidget(splitter, 1);

    connect(m_collectives, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (!m_ranks || row < 0 || std::size_t(row) >= m_shown.size()) {
            return;
        }
        std::vector<model::SliceRef> kernels;
        for (const analysis::CollectiveArrival& a :
             m_ranks->collectives.collectives[m_shown[std::size_t(row)]].arrivals) {
            kernels.push_back(a.kernel);
        }
        emit slicesActivated(std::move(kernels));
    });
}

void RanksPage::clear() {
    m_ranks.reset();
    m_shown.clear();
    m_chart->setSpec({});
    m_collectives->setRowCount(0);
    m_caption->clear();
}

void RanksPage::setAnalysis(std::shared_ptr<const analysis::Summary> summary,
                            std::shared_ptr<const analysis::RankStats> ranks) {
    clear();
    if (!summary) {
        return;
    }
    m_ranks = std::move(ranks);
    m_chart->setSpec(rankChart(summary->ranks));
    if (!m_ranks) {
        return;
    }
    const analysis::CollectiveStats& c = m_ranks->collectives;
    m_shown = c.costliest(kSlowest);
    m_caption->setText(m_shown.empty()
                           ? tr("No collective kept a rank waiting in this window.")
                           : tr("The collectives that kept the ranks waiting longest (double-click "
                                "for their kernels):"));
    m_collectives->setRowCount(int(m_shown.size()));
    for (std::size_t r = 0; r < m_shown.size(); ++r) {
        const analysis::MatchedCollective& m = c.collectives[m_shown[r]];
        const int row = int(r);
        m_collectives->setItem(
            row, 0,
            item(QStringLiteral("%1 #%2").arg(QString::fromStdString(m.name)).arg(m.sequence),
                 false));
        m_collectives->setItem(
            row, 1, item(QString::fromStdString(c.communicators[m.communicator].name), false));
        m_collectives->setItem(row, 2, item(QString::number(c.ranks[m.lastArrival().rank]), true));
        m_collectives->setItem(row, 3, item(duration(m.latenessNs), true));
        m_collectives->setItem(row, 4, item(duration(m.totalWaitNs), true));
    }
    m_collectives->resizeColumnsToContents();
}

}  // namespace wl::ui::summary
