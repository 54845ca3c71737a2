#include "analysis/HostActivity.h"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

#include "analysis/ApiNames.h"
#include "analysis/Rules.h"

namespace wl::analysis {

struct HostActivity::Intervals {
    struct Entry {
        model::TimeNs startNs;
        model::TimeNs endNs;
        model::SliceRef ref;
    };
    std::vector<Entry> entries;
    std::vector<std::uint32_t> latestEnd;  // index of the entry ending last among [0, i]

    void finish() {
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& a, const Entry& b) { return a.startNs < b.startNs; });
        latestEnd.resize(entries.size());
        for (std::uint32_t i = 0; i < entries.size(); ++i) {
            latestEnd[i] = (i == 0 || entries[i].endNs > entries[latestEnd[i - 1]].endNs)
                               ? i
                               : latestEnd[i - 1];
        }
    }
    // An entry with start <= t < end.
    model::SliceRef at(model::TimeNs t) const {
        auto it = std::upper_bound(entries.begin(), entries.end(), t,
                                   [](model::TimeNs v, const Entry& e) { return v < e.startNs; });
        if (it == entries.begin()) {
            return {};
        }
        const Entry& e = entries[latestEnd[static_cast<std::size_t>(it - entries.begin()) - 1]];
        return e.endNs > t ? e.ref : model::SliceRef{};
    }
};

struct HostActivity::Segments {
    std::vector<RangeSpan> spans;  // sorted, disjoint; only stretches under a range
};

HostActivity::HostActivity(const model::Trace& trace) : m_trace(trace) {}
HostActivity::~HostActivity() = default;

namespace {

// How a call name counts, classified once per name (names repeat).
enum class CallClass : std::uint8_t { Other, Sync, Launch, GraphLaunch };

bool isPageable(model::MemoryKind kind) {
    return kind == model::MemoryKind::Pageable;
}

// A graph launch waited for the GPU when the graph copies to or from pageable host memory: the
// driver performs such a copy node before the launch call returns (a pageable cudaMemcpyAsync
// inside the graph), so the call spans the nodes before it. Any other node that finishes while
// the launch call is still returning (a short memset after a node update) was not waited for.
bool graphLaunchWaited(const model::Trace& trace, model::SliceRef call) {
    const model::TimeNs returnedNs = trace.slice(call).endNs();
    for (const model::Flow* f : trace.flowsFrom(call)) {
        if (!f->to.valid() || trace.track(f->to.track).kind != model::TrackKind::GpuStream) {
            continue;
        }
        const model::Slice& op = trace.slice(f->to);
        const model::MemcpyDetail* m = trace.memcpy(op);
        if (m != nullptr && (isPageable(m->srcKind) || isPageable(m->dstKind)) &&
            op.endNs() <= returnedNs) {
            return true;
        }
    }
    return false;
}

// Does the call wait for the GPU? Explicit synchronisation by name; otherwise a call whose copy or
// memset was done on the GPU before the call returned (the call waited for it). A kernel launch
// never waits: a long launch is launch overhead, the host's doing. A graph launch waits only for
// the copy nodes that touch pageable memory (graphLaunchWaited).
bool isBlocking(const model::Trace& trace, model::SliceRef call, CallClass callClass) {
    switch (callClass) {
        case CallClass::Sync:
            return true;
        case CallClass::Launch:
            return false;
        case CallClass::GraphLaunch:
            return graphLaunchWaited(trace, call);
        case CallClass::Other:
            break;
    }
    const model::SliceRef op = rules::launchedOp(trace, call);
    if (!op.valid()) {
        return false;
    }
    const model::Slice& s = trace.slice(op);
    if (s.kind != model::SliceKind::Memcpy && s.kind != model::SliceKind::Memset) {
        return false;
    }
    if (const model::MemcpyDetail* m = trace.memcpy(s);
        m != nullptr && m->copyKind == model::CopyKind::DeviceToDevice) {
        return false;  // the host does not wait for a device-to-device copy
    }
    return s.endNs() <= trace.slice(call).endNs();
}

}  // namespace

HostActivity::Intervals& HostActivity::blockingOf(model::TrackIndex apiTrack) {
    auto& slot = m_blocking[apiTrack];
    if (!slot) {
        slot = std::make_unique<Intervals>();
        const model::Track& track = m_trace.track(apiTrack);
        std::map<model::StringId, CallClass> classes;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            auto [it, fresh] = classes.try_emplace(s.nameId, CallClass::Other);
            if (fresh) {
                const std::string_view name = m_trace.str(s.nameId);
                it->second = isSynchronizingApi(name) ? CallClass::Sync
                             : isGraphLaunchApi(name) ? CallClass::GraphLaunch
                             : isLaunchApi(name)      ? CallClass::Launch
                                                      : CallClass::Other;
            }
            const model::SliceRef ref{apiTrack, i};
            if (isBlocking(m_trace, ref, it->second)) {
                slot->entries.push_back({s.startNs, s.endNs(), ref});
            }
        }
        slot->finish();
    }
    return *slot;
}

model::SliceRef HostActivity::blockingCallAt(model::TrackIndex apiTrack, model::TimeNs t) {
    return blockingOf(apiTrack).at(t);
}

model::SliceRef HostActivity::anyBlockingCallAt(model::TimeNs t) {
    if (!m_anyBlocking) {
        m_anyBlocking = std::make_unique<Intervals>();
        const auto tracks = m_trace.tracks();
        for (model::TrackIndex i = 0; i < tracks.size(); ++i) {
            if (tracks[i].kind != model::TrackKind::HostApi) {
                continue;
            }
            const Intervals& own = blockingOf(i);
            m_anyBlocking->entries.insert(m_anyBlocking->entries.end(), own.entries.begin(),
                                          own.entries.end());
        }
        m_anyBlocking->finish();
    }
    return m_anyBlocking->at(t);
}

HostActivity::Segments& HostActivity::rangesOf(model::TrackIndex apiTrack) {
    auto& slot = m_ranges[apiTrack];
    if (slot) {
        return *slot;
    }
    slot = std::make_unique<Segments>();
    const model::Track& api = m_trace.track(apiTrack);
    // Boundaries of every push/pop range of the same thread (any domain); the innermost range at a
    // time is the active one that started last (ranges of one thread nest).
    struct Edge {
        model::TimeNs t;
        bool open;
        model::SliceRef ref;
    };
    std::vector<Edge> edges;
    const auto tracks = m_trace.tracks();
    for (model::TrackIndex i = 0; i < tracks.size(); ++i) {
        const model::Track& tr = tracks[i];
        if (tr.kind != model::TrackKind::Nvtx || tr.process != api.process ||
            tr.threadId != api.threadId) {
            continue;
        }
        for (std::uint32_t j = 0; j < tr.slices.size(); ++j) {
            const model::Slice& s = tr.slices[j];
            if (s.durationNs <= 0) {
                continue;  // a mark, not a range
            }
            edges.push_back({s.startNs, true, {i, j}});
            edges.push_back({s.endNs(), false, {i, j}});
        }
    }
    // Closes before opens at the same time, so touching ranges do not overlap.
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
        return a.t != b.t ? a.t < b.t : (a.open != b.open ? !a.open : false);
    });
    // Active ranges keyed by (start, -end, ref): the last element is the innermost.
    std::set<std::tuple<model::TimeNs, model::TimeNs, model::SliceRef>> active;
    model::TimeNs cursor = std::numeric_limits<model::TimeNs>::min();
    for (const Edge& e : edges) {
        if (!active.empty() && e.t > cursor) {
            const model::SliceRef inner = std::get<2>(*active.rbegin());
            auto& spans = slot->spans;
            if (!spans.empty() && spans.back().range == inner && spans.back().endNs == cursor) {
                spans.back().endNs = e.t;
            } else {
                spans.push_back({cursor, e.t, inner});
            }
        }
        cursor = e.t;
        const model::Slice& s = m_trace.slice(e.ref);
        const auto key = std::make_tuple(s.startNs, -s.endNs(), e.ref);
        if (e.open) {
            active.insert(key);
        } else {
            active.erase(key);
        }
    }
    return *slot;
}

std::vector<HostActivity::RangeSpan> HostActivity::innermostRanges(model::TrackIndex apiTrack,
                                                                   model::TimeNs startNs,
                                                                   model::TimeNs endNs) {
    const Segments& seg = rangesOf(apiTrack);
    std::vector<RangeSpan> out;
    auto it = std::upper_bound(seg.spans.begin(), seg.spans.end(), startNs,
                               [](model::TimeNs v, const RangeSpan& s) { return v < s.endNs; });
    for (; it != seg.spans.end() && it->startNs < endNs; ++it) {
        out.push_back({std::max(it->startNs, startNs), std::min(it->endNs, endNs), it->range});
    }
    return out;
}

}  // namespace wl::analysis
