#include "ui/analysis/CompareView.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <map>
#include <utility>

#include "analysis/Format.h"
#include "analysis/Window.h"
#include "ui/analysis/AnalysisOverlays.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimeScale.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {

namespace {

const char* kMetricTitles[] = {"Time (ms)", "GPU busy (%)", "Copy/compute overlap (%)",
                               "Copy rate (GB/s)"};

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

// The unit under a metric's bars.
QString metricUnit(CompareView::Metric metric) {
    switch (metric) {
        case CompareView::WallTime:
            return QStringLiteral("ms");
        case CompareView::GpuBusy:
        case CompareView::CopyOverlap:
            return QStringLiteral("%");
        case CompareView::CopyRate:
            return QStringLiteral("GB/s");
        case CompareView::kMetricCount:
            break;
    }
    return {};
}

QChartView* makeChartView(QWidget* parent, const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing, false);
    view->setMinimumSize(160, 160);
    return view;
}

QString runLabel(const QString& name, const model::TracePtr& trace, const RunMetrics& m,
                 const QString& alignedHow) {
    if (!trace) {
        return QObject::tr("%1: no run").arg(name);
    }
    const QString text =
        QObject::tr("%1 — %2 ms, GPU busy %3, overlap %4")
            .arg(name)
            .arg(m.wallMs, 0, 'f', 2)
            .arg(QString::fromStdString(analysis::formatPercent(m.gpuBusyPct)))
            .arg(QString::fromStdString(analysis::formatPercent(m.copyComputePct)));
    return alignedHow.isEmpty() ? text : QStringLiteral("%1 · %2").arg(text, alignedHow);
}

// Empties a chart for new series: the old series and axes go.
void clearChart(QChart* c) {
    c->removeAllSeries();
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
}

// The two bar sets every chart compares, in the runs' colours.
std::pair<QBarSet*, QBarSet*> runBarSets(const QString& first, const QString& second) {
    auto* base = new QBarSet(first);
    auto* async = new QBarSet(second);
    base->setColor(QColor(0x8c, 0x8c, 0x8c));
    async->setColor(QColor(0x2e, 0x86, 0xde));
    return {base, async};
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
    m_baselineView = new TimelineView(timelines);
    m_baselineView->setObjectName(QStringLiteral("baselineTimeline"));
    m_asyncLabel = new QLabel(timelines);
    m_asyncView = new TimelineView(timelines);
    m_asyncView->setObjectName(QStringLiteral("asyncTimeline"));
    m_baselineView->setTimeScale(m_scale);
    m_asyncView->setTimeScale(m_scale);
    tl->addWidget(m_baseLabel);
    tl->addWidget(m_baselineView, 1);
    tl->addWidget(m_asyncLabel);
    tl->addWidget(m_asyncView, 1);
    splitter->addWidget(timelines);

    auto* charts = new QWidget(splitter);
    auto* cl = new QHBoxLayout(charts);
    cl->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kMetricCount; ++i) {
        m_charts[static_cast<std::size_t>(i)] = makeChartView(charts, tr(kMetricTitles[i]));
        cl->addWidget(m_charts[static_cast<std::size_t>(i)]);
    }
    m_kernelChart = makeChartView(charts, tr("Kernel time (ms)"));
    m_kernelChart->setMinimumWidth(320);
    cl->addWidget(m_kernelChart, 2);  // names need the width
    splitter->addWidget(charts);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    connect(m_baselineView, &TimelineView::sliceSelected, this,
            [this](model::SliceRef ref) { emit sliceSelected(m_baseline, ref); });
    connect(m_asyncView, &TimelineView::sliceSelected, this,
            [this](model::SliceRef ref) { emit sliceSelected(m_async, ref); });
    updateCharts();
}

CompareView::~CompareView() = default;

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
            m_alignedHow[i] = tr("%1, %2 into the trace").arg(how, formatDuration(offset));
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
        .arg(QString::fromStdString(analysis::formatPercent(m_baseMetrics.gpuBusyPct)))
        .arg(QString::fromStdString(analysis::formatPercent(m_asyncMetrics.gpuBusyPct)));
}

QChart* CompareView::chart(Metric metric) const {
    return m_charts[static_cast<std::size_t>(metric)]->chart();
}

double CompareView::barValue(Metric metric, int run) const {
    const auto series = chart(metric)->series();
    if (series.isEmpty()) {
        return 0.0;
    }
    const auto* bars = static_cast<const QBarSeries*>(series.front());
    const auto sets = bars->barSets();
    if (run < 0 || run >= sets.size() || sets[run]->count() == 0) {
        return 0.0;
    }
    return sets[run]->at(0);
}

QChart* CompareView::kernelChart() const {
    return m_kernelChart->chart();
}

QStringList CompareView::kernelChartNames() const {
    return m_kernelNames;
}

double CompareView::kernelBarValue(int kernel, int run) const {
    if (kernel < 0 || kernel >= int(m_kernelMs.size()) || run < 0 || run > 1) {
        return 0.0;
    }
    return m_kernelMs[std::size_t(kernel)][std::size_t(run)];
}

void CompareView::updateKernelChart() {
    // The two runs have their own string tables: kernels meet by full name.
    struct Row {
        QString shortName;
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
    m_kernelNames.clear();
    m_kernelMs.clear();
    for (const Row& row : rows) {
        // Categories must differ: two full names may share a short one (overloads).
        QString name = row.shortName;
        for (int n = 2; m_kernelNames.contains(name); ++n) {
            name = QStringLiteral("%1 (%2)").arg(row.shortName).arg(n);
        }
        m_kernelNames << name;
        m_kernelMs.push_back(row.ms);
    }

    QChart* c = kernelChart();
    clearChart(c);
    auto* series = new QHorizontalBarSeries;
    const auto [base, async] = runBarSets(legendName(0), legendName(1));
    // Horizontal bars grow upwards from the first category: add the longest last so it is on top.
    QStringList categories;
    double longest = 1e-9;
    for (int i = int(m_kernelNames.size()) - 1; i >= 0; --i) {
        const auto& ms = m_kernelMs[std::size_t(i)];
        *base << ms[0];
        *async << ms[1];
        categories << m_kernelNames[i];
        longest = std::max({longest, ms[0], ms[1]});
    }
    series->append(base);
    series->append(async);
    c->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(categories);
    auto* x = new QValueAxis;
    x->setRange(0.0, longest * 1.15);
    x->setLabelFormat(QStringLiteral("%.3g"));
    c->addAxis(y, Qt::AlignLeft);
    c->addAxis(x, Qt::AlignBottom);
    series->attachAxis(y);
    series->attachAxis(x);
    c->legend()->setVisible(false);  // the time chart's legend names the two runs
}

void CompareView::updateCharts() {
    for (int i = 0; i < kMetricCount; ++i) {
        const auto metric = static_cast<Metric>(i);
        QChart* c = chart(metric);
        clearChart(c);
        auto* series = new QBarSeries;
        const auto [base, async] = runBarSets(legendName(0), legendName(1));
        const double b = metricValue(m_baseMetrics, metric);
        const double a = metricValue(m_asyncMetrics, metric);
        *base << b;
        *async << a;
        series->append(base);
        series->append(async);
        series->setLabelsVisible(true);
        series->setLabelsFormat(QStringLiteral("@value"));
        series->setLabelsPrecision(3);
        c->addSeries(series);
        // One category, named by the unit (an empty one is drawn as "1"); the bars carry their
        // values, so the value axis keeps its grid but not its labels, which a chart this narrow
        // could only show as "...".
        auto* x = new QBarCategoryAxis;
        x->append(metricUnit(metric));
        auto* y = new QValueAxis;
        const bool percent = metric == GpuBusy || metric == CopyOverlap;
        y->setRange(0.0, percent ? 100.0 : std::max({a, b, 1e-9}) * 1.15);
        y->setLabelsVisible(false);
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        c->legend()->setVisible(i == 0);
    }
}

}  // namespace wl::ui
