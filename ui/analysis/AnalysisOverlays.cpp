#include "ui/analysis/AnalysisOverlays.h"

#include <array>
#include <map>

#include <QStringList>

#include "analysis/ApiNames.h"
#include "analysis/Format.h"

namespace wl::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString sliceName(const model::Trace& trace, model::SliceRef ref) {
    const std::string_view name = analysis::shownName(trace, trace.slice(ref));
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString kernelTooltip(const analysis::WarpUse& w) {
    QString t = QStringLiteral("Theoretical occupancy %1 (%2 blocks/SM, limited by %3)")
                    .arg(qs(analysis::formatPercent(w.occupancy.theoreticalPct)))
                    .arg(w.occupancy.blocksPerSm)
                    .arg(QString::fromLatin1(analysis::toString(w.occupancy.limiter)));
    t += QStringLiteral("\n%1 block(s) x %2 thread(s): %3 of %4 lanes per block")
             .arg(w.blocks)
             .arg(w.threadsPerBlock)
             .arg(w.lanesUsedPerBlock)
             .arg(w.lanesPerBlock);
    t += QStringLiteral("\nGPU fill %1 (%2 of %3 resident blocks)")
             .arg(qs(analysis::formatPercent(w.gpuFillPct)))
             .arg(w.residentBlocks)
             .arg(std::int64_t{w.smCount} * w.occupancy.blocksPerSm);
    t += QStringLiteral("\n%1 of %2 warps on %3 of %4 SMs")
             .arg(w.activeWarps)
             .arg(w.maxWarps)
             .arg(w.smsUsed)
             .arg(w.smCount);
    return t;
}

}  // namespace

QString gapCauseText(analysis::GapCause cause) {
    switch (cause) {
        case analysis::GapCause::AfterBlockingCall:
            return QStringLiteral(
                "the host was inside a blocking call when the GPU ran dry, and launched the next "
                "work only after it returned");
        case analysis::GapCause::GpuWait:
            return QStringLiteral(
                "the next work was already queued and waited (an event, another stream or the "
                "device)");
        case analysis::GapCause::Host:
            break;
    }
    return QStringLiteral("the host was busy elsewhere and issued no work");
}

QString gapTooltip(const model::Trace& trace, const GapOverlay& gap) {
    QStringList lines;
    lines << (gap.streamId < 0 ? QStringLiteral("On GPU %1").arg(gap.deviceId)
                               : QStringLiteral("On stream %1").arg(gap.streamId));
    lines << gapCauseText(
        analysis::gapCauseFromString(gap.cause.toStdString()).value_or(analysis::GapCause::Host));
    if (gap.reason.valid()) {
        lines << QStringLiteral("Blocking call: %1").arg(sliceName(trace, gap.reason));
    }
    if (gap.hostRange.valid()) {
        lines << QStringLiteral("Host range: %1").arg(sliceName(trace, gap.hostRange));
    }
    if (gap.launch.valid()) {
        lines << QStringLiteral("Ended by work launched with %1").arg(sliceName(trace, gap.launch));
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

// Gaps depend on the analysis window; warp badges do not (every kernel of the trace gets one).
std::vector<GapOverlay> makeGapOverlays(const analysis::AnalysisResult& result) {
    std::vector<GapOverlay> out;
    out.reserve(result.utilization.gaps.size());
    for (const analysis::IdleGap& g : result.utilization.gaps) {
        // Only gaps where the whole GPU idles are drawn: a stream waiting while others work is
        // how async code looks, and hatching every such wait buried the work itself. Per-stream
        // gaps stay in the analysis (`warpline analyze`).
        if (g.streamId >= 0) {
            continue;
        }
        GapOverlay o;
        o.deviceId = g.deviceId;
        o.streamId = g.streamId;
        o.startNs = g.startNs;
        o.durationNs = g.durationNs;
        o.cause = QString::fromLatin1(analysis::toString(g.cause));
        o.reason = g.reason;
        o.hostRange = g.hostRange;
        o.launch = g.launch;
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<KernelBadge> makeKernelBadges(const model::Trace& trace,
                                          const analysis::AnalysisResult& result) {
    std::vector<KernelBadge> out;
    // Launch configurations repeat (every launch has its own detail record, but a workload has a
    // handful of configurations): compute each configuration's warp use and text once, and let the
    // badges share the text (QString is implicitly shared), so 1M launches cost 1M small badges.
    struct Cached {
        analysis::WarpUse use;
        QString tooltip;
        analysis::WarpFlags flags;
    };
    using ConfigKey = std::array<std::int32_t, 10>;
    std::map<ConfigKey, Cached> cache;
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind != model::TrackKind::GpuStream) {
            continue;
        }
        const std::int32_t device = track.deviceId < 0 ? 0 : track.deviceId;
        const analysis::DeviceLimits& limits = result.limitsFor(device);
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            const model::KernelDetail* k =
                s.kind == model::SliceKind::Kernel ? trace.kernel(s) : nullptr;
            if (k == nullptr) {
                continue;
            }
            const ConfigKey key{device,
                                k->grid[0],
                                k->grid[1],
                                k->grid[2],
                                k->block[0],
                                k->block[1],
                                k->block[2],
                                k->registersPerThread,
                                k->staticSharedBytes,
                                k->dynamicSharedBytes};
            auto it = cache.find(key);
            if (it == cache.end()) {
                Cached c;
                c.use = analysis::computeWarpUse(limits, *k);
                if (!c.use.occupancy.valid) {
                    c.tooltip = QStringLiteral(
                                    "Occupancy unknown: the trace has no device "
                                    "properties for GPU %1")
                                    .arg(device);
                } else {
                    c.tooltip = kernelTooltip(c.use);
                }
                // The triangle means the grid is too small for the GPU; a kernel that fills
                // every SM with few warps each (cuBLAS gemv: 18.8 % occupancy, fill 100 %) has
                // low occupancy instead, which its gauge and tooltip say. The rule's judgement.
                c.flags = analysis::judgeWarpUse(c.use, result.options);
                it = cache.emplace(key, std::move(c)).first;
            }
            if (!it->second.use.occupancy.valid) {
                continue;
            }
            KernelBadge b;
            b.slice = {t, i};
            b.occupancyPct = it->second.use.occupancy.theoreticalPct;
            b.lowFill = it->second.flags.lowFill;
            b.lowOccupancy = it->second.flags.lowOccupancy;
            b.tooltip = it->second.tooltip;
            out.push_back(std::move(b));
        }
    }
    return out;
}

}  // namespace

TimelineOverlays makeOverlays(const model::Trace& trace, const analysis::AnalysisResult& result,
                              std::shared_ptr<const std::vector<KernelBadge>> badges) {
    TimelineOverlays out;
    out.gaps = makeGapOverlays(result);
    out.gapDetails = &gapTooltip;
    out.kernelBadges =
        badges ? std::move(badges)
               : std::make_shared<const std::vector<KernelBadge>>(makeKernelBadges(trace, result));
    return out;
}

}  // namespace wl::ui
