#include <algorithm>
#include <map>
#include <string>

#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Rules.h"

namespace wl::analysis {

namespace {

struct Call {
    model::TimeNs startNs;
    model::TimeNs endNs;
    model::SliceRef ref;
};

// The calls of one host thread, by start time: those that wait for the GPU and those that
// launch GPU work.
struct ThreadCalls {
    std::vector<Call> syncs;
    std::vector<Call> launches;
};

ThreadCalls collect(const model::Trace& trace, model::TrackIndex t) {
    ThreadCalls out;
    const model::Track& track = trace.track(t);
    std::map<model::StringId, bool> syncName;
    for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
        const model::Slice& s = track.slices[i];
        const model::SliceRef ref{t, i};
        const model::SliceRef op = rules::launchedOp(trace, ref);
        if (op.valid()) {
            out.launches.push_back({s.startNs, s.endNs(), ref});
        }
        auto [it, fresh] = syncName.try_emplace(s.nameId, false);
        if (fresh) {
            it->second = isSynchronizingApi(trace.str(s.nameId));
        }
        if (!it->second) {
            continue;
        }
        // A device-to-device cudaMemcpy does not make the host wait.
        if (op.valid()) {
            const model::MemcpyDetail* m = trace.memcpy(trace.slice(op));
            if (m != nullptr && m->copyKind == model::CopyKind::DeviceToDevice) {
                continue;
            }
        }
        out.syncs.push_back({s.startNs, s.endNs(), ref});
    }
    const auto byStart = [](const Call& a, const Call& b) { return a.startNs < b.startNs; };
    std::sort(out.syncs.begin(), out.syncs.end(), byStart);
    std::sort(out.launches.begin(), out.launches.end(), byStart);
    return out;
}

}  // namespace

void checkSyncApiInLoop(const RuleContext& ctx, std::vector<Diagnostic>& out) {
    std::map<std::int32_t, IntervalSet> busyByDevice;
    for (const DeviceUtilization& dev : ctx.result.utilization.devices) {
        busyByDevice.emplace(dev.deviceId, ctx.ops.busy(dev.deviceId));
    }
    const auto tracks = ctx.trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        if (tracks[t].kind != model::TrackKind::HostApi) {
            continue;
        }
        const ThreadCalls calls = collect(ctx.trace, t);
        if (calls.syncs.size() < static_cast<std::size_t>(ctx.options.syncInLoopMinCount)) {
            continue;
        }
        Diagnostic d;
        d.rule = RuleId::SyncApiInLoop;
        std::map<std::string, std::uint64_t> byName;
        for (const Call& sync : calls.syncs) {
            // The next launch from this thread after the wait.
            auto next =
                std::lower_bound(calls.launches.begin(), calls.launches.end(), sync.endNs,
                                 [](const Call& c, model::TimeNs v) { return c.startNs < v; });
            if (next == calls.launches.end()) {
                continue;
            }
            const model::SliceRef op = rules::launchedOp(ctx.trace, next->ref);
            const model::Track& opTrack = ctx.trace.track(op.track);
            const auto busy = busyByDevice.find(std::max(opTrack.deviceId, 0));
            if (busy == busyByDevice.end()) {
                continue;
            }
            // Drained: the GPU was idle when the wait returned and stayed idle until the host
            // launched more. A wait that returns while queued work still runs costs nothing.
            const Interval hole = busy->second.holeAt(ctx.trace.slice(sync.ref).endNs());
            const model::TimeNs idle = hole.durationNs();
            if (idle <= 0 || idle < ctx.options.minIdleAfterSyncNs) {
                continue;
            }
            ++d.count;
            d.costNs += idle;
            d.deviceId = std::max(opTrack.deviceId, 0);
            ++byName[std::string(baseApiName(ctx.trace.str(ctx.trace.slice(sync.ref).nameId)))];
            rules::addEvidence(d, sync.ref, ctx.options.maxEvidence);
            rules::cover(d, ctx.trace, sync.ref);
            rules::cover(d, ctx.trace, op);
        }
        // A loop repeats itself: the same call must drain the GPU that many times (a few
        // different waits during setup are not a loop).
        std::uint64_t mostRepeated = 0;
        for (const auto& [name, n] : byName) {
            mostRepeated = std::max(mostRepeated, n);
        }
        if (mostRepeated < static_cast<std::uint64_t>(ctx.options.syncInLoopMinCount)) {
            continue;
        }
        std::string names;
        for (const auto& [name, n] : byName) {
            names += (names.empty() ? "" : ", ") + name + " x" + std::to_string(n);
        }
        const std::int64_t tid = tracks[t].threadId;
        d.message = std::to_string(d.count) + " synchronising calls (" + names +
                    ") were each followed by more GPU work from thread " + std::to_string(tid) +
                    ": the GPU sat idle " + formatDuration(d.costNs) +
                    " after them while the host drained the pipeline";
        d.fix =
            "Enqueue the next batch before waiting: copy results with cudaMemcpyAsync into pinned "
            "memory, record an event and synchronise on it only where the host needs the value";
        out.push_back(std::move(d));
    }
}

}  // namespace wl::analysis
