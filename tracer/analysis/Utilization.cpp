#include "analysis/Utilization.h"

#include "analysis/ApiNames.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "analysis/HostActivity.h"
#include "analysis/Rules.h"

namespace wl::analysis {

const char* toString(GapCause cause) {
    switch (cause) {
        case GapCause::GpuWait:
            return "gpu_wait";
        case GapCause::AfterBlockingCall:
            return "after_blocking_call";
        case GapCause::Host:
            break;
    }
    return "host";
}

std::optional<GapCause> gapCauseFromString(std::string_view id) {
    for (GapCause c : {GapCause::GpuWait, GapCause::AfterBlockingCall, GapCause::Host}) {
        if (id == toString(c)) {
            return c;
        }
    }
    return std::nullopt;
}

namespace {

double percent(model::TimeNs part, model::TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// One device or stream during the sweep over the window's ops (sorted by start): the union so far,
// the op that reaches furthest (it opens the next hole), and which window part we are in.
struct Sweep {
    bool started = false;
    std::size_t part = 0;
    model::TimeNs cursorNs = 0;  // end of the busy time so far (or the part's start)
    model::SliceRef curEndRef;
    model::TimeNs firstOpNs = 0;
    model::TimeNs busyNs = 0;
    std::uint64_t ops = 0;
    std::uint64_t holes = 0;
};

struct Hole {
    model::TimeNs startNs;
    model::TimeNs endNs;
    model::SliceRef before;
    model::SliceRef after;
};

// Walks the ops of one entity (device or stream). Whole-trace windows have no edges: the entity's
// own first and last op bound it. Other windows count the idle time at their parts' edges too.
class Sweeper {
public:
    explicit Sweeper(const AnalysisWindow& window)
        : m_parts(window.source == WindowSource::Trace ? nullptr : &window.parts) {}

    template <class OnHole>
    void add(Sweep& s, const GpuOp& op, OnHole&& onHole) const {
        ++s.ops;
        if (!s.started) {
            s.started = true;
            s.firstOpNs = op.startNs;
            if (m_parts == nullptr) {
                s.cursorNs = op.endNs;
                s.curEndRef = op.ref;
                s.busyNs += op.endNs - op.startNs;
                return;
            }
            s.part = 0;
            s.cursorNs = (*m_parts)[0].startNs;
        }
        if (m_parts != nullptr) {
            // Parts that end before this op: their remaining time is idle until this op.
            while (s.part + 1 < m_parts->size() && (*m_parts)[s.part].endNs <= op.startNs) {
                if (s.cursorNs < (*m_parts)[s.part].endNs) {
                    ++s.holes;
                    onHole(Hole{s.cursorNs, (*m_parts)[s.part].endNs, s.curEndRef, op.ref});
                }
                ++s.part;
                s.cursorNs = (*m_parts)[s.part].startNs;
            }
        }
        if (op.startNs > s.cursorNs) {
            ++s.holes;
            onHole(Hole{s.cursorNs, op.startNs, s.curEndRef, op.ref});
        }
        if (op.endNs > s.cursorNs) {
            s.busyNs += op.endNs - std::max(op.startNs, s.cursorNs);
            s.cursorNs = op.endNs;
            s.curEndRef = op.ref;
        } else if (op.startNs >= s.cursorNs) {
            s.curEndRef = op.ref;  // a zero-length op at the edge still ends the hole
        }
    }

    // The idle time after the entity's last op, to the end of the window; `next` ends it.
    template <class OnHole>
    void finish(Sweep& s, model::SliceRef next, OnHole&& onHole) const {
        if (m_parts == nullptr || !s.started) {
            return;
        }
        for (; s.part < m_parts->size(); ++s.part) {
            const model::TimeRange& p = (*m_parts)[s.part];
            const model::TimeNs from = std::max(s.cursorNs, p.startNs);
            if (from < p.endNs) {
                ++s.holes;
                onHole(Hole{from, p.endNs, s.curEndRef, next});
            }
        }
    }

private:
    const std::vector<model::TimeRange>* m_parts;
};

// Gives each idle interval its cause and the host range it fell in.
class Attributor {
public:
    Attributor(const model::Trace& trace, const GpuOps& ops)
        : m_trace(trace), m_ops(ops), m_host(trace) {}

    // Fills cause, launch, reason; returns the launching thread's API track (or -1).
    std::int64_t classify(IdleGap& gap) {
        gap.launch =
            gap.after.valid() ? rules::launchingCall(m_trace, gap.after) : model::SliceRef{};
        if (!gap.launch.valid()) {
            if (waitedForOp(gap, gap.startNs)) {
                gap.cause = GapCause::GpuWait;
                return -1;
            }
            // No launch link (an imported trace without flows): any thread's wait counts.
            gap.reason = m_host.anyBlockingCallAt(gap.startNs);
            gap.cause = gap.reason.valid() ? GapCause::AfterBlockingCall : GapCause::Host;
            return -1;
        }
        const model::Slice& call = m_trace.slice(gap.launch);
        if (waitedForOp(gap, call.endNs())) {
            gap.cause = GapCause::GpuWait;
        } else if (call.endNs() <= gap.startNs) {
            gap.cause = GapCause::GpuWait;
        } else if (model::SliceRef r = m_host.blockingCallAt(gap.launch.track, gap.startNs);
                   r.valid() && !stillLaunching(r, gap)) {
            gap.cause = GapCause::AfterBlockingCall;
            gap.reason = r;
        } else {
            gap.cause = GapCause::Host;
        }
        return gap.launch.track;
    }

    // A graph launch that waits for its pageable copy (HostActivity) is still submitting its own
    // nodes when a hole opens between two of them: that hole is launch overhead, not a wait.
    bool stillLaunching(model::SliceRef blocking, const IdleGap& gap) const {
        return blocking == gap.launch &&
               isGraphLaunchApi(m_trace.str(m_trace.slice(blocking).nameId));
    }

    // The op `after` waited for through a CUDA event, when it ended inside the gap and after the
    // launch had returned (`readyNs`): the gap is that wait, not the host's doing. Sets waitedFor.
    bool waitedForOp(IdleGap& gap, model::TimeNs readyNs) const {
        if (!gap.after.valid())
            return false;
        model::TimeNs latestNs = 0;
        for (const model::Dependency& d : m_trace.dependenciesTo(gap.after)) {
            const model::TimeNs endNs = m_trace.slice(d.from).endNs();
            if (endNs > gap.startNs && endNs <= gap.endNs() && endNs >= readyNs &&
                endNs > latestNs) {
                latestNs = endNs;
                gap.waitedFor = d.from;
            }
        }
        return gap.waitedFor.valid();
    }

    // Charges [a, b) of a device idle interval to the launching thread's innermost ranges. Only
    // idle time the host is answerable for counts: while queued work waits on the GPU (GpuWait)
    // the host's ranges say nothing about why.
    void chargeRanges(IdleGap& gap, model::TrackIndex apiTrack) {
        const auto spans = m_host.innermostRanges(apiTrack, gap.startNs, gap.endNs());
        if (!spans.empty() && spans.front().startNs == gap.startNs) {
            gap.hostRange = spans.front().range;
        }
        if (gap.cause == GapCause::GpuWait) {
            return;
        }
        const model::TimeNs launchNs = m_trace.slice(gap.launch).startNs;
        for (const auto& span : spans) {
            const model::Slice& range = m_trace.slice(span.range);
            Group& g = groupFor(range.nameId);
            const model::TimeNs ns = span.endNs - span.startNs;
            g.idleNs += ns;
            if (range.startNs <= launchNs && launchNs < range.endNs()) {
                g.launchingNs += ns;  // this instance issued the work that ended the idle time
            }
            auto [it, first] = g.instances.try_emplace(key(span.range), 0);
            it->second += ns;
            if (first) {
                // The GPU work still queued when the range began: busy time from its start to the
                // first idle moment after it.
                if (range.startNs < gap.startNs) {
                    g.queuedNs += busyOf(gap.deviceId).coveredNs(range.startNs, gap.startNs);
                }
            }
            if (it->second > g.exampleIdleNs) {
                g.exampleIdleNs = it->second;
                g.example = span.range;
            }
        }
    }

    std::vector<HostRangeIdle> ranges() const {
        std::vector<HostRangeIdle> out;
        for (const auto& [name, g] : m_groups) {
            HostRangeIdle r;
            r.name = name;
            r.idleNs = g.idleNs;
            r.count = g.instances.size();
            r.queuedNs = g.queuedNs;
            r.launchingNs = g.launchingNs;
            r.example = g.example;
            r.exampleIdleNs = g.exampleIdleNs;
            out.push_back(std::move(r));
        }
        std::sort(out.begin(), out.end(), [](const HostRangeIdle& a, const HostRangeIdle& b) {
            return a.idleNs != b.idleNs ? a.idleNs > b.idleNs : a.name < b.name;
        });
        return out;
    }

private:
    struct Group {
        model::TimeNs idleNs = 0;
        model::TimeNs queuedNs = 0;
        model::TimeNs launchingNs = 0;
        std::unordered_map<std::uint64_t, model::TimeNs> instances;  // idle per range instance
        model::SliceRef example;
        model::TimeNs exampleIdleNs = 0;
    };
    static std::uint64_t key(model::SliceRef r) { return (std::uint64_t(r.track) << 32) | r.index; }
    Group& groupFor(model::StringId nameId) {
        auto it = m_folded.find(nameId);
        if (it == m_folded.end()) {
            it = m_folded.emplace(nameId, foldDigits(m_trace.str(nameId))).first;
        }
        return m_groups[it->second];
    }
    const IntervalSet& busyOf(std::int32_t deviceId) {
        auto it = m_busy.find(deviceId);
        if (it == m_busy.end()) {
            it = m_busy.emplace(deviceId, m_ops.busy(deviceId)).first;
        }
        return it->second;
    }

    const model::Trace& m_trace;
    const GpuOps& m_ops;
    HostActivity m_host;
    std::unordered_map<model::StringId, std::string> m_folded;
    std::map<std::string, Group> m_groups;
    std::map<std::int32_t, IntervalSet> m_busy;
};

}  // namespace

double StreamUtilization::busyPct() const {
    return percent(busyNs, windowNs);
}
double DeviceUtilization::busyPct() const {
    return percent(busyNs, windowNs);
}
double UtilizationResult::busyPct() const {
    return percent(busyNs, spanNs);
}
double IdleAttribution::pct(GapCause c) const {
    return percent(ns(c), idleNs);
}

UtilizationResult computeUtilization(const model::Trace& trace, const GpuOps& ops,
                                     const AnalysisWindow& window, const AnalysisOptions& options,
                                     const std::atomic<bool>* cancel) {
    UtilizationResult result;
    result.window = window;
    Attributor attributor(trace, ops);
    const Sweeper sweeper(window);
    std::map<std::int32_t, Sweep> devices;
    std::map<std::int32_t, IdleAttribution> attribution;
    std::unordered_map<model::TrackIndex, Sweep> streams;
    const model::TimeNs threshold = std::max<model::TimeNs>(options.gapThresholdNs, 1);

    const auto onDeviceHole = [&](std::int32_t deviceId) {
        return [&, deviceId](const Hole& h) {
            IdleGap gap;
            gap.deviceId = deviceId;
            gap.startNs = h.startNs;
            gap.durationNs = h.endNs - h.startNs;
            gap.before = h.before;
            gap.after = h.after;
            const std::int64_t apiTrack = attributor.classify(gap);
            IdleAttribution& a = attribution[deviceId];
            a.idleNs += gap.durationNs;
            a.nsByCause[static_cast<std::size_t>(gap.cause)] += gap.durationNs;
            if (gap.cause == GapCause::Host && gap.durationNs < options.shortGapNs) {
                a.hostShortNs += gap.durationNs;
            }
            if (apiTrack >= 0) {
                attributor.chargeRanges(gap, static_cast<model::TrackIndex>(apiTrack));
            }
            if (gap.durationNs >= threshold) {
                result.gaps.push_back(gap);
            }
        };
    };
    const auto onStreamHole = [&](const GpuOp& op) {
        return [&, deviceId = op.deviceId, streamId = op.streamId](const Hole& h) {
            if (h.endNs - h.startNs < threshold) {
                return;
            }
            IdleGap gap;
            gap.deviceId = deviceId;
            gap.streamId = streamId;
            gap.startNs = h.startNs;
            gap.durationNs = h.endNs - h.startNs;
            gap.before = h.before;
            gap.after = h.after;
            attributor.classify(gap);
            result.gaps.push_back(gap);
        };
    };

    std::size_t walked = 0;
    for (const GpuOp& op : ops.all()) {
        if ((++walked & 4095) == 0 && cancel != nullptr && cancel->load(std::memory_order_relaxed))
            return result;
        sweeper.add(devices[op.deviceId], op, onDeviceHole(op.deviceId));
        sweeper.add(streams[op.ref.track], op, onStreamHole(op));
    }
    for (auto& [deviceId, sweep] : devices) {
        const GpuOp* next = ops.firstStartingAtOrAfter(deviceId, window.endNs());
        sweeper.finish(sweep, next != nullptr ? next->ref : model::SliceRef{},
                       onDeviceHole(deviceId));
    }
    for (auto& [track, sweep] : streams) {
        const model::Track& t = trace.track(track);
        GpuOp probe;
        probe.deviceId = std::max(t.deviceId, 0);
        probe.streamId = t.streamId;
        sweeper.finish(sweep, {}, onStreamHole(probe));
    }

    const bool whole = window.source == WindowSource::Trace;
    const auto fill = [&](auto& u, const Sweep& sweep) {
        u.opCount = sweep.ops;
        u.busyNs = sweep.busyNs;
        if (whole) {
            u.firstNs = sweep.firstOpNs;
            u.lastNs = sweep.cursorNs;
            u.windowNs = u.lastNs - u.firstNs;
        } else {
            u.firstNs = window.startNs();
            u.lastNs = window.endNs();
            u.windowNs = window.durationNs();
        }
    };
    for (const auto& [deviceId, sweep] : devices) {
        DeviceUtilization d;
        d.deviceId = deviceId;
        fill(d, sweep);
        d.gapCount = sweep.holes;
        result.busyNs += d.busyNs;
        result.spanNs += d.spanNs();
        result.devices.push_back(std::move(d));
        IdleAttribution a = attribution[deviceId];
        a.deviceId = deviceId;
        result.attribution.push_back(a);
    }
    for (const auto& [track, sweep] : streams) {
        const model::Track& t = trace.track(track);
        StreamUtilization s;
        s.deviceId = std::max(t.deviceId, 0);
        s.streamId = t.streamId;
        s.track = track;
        fill(s, sweep);
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
    result.idleByHostRange = attributor.ranges();
    return result;
}

}  // namespace wl::analysis
