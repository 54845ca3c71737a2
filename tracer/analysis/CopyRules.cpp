#include <algorithm>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

using rules::addEvidence;
using rules::cover;

static void checkPageableMemcpy(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    Diagnostic d;
    d.rule = RuleId::PageableMemcpy;
    std::uint64_t bytes = 0;
    for (const GpuOp& op : ctx.ops.all()) {
        if (op.kind != GpuOpKind::Memcpy || op.continuation) {
            continue;
        }
        const model::MemcpyDetail* m = ctx.trace.memcpy(ctx.trace.slice(op.ref));
        if (m == nullptr || (m->srcKind != model::MemoryKind::Pageable &&
                             m->dstKind != model::MemoryKind::Pageable)) {
            continue;
        }
        ++d.count;
        bytes += m->bytes;
        d.costNs += op.endNs - op.startNs;
        addEvidence(d, op.ref, ctx.options.maxEvidence);
        cover(d, ctx.trace, op.ref);
    }
    // A few bytes of pageable copies (a scalar read back) cost nothing worth fixing.
    if (d.count == 0 || bytes < ctx.options.minPageableBytes) {
        return;
    }
    const double gbps = d.costNs > 0 ? static_cast<double>(bytes) / d.costNs : 0.0;
    d.message = std::to_string(d.count) + " cop" + (d.count == 1 ? "y" : "ies") + " (" +
                formatBytes(bytes) + ", " + formatDuration(d.costNs) +
                ") use pageable host memory: the driver stages them through a pinned buffer, at " +
                formatRate(gbps) + ", and they cannot overlap other work";
    d.fix =
        "Allocate the host buffers pinned (cudaMallocHost / cudaHostRegister; cuda.pinned_array "
        "in Numba) so copies run at full link speed and can be asynchronous";
    out.push_back(std::move(d));
}

static void checkSyncMemcpy(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    Diagnostic d;
    d.rule = RuleId::SyncMemcpy;
    std::uint64_t bytes = 0;
    model::TimeNs hostBlockedNs = 0;
    for (const GpuOp& op : ctx.ops.all()) {
        if (op.kind != GpuOpKind::Memcpy || op.continuation) {
            continue;
        }
        const model::SliceRef call = rules::launchingCall(ctx.trace, op.ref);
        if (!call.valid()) {
            continue;
        }
        const model::Slice& api = ctx.trace.slice(call);
        if (!isBlockingCopyApi(ctx.trace.str(api.nameId))) {
            continue;
        }
        const model::MemcpyDetail* m = ctx.trace.memcpy(ctx.trace.slice(op.ref));
        const std::uint64_t size = m != nullptr ? m->bytes : 0;
        // Same-device copies return at once; small H2D copies are staged and return early.
        if (op.copyKind == model::CopyKind::DeviceToDevice) {
            continue;
        }
        if (op.copyKind == model::CopyKind::HostToDevice && size <= ctx.options.smallCopyBytes) {
            continue;
        }
        ++d.count;
        bytes += size;
        hostBlockedNs += api.durationNs;
        addEvidence(d, call, ctx.options.maxEvidence);
        addEvidence(d, op.ref, ctx.options.maxEvidence);
        cover(d, ctx.trace, call);
        cover(d, ctx.trace, op.ref);
    }
    if (d.count == 0) {
        return;
    }
    d.costNs = hostBlockedNs;
    d.message = std::to_string(d.count) + " synchronous cop" + (d.count == 1 ? "y" : "ies") + " (" +
                formatBytes(bytes) + ") kept the host blocked for " +
                formatDuration(hostBlockedNs) + ": it could not queue more work meanwhile";
    d.fix =
        "Use cudaMemcpyAsync from pinned memory on a non-default stream and synchronise once "
        "(on an event) where the host needs the data";
    out.push_back(std::move(d));
}

static void checkMissedCopyOverlap(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        const IntervalSet copies = ctx.ops.busyOf(dev.deviceId, GpuOpKind::Memcpy);
        const IntervalSet kernels = ctx.ops.busyOf(dev.deviceId, GpuOpKind::Kernel);
        if (dev.busyNs <= 0 || copies.empty() || kernels.empty()) {
            continue;
        }
        const double copyShare = 100.0 * copies.totalNs() / static_cast<double>(dev.busyNs);
        const double kernelShare = 100.0 * kernels.totalNs() / static_cast<double>(dev.busyNs);
        const model::TimeNs overlapped = copies.intersectionNs(kernels);
        const double overlapPct = 100.0 * overlapped / static_cast<double>(copies.totalNs());
        if (copyShare < ctx.options.minOverlapCandidatePct ||
            kernelShare < ctx.options.minOverlapCandidatePct ||
            overlapPct >= ctx.options.missedOverlapPct) {
            continue;
        }
        Diagnostic d;
        d.rule = RuleId::MissedCopyOverlap;
        d.deviceId = dev.deviceId;
        // The copies that ran with no kernel at all, longest first as evidence.
        std::vector<const GpuOp*> alone;
        for (const GpuOp& op : ctx.ops.all()) {
            if (op.deviceId == dev.deviceId && op.kind == GpuOpKind::Memcpy &&
                kernels.coveredNs(op.startNs, op.endNs) == 0) {
                alone.push_back(&op);
            }
        }
        std::stable_sort(alone.begin(), alone.end(), [](const GpuOp* a, const GpuOp* b) {
            return a->endNs - a->startNs > b->endNs - b->startNs;
        });
        d.count = alone.size();
        for (const GpuOp* op : alone) {
            addEvidence(d, op->ref, ctx.options.maxEvidence);
            cover(d, ctx.trace, op->ref);
        }
        d.costNs = std::min(copies.totalNs(), kernels.totalNs()) - overlapped;
        d.message = "Copies (" + formatDuration(copies.totalNs()) + ") and kernels (" +
                    formatDuration(kernels.totalNs()) + ") ran one after the other (" +
                    formatPercent(overlapPct) + " of copy time overlapped): up to " +
                    formatDuration(d.costNs) + " could be hidden";
        d.fix =
            "Split the data into chunks, each with its own stream (copy in, compute, copy out) "
            "and pinned host memory, so one chunk's copies run under another's kernels";
        out.push_back(std::move(d));
    }
}

std::span<const Rule> copyRules() {
    static constexpr Rule kRules[] = {
        {RuleId::PageableMemcpy, "pageable-memcpy", checkPageableMemcpy},
        {RuleId::SyncMemcpy, "sync-memcpy", checkSyncMemcpy},
        {RuleId::MissedCopyOverlap, "missed-copy-overlap", checkMissedCopyOverlap,
         /*deviceWide=*/true},
    };
    return kRules;
}

}  // namespace wl::analysis
