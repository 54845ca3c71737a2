#include "analysis/Utilization.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/BlockingCalls.h"

namespace wl::analysis {

const char* toString(GapCause cause) {
    switch (cause) {
        case GapCause::HostSync:
            return "host_sync";
        case GapCause::HostLaunch:
            return "host_launch";
        case GapCause::Other:
            break;
    }
    return "other";
}

namespace {

double percent(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// Running state of a sweep over ops sorted by start: the union so far and the op that reaches
// furthest, so a hole knows which op opened it.
struct Sweep {
    bool started = false;
    model::TimeNs firstNs = 0;
    model::TimeNs curEndNs = 0;
    model::SliceRef curEndRef;
    model::TimeNs busyNs = 0;
    model::TimeNs runStartNs = 0;
    std::uint64_t ops = 0;
    std::uint64_t holes = 0;

    // Adds an op; returns true (and fills gap) when it opens a new run after a hole.
    bool add(const GpuOp& op, IdleGap& gap) {
        ++ops;
        if (!started) {
            started = true;
            firstNs = runStartNs = op.startNs;
            curEndNs = op.endNs;
            curEndRef = op.ref;
            return false;
        }
        bool hole = false;
        if (op.startNs > curEndNs) {
            busyNs += curEndNs - runStartNs;
            gap.startNs = curEndNs;
            gap.durationNs = op.startNs - curEndNs;
            gap.before = curEndRef;
            gap.after = op.ref;
            runStartNs = op.startNs;
            ++holes;
            hole = true;
        }
        if (op.endNs > curEndNs || hole) {
            curEndNs = op.endNs;
            curEndRef = op.ref;
        }
        return hole;
    }
    model::TimeNs finalBusyNs() const { return started ? busyNs + (curEndNs - runStartNs) : 0; }
};

class GapClassifier {
public:
    explicit GapClassifier(const model::Trace& trace) : m_trace(trace), m_blocking(trace) {}

    void classify(IdleGap& gap) const {
        if (model::SliceRef ref = m_blocking.overlapping(gap.deviceId, gap.startNs, gap.endNs());
            ref.valid()) {
            gap.cause = GapCause::HostSync;
            gap.reason = ref;
            return;
        }
        if (const model::Flow* flow = m_trace.flowTo(gap.after);
            flow != nullptr && flow->from.valid()) {
            const model::Slice& launch = m_trace.slice(flow->from);
            if (launch.startNs >= gap.startNs) {
                gap.cause = GapCause::HostLaunch;
                gap.reason = flow->from;
                return;
            }
        }
        gap.cause = GapCause::Other;
    }

private:
    const model::Trace& m_trace;
    BlockingCalls m_blocking;
};

}  // namespace

double StreamUtilization::busyPct() const {
    return percent(busyNs, spanNs());
}
double DeviceUtilization::busyPct() const {
    return percent(busyNs, spanNs());
}
double UtilizationResult::busyPct() const {
    return percent(busyNs, spanNs);
}

UtilizationResult computeUtilization(const model::Trace& trace, const GpuOps& ops,
                                     const AnalysisOptions& options) {
    const GapClassifier classifier(trace);
    std::map<std::int32_t, Sweep> devices;
    std::unordered_map<model::TrackIndex, Sweep> streams;
    UtilizationResult result;
    const model::TimeNs threshold = std::max<model::TimeNs>(options.gapThresholdNs, 1);

    for (const GpuOp& op : ops.all()) {
        IdleGap gap;
        if (devices[op.deviceId].add(op, gap) && gap.durationNs >= threshold) {
            gap.deviceId = op.deviceId;
            gap.streamId = -1;
            classifier.classify(gap);
            result.gaps.push_back(gap);
        }
        IdleGap streamGap;
        if (streams[op.ref.track].add(op, streamGap) && streamGap.durationNs >= threshold) {
            streamGap.deviceId = op.deviceId;
            streamGap.streamId = op.streamId;
            classifier.classify(streamGap);
            result.gaps.push_back(streamGap);
        }
    }

    for (const auto& [deviceId, sweep] : devices) {
        DeviceUtilization d;
        d.deviceId = deviceId;
        d.opCount = sweep.ops;
        d.firstNs = sweep.firstNs;
        d.lastNs = sweep.curEndNs;
        d.busyNs = sweep.finalBusyNs();
        d.gapCount = sweep.holes;
        result.busyNs += d.busyNs;
        result.spanNs += d.spanNs();
        result.devices.push_back(std::move(d));
    }
    for (const auto& [track, sweep] : streams) {
        const model::Track& t = trace.track(track);
        StreamUtilization s;
        s.deviceId = std::max(t.deviceId, 0);
        s.streamId = t.streamId;
        s.track = track;
        s.opCount = sweep.ops;
        s.firstNs = sweep.firstNs;
        s.lastNs = sweep.curEndNs;
        s.busyNs = sweep.finalBusyNs();
        for (DeviceUtilization& d : result.devices) {
            if (d.deviceId == s.deviceId) {
                d.streams.push_back(s);
            }
        }
    }
    for (DeviceUtilization& d : result.devices) {
        std::sort(d.streams.begin(), d.streams.end(),
                  [](const StreamUtilization& a, const StreamUtilization& b) {
                      return a.streamId < b.streamId;
                  });
    }
    std::stable_sort(result.gaps.begin(), result.gaps.end(),
                     [](const IdleGap& a, const IdleGap& b) {
                         if (a.startNs != b.startNs) {
                             return a.startNs < b.startNs;
                         }
                         return a.streamId < b.streamId;
                     });
    return result;
}

}  // namespace wl::analysis
