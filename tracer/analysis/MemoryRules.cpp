#include <map>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

// cudaMalloc/cudaFree made again and again inside the window: each cudaFree waits for the whole
// device (it drains every stream's queue), and a synchronous allocation can too; in a loop that
// is a synchronisation per iteration the code never asked for.
static void checkAllocInLoop(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    Diagnostic d;
    d.rule = RuleId::AllocInLoop;
    std::map<std::string, std::uint64_t> calls;
    std::map<model::StringId, bool> isAllocation;  // names repeat: classify each once
    model::TimeNs allocatingNs = 0;                // host time inside allocations (not frees)
    for (std::uint32_t ti = 0; ti < ctx.trace.tracks().size(); ++ti) {
        const model::Track& track = ctx.trace.track(ti);
        if (track.kind != model::TrackKind::HostApi)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const model::Slice& s = track.slices[si];
            auto [it, fresh] = isAllocation.try_emplace(s.nameId, false);
            if (fresh)
                it->second = isSyncAllocationApi(ctx.trace.str(s.nameId));
            if (!it->second || !ctx.result.window().contains(s.startNs))
                continue;
            const std::string_view name = baseApiName(ctx.trace.str(s.nameId));
            ++calls[std::string(name)];
            ++d.count;
            if (!isDeviceSyncFreeApi(name))
                allocatingNs += s.durationNs;
            rules::addEvidence(d, {ti, si}, ctx.options.maxEvidence);
            rules::cover(d, ctx.trace, {ti, si});
        }
    }
    // What the frees cost the GPU: the idle time after a free drained its queue.
    model::TimeNs drainedNs = 0;
    for (const IdleGap& gap : ctx.result.utilization.gaps) {
        if (gap.streamId == -1 && gap.cause == GapCause::AfterBlockingCall && gap.reason.valid() &&
            isDeviceSyncFreeApi(ctx.trace.str(ctx.trace.slice(gap.reason).nameId)))
            drainedNs += gap.durationNs;
    }
    d.costNs = drainedNs + allocatingNs;
    std::uint64_t mostRepeated = 0;
    std::string list;
    for (const auto& [name, n] : calls) {
        mostRepeated = std::max(mostRepeated, n);
        list += (list.empty() ? "" : ", ") + name + " x" + std::to_string(n);
    }
    const model::TimeNs windowNs = ctx.result.window().durationNs();
    const double sharePct =
        windowNs > 0 ? 100.0 * static_cast<double>(d.costNs) / static_cast<double>(windowNs) : 0.0;
    if (mostRepeated < static_cast<std::uint64_t>(ctx.options.allocInLoopMinCount) ||
        sharePct < ctx.options.allocInLoopMinSharePct)
        return;
    d.message = std::to_string(d.count) + " allocation and free calls in the window (" + list +
                "): the GPU idled " + formatDuration(drainedNs) +
                " after frees that waited for every stream to finish, and the host spent " +
                formatDuration(allocatingNs) + " allocating (" + formatPercent(sharePct) +
                " of the window together)";
    d.fix =
        "Allocate once before the loop and reuse the buffers, or use stream-ordered allocation "
        "(cudaMallocAsync/cudaFreeAsync with a memory pool), which neither blocks the host nor "
        "drains the GPU. Under PyTorch or CuPy these calls mean the caching allocator keeps "
        "growing or is emptied (torch.cuda.empty_cache, free_all_blocks): keep tensor shapes "
        "stable and do not empty the cache inside the loop";
    out.push_back(std::move(d));
}

std::span<const Rule> memoryRules() {
    static constexpr Rule kRules[] = {
        {RuleId::AllocInLoop, "alloc-in-loop", checkAllocInLoop},
    };
    return kRules;
}

}  // namespace wl::analysis
