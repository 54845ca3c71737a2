#include <algorithm>
#include <map>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/KernelNames.h"
#include "analysis/Rules.h"
#include "analysis/UnifiedMemoryStalls.h"

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

// Kernels that ran while the driver serviced their GPU's page faults on managed memory or
// migrated it there: a kernel that touches pages still on the host waits for each batch of
// faults to be serviced, and reads as a slow kernel unless the traffic is shown beside it.
static void checkUnifiedMemoryStalls(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    const std::vector<KernelUnifiedMemory> kernels = kernelsUnderUnifiedMemory(ctx.trace, ctx.ops);
    // By GPU: each device's stalled kernels are one finding.
    std::map<std::int32_t, std::vector<const KernelUnifiedMemory*>> byDevice;
    for (const KernelUnifiedMemory& k : kernels) {
        if (k.kernelNs > 0 &&
            100.0 * static_cast<double>(k.coveredNs) >=
                ctx.options.unifiedMemoryStallKernelPct * static_cast<double>(k.kernelNs))
            byDevice[ctx.trace.track(k.kernel.track).deviceId].push_back(&k);
    }
    const model::TimeNs windowNs = ctx.result.window().durationNs();
    for (const auto& [device, stalled] : byDevice) {
        Diagnostic d;
        d.rule = RuleId::UnifiedMemoryStallsKernel;
        d.deviceId = device;
        model::TimeNs kernelNs = 0;
        std::uint64_t faults = 0;
        std::uint64_t migrated = 0;
        std::uint64_t toGpu = 0;
        const KernelUnifiedMemory* worst = stalled.front();
        for (const KernelUnifiedMemory* k : stalled) {
            ++d.count;
            kernelNs += k->kernelNs;
            d.costNs += k->coveredNs;
            faults += k->faults;
            migrated += k->migratedBytes;
            toGpu += k->toGpuBytes;
            if (k->coveredNs > worst->coveredNs)
                worst = k;
            rules::addEvidence(d, k->kernel, ctx.options.maxEvidence);
            rules::cover(d, ctx.trace, k->kernel);
        }
        // The traffic after the kernels, as far as the cap allows: the slices that show why.
        for (const KernelUnifiedMemory* k : stalled) {
            for (const model::SliceRef e : k->events) {
                if (std::find(d.evidence.begin(), d.evidence.end(), e) == d.evidence.end())
                    rules::addEvidence(d, e, ctx.options.maxEvidence);
            }
        }
        if (windowNs <= 0 ||
            100.0 * static_cast<double>(d.costNs) <
                ctx.options.unifiedMemoryStallWindowPct * static_cast<double>(windowNs))
            continue;
        const auto pct = [](model::TimeNs part, model::TimeNs whole) {
            return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
        };
        std::string traffic;
        if (faults > 0)
            traffic = std::to_string(faults) + " GPU page faults";
        if (migrated > 0) {
            traffic += (traffic.empty() ? "" : " and ") + formatBytes(migrated) + " migrated (" +
                       formatBytes(toGpu) + " to the GPU)";
        }
        if (traffic.empty())
            traffic = "throttling of its page faults";
        const std::string worstName =
            shortKernelName(ctx.trace.str(ctx.trace.slice(worst->kernel).nameId));
        d.message = std::to_string(d.count) + " kernel run(s) on GPU " + std::to_string(device) +
                    " waited for unified memory: " + formatDuration(d.costNs) + " (" +
                    formatPercent(pct(d.costNs, kernelNs)) + ") of their " +
                    formatDuration(kernelNs) + " ran while the driver serviced " + traffic +
                    "; most: " + worstName + " (" +
                    formatPercent(pct(worst->coveredNs, worst->kernelNs)) + " of " +
                    formatDuration(worst->kernelNs) + ")";
        d.fix =
            "Move managed memory to the GPU before the kernel needs it: cudaMemPrefetchAsync(ptr, "
            "bytes, device, stream) on the kernel's stream before the launch (and back to the "
            "host, cudaCpuDeviceId, before the host reads it), or tell the driver where it lives: "
            "cudaMemAdvise with cudaMemAdviseSetPreferredLocation on the GPU, and "
            "cudaMemAdviseSetAccessedBy for memory the GPU only reads in place. Initialising the "
            "data on the GPU instead of the host avoids the first migration altogether";
        if (faults == 0)
            d.fix += ". Record with --cuda-um-gpu-page-faults=true to see the page faults too";
        out.push_back(std::move(d));
    }
}

std::span<const Rule> memoryRules() {
    static constexpr Rule kRules[] = {
        {RuleId::AllocInLoop, "alloc-in-loop", checkAllocInLoop},
        {RuleId::UnifiedMemoryStallsKernel, "unified-memory-stalls-kernel",
         checkUnifiedMemoryStalls},
    };
    return kRules;
}

}  // namespace wl::analysis
