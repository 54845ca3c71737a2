#include <map>
#include <string>
#include <utility>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/KernelNames.h"
#include "analysis/Rules.h"

namespace wl::analysis {

// GPUs that wait for each other: a GPU's idle gap that ends when an op on another GPU it waited
// for (through a CUDA event: a peer copy's source, another device's partial result) finished.
// One finding per (waiting GPU, awaited GPU) whose waits reach the share of the window.
static void checkDevicesWait(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    struct Waits {
        Diagnostic d;
        model::TimeNs longestNs = 0;
        model::SliceRef longestFor;
    };
    std::map<std::pair<std::int32_t, std::int32_t>, Waits> byPair;
    for (const IdleGap& gap : ctx.result.utilization.gaps) {
        if (gap.streamId != -1 || gap.cause != GapCause::GpuWait || !gap.waitedFor.valid())
            continue;
        const std::int32_t awaited = ctx.trace.track(gap.waitedFor.track).deviceId;
        if (awaited < 0 || awaited == gap.deviceId)
            continue;
        Waits& w = byPair[{gap.deviceId, awaited}];
        w.d.costNs += gap.durationNs;
        ++w.d.count;
        rules::addEvidence(w.d, gap.waitedFor, ctx.options.maxEvidence);
        if (w.d.count == 1 || gap.startNs < w.d.startNs)
            w.d.startNs = gap.startNs;
        w.d.endNs = std::max(w.d.endNs, gap.endNs());
        if (gap.durationNs > w.longestNs) {
            w.longestNs = gap.durationNs;
            w.longestFor = gap.waitedFor;
        }
    }
    const model::TimeNs windowNs = ctx.result.window().durationNs();
    for (auto& [pair, w] : byPair) {
        const double sharePct =
            windowNs > 0 ? 100.0 * static_cast<double>(w.d.costNs) / static_cast<double>(windowNs)
                         : 0.0;
        if (sharePct < ctx.options.devicesWaitMinSharePct)
            continue;
        const model::Slice& op = ctx.trace.slice(w.longestFor);
        const std::string opName = op.kind == model::SliceKind::Kernel
                                       ? shortKernelName(ctx.trace.str(op.nameId))
                                       : std::string(ctx.trace.str(op.nameId));
        const std::string gpu = "GPU " + std::to_string(pair.first);
        const std::string other = "GPU " + std::to_string(pair.second);
        w.d.rule = RuleId::DevicesWait;
        w.d.deviceId = pair.first;
        w.d.message = gpu + " idled " + formatDuration(w.d.costNs) + " (" +
                      formatPercent(sharePct) + " of the window) waiting for work on " + other +
                      ": " + std::to_string(w.d.count) + (w.d.count == 1 ? " wait" : " waits") +
                      ", the longest " + formatDuration(w.longestNs) + " for '" + opName +
                      "' on stream " +
                      std::to_string(ctx.trace.track(w.longestFor.track).streamId) + " of " + other;
        w.d.fix =
            "A GPU that needs another's result waits for the slower one: give the devices "
            "equal shares of the work, start the exchange (peer copies) as soon as each part "
            "is ready, and queue independent work on " +
            gpu + " (another stream) before the wait so it has something to do meanwhile";
        out.push_back(std::move(w.d));
    }
}

std::span<const Rule> deviceRules() {
    static constexpr Rule kRules[] = {
        {RuleId::DevicesWait, "devices-wait", checkDevicesWait, /*deviceWide=*/true},
    };
    return kRules;
}

}  // namespace wl::analysis
