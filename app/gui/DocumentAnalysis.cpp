#include "app/gui/DocumentAnalysis.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

#include "analysis/Format.h"
#include "analysis/SliceSummary.h"
#include "analysis/TopDown.h"
#include "ui/analysis/AnalysisOverlays.h"
#include "ui/common/Units.h"

namespace wl::app {

QString analysisSummary(const analysis::AnalysisResult& r) {
    QStringList parts;
    const QString window = QString::fromStdString(analysis::describeWindow(r.window()));
    if (r.utilization.spanNs > 0) {
        const analysis::GpuBusy busy = r.gpuBusy();
        QString figure = ui::units::percent(busy.meanPct());
        if (busy.gpus > 1) {  // which of the two figures it is
            figure += QStringLiteral(" (%1)").arg(
                QString::fromStdString(analysis::meanOverGpusLabel(busy)));
        }
        parts << (r.window().source == analysis::WindowSource::Trace
                      ? QObject::tr("GPU busy %1 of the %2")
                      : QObject::tr("GPU busy %1 in %2"))
                     .arg(figure)
                     .arg(window);
    } else {
        parts << QObject::tr("no GPU work in %1").arg(window);
    }
    if (r.overlap.copyNs > 0) {
        parts << QObject::tr("copy/compute overlap %1")
                     .arg(ui::units::percent(r.overlap.copyComputePct()));
    }
    if (r.statistics.copyTotalNs > 0) {
        parts << QObject::tr("copies %1")
                     .arg(QString::fromStdString(
                         analysis::formatRate(r.statistics.copyGbPerSecond())));
    }
    std::size_t warnings = 0;
    for (const auto& d : r.diagnostics) {
        if (d.severity == analysis::Severity::Warning)
            ++warnings;
    }
    parts << QObject::tr("%n finding(s)", nullptr, static_cast<int>(r.diagnostics.size())) +
                 (warnings > 0 ? QObject::tr(" (%1 warnings)").arg(warnings) : QString());
    return parts.join(QStringLiteral(" · "));
}

std::optional<std::pair<model::TimeNs, model::TimeNs>> gpuFocusRange(const model::Trace& trace) {
    std::vector<std::pair<model::TimeNs, model::TimeNs>> ops;  // (start, weight)
    model::TimeNs total = 0;
    model::TimeNs lastEnd = 0;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::GpuStream)
            continue;
        for (const model::Slice& s : track.slices) {
            const model::TimeNs weight = std::max<model::TimeNs>(s.durationNs, 1);
            ops.emplace_back(s.startNs, weight);
            total += weight;
        }
    }
    if (ops.empty() || trace.spanNs() <= 0)
        return std::nullopt;
    std::sort(ops.begin(), ops.end());
    const double low = 0.005 * static_cast<double>(total);
    const double high = 0.995 * static_cast<double>(total);
    model::TimeNs startNs = ops.front().first;
    model::TimeNs endNs = ops.back().first;
    double seen = 0.0;
    bool startFound = false;
    for (const auto& [opStart, weight] : ops) {
        seen += static_cast<double>(weight);
        if (!startFound && seen >= low) {
            startNs = opStart;
            startFound = true;
        }
        lastEnd = std::max(lastEnd, opStart + weight);
        if (seen >= high) {
            endNs = lastEnd;
            break;
        }
    }
    const model::TimeNs width = std::max<model::TimeNs>(endNs - startNs, 1);
    if (width > trace.spanNs() * 6 / 10)
        return std::nullopt;  // fit-all shows it well enough
    const model::TimeNs margin = std::max<model::TimeNs>(width / 25, 1);
    return std::pair{std::max<model::TimeNs>(0, startNs - margin),
                     std::min(trace.spanNs(), endNs + margin)};
}

std::shared_ptr<const DocumentAnalysis> analyzeDocument(
    const model::Trace& trace, const analysis::AnalysisOptions& options,
    const analysis::WindowRequest& request, std::shared_ptr<const DocumentAnalysis> previous,
    const std::atomic<bool>* cancel) {
    const auto cancelled = [cancel] {
        return cancel != nullptr && cancel->load(std::memory_order_relaxed);
    };
    auto out = std::make_shared<DocumentAnalysis>();
    auto window = analysis::resolveWindow(trace, request);
    if (!window.ok()) {
        out->request = {};
        window = analysis::resolveWindow(trace, {});
    } else {
        out->request = request;
    }
    auto analysed = analysis::analyzeTrace(
        trace, options, window.ok() ? window.value() : analysis::AnalysisWindow{}, cancel);
    if (!analysed)
        return nullptr;
    auto result = std::make_shared<analysis::AnalysisResult>(std::move(*analysed));
    // The rest of the area-selection summary, which only the Statistics dock shows.
    result->statistics.slices = analysis::sliceSummary(trace, result->window());
    if (cancelled())
        return nullptr;
    result->statistics.topDown = analysis::topDown(trace, result->window());
    if (cancelled())
        return nullptr;
    // The badges judge fill and occupancy against the options' thresholds: keep them only when
    // those are the same.
    const bool sameBadges = previous != nullptr && previous->result != nullptr &&
                            previous->result->options.lowFillPct == options.lowFillPct &&
                            previous->result->options.lowOccupancyPct == options.lowOccupancyPct;
    out->overlays =
        ui::makeOverlays(trace, *result, sameBadges ? previous->overlays.kernelBadges : nullptr);
    out->summary = analysisSummary(*result);
    const analysis::AnalysisWindow& w = result->window();
    if (w.source != analysis::WindowSource::Trace && w.durationNs() > 0) {
        // Open on the part the figures describe, with a small margin.
        const model::TimeNs margin = std::max<model::TimeNs>((w.endNs() - w.startNs()) / 40, 1);
        out->focus = std::pair{std::max<model::TimeNs>(0, w.startNs() - margin),
                               std::min(trace.spanNs(), w.endNs() + margin)};
    } else {
        out->focus = gpuFocusRange(trace);
    }
    if (cancelled())
        return nullptr;
    if (analysis::jobRanks(trace).size() >= 2) {
        analysis::RankOptions rankOptions;
        rankOptions.analysis = options;
        out->ranks = std::make_shared<const analysis::RankStats>(
            analysis::computeRankStats(trace, result->window(), rankOptions));
    }
    if (cancelled())
        return nullptr;
    auto figures = analysis::computeSummary(trace, *result, {}, cancel);
    if (!figures)
        return nullptr;
    out->figures = std::make_shared<const analysis::Summary>(std::move(*figures));
    out->result = std::move(result);
    return out;
}

}  // namespace wl::app
