#include <algorithm>
#include <map>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

static void checkSyncApiInLoop(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    // Only idle time that began while the launching thread was inside a blocking call counts: a
    // wait that returns while queued work still runs costs nothing.
    for (const IdleAttribution& a : ctx.result.utilization.attribution) {
        if (a.idleNs <= 0 ||
            a.pct(GapCause::AfterBlockingCall) < ctx.options.minBlockingIdleSharePct) {
            continue;
        }
        const auto addGap = [&](Diagnostic& d, std::map<std::string, std::uint64_t>& names,
                                const IdleGap& gap) {
            d.rule = RuleId::SyncApiInLoop;
            d.deviceId = a.deviceId;
            ++d.count;
            d.costNs += gap.durationNs;
            ++names[std::string(baseApiName(ctx.trace.str(ctx.trace.slice(gap.reason).nameId)))];
            rules::addEvidence(d, gap.reason, ctx.options.maxEvidence);
            rules::cover(d, ctx.trace, gap.reason);
            rules::cover(d, ctx.trace, gap.after);
        };
        std::map<model::TrackIndex, std::vector<const IdleGap*>> gapsByThread;
        for (const IdleGap& gap : ctx.result.utilization.gaps) {
            if (gap.deviceId != a.deviceId || gap.streamId != -1 ||
                gap.cause != GapCause::AfterBlockingCall || !gap.reason.valid() ||
                gap.durationNs < ctx.options.minIdleAfterSyncNs) {
                continue;
            }
            gapsByThread[gap.reason.track].push_back(&gap);
        }
        std::map<model::TrackIndex, Diagnostic> byThread;
        std::map<model::TrackIndex, std::map<std::string, std::uint64_t>> namesByThread;
        for (auto& [thread, gaps] : gapsByThread) {
            // What a loop's wait costs is what it costs each time: a one-off gap far longer than
            // the typical one (a program's start-up after its first sync, seconds of imports) is
            // some other host task, and is left to the other findings.
            std::vector<model::TimeNs> durations;
            for (const IdleGap* g : gaps) {
                durations.push_back(g->durationNs);
            }
            std::nth_element(durations.begin(), durations.begin() + durations.size() / 2,
                             durations.end());
            const model::TimeNs typical = durations[durations.size() / 2];
            const model::TimeNs outlier = std::max(ctx.options.syncLoopOutlierFactor * typical,
                                                   ctx.options.syncLoopOutlierMinNs);
            for (const IdleGap* g : gaps) {
                if (g->durationNs > outlier) {
                    continue;
                }
                addGap(byThread[thread], namesByThread[thread], *g);
            }
        }
        for (auto& [thread, d] : byThread) {
            // A loop repeats itself: the same call must drain the GPU that many times (a few
            // different waits during setup are not a loop).
            const auto& names = namesByThread[thread];
            std::uint64_t mostRepeated = 0;
            std::string list;
            for (const auto& [name, n] : names) {
                mostRepeated = std::max(mostRepeated, n);
                list += (list.empty() ? "" : ", ") + name + " x" + std::to_string(n);
            }
            if (mostRepeated < static_cast<std::uint64_t>(ctx.options.syncInLoopMinCount)) {
                continue;
            }
            const std::int64_t tid = ctx.trace.track(thread).threadId;
            d.message = std::to_string(d.count) + " blocking calls of thread " +
                        std::to_string(tid) + " (" + list + ") drained GPU " +
                        std::to_string(a.deviceId) +
                        "'s queue before more work was launched: " + formatDuration(d.costNs) +
                        " of idle time began inside them (" +
                        formatPercent(a.pct(GapCause::AfterBlockingCall)) +
                        " of the GPU's idle time followed a blocking call)";
            d.fix =
                "Enqueue the next batch before waiting: copy results with cudaMemcpyAsync into "
                "pinned memory, record an event and synchronise on it only where the host needs "
                "the value";
            out.push_back(std::move(d));
        }
    }
}

std::span<const Rule> syncRules() {
    static constexpr Rule kRules[] = {
        {RuleId::SyncApiInLoop, "sync-api-in-loop", checkSyncApiInLoop, /*deviceWide=*/true},
    };
    return kRules;
}

}  // namespace wl::analysis
