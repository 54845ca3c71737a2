#include "ui/analysis/AnalysisOverlays.h"

#include <array>
#include <map>

#include "analysis/Format.h"

namespace wl::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString causeText(analysis::GapCause cause) {
    switch (cause) {
        case analysis::GapCause::HostSync:
            return QStringLiteral("the host was blocked in a synchronising call");
        case analysis::GapCause::HostLaunch:
            return QStringLiteral("the host launched the next work only after the GPU ran dry");
        case analysis::GapCause::Other:
            break;
    }
    return QStringLiteral("work was queued but waited (dependencies, events or other streams)");
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

QString gapTooltip(const model::Trace& trace, const analysis::IdleGap& gap) {
    QString where = gap.streamId < 0 ? QStringLiteral("GPU %1").arg(gap.deviceId)
                                     : QStringLiteral("stream %1").arg(gap.streamId);
    QString t = QStringLiteral("Idle %1 on %2 — %3: %4")
                    .arg(qs(analysis::formatDuration(gap.durationNs)), where,
                         QString::fromLatin1(analysis::toString(gap.cause)), causeText(gap.cause));
    if (gap.reason.valid()) {
        t += QStringLiteral("\n(%1)").arg(QString::fromUtf8(
            trace.str(trace.slice(gap.reason).nameId).data(),
            static_cast<qsizetype>(trace.str(trace.slice(gap.reason).nameId).size())));
    }
    return t;
}

TimelineOverlays makeOverlays(const model::Trace& trace, const analysis::AnalysisResult& result) {
    TimelineOverlays out;
    out.gaps.reserve(result.utilization.gaps.size());
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
        o.tooltip = gapTooltip(trace, g);
        out.gaps.push_back(std::move(o));
    }
    // Launch configurations repeat (every launch has its own detail record, but a workload has a
    // handful of configurations): compute each configuration's warp use and text once, and let the
    // badges share the text (QString is implicitly shared), so 1M launches cost 1M small badges.
    struct Cached {
        analysis::WarpUse use;
        QString tooltip;
        bool lowFill;
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
                    c.lowFill = false;
                } else {
                    c.tooltip = kernelTooltip(c.use);
                    c.lowFill = c.use.gpuFillPct < result.options.lowFillPct;
                }
                it = cache.emplace(key, std::move(c)).first;
            }
            if (!it->second.use.occupancy.valid) {
                continue;
            }
            KernelBadge b;
            b.slice = {t, i};
            b.occupancyPct = static_cast<float>(it->second.use.occupancy.theoreticalPct);
            b.lowFill = it->second.lowFill;
            b.tooltip = it->second.tooltip;
            out.kernelBadges.push_back(std::move(b));
        }
    }
    return out;
}

}  // namespace wl::ui
