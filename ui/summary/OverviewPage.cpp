#include "ui/summary/OverviewPage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "ui/charts/BarChart.h"
#include "ui/charts/LineChart.h"
#include "ui/summary/SummaryCharts.h"

namespace wl::ui::summary {

OverviewPage::OverviewPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_breakdown = new QLabel(this);
    m_breakdown->setObjectName(QStringLiteral("summaryBreakdown"));
    m_breakdown->setWordWrap(true);
    m_breakdown->setTextFormat(Qt::RichText);
    m_breakdown->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_breakdown);

    // The charts above, the findings below; on a short window the findings scroll.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    auto* chartRow = new QWidget(split);
    auto* charts = new QHBoxLayout(chartRow);
    charts->setContentsMargins(0, 0, 0, 0);
    // Many iterations scroll sideways rather than squeeze their bars to nothing.
    m_iterationsArea = new QScrollArea(this);
    m_iterationsArea->setWidgetResizable(true);
    m_iterationsArea->setFrameShape(QFrame::NoFrame);
    m_iterationsArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_iterations = new charts::BarChart(m_iterationsArea);
    m_iterations->setObjectName(QStringLiteral("summaryIterations"));
    m_iterations->setFileBaseName(QStringLiteral("iterations"));
    m_iterationsArea->setWidget(m_iterations);
    charts->addWidget(m_iterationsArea, 3);
    m_utilization = new charts::LineChart(this);
    m_utilization->setObjectName(QStringLiteral("summaryUtilization"));
    m_utilization->setFileBaseName(QStringLiteral("gpu-utilisation"));
    charts->addWidget(m_utilization, 2);
    split->addWidget(chartRow);

    auto* findingsArea = new QScrollArea(split);
    findingsArea->setWidgetResizable(true);
    findingsArea->setFrameShape(QFrame::NoFrame);
    m_findings = new QLabel(findingsArea);
    m_findings->setObjectName(QStringLiteral("summaryFindings"));
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_findings->setMinimumHeight(m_findings->fontMetrics().height() * 2);
    findingsArea->setWidget(m_findings);
    split->addWidget(findingsArea);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    connect(m_iterations, &charts::BarChart::barClicked, this, [this](int category, int) {
        if (category >= 0 && std::size_t(category) < m_ranges.size()) {
            emit rangeActivated(m_ranges[std::size_t(category)]);
        }
    });
    connect(m_utilization, &charts::LineChart::clicked, this, [this](double xMs) {
        if (m_binNs <= 0) {
            return;
        }
        // The bin the point stands for (drawn at its middle).
        const auto ns = static_cast<model::TimeNs>(std::llround(xMs * 1e6));
        const model::TimeNs start = ns - m_binNs / 2;
        emit rangeActivated({start, start + m_binNs});
    });
}

void OverviewPage::setAnalysis(const analysis::AnalysisResult& result,
                               const analysis::Summary& summary) {
    m_ranges.clear();
    for (const analysis::IterationBreakdown& it : summary.iterations) {
        m_ranges.push_back(it.range);
    }
    m_binNs = summary.utilization.binNs;
    m_breakdown->setText(iterationBreakdownHtml(summary));
    m_plainBreakdown = iterationBreakdownText(summary);
    m_iterations->setSpec(summary::iterationChart(summary));
    m_iterations->setMinimumWidth(std::max(320, int(summary.iterations.size()) * kBarPx));
    m_utilization->setSpec(summary::utilizationChart(summary));

    QStringList lines;
    int shown = 0;
    for (const analysis::Diagnostic& d : result.diagnostics) {
        if (shown == kFindings) {
            break;
        }
        ++shown;
        lines << QStringLiteral("<b>%1</b> %2<br><i>%3</i>")
                     .arg(d.severity == analysis::Severity::Warning ? tr("Warning:") : tr("Note:"),
                          QString::fromStdString(d.message).toHtmlEscaped(),
                          QString::fromStdString(d.fix).toHtmlEscaped());
    }
    m_findings->setText(lines.isEmpty() ? tr("No findings in this window.")
                                        : lines.join(QStringLiteral("<br>")));
}

void OverviewPage::clear() {
    m_ranges.clear();
    m_binNs = 0;
    m_breakdown->clear();
    m_plainBreakdown.clear();
    m_iterations->setSpec({});
    m_utilization->setSpec({});
    m_findings->clear();
}

QString OverviewPage::breakdownText() const {
    return m_plainBreakdown;
}

QString OverviewPage::findingsText() const {
    return m_findings->text();
}

}  // namespace wl::ui::summary
