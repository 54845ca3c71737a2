#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/KernelNames.h"
#include "analysis/Rules.h"

namespace wl::analysis {

// A rank that waits for the others inside its collectives. An NCCL kernel (all-reduce,
// all-gather, broadcast, ...) starts when its rank gets there and ends when the last rank has
// joined and the data has moved, so on a rank that arrives early it is long and mostly waiting:
// the rank's GPU looks busy while it does nothing. The shortest instance of a GPU's collectives
// is about what one costs when nobody is late; the time above it is counted as waiting. One
// finding per GPU whose collectives take collectiveWaitMinSharePct of the window.
static void checkCollectiveWait(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    struct Collectives {
        std::vector<const GpuOp*> ops;
        model::TimeNs totalNs = 0;
        model::TimeNs shortestNs = 0;
        model::TimeNs startNs = 0;
        model::TimeNs endNs = 0;
    };
    std::map<std::int32_t, Collectives> byDevice;
    CollectiveKernels collectives(ctx.trace);
    for (const GpuOp& op : ctx.ops.all()) {
        if (op.kind != GpuOpKind::Kernel || op.continuation ||
            !collectives.contains(ctx.trace.slice(op.ref).nameId))
            continue;
        Collectives& c = byDevice[op.deviceId];
        const model::TimeNs d = op.endNs - op.startNs;
        if (c.ops.empty()) {
            c.shortestNs = d;
            c.startNs = op.startNs;
        }
        c.ops.push_back(&op);
        c.totalNs += d;
        c.shortestNs = std::min(c.shortestNs, d);
        c.endNs = std::max(c.endNs, op.endNs);
    }
    const model::TimeNs windowNs = ctx.result.window().durationNs();
    for (auto& [device, c] : byDevice) {
        const double sharePct =
            windowNs > 0 ? 100.0 * static_cast<double>(c.totalNs) / static_cast<double>(windowNs)
                         : 0.0;
        if (sharePct < ctx.options.collectiveWaitMinSharePct || c.ops.size() < 2)
            continue;
        const model::TimeNs waitNs =
            c.totalNs - static_cast<model::TimeNs>(c.ops.size()) * c.shortestNs;
        // The longest ones first: the steps where this rank waited most.
        std::sort(c.ops.begin(), c.ops.end(), [](const GpuOp* a, const GpuOp* b) {
            return a->endNs - a->startNs > b->endNs - b->startNs;
        });
        const GpuOp& longest = *c.ops.front();
        Diagnostic d;
        d.rule = RuleId::CollectiveWait;
        d.deviceId = device;
        d.count = c.ops.size();
        d.costNs = waitNs;
        d.startNs = c.startNs;
        d.endNs = c.endNs;
        for (const GpuOp* op : c.ops)
            rules::addEvidence(d, op->ref, ctx.options.maxEvidence);
        const std::string gpu = "GPU " + std::to_string(device);
        d.message = gpu + " spent " + formatDuration(c.totalNs) + " (" + formatPercent(sharePct) +
                    " of the window) in " + std::to_string(c.ops.size()) +
                    " NCCL collectives; the shortest took " + formatDuration(c.shortestNs) +
                    ", so about " + formatDuration(waitNs) +
                    " of it was this rank waiting for the other ranks to join (the longest " +
                    formatDuration(longest.endNs - longest.startNs) + ", '" +
                    shortKernelName(ctx.trace.str(ctx.trace.slice(longest.ref).nameId)) + "')";
        d.fix =
            "A collective's kernel runs until every rank has joined, so its length here is "
            "another rank's lateness, not this GPU's work. Open the ranks' traces together "
            "(warpline analyze rank0.json rank1.json ...) to see which rank is late in each "
            "step and why (host work before the step, data loading, a larger share of the "
            "work), then balance the ranks or overlap the communication with compute";
        out.push_back(std::move(d));
    }
}

std::span<const Rule> collectiveRules() {
    static constexpr Rule kRules[] = {
        {RuleId::CollectiveWait, "collective-wait", checkCollectiveWait},
    };
    return kRules;
}

}  // namespace wl::analysis
