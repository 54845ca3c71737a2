#include "ui/summary/SummaryCharts.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "analysis/Format.h"
#include "model/Derived.h"
#include "ui/charts/ChartStyle.h"
#include "ui/style/Palette.h"

namespace wl::ui::summary {

namespace {

double ms(model::TimeNs ns) {
    return static_cast<double>(ns) / 1e6;
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

// The parts' colours: the timeline's for GPU work and API calls, apart from them for the host's.
QColor stepPartColour(analysis::StepPart part) {
    switch (part) {
        case analysis::StepPart::Kernel:
            return QColor::fromRgba(Palette::kKernel[0]);
        case analysis::StepPart::Memcpy:
            return QColor::fromRgba(Palette::kCopyHtoD);
        case analysis::StepPart::Memset:
            return QColor::fromRgba(Palette::kMemset);
        case analysis::StepPart::CudaApi:
            return QColor::fromRgba(Palette::kRuntimeApi);
        case analysis::StepPart::DataLoading:
            return QColor::fromRgba(Palette::kCopyDtoD);
        case analysis::StepPart::HostCompute:
            return QColor::fromRgba(Palette::kSync);
        case analysis::StepPart::Other:
            break;
    }
    return QColor(0xd5, 0xd8, 0xdc);
}

charts::BarChartSpec iterationChart(const analysis::Summary& summary) {
    charts::BarChartSpec spec;
    switch (summary.iterationSource) {
        case analysis::IterationSource::NvtxRanges:
            spec.title = QObject::tr("Time per iteration (its NVTX range)");
            break;
        case analysis::IterationSource::GraphLaunches:
            spec.title = QObject::tr("Time per iteration (a CUDA graph launch)");
            break;
        case analysis::IterationSource::Repeats:
            spec.title = QObject::tr("Time per iteration (a repeat of the GPU's work)");
            break;
        case analysis::IterationSource::Window:
            spec.title = QObject::tr("Time of the window (no iterations found)");
            break;
    }
    spec.unit = QStringLiteral("ms");
    spec.horizontal = false;
    spec.stacked = true;
    spec.legend = false;  // the breakdown line above the chart is its legend
    for (std::size_t p = 0; p < analysis::kStepPartCount; ++p) {
        const auto part = static_cast<analysis::StepPart>(p);
        charts::BarSet set{QString::fromLatin1(analysis::toString(part)), stepPartColour(part), {}};
        for (const analysis::IterationBreakdown& it : summary.iterations) {
            set.values.push_back(ms(it.ns(part)));
        }
        spec.sets.push_back(std::move(set));
    }
    for (std::size_t i = 0; i < summary.iterations.size(); ++i) {
        spec.categories << QString::number(i + 1);
        spec.fullNames << QStringLiteral("%1 (%2)").arg(
            qs(summary.iterations[i].name),
            qs(analysis::formatDuration(summary.iterations[i].range.durationNs())));
    }
    return spec;
}

namespace {

// The mean iteration and each part's share of the iterations' time; empty when there are none.
struct Breakdown {
    model::TimeNs meanNs = 0;
    std::size_t count = 0;
    std::array<double, analysis::kStepPartCount> pct{};
};

Breakdown breakdownOf(const analysis::Summary& summary) {
    Breakdown b;
    model::TimeNs total = 0;
    std::array<model::TimeNs, analysis::kStepPartCount> parts{};
    for (const analysis::IterationBreakdown& it : summary.iterations) {
        total += it.range.durationNs();
        for (std::size_t p = 0; p < parts.size(); ++p) {
            parts[p] += it.partNs[p];
        }
    }
    b.count = summary.iterations.size();
    b.meanNs = b.count > 0 ? total / model::TimeNs(b.count) : 0;
    for (std::size_t p = 0; p < parts.size() && total > 0; ++p) {
        b.pct[p] = 100.0 * double(parts[p]) / double(total);
    }
    return b;
}

QString meanText(const Breakdown& b) {
    const QString mean = qs(analysis::formatDuration(b.meanNs));
    return b.count == 1 ? QObject::tr("One iteration: %1").arg(mean)
                        : QObject::tr("Mean of %1 iterations: %2").arg(b.count).arg(mean);
}

}  // namespace

QString iterationBreakdownText(const analysis::Summary& summary) {
    if (summary.iterations.empty()) {
        return QObject::tr("No GPU work in the window.");
    }
    const Breakdown b = breakdownOf(summary);
    QStringList out{meanText(b)};
    for (std::size_t p = 0; p < b.pct.size(); ++p) {
        if (b.pct[p] > 0.0) {
            out << QStringLiteral("%1 %2")
                       .arg(QString::fromLatin1(analysis::toString(analysis::StepPart(p))))
                       .arg(qs(analysis::formatPercent(b.pct[p])));
        }
    }
    return out.join(QStringLiteral(" · "));
}

QString iterationBreakdownHtml(const analysis::Summary& summary) {
    if (summary.iterations.empty()) {
        return QObject::tr("No GPU work in the window.");
    }
    const Breakdown b = breakdownOf(summary);
    QStringList out{meanText(b).toHtmlEscaped()};
    for (std::size_t p = 0; p < b.pct.size(); ++p) {
        const auto part = analysis::StepPart(p);
        out << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;%3")
                   .arg(stepPartColour(part).name(),
                        QString::fromLatin1(analysis::toString(part)).toHtmlEscaped(),
                        qs(analysis::formatPercent(b.pct[p])));
    }
    return out.join(QStringLiteral(" &nbsp; "));
}

charts::LineChartSpec utilizationChart(const analysis::Summary& summary) {
    charts::LineChartSpec spec;
    spec.title = QObject::tr("GPU utilisation");
    spec.xTitle = QObject::tr("time (ms)");
    spec.yTitle = QStringLiteral("%");
    spec.yMax = 100.0;
    charts::LineSeriesSpec busy{
        QObject::tr("GPU busy"), QColor::fromRgba(Palette::kKernel[0]), {}, false};
    const analysis::UtilizationSeries& u = summary.utilization;
    for (std::size_t i = 0; i < u.busyPct.size(); ++i) {
        // Each bin at its middle.
        busy.points.emplace_back(ms(u.startNs + model::TimeNs(i) * u.binNs + u.binNs / 2),
                                 u.busyPct[i]);
    }
    spec.series.push_back(std::move(busy));
    return spec;
}

charts::BarChartSpec topKernelsChart(const analysis::Statistics& statistics, std::size_t count) {
    charts::BarChartSpec spec;
    spec.title = QObject::tr("Kernels by total time");
    spec.unit = QStringLiteral("ms");
    spec.legend = false;
    charts::BarSet set{QObject::tr("total"), QColor::fromRgba(Palette::kKernel[0]), {}};
    for (std::size_t i = 0; i < statistics.kernels.size() && i < count; ++i) {
        const analysis::KernelStats& k = statistics.kernels[i];
        QString name = qs(k.shortName);
        for (int n = 2; spec.categories.contains(name); ++n) {
            name = QStringLiteral("%1 (%2)").arg(qs(k.shortName)).arg(n);
        }
        spec.categories << name;
        spec.fullNames << qs(k.name);
        set.values.push_back(ms(k.totalNs));
    }
    spec.sets.push_back(std::move(set));
    return spec;
}

charts::BarChartSpec durationHistogramChart(const analysis::DurationHistogram& histogram,
                                            const QString& kernelName) {
    charts::BarChartSpec spec;
    spec.title = QObject::tr("Durations of %1").arg(kernelName);
    spec.unit = QObject::tr("launches");
    spec.horizontal = false;
    spec.legend = false;
    charts::BarSet set{QObject::tr("launches"), QColor::fromRgba(Palette::kKernel[2]), {}};
    for (std::size_t i = 0; i < histogram.counts.size(); ++i) {
        const model::TimeNs from = histogram.minNs + model::TimeNs(i) * histogram.binNs;
        spec.categories << QStringLiteral("%1–%2").arg(
            qs(analysis::formatDuration(from)),
            qs(analysis::formatDuration(from + histogram.binNs)));
        set.values.push_back(double(histogram.counts[i]));
    }
    spec.sets.push_back(std::move(set));
    return spec;
}

charts::BarChartSpec topOperatorsChart(const analysis::OperatorTable& operators,
                                       std::size_t count) {
    charts::BarChartSpec spec;
    spec.title = operators.nvtxRanges ? QObject::tr("NVTX ranges by host time")
                                      : QObject::tr("Operators by host time");
    spec.unit = QStringLiteral("ms");
    spec.sets = {{QObject::tr("host total"), charts::seriesColour(1), {}},
                 {QObject::tr("GPU total"), QColor::fromRgba(Palette::kKernel[0]), {}}};
    for (std::size_t i = 0; i < operators.byName.size() && i < count; ++i) {
        const analysis::OperatorStats& op = operators.byName[i];
        spec.categories << qs(op.name);
        spec.sets[0].values.push_back(ms(op.hostTotalNs));
        spec.sets[1].values.push_back(ms(op.gpuTotalNs));
    }
    return spec;
}

std::vector<model::CounterSample> thinned(const std::vector<model::CounterSample>& samples,
                                          std::size_t maxPoints) {
    if (samples.size() <= maxPoints || maxPoints < 4) {
        return samples;
    }
    const std::size_t stretches = maxPoints / 2;
    std::vector<model::CounterSample> out;
    out.reserve(maxPoints + 1);
    for (std::size_t k = 0; k < stretches; ++k) {
        const std::size_t from = samples.size() * k / stretches;
        const std::size_t to = samples.size() * (k + 1) / stretches;
        if (from >= to) {
            continue;
        }
        const auto top = std::max_element(
            samples.begin() + std::ptrdiff_t(from), samples.begin() + std::ptrdiff_t(to),
            [](const auto& a, const auto& b) { return a.value < b.value; });
        out.push_back(samples[from]);
        if (top != samples.begin() + std::ptrdiff_t(from)) {
            out.push_back(*top);
        }
    }
    if (out.back().timestampNs != samples.back().timestampNs) {
        out.push_back(samples.back());
    }
    return out;
}

charts::LineChartSpec memoryChart(const analysis::MemoryTimeline& memory, std::size_t maxPoints) {
    charts::LineChartSpec spec;
    spec.title = QObject::tr("GPU %1 memory").arg(memory.deviceId);
    spec.xTitle = QObject::tr("time (ms)");
    spec.yTitle = QStringLiteral("MB");
    int index = 0;
    for (const analysis::MemorySeries& series : memory.series) {
        charts::LineSeriesSpec line{qs(series.name), charts::seriesColour(index++), {}, true};
        for (const model::CounterSample& s : thinned(series.samples, maxPoints)) {
            line.points.emplace_back(ms(s.timestampNs), s.value / 1e6);
        }
        spec.series.push_back(std::move(line));
    }
    if (memory.peakInUseBytes > 0.0) {
        spec.markers.emplace_back(ms(memory.peakNs), memory.peakInUseBytes / 1e6);
        spec.markerName = QObject::tr("peak in use");
    }
    return spec;
}

charts::BarChartSpec rankChart(const std::vector<analysis::RankTimeBreakdown>& ranks) {
    charts::BarChartSpec spec;
    spec.title = QObject::tr("Computation and communication per rank");
    spec.unit = QStringLiteral("ms");
    spec.stacked = true;
    spec.sets = {{QObject::tr("computation only"), QColor::fromRgba(Palette::kKernel[0]), {}},
                 {QObject::tr("communication only"), QColor::fromRgba(Palette::kCopyDtoH), {}},
                 {QObject::tr("both at once"), QColor::fromRgba(Palette::kCopyDtoD), {}},
                 {QObject::tr("neither"), QColor(0xd5, 0xd8, 0xdc), {}}};
    for (const analysis::RankTimeBreakdown& r : ranks) {
        spec.categories << QObject::tr("rank %1").arg(r.rank);
        spec.sets[0].values.push_back(ms(r.computeNs - r.overlapNs));
        spec.sets[1].values.push_back(ms(r.communicationNs - r.overlapNs));
        spec.sets[2].values.push_back(ms(r.overlapNs));
        spec.sets[3].values.push_back(ms(r.otherNs));
    }
    return spec;
}

}  // namespace wl::ui::summary
