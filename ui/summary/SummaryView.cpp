#include "ui/summary/SummaryView.h"

#include "ui/summary/KernelsPage.h"
#include "ui/summary/MemoryPage.h"
#include "ui/summary/OperatorsPage.h"
#include "ui/summary/OverviewPage.h"
#include "ui/summary/RanksPage.h"

namespace wl::ui::summary {

SummaryView::SummaryView(QWidget* parent) : QTabWidget(parent) {
    setObjectName(QStringLiteral("summaryView"));
    setDocumentMode(true);
    m_overview = new OverviewPage(this);
    m_kernels = new KernelsPage(this);
    m_operators = new OperatorsPage(this);
    m_memory = new MemoryPage(this);
    m_ranks = new RanksPage(this);
    addTab(m_overview, tr("Overview"));
    addTab(m_kernels, tr("Kernels"));
    addTab(m_operators, tr("Operators"));
    addTab(m_memory, tr("Memory"));
    m_ranksTab = addTab(m_ranks, tr("Ranks"));
    setTabVisible(m_ranksTab, false);

    connect(m_overview, &OverviewPage::rangeActivated, this, &SummaryView::rangeActivated);
    connect(m_memory, &MemoryPage::rangeActivated, this, &SummaryView::rangeActivated);
    connect(m_kernels, &KernelsPage::slicesActivated, this, &SummaryView::slicesActivated);
    connect(m_operators, &OperatorsPage::slicesActivated, this, &SummaryView::slicesActivated);
    connect(m_memory, &MemoryPage::slicesActivated, this, &SummaryView::slicesActivated);
    connect(m_ranks, &RanksPage::slicesActivated, this, &SummaryView::slicesActivated);
}

void SummaryView::setAnalysis(model::TracePtr trace,
                              std::shared_ptr<const analysis::AnalysisResult> result,
                              std::shared_ptr<const analysis::Summary> summary,
                              std::shared_ptr<const analysis::RankStats> ranks) {
    if (!trace || !result || !summary) {
        clear();
        return;
    }
    m_summary = summary;
    m_overview->setAnalysis(*result, *summary);
    m_kernels->setAnalysis(trace, result);
    m_operators->setAnalysis(trace, summary, result->window().parts);
    m_memory->setAnalysis(trace, summary);
    const bool job = !summary->ranks.empty();
    m_ranks->setAnalysis(summary, job ? std::move(ranks) : nullptr);
    setTabVisible(m_ranksTab, job);
}

void SummaryView::clear() {
    m_summary.reset();
    m_overview->clear();
    m_kernels->clear();
    m_operators->clear();
    m_memory->clear();
    m_ranks->clear();
    setTabVisible(m_ranksTab, false);
}

}  // namespace wl::ui::summary
