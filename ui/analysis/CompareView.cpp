#include "ui/analysis/CompareView.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <utility>

#include "analysis/Format.h"
#include "analysis/Window.h"
#include "ui/analysis/AnalysisOverlays.h"
#include "ui/charts/BarChart.h"
#include "ui/charts/ChartStyle.h"
#include "ui/common/Units.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimeScale.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {

namespace {

const char* kMetricLabels[] = {"Time", "GPU busy", "Copy overlap", "Copy rate"};

double metricValue(const RunMetrics& m, CompareView::Metric metric) {
    switch (metric) {
        case CompareView::WallTime:
            return m.wallMs;
        case CompareView::GpuBusy:
            return m.gpuBusyPct;
        case CompareView::CopyOverlap:
            return m.copyComputePct;
        case CompareView::CopyRate:
            return m.copyGbps;
        case CompareView::kMetricCount:
            break;
    }
    return 0.0;
}

bool isPercent(CompareView::Metric metric) {
    return metric == CompareView::GpuBusy || metric == CompareView::CopyOverlap;
}

QString runLabel(const QString& name, const model::TracePtr& trace, const RunMetrics& m,
                 const QString& alignedHow) {
    if (!trace) {
        return QObject::tr("%1: no run").arg(name);
    }
    const QString text = QObject::tr("%1 — %2 ms, GPU busy %3, overlap %4")
                             .arg(name)
                             .arg(m.wallMs, 0, 'f', 2)
                             .arg(units::percent(m.gpuBusyPct))
                             .arg(units::percent(m.copyComputePct));
    return alignedHow.isEmpty() ? text : QStringLiteral("%1 · %2").arg(text, alignedHow);
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    m_scale = std::make_shared<TimeScale>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_headline = new QLabel(tr("Compare: run baseline then async"), this);
    m_headline->setObjectName(QStringLiteral("compareHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setWordWrap(true);
    layout->addWidget(m_headline);

    auto* alignRow = new QHBoxLayout();
    alignRow->addWidget(new QLabel(tr("Align the traces at"), this));
    m_alignBox = new QComboBox(this);
    m_alignBox->setObjectName(QStringLiteral("compareAlignment"));
    m_alignBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    alignRow->addWidget(m_alignBox);
    alignRow->addStretch(1);
    layout->addLayout(alignRow);
    connect(m_alignBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { alignAt(m_alignBox->itemData(index).toString()); });

    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto* timelines = new QWidget(splitter);
    auto* tl = new QVBoxLayout(timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    m_baseLabel = new QLabel(timelines);
    m_baseLabel->setWordWrap(true);  // a long file name must not set the window's minimum width
    m_baselineView = new TimelineView(timelines);
    m_baselineView->setObjectName(QStringLiteral("baselineTimeline"));
    m_asyncLabel = new QLabel(timelines);
    m_asyncLabel->setWordWrap(true);
    m_asyncView = new TimelineView(timelines);
    m_asyncView->setObjectName(QStringLiteral("asyncTimeline"));
    m_baselineView->setTimeScale(m_scale);
    m_asyncView->setTimeScale(m_scale);
    tl->addWidget(m_baseLabel);
    tl->addWidget(m_baselineView, 1);
    tl->addWidget(m_asyncLabel);
    tl->addWidget(m_asyncView, 1);
    splitter->addWidget(timelines);

    // The bars scroll when the window is too low for all their rows: the timelines keep most of
    // the height (see showEvent).
    m_chartsArea = new QScrollArea(splitter);
    m_chartsArea->setWidgetResizable(true);
    m_chartsArea->setFrameShape(QFrame::NoFrame);
    m_chartsArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* charts = new QWidget(m_chartsArea);
    auto* cl = new QHBoxLayout(charts);
    cl->setContentsMargins(0, 0, 0, 0);
    // The four figures as small charts, two by two, each on its own scale; the kernels beside.
    auto* metrics = new QGridLayout();
    metrics->setSpacing(2);
    for (int i = 0; i < kMetricCount; ++i) {
        m_metricCharts[std::size_t(i)] = new charts::BarChart(charts);
        m_metricCharts[std::size_t(i)]->setObjectName(QStringLiteral("compareMetric%1").arg(i));
        m_metricCharts[std::size_t(i)]->setFileBaseName(QStringLiteral("compare-%1").arg(i));
        metrics->addWidget(m_metricCharts[std::size_t(i)], i / 2, i % 2);
    }
    cl->addLayout(metrics, 2);
    m_kernelChart = new charts::BarChart(charts);
    m_kernelChart->setObjectName(QStringLiteral("compareKernels"));
    m_kernelChart->setFileBaseName(QStringLiteral("compare-kernels"));
    cl->addWidget(m_kernelChart, 3);  // names need the width
    m_chartsArea->setWidget(charts);
    splitter->addWidget(m_chartsArea);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(1, false);
    m_splitter = splitter;
    layout->addWidget(splitter, 1);

    connect(m_baselineView, &TimelineView::sliceSelected, this,
            [this](model::SliceRef ref) { emit sliceSelected(m_baseline, ref); });
    connect(m_asyncView, &TimelineView::sliceSelected, this,
            [this](model::SliceRef ref) { emit sliceSelected(m_async, ref); });
    updateCharts();
}

CompareView::~CompareView() = default;

void CompareView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_splitSet) {
        return;  // the user's split from then on
    }
    m_splitSet = true;
    // The bars get the height of all their rows, up to 40 % of the tab; the timelines the rest.
    const int total = m_splitter->height();
    const int bars = std::min(m_chartsArea->widget()->minimumSizeHint().height(), total * 2 / 5);
    m_splitter->setSizes({total - bars, bars});
}

void CompareView::setRuns(model::TracePtr baseline, model::TracePtr async) {
    std::shared_ptr<const analysis::AnalysisResult> b;
    std::shared_ptr<const analysis::AnalysisResult> a;
    if (baseline) {
        b = std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*baseline));
    }
    if (async) {
        a = std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*async));
    }
    setRuns(std::move(baseline), std::move(b), std::move(async), std::move(a));
}

void CompareView::setRuns(model::TracePtr baseline,
                          std::shared_ptr<const analysis::AnalysisResult> baseResult,
                          model::TracePtr async,
                          std::shared_ptr<const analysis::AnalysisResult> asyncResult) {
    m_baseline = std::move(baseline);
    m_async = std::move(async);
    m_baseResult = m_baseline ? std::move(baseResult) : nullptr;
    m_asyncResult = m_async ? std::move(asyncResult) : nullptr;
    if (m_baseline && !m_baseResult) {
        m_baseResult =
            std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*m_baseline));
    }
    if (m_async && !m_asyncResult) {
        m_asyncResult =
            std::make_shared<const analysis::AnalysisResult>(analysis::analyzeTrace(*m_async));
    }
    m_baseMetrics = m_baseline ? runMetrics(*m_baseline, *m_baseResult) : RunMetrics{};
    m_asyncMetrics = m_async ? runMetrics(*m_async, *m_asyncResult) : RunMetrics{};

    m_baselineView->setTrace(m_baseline);
    m_asyncView->setTrace(m_async);
    m_baselineView->setOverlays(m_baseline ? makeOverlays(*m_baseline, *m_baseResult)
                                           : TimelineOverlays{});
    m_asyncView->setOverlays(m_async ? makeOverlays(*m_async, *m_asyncResult) : TimelineOverlays{});
    fillAlignmentBox();
    applyAlignment();
    m_headline->setText(headline());
    updateCharts();
    updateKernelChart();
}

void CompareView::alignAt(const QString& rangeName) {
    m_alignRange = rangeName;
    const int index = rangeName.isEmpty() ? 0 : m_alignBox->findData(rangeName);
    if (index >= 0 && index != m_alignBox->currentIndex()) {
        const QSignalBlocker block(m_alignBox);
        m_alignBox->setCurrentIndex(index);
    }
    applyAlignment();
}

void CompareView::fillAlignmentBox() {
    const QSignalBlocker block(m_alignBox);
    m_alignBox->clear();
    m_alignBox->addItem(tr("the analysis windows' starts"), QString());
    if (m_baseline && m_async) {
        std::vector<std::string> second = analysis::nvtxRangeNames(*m_async);
        std::sort(second.begin(), second.end());
        int offered = 0;
        for (const std::string& name : analysis::nvtxRangeNames(*m_baseline)) {
            if (offered == kMaxAlignmentRanges)
                break;
            if (std::binary_search(second.begin(), second.end(), name)) {
                const QString q = QString::fromStdString(name);
                m_alignBox->addItem(tr("the first '%1'").arg(q), q);
                ++offered;
            }
        }
    }
    const int index = m_alignRange.isEmpty() ? 0 : m_alignBox->findData(m_alignRange);
    m_alignBox->setCurrentIndex(std::max(index, 0));
}

void CompareView::applyAlignment() {
    const model::TracePtr traces[2] = {m_baseline, m_async};
    const analysis::AnalysisResult* results[2] = {m_baseResult.get(), m_asyncResult.get()};
    TimelineView* views[2] = {m_baselineView, m_asyncView};
    model::TimeNs longest = 1;
    for (int i = 0; i < 2; ++i) {
        m_alignedHow[i].clear();
        if (!traces[i]) {
            views[i]->setTimeOffsetNs(0);
            continue;
        }
        // By default at the analysis window's start: a program's setup before its window
        // (imports, allocation, warm-up) would otherwise shift one run against the other.
        model::TimeNs offset = results[i]->window().startNs();
        QString how = tr("aligned at its window's start");
        if (!m_alignRange.isEmpty()) {
            analysis::WindowRequest request;
            request.kind = analysis::WindowRequest::Kind::NvtxRange;
            request.rangeName = m_alignRange.toStdString();
            request.instance = 1;
            if (auto first = analysis::resolveWindow(*traces[i], request); first.ok()) {
                offset = first.value().startNs();
                how = tr("aligned at its first '%1'").arg(m_alignRange);
            } else {
                how = tr("no '%1': aligned at its window's start").arg(m_alignRange);
            }
        }
        if (offset != 0)
            m_alignedHow[i] = tr("%1, %2 into the trace").arg(how, units::duration(offset));
        views[i]->setTimeOffsetNs(offset);
        // Show the longer run from the alignment point to its window's end, so the shorter
        // run's length reads against it.
        const analysis::AnalysisWindow& window = results[i]->window();
        const model::TimeNs end = window.parts.empty() ? traces[i]->spanNs() : window.endNs();
        longest = std::max(longest, end - offset);
    }
    m_scale->setRange(0, longest);
    updateRunLabels();
}

void CompareView::updateRunLabels() {
    m_baseLabel->setText(runLabel(sideTitle(0), m_baseline, m_baseMetrics, m_alignedHow[0]));
    m_asyncLabel->setText(runLabel(sideTitle(1), m_async, m_asyncMetrics, m_alignedHow[1]));
}

QString CompareView::legendName(int run) const {
    // Chart legends are narrow: long names (files) become "A" and "B", as the labels above the
    // timelines say.
    const bool shortNames = m_firstName.size() <= 12 && m_secondName.size() <= 12;
    if (shortNames)
        return run == 0 ? m_firstName : m_secondName;
    return run == 0 ? QStringLiteral("A") : QStringLiteral("B");
}

QString CompareView::sideTitle(int run) const {
    const QString& name = run == 0 ? m_firstName : m_secondName;
    return legendName(run) == name ? name : QStringLiteral("%1: %2").arg(legendName(run), name);
}

void CompareView::setNames(const QString& first, const QString& second) {
    m_firstName = first;
    m_secondName = second;
    updateRunLabels();
    updateCharts();
    updateKernelChart();
}

void CompareView::setWallTimes(double baselineMs, double asyncMs, const QString& what) {
    m_timeWhat = what;
    if (m_baseline && baselineMs > 0.0) {
        m_baseMetrics.wallMs = baselineMs;
    }
    if (m_async && asyncMs > 0.0) {
        m_asyncMetrics.wallMs = asyncMs;
    }
    updateRunLabels();
    m_headline->setText(headline());
    updateCharts();
}

double CompareView::speedup() const {
    return m_baseline && m_async ? ui::speedup(m_baseMetrics, m_asyncMetrics) : 0.0;
}

QString CompareView::headline() const {
    if (!m_baseline || !m_async) {
        return tr("Compare: run baseline then async");
    }
    return tr("Speedup %1x: %2 %3 ms → %4 ms, GPU busy %5 → %6")
        .arg(speedup(), 0, 'f', 2)
        .arg(m_timeWhat.isEmpty() ? tr("wall") : m_timeWhat)
        .arg(m_baseMetrics.wallMs, 0, 'f', 2)
        .arg(m_asyncMetrics.wallMs, 0, 'f', 2)
        .arg(units::percent(m_baseMetrics.gpuBusyPct))
        .arg(units::percent(m_asyncMetrics.gpuBusyPct));
}

charts::BarChart* CompareView::metricChart(Metric metric) const {
    return metric >= 0 && metric < kMetricCount ? m_metricCharts[std::size_t(metric)] : nullptr;
}

double CompareView::barValue(Metric metric, int run) const {
    const charts::BarChart* chart = metricChart(metric);
    if (chart == nullptr || run < 0 || std::size_t(run) >= chart->spec().sets.size()) {
        return 0.0;
    }
    const auto& values = chart->spec().sets[std::size_t(run)].values;
    return values.empty() ? 0.0 : values.front();
}

QStringList CompareView::kernelChartNames() const {
    return m_kernelChart->spec().categories;
}

double CompareView::kernelBarValue(int kernel, int run) const {
    const auto& sets = m_kernelChart->spec().sets;
    if (kernel < 0 || run < 0 || std::size_t(run) >= sets.size() ||
        std::size_t(kernel) >= sets[std::size_t(run)].values.size()) {
        return 0.0;
    }
    return sets[std::size_t(run)].values[std::size_t(kernel)];
}

void CompareView::updateKernelChart() {
    // The two runs have their own string tables: kernels meet by full name.
    struct Row {
        QString shortName;
        QString fullName;
        std::array<double, 2> ms{};
    };
    std::map<std::string, Row> byName;
    const std::array<const analysis::AnalysisResult*, 2> results = {m_baseResult.get(),
                                                                    m_asyncResult.get()};
    for (std::size_t run = 0; run < results.size(); ++run) {
        if (!results[run]) {
            continue;
        }
        for (const analysis::KernelStats& k : results[run]->statistics.kernels) {
            Row& row = byName[k.name];
            row.shortName = QString::fromStdString(k.shortName);
            row.fullName = QString::fromStdString(k.name);
            row.ms[run] += double(k.totalNs) / 1e6;
        }
    }
    std::vector<Row> rows;
    rows.reserve(byName.size());
    for (auto& [name, row] : byName) {
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::max(a.ms[0], a.ms[1]) > std::max(b.ms[0], b.ms[1]);
    });
    if (rows.size() > std::size_t(kKernelBars)) {
        rows.resize(std::size_t(kKernelBars));
    }
    charts::BarChartSpec spec;
    // The count shown, not the most there could be: a run of three kernels shows three.
    spec.title =
        byName.size() > std::size_t(kKernelBars)
            ? tr("Kernel time, the longest %1 of %2 kernels").arg(kKernelBars).arg(byName.size())
        : rows.size() == 1 ? tr("Kernel time, the one kernel")
                           : tr("Kernel time, all %1 kernels").arg(rows.size());
    spec.unit = QStringLiteral("ms");
    spec.sets = {{legendName(0), QColor::fromRgba(charts::kRunColours[0]), {}},
                 {legendName(1), QColor::fromRgba(charts::kRunColours[1]), {}}};
    for (const Row& row : rows) {
        // Names must differ: two full names may share a short one (overloads).
        QString name = row.shortName;
        for (int n = 2; spec.categories.contains(name); ++n) {
            name = QStringLiteral("%1 (%2)").arg(row.shortName).arg(n);
        }
        spec.categories << name;
        spec.fullNames << row.fullName;
        for (std::size_t run = 0; run < 2; ++run) {
            spec.sets[run].values.push_back(row.ms[run]);
        }
    }
    m_kernelChart->setSpec(std::move(spec));
}

void CompareView::updateCharts() {
    for (int i = 0; i < kMetricCount; ++i) {
        const auto metric = static_cast<Metric>(i);
        charts::BarChartSpec spec;
        spec.categories
            << (metric == WallTime
                    ? tr("Time (%1)").arg(m_timeWhat.isEmpty() ? tr("wall") : m_timeWhat)
                    : tr(kMetricLabels[i]));
        spec.unit = isPercent(metric)
                        ? QStringLiteral("%")
                        : (metric == CopyRate ? QStringLiteral("GB/s") : QStringLiteral("ms"));
        // A percentage out of 100; a time or a rate against the larger of the two.
        spec.axisMax = isPercent(metric) ? 100.0 : 0.0;
        spec.legend = i == 0;  // one legend names the runs for all four
        for (std::size_t run = 0; run < 2; ++run) {
            const RunMetrics& m = run == 0 ? m_baseMetrics : m_asyncMetrics;
            spec.sets.push_back({legendName(int(run)),
                                 QColor::fromRgba(charts::kRunColours[run]),
                                 {metricValue(m, metric)}});
        }
        m_metricCharts[std::size_t(i)]->setSpec(std::move(spec));
    }
}

}  // namespace wl::ui
