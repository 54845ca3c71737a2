#include "ui/analysis/DiagnosticsPanel.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

#include "analysis/Format.h"
#include "ui/common/BreakableText.h"

namespace wl::ui {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* top = new QHBoxLayout;
    m_summary = new QLabel(tr("No trace"), this);
    m_summary->setObjectName(QStringLiteral("diagnosticsSummary"));
    // Wrapped rather than widening the window or cut ("capture range (405.45 m" at 1024 px).
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    top->addWidget(m_summary, 1);
    top->addWidget(new QLabel(tr("Gap threshold:"), this), 0, Qt::AlignTop);
    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setObjectName(QStringLiteral("gapThreshold"));
    m_threshold->setRange(0.1, 10'000'000.0);
    m_threshold->setDecimals(1);
    m_threshold->setSuffix(QStringLiteral(" µs"));
    m_threshold->setValue(static_cast<double>(analysis::AnalysisOptions{}.gapThresholdNs) / 1e3);
    m_threshold->setKeyboardTracking(false);
    m_threshold->setToolTip(tr("Idle gaps shorter than this are not listed or diagnosed"));
    top->addWidget(m_threshold, 0, Qt::AlignTop);
    layout->addLayout(top);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("diagnosticsList"));
    m_list->setWordWrap(true);
    m_list->setAlternatingRowColors(true);
    layout->addWidget(m_list, 1);

    m_fix = new QLabel(this);
    m_fix->setObjectName(QStringLiteral("diagnosticsFix"));
    m_fix->setWordWrap(true);
    m_fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_fix);

    connect(m_list, &QListWidget::currentRowChanged, this, &DiagnosticsPanel::showFix);
    connect(m_list, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { activate(m_list->row(item)); });
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { activate(m_list->row(item)); });
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this](double us) {
        if (!m_settingThreshold) {
            emit gapThresholdChanged(static_cast<model::TimeNs>(us * 1e3 + 0.5));
        }
    });
}

DiagnosticsPanel::~DiagnosticsPanel() = default;

void DiagnosticsPanel::setAnalysis(model::TracePtr trace,
                                   std::shared_ptr<const analysis::AnalysisResult> result) {
    m_trace = std::move(trace);
    m_result = m_trace ? std::move(result) : nullptr;
    m_list->clear();
    m_fix->clear();
    if (!m_result) {
        m_summary->setText(tr("No trace"));
        return;
    }
    setGapThresholdUs(static_cast<double>(m_result->options.gapThresholdNs) / 1e3);
    for (const analysis::Diagnostic& d : m_result->diagnostics) {
        const QString rule = QString::fromLatin1(analysis::toString(d.rule));
        // Break opportunities in long names (a DataLoader range, a kernel's signature): one
        // unbreakable word would widen every item past the list and cut each line at its edge.
        auto* item =
            new QListWidgetItem(breakable(QStringLiteral("[%1] %2").arg(rule, qs(d.message))));
        item->setToolTip(qs(d.fix));
        item->setData(Qt::UserRole, rule);
        item->setIcon(style()->standardIcon(d.severity == analysis::Severity::Warning
                                                ? QStyle::SP_MessageBoxWarning
                                                : QStyle::SP_MessageBoxInformation));
        m_list->addItem(item);
    }
    // The window first: every figure and finding below describes it.
    const QString window = qs(analysis::describeWindow(m_result->window()));
    const analysis::GpuBusy figures = m_result->gpuBusy();
    QString busy = qs(analysis::formatPercent(figures.meanPct()));
    if (figures.gpus > 1)  // which of the two figures it is
        busy += QStringLiteral(" (%1)").arg(qs(analysis::meanOverGpusLabel(figures)));
    QString summary = m_result->utilization.spanNs <= 0
                          ? tr("%1: no GPU work to analyse").arg(window)
                      : m_result->diagnostics.empty()
                          ? tr("%1: GPU busy %2 — nothing to report").arg(window, busy)
                          : tr("%1: GPU busy %2 — %n finding(s)", nullptr,
                               static_cast<int>(m_result->diagnostics.size()))
                                .arg(window, busy);
    // A selection of some of a device's streams: what it leaves out, under the summary.
    if (const std::string coverage = analysis::describeCoverage(*m_result); !coverage.empty())
        summary += QLatin1Char('\n') + qs(coverage);
    m_summary->setText(summary);
    m_summary->setToolTip(
        tr("Right-click an NVTX range or drag on the ruler to analyse another "
           "window; click the ruler to go back to the default one."));
}

QString DiagnosticsPanel::summaryText() const {
    return m_summary->text();
}

int DiagnosticsPanel::entryCount() const {
    return m_list->count();
}

void DiagnosticsPanel::activate(int row) {
    if (!m_result || row < 0 || row >= static_cast<int>(m_result->diagnostics.size())) {
        return;
    }
    if (m_list->currentRow() != row) {
        m_list->setCurrentRow(row);
    }
    const analysis::Diagnostic& d = m_result->diagnostics[static_cast<std::size_t>(row)];
    // Evidence when there is some (select + zoom to it), else the time range to look at.
    if (!d.evidence.empty()) {
        emit evidenceActivated(d.evidence);
    } else if (d.endNs > d.startNs) {
        emit rangeActivated(d.startNs, d.endNs);
    }
}

QString DiagnosticsPanel::fixText() const {
    return m_fix->text();
}

double DiagnosticsPanel::gapThresholdUs() const {
    return m_threshold->value();
}

void DiagnosticsPanel::setGapThresholdUs(double us) {
    m_settingThreshold = true;
    m_threshold->setValue(us);
    m_settingThreshold = false;
}

void DiagnosticsPanel::showFix(int row) {
    if (!m_result || row < 0 || row >= static_cast<int>(m_result->diagnostics.size())) {
        m_fix->clear();
        return;
    }
    const analysis::Diagnostic& d = m_result->diagnostics[static_cast<std::size_t>(row)];
    m_fix->setText(tr("Fix: %1").arg(qs(d.fix)));
}

}  // namespace wl::ui
