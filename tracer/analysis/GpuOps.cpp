#include "analysis/GpuOps.h"

#include <algorithm>
#include <limits>
#include <set>

namespace wl::analysis {

GpuOps::GpuOps(const model::Trace& trace, const AnalysisWindow* window) {
    gather(trace, window, -1);
}

GpuOps::GpuOps(const model::Trace& trace, const AnalysisWindow* window, std::int32_t rank) {
    gather(trace, window, rank < 0 ? std::numeric_limits<std::int32_t>::min() : rank);
}

void GpuOps::gather(const model::Trace& trace, const AnalysisWindow* window, std::int32_t rank) {
    const auto processes = trace.processes();
    // A selection that names GPU rows (a shift-drag over some streams) is about those streams:
    // every figure of it (busy, idle, statistics, findings) comes from their ops alone, so the
    // status bar, the diagnostics and the statistics give one set of figures. Rows of the host
    // alone do not narrow the GPU's work.
    const model::TrackIndex* selectedBegin = nullptr;
    const model::TrackIndex* selectedEnd = nullptr;
    if (window != nullptr && selectsGpuRows(trace, *window)) {
        selectedBegin = window->tracks.data();
        selectedEnd = window->tracks.data() + window->tracks.size();
    }
    const auto tracks = trace.tracks();
    const auto wanted = [&](const model::Track& track) {
        if (track.kind != model::TrackKind::GpuStream ||
            (rank != -1 && processes[track.process].rank != rank)) {
            return false;
        }
        const auto index = static_cast<model::TrackIndex>(&track - tracks.data());
        return selectedBegin == nullptr || std::binary_search(selectedBegin, selectedEnd, index);
    };
    std::size_t count = 0;
    for (const model::Track& track : trace.tracks()) {
        if (wanted(track)) {
            count += track.slices.size();
        }
    }
    m_ops.reserve(count);
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (!wanted(track)) {
            continue;
        }
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            GpuOp op;
            switch (s.kind) {
                case model::SliceKind::Kernel:
                    op.kind = GpuOpKind::Kernel;
                    break;
                case model::SliceKind::Memcpy:
                    op.kind = GpuOpKind::Memcpy;
                    if (const model::MemcpyDetail* d = trace.memcpy(s)) {
                        op.copyKind = d->copyKind;
                    }
                    break;
                case model::SliceKind::Memset:
                    op.kind = GpuOpKind::Memset;
                    break;
                default:
                    continue;  // instants or imported odds and ends on a GPU row are not work
            }
            op.ref = {t, i};
            op.startNs = s.startNs;
            op.endNs = s.endNs();
            op.streamId = track.streamId;
            op.deviceId = track.deviceId < 0 ? 0 : track.deviceId;
            m_ops.push_back(op);
        }
    }
    const auto byStart = [](const GpuOp& a, const GpuOp& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs < b.endNs;
    };
    const auto holdsAll = [&] {
        if (window == nullptr || m_ops.empty()) {
            return true;
        }
        const auto& parts = window->parts;
        return parts.size() == 1 && std::all_of(m_ops.begin(), m_ops.end(), [&](const GpuOp& op) {
                   return op.startNs >= parts.front().startNs && op.endNs <= parts.front().endNs;
               });
    };
    if (holdsAll()) {
        std::sort(m_ops.begin(), m_ops.end(), byStart);
        return;
    }
    // Clip to the window first and sort only what is inside: a window is often a small part of
    // the trace, and the ops outside are only searched once per device (the op that ends the
    // window's last gap).
    const auto& parts = window->parts;
    std::vector<GpuOp> inside;
    for (const GpuOp& op : m_ops) {
        // Parts are sorted and disjoint: the first that ends after the op's start.
        auto part = std::upper_bound(
            parts.begin(), parts.end(), op.startNs,
            [](model::TimeNs t, const model::TimeRange& r) { return t < r.endNs; });
        bool first = true;
        for (; part != parts.end() && part->startNs < op.endNs; ++part) {
            GpuOp piece = op;
            piece.startNs = std::max(op.startNs, part->startNs);
            piece.endNs = std::min(op.endNs, part->endNs);
            if (piece.endNs <= piece.startNs && !(op.endNs == op.startNs && first)) {
                continue;
            }
            piece.continuation = !first;
            first = false;
            inside.push_back(piece);
        }
    }
    std::sort(inside.begin(), inside.end(), byStart);
    m_outside = std::move(m_ops);
    m_ops = std::move(inside);
}

const GpuOp* GpuOps::firstStartingAtOrAfter(std::int32_t deviceId, model::TimeNs t) const {
    if (m_outside.empty()) {
        // Every op, sorted: the first at or after t, then the device's first from there.
        auto it = std::lower_bound(m_ops.begin(), m_ops.end(), t,
                                   [](const GpuOp& op, model::TimeNs v) { return op.startNs < v; });
        for (; it != m_ops.end(); ++it) {
            if (it->deviceId == deviceId) {
                return &*it;
            }
        }
        return nullptr;
    }
    // Unsorted: one pass for the earliest.
    const GpuOp* best = nullptr;
    for (const GpuOp& op : m_outside) {
        if (op.deviceId == deviceId && op.startNs >= t &&
            (best == nullptr || op.startNs < best->startNs ||
             (op.startNs == best->startNs && op.endNs < best->endNs))) {
            best = &op;
        }
    }
    return best;
}

std::vector<std::int32_t> GpuOps::deviceIds() const {
    std::set<std::int32_t> ids;
    for (const GpuOp& op : m_ops) {
        ids.insert(op.deviceId);
    }
    return {ids.begin(), ids.end()};
}

namespace {
template <class Pred>
IntervalSet collect(const std::vector<GpuOp>& ops, Pred pred) {
    std::vector<Interval> v;
    for (const GpuOp& op : ops) {
        if (pred(op)) {
            v.push_back({op.startNs, op.endNs});
        }
    }
    return IntervalSet(std::move(v));
}
}  // namespace

IntervalSet GpuOps::busy(std::int32_t deviceId) const {
    return collect(m_ops, [&](const GpuOp& op) { return op.deviceId == deviceId; });
}

IntervalSet GpuOps::busyOf(std::int32_t deviceId, GpuOpKind kind) const {
    return collect(m_ops,
                   [&](const GpuOp& op) { return op.deviceId == deviceId && op.kind == kind; });
}

IntervalSet GpuOps::copiesOf(std::int32_t deviceId, model::CopyKind kind) const {
    return collect(m_ops, [&](const GpuOp& op) {
        return op.deviceId == deviceId && op.kind == GpuOpKind::Memcpy && op.copyKind == kind;
    });
}

}  // namespace wl::analysis
