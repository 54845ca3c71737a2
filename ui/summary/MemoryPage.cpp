#include "ui/summary/MemoryPage.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

#include "analysis/Format.h"
#include "ui/charts/LineChart.h"
#include "ui/summary/SummaryCharts.h"

namespace wl::ui::summary {

MemoryPage::MemoryPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("summaryMemoryEmpty"));
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    auto* area = new QScrollArea(this);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget(area);
    m_devices = new QVBoxLayout(inner);
    m_devices->setContentsMargins(0, 0, 0, 0);
    area->setWidget(inner);
    layout->addWidget(area, 1);
}

void MemoryPage::clear() {
    for (charts::LineChart* chart : m_charts) {
        delete chart;
    }
    for (QLabel* label : m_peaks) {
        delete label;
    }
    m_charts.clear();
    m_peaks.clear();
    m_trace.reset();
    m_summary.reset();
    m_empty->clear();
}

void MemoryPage::setAnalysis(model::TracePtr trace,
                             std::shared_ptr<const analysis::Summary> summary) {
    clear();
    m_trace = std::move(trace);
    m_summary = std::move(summary);
    if (!m_summary || !m_trace) {
        return;
    }
    if (m_summary->memory.empty()) {
        m_empty->setText(
            tr("No device memory records in this window. warpline record keeps CUDA's allocations "
               "and releases; the PyTorch profiler writes its allocator's with "
               "profile_memory=True."));
        return;
    }
    for (std::size_t d = 0; d < m_summary->memory.size(); ++d) {
        const analysis::MemoryTimeline& memory = m_summary->memory[d];
        auto* peak = new QLabel(this);
        peak->setTextFormat(Qt::RichText);
        peak->setWordWrap(true);
        QStringList running;
        for (const model::SliceRef ref : memory.runningAtPeak) {
            const std::string_view name = m_trace->str(m_trace->slice(ref).nameId);
            running << QString::fromUtf8(name.data(), qsizetype(name.size())).toHtmlEscaped();
        }
        peak->setText(
            tr("GPU %1: peak <b>%2</b> in use at %3 ms%4 <a href=\"peak\">show on the "
               "timeline</a>")
                .arg(memory.deviceId)
                .arg(QString::fromStdString(
                    analysis::formatBytes(std::uint64_t(std::llround(memory.peakInUseBytes)))))
                .arg(double(memory.peakNs) / 1e6, 0, 'f', 3)
                .arg(running.isEmpty()
                         ? QStringLiteral(".")
                         : tr("; running then: %1.").arg(running.join(QStringLiteral(", ")))));
        connect(peak, &QLabel::linkActivated, this, [this, d](const QString&) {
            emit slicesActivated(m_summary->memory[d].runningAtPeak);
        });
        auto* chart = new charts::LineChart(this);
        chart->setObjectName(QStringLiteral("summaryMemory%1").arg(memory.deviceId));
        chart->setFileBaseName(QStringLiteral("gpu%1-memory").arg(memory.deviceId));
        chart->setSpec(memoryChart(memory, kMaxPoints));
        chart->setMinimumHeight(180);
        connect(chart, &charts::LineChart::clicked, this, [this](double xMs) {
            // A point in time: the stretch around it that one point of the utilisation line
            // stands for (a 200th of the window).
            const auto ns = static_cast<model::TimeNs>(std::llround(xMs * 1e6));
            const model::TimeNs half = std::max<model::TimeNs>(m_summary->utilization.binNs / 2, 1);
            emit rangeActivated({ns - half, ns + half});
        });
        m_devices->addWidget(peak);
        m_devices->addWidget(chart);
        m_peaks.push_back(peak);
        m_charts.push_back(chart);
    }
}

QStringList MemoryPage::peakTexts() const {
    QStringList out;
    for (const QLabel* label : m_peaks) {
        out << label->text();
    }
    return out;
}

}  // namespace wl::ui::summary
