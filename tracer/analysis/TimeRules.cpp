#include <algorithm>
#include <array>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

void checkGpuGaps(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        Diagnostic d;
        d.rule = RuleId::GpuGap;
        d.deviceId = dev.deviceId;
        std::array<std::uint64_t, 3> byCause{};
        std::array<model::TimeNs, 3> nsByCause{};
        for (const IdleGap& gap : ctx.result.utilization.gaps) {
            if (gap.deviceId != dev.deviceId || gap.streamId != -1) {
                continue;
            }
            ++d.count;
            d.costNs += gap.durationNs;
            ++byCause[static_cast<std::size_t>(gap.cause)];
            nsByCause[static_cast<std::size_t>(gap.cause)] += gap.durationNs;
            rules::addEvidence(d, gap.before, ctx.options.maxEvidence);
            rules::addEvidence(d, gap.after, ctx.options.maxEvidence);
            d.startNs = d.count == 1 ? gap.startNs : std::min(d.startNs, gap.startNs);
            d.endNs = std::max(d.endNs, gap.endNs());
        }
        if (d.count == 0) {
            continue;
        }
        const double share = dev.spanNs() > 0 ? 100.0 * d.costNs / dev.spanNs() : 0.0;
        d.message = "GPU " + std::to_string(dev.deviceId) + " sat idle in " +
                    std::to_string(d.count) + " gap" + (d.count == 1 ? "" : "s") + " of " +
                    formatDuration(ctx.options.gapThresholdNs) + " or more, " +
                    formatDuration(d.costNs) + " in all (" + formatPercent(share) +
                    " of its span): " + std::to_string(byCause[0]) + " host_sync, " +
                    std::to_string(byCause[1]) + " host_launch, " + std::to_string(byCause[2]) +
                    " other";
        const auto worst = static_cast<GapCause>(
            std::max_element(nsByCause.begin(), nsByCause.end()) - nsByCause.begin());
        switch (worst) {
            case GapCause::HostSync:
                d.fix =
                    "Most idle time follows a host wait: queue the next work before synchronising, "
                    "and synchronise on events only where the host needs results";
                break;
            case GapCause::HostLaunch:
                d.fix =
                    "Most idle time is the host launching late: move host work out of the launch "
                    "path, launch ahead on streams, or capture the sequence in a CUDA graph";
                break;
            case GapCause::Other:
                d.fix =
                    "Look at what the host does in the gaps (NVTX ranges help) and overlap it with "
                    "GPU work";
                break;
        }
        out.push_back(std::move(d));
    }
}

void checkLowUtilization(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    const std::int32_t windows = std::max(ctx.options.utilizationWindows, 1);
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        if (dev.spanNs() < ctx.options.minUtilizationSpanNs) {
            continue;
        }
        const IntervalSet busy = ctx.ops.busy(dev.deviceId);
        Diagnostic d;
        d.rule = RuleId::LowUtilization;
        d.deviceId = dev.deviceId;
        double worstPct = 100.0;
        model::TimeNs worstStart = 0;
        model::TimeNs worstEnd = 0;
        for (std::int32_t w = 0; w < windows; ++w) {
            const model::TimeNs a = dev.firstNs + dev.spanNs() * w / windows;
            const model::TimeNs b = dev.firstNs + dev.spanNs() * (w + 1) / windows;
            if (b <= a) {
                continue;
            }
            const model::TimeNs covered = busy.coveredNs(a, b);
            const double pct = 100.0 * covered / static_cast<double>(b - a);
            if (pct >= ctx.options.lowUtilizationPct) {
                continue;
            }
            ++d.count;
            d.costNs += (b - a) - covered;
            d.startNs = d.count == 1 ? a : std::min(d.startNs, a);
            d.endNs = std::max(d.endNs, b);
            if (pct < worstPct) {
                worstPct = pct;
                worstStart = a;
                worstEnd = b;
            }
        }
        if (d.count == 0) {
            continue;
        }
        // Evidence: the ops in the worst window, or the two around it when it was empty.
        const GpuOp* before = nullptr;
        const GpuOp* after = nullptr;
        for (const GpuOp& op : ctx.ops.all()) {
            if (op.deviceId != dev.deviceId) {
                continue;
            }
            if (op.endNs <= worstStart) {
                before = &op;
            } else if (op.startNs >= worstEnd) {
                if (after == nullptr) {
                    after = &op;
                }
            } else {
                rules::addEvidence(d, op.ref, ctx.options.maxEvidence);
            }
        }
        if (d.evidence.empty()) {
            rules::addEvidence(d, before != nullptr ? before->ref : model::SliceRef{}, 2);
            rules::addEvidence(d, after != nullptr ? after->ref : model::SliceRef{}, 2);
        }
        d.severity = Severity::Info;
        d.message = std::to_string(d.count) + " of " + std::to_string(windows) + " windows of " +
                    formatDuration(dev.spanNs() / windows) + " kept GPU " +
                    std::to_string(dev.deviceId) + " busy less than " +
                    formatPercent(ctx.options.lowUtilizationPct) + " of the time (worst " +
                    formatPercent(worstPct) + ")";
        d.fix =
            "Zoom into these windows: the host is the bottleneck there (launch overhead, waits, "
            "or host work that could overlap the GPU)";
        out.push_back(std::move(d));
    }
}

}  // namespace wl::analysis
