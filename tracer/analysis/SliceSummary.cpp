#include "analysis/SliceSummary.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/WindowSlices.h"

namespace wl::analysis {

namespace {

// Rows whose lanes are nesting depths (a child lies inside the slice one lane up): host threads'
// calls, ranges and ops. GPU ops do not nest; NVTX start/end ranges and the device's sync records
// may overlap, so their lanes are first-fit, not depths (TraceBuilder::assignLanes).
bool nests(model::TrackKind kind) {
    return kind == model::TrackKind::HostApi || kind == model::TrackKind::Nvtx ||
           kind == model::TrackKind::Host;
}

// The summary's lines by (kind, name), found through a hash of the pair: one entry per line, none
// per slice. Remembers the last line asked for, since neighbouring slices mostly share a name.
class Lines {
public:
    SliceStats& at(SummaryKind kind, model::StringId nameId) {
        const std::uint64_t key = (static_cast<std::uint64_t>(kind) << 32) | nameId;
        if (key != m_lastKey || m_last == nullptr) {
            auto [it, fresh] = m_slotOf.try_emplace(key, static_cast<std::uint32_t>(m_rows.size()));
            if (fresh)
                m_rows.push_back({kind, nameId});
            m_last = &m_rows[it->second];
            m_lastKey = key;
        }
        return *m_last;
    }
    std::vector<SliceStats> take() { return std::move(m_rows); }

private:
    std::vector<SliceStats> m_rows;
    std::unordered_map<std::uint64_t, std::uint32_t> m_slotOf;
    std::uint64_t m_lastKey = 0;
    SliceStats* m_last = nullptr;  // into m_rows: set again on each miss, the only time it grows
};

// The time of a slice inside the window (one part: a clip, no search).
model::TimeNs insideNs(const AnalysisWindow& window, const model::Slice& s) {
    if (window.parts.size() == 1) {
        const model::TimeRange& p = window.parts.front();
        return std::max<model::TimeNs>(
            0, std::min(s.endNs(), p.endNs) - std::max(s.startNs, p.startNs));
    }
    return timeInParts(window.parts, s.startNs, s.endNs());
}

// Takes each nested slice's time off its parent's self time: lane by lane, each child's parent is
// the last slice one lane up that starts at or before it (lanes do not overlap), found by a walk
// that only moves forward. Spilled slices (overlapping a sibling without nesting) have no parent.
void subtractChildren(const model::Trace& trace, const model::Track& track,
                      const AnalysisWindow& window, Lines& lines) {
    for (std::uint32_t d = 1; d < track.laneCount(); ++d) {
        const LaneSpan parents = laneSpan(track, d - 1, window.startNs(), window.endNs());
        const LaneSpan children = laneSpan(track, d, window.startNs(), window.endNs());
        std::uint32_t p = parents.first;
        for (std::uint32_t c = children.first; c < children.last && p < parents.last; ++c) {
            const model::Slice& child = track.slices[c];
            if ((child.flags & model::kSliceSpilled) != 0)
                continue;
            while (p + 1 < parents.last && track.slices[p + 1].startNs <= child.startNs)
                ++p;
            const model::Slice& parent = track.slices[p];
            const model::TimeNs inside = insideNs(window, child);
            if (inside == 0 || parent.startNs > child.startNs || parent.endNs() < child.endNs())
                continue;
            if (const auto kind = summaryKind(trace, track, parent))
                lines.at(*kind, parent.nameId).selfNs -= inside;
        }
    }
}

}  // namespace

const char* toString(SummaryKind kind) {
    switch (kind) {
        case SummaryKind::Kernel:
            return "kernel";
        case SummaryKind::Copy:
            return "copy";
        case SummaryKind::Memset:
            return "memset";
        case SummaryKind::CudaApi:
            return "CUDA API";
        case SummaryKind::Sync:
            return "sync";
        case SummaryKind::Nvtx:
            return "NVTX";
        case SummaryKind::GpuNvtx:
            return "NVTX (GPU)";
        case SummaryKind::CpuOp:
            return "CPU op";
        case SummaryKind::Other:
            break;
    }
    return "other";
}

std::optional<SummaryKind> summaryKind(const model::Trace& trace, const model::Track& track,
                                       const model::Slice& slice) {
    if (model::isDerived(track.kind))
        return std::nullopt;
    switch (slice.kind) {
        case model::SliceKind::Kernel:
            return SummaryKind::Kernel;
        case model::SliceKind::Memcpy:
            return SummaryKind::Copy;
        case model::SliceKind::Memset:
            return SummaryKind::Memset;
        case model::SliceKind::RuntimeApi:
        case model::SliceKind::DriverApi:
            return SummaryKind::CudaApi;
        case model::SliceKind::Sync:
            return SummaryKind::Sync;
        case model::SliceKind::Nvtx:
            return trace.processes()[track.process].deviceId >= 0 ? SummaryKind::GpuNvtx
                                                                  : SummaryKind::Nvtx;
        case model::SliceKind::CpuOp:
            return SummaryKind::CpuOp;
        case model::SliceKind::Other:
            return track.kind == model::TrackKind::Host ? SummaryKind::CpuOp : SummaryKind::Other;
        default:
            return SummaryKind::Other;
    }
}

double SliceStats::meanNs() const {
    return count > 0 ? static_cast<double>(totalNs) / static_cast<double>(count) : 0.0;
}

SliceSummary sliceSummary(const model::Trace& trace, const AnalysisWindow& window) {
    SliceSummary out;
    Lines lines;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (model::isDerived(track.kind) || !windowSelects(window, t))
            continue;
        forEachSliceInWindow(track, window, [&](std::uint32_t, const model::Slice& s) {
            const auto kind = summaryKind(trace, track, s);
            if (!kind)
                return;
            const model::TimeNs inside = insideNs(window, s);
            SliceStats& line = lines.at(*kind, s.nameId);
            line.minNs = line.count == 0 ? inside : std::min(line.minNs, inside);
            line.maxNs = std::max(line.maxNs, inside);
            ++line.count;
            line.totalNs += inside;
            line.selfNs += inside;
            ++out.slices;
        });
        if (nests(track.kind))
            subtractChildren(trace, track, window, lines);
    }
    out.rows = lines.take();
    std::sort(out.rows.begin(), out.rows.end(), [&trace](const SliceStats& a, const SliceStats& b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        if (a.kind != b.kind)
            return a.kind < b.kind;
        return trace.str(a.nameId) < trace.str(b.nameId);
    });
    return out;
}

std::vector<model::SliceRef> summarySlices(const model::Trace& trace, const AnalysisWindow& window,
                                           SummaryKind kind, model::StringId nameId) {
    std::vector<model::SliceRef> out;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (model::isDerived(track.kind) || !windowSelects(window, t))
            continue;
        forEachSliceInWindow(track, window, [&](std::uint32_t i, const model::Slice& s) {
            if (s.nameId == nameId && summaryKind(trace, track, s) == kind)
                out.push_back({t, i});
        });
    }
    return out;
}

}  // namespace wl::analysis
