#include "analysis/GpuOps.h"

#include <algorithm>
#include <set>

namespace wl::analysis {

GpuOps::GpuOps(const model::Trace& trace) {
    std::size_t count = 0;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind == model::TrackKind::GpuStream) {
            count += track.slices.size();
        }
    }
    m_ops.reserve(count);
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind != model::TrackKind::GpuStream) {
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
    std::sort(m_ops.begin(), m_ops.end(), [](const GpuOp& a, const GpuOp& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs < b.endNs;
    });
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
