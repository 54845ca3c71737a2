#include <algorithm>
#include <array>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

namespace {

const IdleAttribution* attributionOf(const RuleContext& ctx, std::int32_t deviceId) {
    for (const IdleAttribution& a : ctx.result.utilization.attribution) {
        if (a.deviceId == deviceId) {
            return &a;
        }
    }
    return nullptr;
}

std::string causeShares(const IdleAttribution& a) {
    return formatPercent(a.pct(GapCause::AfterBlockingCall)) + " after a blocking call, " +
           formatPercent(a.pct(GapCause::Host)) + " host not issuing work, " +
           formatPercent(a.pct(GapCause::GpuWait)) + " waiting on queued work";
}

}  // namespace

static void checkGpuGaps(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        const IdleAttribution* attribution = attributionOf(ctx, dev.deviceId);
        Diagnostic d;
        d.rule = RuleId::GpuGap;
        d.deviceId = dev.deviceId;
        for (const IdleGap& gap : ctx.result.utilization.gaps) {
            if (gap.deviceId != dev.deviceId || gap.streamId != -1) {
                continue;
            }
            ++d.count;
            d.costNs += gap.durationNs;
            rules::addEvidence(d, gap.before, ctx.options.maxEvidence);
            rules::addEvidence(d, gap.after, ctx.options.maxEvidence);
            d.startNs = d.count == 1 ? gap.startNs : std::min(d.startNs, gap.startNs);
            d.endNs = std::max(d.endNs, gap.endNs());
        }
        if (d.count == 0 || attribution == nullptr) {
            continue;
        }
        const double share = dev.spanNs() > 0 ? 100.0 * attribution->idleNs / dev.spanNs() : 0.0;
        // A GPU busy nearly all the window has nothing to fix in its few gaps.
        if (share < ctx.options.minGpuGapIdlePct) {
            continue;
        }
        d.message = "GPU " + std::to_string(dev.deviceId) + " idled " +
                    formatDuration(attribution->idleNs) + " (" + formatPercent(share) +
                    " of the window): " + causeShares(*attribution) + "; " +
                    std::to_string(d.count) + " gap" + (d.count == 1 ? "" : "s") + " of " +
                    formatDuration(ctx.options.gapThresholdNs) + " or more hold " +
                    formatDuration(d.costNs);
        GapCause worst = GapCause::Host;
        for (std::size_t c = 0; c < kGapCauseCount; ++c) {
            if (attribution->nsByCause[c] > attribution->ns(worst)) {
                worst = static_cast<GapCause>(c);
            }
        }
        switch (worst) {
            case GapCause::AfterBlockingCall:
                d.fix =
                    "Most idle time follows a blocking call that drained the GPU's queue: queue "
                    "the next work before synchronising, use cudaMemcpyAsync into pinned memory, "
                    "and wait on events only where the host needs the results";
                break;
            case GapCause::Host:
                d.fix =
                    "Most idle time the host was busy elsewhere and issued nothing: see what it "
                    "did (the host ranges named in the other findings), queue more work before "
                    "host tasks, move them to another thread, or launch fewer, larger operations";
                break;
            case GapCause::GpuWait:
                d.fix =
                    "Most idle time the next operation was already queued and waited on an event, "
                    "another stream or the device: shorten or reorder that dependency";
                break;
        }
        out.push_back(std::move(d));
    }
}

static void checkHostRangeStalls(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    const UtilizationResult& u = ctx.result.utilization;
    const model::TimeNs idle = u.idleNs();
    if (idle <= 0) {
        return;
    }
    std::size_t reported = 0;
    for (const HostRangeIdle& r : u.idleByHostRange) {
        if (reported >= ctx.options.maxHostRangeFindings) {
            break;
        }
        const double share = 100.0 * static_cast<double>(r.idleNs) / static_cast<double>(idle);
        if (share < ctx.options.minHostRangeIdleSharePct) {
            break;  // sorted by idle time: the rest are smaller
        }
        // The range the user asked to analyse says nothing about what happened inside it.
        if (u.window.source == WindowSource::Nvtx && foldDigits(u.window.name) == r.name) {
            continue;
        }
        // Idle time in the ranges that launch the work (a "step N", an outer "Loop" with no
        // inner range at that moment) is the launch path's cost (API and framework overhead:
        // launch-bound says so), not a host task holding the GPU back.
        if (2 * r.launchingNs > r.idleNs) {
            continue;
        }
        Diagnostic d;
        d.rule = RuleId::HostRangeStallsGpu;
        d.count = r.count;
        d.costNs = r.idleNs;
        for (const IdleGap& gap : u.gaps) {
            if (gap.streamId == -1 && gap.hostRange.valid() &&
                foldDigits(ctx.trace.str(ctx.trace.slice(gap.hostRange).nameId)) == r.name) {
                rules::addEvidence(d, gap.hostRange, ctx.options.maxEvidence);
                rules::addEvidence(d, gap.after, ctx.options.maxEvidence);
                d.deviceId = gap.deviceId;
            }
        }
        if (d.evidence.empty()) {
            rules::addEvidence(d, r.example, ctx.options.maxEvidence);
        }
        rules::cover(d, ctx.trace, r.example);
        const model::TimeNs queuedEach =
            r.count > 0 ? r.queuedNs / static_cast<model::TimeNs>(r.count) : 0;
        d.message = "The GPU idled " + formatDuration(r.idleNs) + " (" + formatPercent(share) +
                    " of its idle time) while the host was in '" + r.name + "' (" +
                    std::to_string(r.count) + (r.count == 1 ? " time" : " times") + "); " +
                    formatDuration(queuedEach) + " of GPU work was queued when each began";
        d.fix = "Queue more GPU work before '" + r.name +
                "' so it runs while the host is busy there, move that host work to another "
                "thread, or make it cheaper";
        out.push_back(std::move(d));
        ++reported;
    }
}

// The host tracks (the PyTorch profiler's CPU ops and Python functions) of each host thread, by
// (process, thread id): built once per analysis, looked up per gap.
using HostTracksByThread =
    std::map<std::pair<model::ProcessIndex, std::int64_t>, std::vector<model::TrackIndex>>;

static HostTracksByThread hostTracksByThread(const model::Trace& trace) {
    HostTracksByThread out;
    for (model::TrackIndex ti = 0; ti < trace.tracks().size(); ++ti) {
        const model::Track& track = trace.track(ti);
        if (track.kind == model::TrackKind::Host) {
            out[{track.process, track.threadId}].push_back(ti);
        }
    }
    return out;
}

// The innermost slice of a thread's own profiler ranges (CPU operators and other slices on its
// host tracks) running at t; invalid when none is.
static model::SliceRef innermostHostOpAt(const model::Trace& trace,
                                         const std::vector<model::TrackIndex>& hostTracks,
                                         model::TimeNs t) {
    model::SliceRef found;
    std::uint32_t foundDepth = 0;
    for (const model::TrackIndex ti : hostTracks) {
        const model::Track& track = trace.track(ti);
        for (std::uint32_t depth = 0; depth < track.laneCount(); ++depth) {
            const std::span<const model::Slice> lane = track.lane(depth);
            auto it = std::upper_bound(
                lane.begin(), lane.end(), t,
                [](model::TimeNs v, const model::Slice& s) { return v < s.startNs; });
            if (it == lane.begin()) {
                continue;
            }
            --it;
            const bool hostOp =
                it->kind == model::SliceKind::CpuOp || it->kind == model::SliceKind::Other;
            if (hostOp && it->endNs() > t && (!found.valid() || depth >= foundDepth)) {
                found = {ti,
                         track.laneBegin[depth] + static_cast<std::uint32_t>(it - lane.begin())};
                foundDepth = depth;
            }
        }
    }
    return found;
}

// The stretches of an idle gap in which the thread that launched the work after it was in no
// CUDA call (its outermost calls walked back from the launch), and the longest of them with the
// calls around it.
struct QuietStretches {
    model::TimeNs totalNs = 0;
    model::TimeNs longestNs = 0;
    model::TimeNs longestMidNs = 0;
    model::SliceRef longestFrom;  // the call before the longest stretch (none: the thread's start)
    model::SliceRef longestTo;    // the call after it
};

static QuietStretches quietStretchesOf(const model::Trace& trace, const IdleGap& gap) {
    QuietStretches q;
    const auto stretch = [&](model::TimeNs fromNs, model::TimeNs toNs, model::SliceRef before,
                             model::SliceRef after) {
        if (toNs <= fromNs) {
            return;
        }
        q.totalNs += toNs - fromNs;
        if (toNs - fromNs > q.longestNs) {
            q.longestNs = toNs - fromNs;
            q.longestMidNs = fromNs + (toNs - fromNs) / 2;
            q.longestFrom = before;
            q.longestTo = after;
        }
    };
    const model::Track& thread = trace.track(gap.launch.track);
    model::SliceRef next = gap.launch;
    model::TimeNs nextStartNs = std::min(trace.slice(gap.launch).startNs, gap.endNs());
    for (std::uint32_t i = gap.launch.index; i-- > 0;) {
        const model::Slice& call = thread.slices[i];
        if (call.depth != 0) {
            continue;
        }
        const model::SliceRef ref{gap.launch.track, i};
        stretch(std::max(call.endNs(), gap.startNs), nextStartNs, ref, next);
        if (call.startNs <= gap.startNs) {
            return q;  // a call before the gap's start bounds the walk
        }
        next = ref;
        nextStartNs = call.startNs;
    }
    stretch(gap.startNs, nextStartNs, {}, next);  // no call before it: from the gap's start
    return q;
}

// The GPU idles while the host runs its own code outside any CUDA call and any NVTX range (a
// program that marks nothing: a file write between steps, data preparation): gaps of the host's
// making (not GPU waits) of at least shortGapNs (shorter ones are the launch path's cost,
// launch-bound's), during most of which the thread that launched the next work was in no CUDA call,
// grouped by the two calls around the longest such stretch (a quick cudaStreamSynchronize may split
// the code in two). Reported like host-range-stalls-gpu, by share of the GPU's idle time.
static void checkHostCodeStalls(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    const UtilizationResult& u = ctx.result.utilization;
    const model::TimeNs idle = u.idleNs();
    if (idle <= 0) {
        return;
    }
    struct Group {
        Diagnostic d;
        model::TimeNs longestNs = 0;
    };
    // By (the profiler's range over the code, if any; the call before it; the call after it).
    using Key = std::tuple<std::string_view, std::string_view, std::string_view>;
    std::map<Key, Group> groups;
    const HostTracksByThread threadHostTracks = hostTracksByThread(ctx.trace);
    for (const IdleGap& gap : u.gaps) {
        // After a blocking call too: a call that returned early in the gap, followed by the
        // host's own code for most of it (a result check after each graph launch), leaves the
        // GPU waiting for that code, not for the call.
        if (gap.streamId != -1 || gap.cause == GapCause::GpuWait || gap.hostRange.valid() ||
            !gap.launch.valid() || gap.durationNs < ctx.options.shortGapNs) {
            continue;
        }
        const QuietStretches quiet = quietStretchesOf(ctx.trace, gap);
        if (2 * quiet.totalNs < gap.durationNs || !quiet.longestTo.valid()) {
            continue;  // the host spent most of the gap inside CUDA calls
        }
        const std::string_view before =
            quiet.longestFrom.valid() ? shownName(ctx.trace, ctx.trace.slice(quiet.longestFrom))
                                      : "";
        // A profiler that records the host's own ranges (the PyTorch profiler's CPU ops) names
        // the code.
        const model::Track& thread = ctx.trace.track(gap.launch.track);
        const auto hostTracks = threadHostTracks.find({thread.process, thread.threadId});
        const model::SliceRef op =
            hostTracks == threadHostTracks.end()
                ? model::SliceRef{}
                : innermostHostOpAt(ctx.trace, hostTracks->second, quiet.longestMidNs);
        const std::string_view code = op.valid() ? ctx.trace.str(ctx.trace.slice(op).nameId) : "";
        Group& g = groups[{code, before, shownName(ctx.trace, ctx.trace.slice(quiet.longestTo))}];
        if (op.valid()) {
            rules::addEvidence(g.d, op, ctx.options.maxEvidence);
        }
        g.d.deviceId = g.d.count == 0 || g.d.deviceId == gap.deviceId ? gap.deviceId : -1;
        ++g.d.count;
        g.d.costNs += gap.durationNs;
        g.longestNs = std::max(g.longestNs, gap.durationNs);
        g.d.startNs = g.d.count == 1 ? gap.startNs : std::min(g.d.startNs, gap.startNs);
        g.d.endNs = std::max(g.d.endNs, gap.endNs());
        rules::addEvidence(g.d, quiet.longestFrom, ctx.options.maxEvidence);
        rules::addEvidence(g.d, quiet.longestTo, ctx.options.maxEvidence);
    }
    std::vector<std::pair<Key, Group*>> ranked;
    for (auto& [key, g] : groups) {
        ranked.emplace_back(key, &g);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.second->d.costNs > b.second->d.costNs;
    });
    std::size_t reported = 0;
    for (auto& [key, g] : ranked) {
        const double share = 100.0 * static_cast<double>(g->d.costNs) / static_cast<double>(idle);
        if (reported == ctx.options.maxHostRangeFindings ||
            share < ctx.options.minHostRangeIdleSharePct) {
            break;
        }
        const auto& [code, before, after] = key;
        const std::string where =
            before.empty() ? "before " + std::string(after)
                           : "between " + std::string(before) + " and " + std::string(after);
        Diagnostic d = std::move(g->d);
        d.rule = RuleId::HostCodeStallsGpu;
        const std::string gpu =
            d.deviceId >= 0 ? "GPU " + std::to_string(d.deviceId) : std::string("The GPUs");
        d.message = gpu + " idled " + formatDuration(d.costNs) + " (" + formatPercent(share) +
                    " of its idle time) in " + std::to_string(d.count) + " gap" +
                    (d.count == 1 ? "" : "s") + " while the host ran " +
                    (code.empty() ? std::string("its own code ") : "'" + std::string(code) + "' ") +
                    where + ", in no CUDA call" + (code.empty() ? " and no NVTX range" : "") +
                    " (the longest " + formatDuration(g->longestNs) + ")";
        d.fix = code.empty()
                    ? std::string(
                          "Name that host code with an NVTX range to see it here, queue "
                          "more GPU work before it so the GPU runs meanwhile, or move it "
                          "to another thread")
                    : "Queue more GPU work before '" + std::string(code) +
                          "' so the GPU runs meanwhile, move it to another thread or process (a "
                          "data loader's workers), or make it cheaper";
        out.push_back(std::move(d));
        ++reported;
    }
}

static void checkLaunchBound(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        const IdleAttribution* a = attributionOf(ctx, dev.deviceId);
        if (a == nullptr || dev.opCount == 0 || a->idleNs <= 0 ||
            dev.busyPct() >= ctx.options.launchBoundBusyPct ||
            a->pct(GapCause::Host) < ctx.options.launchBoundHostIdlePct ||
            2 * a->hostShortNs < a->ns(GapCause::Host)) {
            continue;
        }
        Diagnostic d;
        d.rule = RuleId::LaunchBound;
        d.deviceId = dev.deviceId;
        d.count = dev.opCount;
        d.costNs = a->ns(GapCause::Host);
        model::TimeNs opNs = 0;
        for (const GpuOp& op : ctx.ops.all()) {
            if (op.deviceId != dev.deviceId) {
                continue;
            }
            opNs += op.endNs - op.startNs;
            if (d.evidence.size() < 64) {
                rules::addEvidence(d, op.ref, ctx.options.maxEvidence);
            }
        }
        d.startNs = dev.firstNs;
        d.endNs = dev.lastNs;
        const auto n = static_cast<model::TimeNs>(dev.opCount);
        d.message = "GPU " + std::to_string(dev.deviceId) + " was busy " +
                    formatPercent(dev.busyPct()) + " of the window and " +
                    formatPercent(a->pct(GapCause::Host)) +
                    " of its idle time the host was not issuing work: the host issued one GPU "
                    "op every " +
                    formatDuration(dev.spanNs() / n) + ", and they ran " +
                    formatDuration(opNs / n) + " on average";
        d.fix =
            "Launch fewer, larger operations (fuse kernels, batch small copies), or capture the "
            "repeated sequence in a CUDA graph so one launch replays it";
        out.push_back(std::move(d));
    }
}

static void checkLowUtilization(const RuleContext& ctx, std::vector<Diagnostic>& out) {
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
            const model::TimeNs extent = dev.lastNs - dev.firstNs;
            const model::TimeNs a = dev.firstNs + extent * w / windows;
            const model::TimeNs b = dev.firstNs + extent * (w + 1) / windows;
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
                    formatDuration((dev.lastNs - dev.firstNs) / windows) + " kept GPU " +
                    std::to_string(dev.deviceId) + " busy less than " +
                    formatPercent(ctx.options.lowUtilizationPct) + " of the time (worst " +
                    formatPercent(worstPct) + ")";
        d.fix =
            "Zoom into these windows: the host is the bottleneck there (launch overhead, waits, "
            "or host work that could overlap the GPU)";
        out.push_back(std::move(d));
    }
}

std::span<const Rule> timeRules() {
    static constexpr Rule kRules[] = {
        {RuleId::GpuGap, "gpu-gap", checkGpuGaps, /*deviceWide=*/true},
        {RuleId::HostRangeStallsGpu, "host-range-stalls-gpu", checkHostRangeStalls,
         /*deviceWide=*/true},
        {RuleId::HostCodeStallsGpu, "host-code-stalls-gpu", checkHostCodeStalls,
         /*deviceWide=*/true},
        {RuleId::LaunchBound, "launch-bound", checkLaunchBound, /*deviceWide=*/true},
        {RuleId::LowUtilization, "low-utilization", checkLowUtilization, /*deviceWide=*/true},
    };
    return kRules;
}

}  // namespace wl::analysis
