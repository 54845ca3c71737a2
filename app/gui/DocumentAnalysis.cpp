#include "app/gui/DocumentAnalysis.h"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <map>
#include <tuple>

#include "ui/details/Units.h"

namespace wl::app {
namespace {

QString causeText(analysis::GapCause cause) {
    switch (cause) {
        case analysis::GapCause::HostSync:
            return QObject::tr("the host was blocked in");
        case analysis::GapCause::HostLaunch:
            return QObject::tr("the host launched late:");
        case analysis::GapCause::Other:
            break;
    }
    return {};
}

QString gapTooltip(const model::Trace& trace, const analysis::IdleGap& gap) {
    QString where = gap.streamId >= 0 ? QObject::tr("stream %1").arg(gap.streamId)
                                      : QObject::tr("GPU %1").arg(gap.deviceId);
    QString text = QObject::tr("Idle %1 on %2").arg(ui::units::duration(gap.durationNs), where);
    const QString cause = causeText(gap.cause);
    if (!cause.isEmpty()) {
        text += QStringLiteral(" — ") + cause;
        if (gap.reason.valid()) {
            const auto name = trace.str(trace.slice(gap.reason).nameId);
            text += QStringLiteral(" ") + QString::fromUtf8(name.data(), qsizetype(name.size()));
        }
    } else {
        text += QObject::tr(" — no host call explains it");
    }
    return text;
}

QString warpTooltip(const analysis::WarpUse& w) {
    QString text = QObject::tr("Theoretical occupancy %1 % (%2 of %3 warps per SM, limited by %4)")
                       .arg(w.occupancy.theoreticalPct, 0, 'f', 1)
                       .arg(w.occupancy.activeWarpsPerSm())
                       .arg(w.maxWarps / std::max<std::int64_t>(1, w.smCount))
                       .arg(QString::fromUtf8(analysis::toString(w.occupancy.limiter)));
    text += QObject::tr("\nLanes: %1 of %2 per block (%3 %)")
                .arg(w.lanesUsedPerBlock)
                .arg(w.lanesPerBlock)
                .arg(w.laneUsePct, 0, 'f', 1);
    text += QObject::tr("\nGPU fill: %1 % (%2 of %3 warps, %4 of %5 SMs)")
                .arg(w.gpuFillPct, 0, 'f', w.gpuFillPct < 1.0 ? 3 : 1)
                .arg(w.activeWarps)
                .arg(w.maxWarps)
                .arg(w.smsUsed)
                .arg(w.smCount);
    return text;
}

}  // namespace

ui::TimelineOverlays buildTimelineOverlays(const model::Trace& trace,
                                           const analysis::AnalysisResult& result) {
    ui::TimelineOverlays overlays;
    overlays.gaps.reserve(result.utilization.gaps.size());
    for (const analysis::IdleGap& gap : result.utilization.gaps) {
        overlays.gaps.push_back({gap.deviceId, gap.streamId, gap.startNs, gap.durationNs,
                                 QString::fromUtf8(analysis::toString(gap.cause)),
                                 gapTooltip(trace, gap)});
    }

    // One computation and one tooltip per (device, launch configuration).
    using Key = std::tuple<std::int32_t, std::int64_t, std::int64_t, std::int32_t, std::int32_t>;
    struct Cached {
        bool valid;
        float occupancyPct;
        bool lowFill;
        QString tooltip;
    };
    std::map<Key, Cached> cache;
    const analysis::AnalysisOptions& opt = result.options;
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) {
        const model::Track& track = trace.track(t);
        if (track.kind != model::TrackKind::GpuStream)
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            const model::KernelDetail* k = trace.kernel(s);
            if (!k)
                continue;
            const Key key{track.deviceId, k->blockCount(), k->threadsPerBlock(),
                          k->registersPerThread, k->sharedBytesPerBlock()};
            auto it = cache.find(key);
            if (it == cache.end()) {
                const analysis::WarpUse w = analysis::warpUseOf(trace, result, {t, i});
                Cached c{w.occupancy.valid, static_cast<float>(w.occupancy.theoreticalPct),
                         w.occupancy.valid &&
                             (w.gpuFillPct < opt.lowFillPct || w.laneUsePct < opt.lowLaneUsePct),
                         w.occupancy.valid ? warpTooltip(w) : QString()};
                it = cache.emplace(key, std::move(c)).first;
            }
            if (!it->second.valid)
                continue;
            overlays.kernelBadges.push_back(
                {{t, i}, it->second.occupancyPct, it->second.lowFill, it->second.tooltip});
        }
    }
    return overlays;
}

QString analysisSummary(const analysis::AnalysisResult& r) {
    QStringList parts;
    if (r.utilization.spanNs > 0) {
        parts << QObject::tr("GPU busy %1 %").arg(r.gpuBusyPct(), 0, 'f', 1);
    }
    if (r.overlap.copyNs > 0) {
        parts
            << QObject::tr("copy/compute overlap %1 %").arg(r.overlap.copyComputePct(), 0, 'f', 1);
    }
    if (r.statistics.copyTotalNs > 0) {
        parts << QObject::tr("copies %1 GB/s").arg(r.statistics.copyGbPerSecond(), 0, 'f', 1);
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

std::shared_ptr<const DocumentAnalysis> analyzeDocument(const model::Trace& trace,
                                                        const analysis::AnalysisOptions& options) {
    auto out = std::make_shared<DocumentAnalysis>();
    auto result =
        std::make_shared<analysis::AnalysisResult>(analysis::analyzeTrace(trace, options));
    out->overlays = buildTimelineOverlays(trace, *result);
    out->summary = analysisSummary(*result);
    out->focus = gpuFocusRange(trace);
    out->result = std::move(result);
    return out;
}

}  // namespace wl::app
