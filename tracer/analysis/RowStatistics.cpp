#include "analysis/RowStatistics.h"
#include "analysis/WindowSlices.h"

#include <algorithm>
#include <map>

#include "analysis/Intervals.h"

namespace wl::analysis {

namespace {

// Sums a row's ops into `total` (busy excluded: a union, computed apart).
void addCounts(RowStats& total, const RowStats& row) {
    total.ops += row.ops;
    total.kernels += row.kernels;
    total.copies += row.copies;
    total.copyBytes += row.copyBytes;
    total.copyNs += row.copyNs;
}

// The CUDA calls of one host API row inside the window: top-level calls only (a runtime call's
// driver calls inside it are the same time), clipped to the window's parts.
void hostRow(const model::Track& track, const AnalysisWindow& window, RowStats& row,
             std::vector<Interval>& busy) {
    const auto& parts = window.parts;
    for (const model::Slice& s : track.slices) {
        if (s.depth != 0)
            continue;
        const model::TimeNs end = std::max(s.endNs(), s.startNs + 1);
        auto it = firstPartEndingAfter(parts, s.startNs);
        bool counted = false;
        for (; it != parts.end() && it->startNs < end; ++it) {
            if (!counted) {
                ++row.ops;
                counted = true;
            }
            busy.push_back({std::max(s.startNs, it->startNs), std::min(s.endNs(), it->endNs)});
        }
    }
}

}  // namespace

double RowStats::copyGbPerSecond() const {
    return copyNs > 0 ? static_cast<double>(copyBytes) / static_cast<double>(copyNs) : 0.0;
}

RowSummary rowSummary(const model::Trace& trace, const GpuOps& ops, const AnalysisWindow& window) {
    RowSummary out;
    out.windowNs = window.durationNs();
    std::map<model::TrackIndex, RowStats> gpuRows;
    std::map<model::TrackIndex, std::vector<Interval>> gpuBusy;
    std::vector<Interval> allGpu;
    // A selection of some rows: only they are summed.
    const auto selected = [&window](model::TrackIndex t) { return windowSelects(window, t); };
    for (const GpuOp& op : ops.all()) {
        if (!selected(op.ref.track))
            continue;
        RowStats& row = gpuRows[op.ref.track];
        row.track = op.ref.track;
        const Interval piece{op.startNs, op.endNs};
        gpuBusy[op.ref.track].push_back(piece);
        allGpu.push_back(piece);
        if (op.kind == GpuOpKind::Memcpy)
            row.copyNs += op.endNs - op.startNs;
        if (op.continuation)
            continue;  // counted, with its bytes, by its first piece
        ++row.ops;
        if (op.kind == GpuOpKind::Kernel) {
            ++row.kernels;
        } else if (op.kind == GpuOpKind::Memcpy) {
            ++row.copies;
            if (const model::MemcpyDetail* d = trace.memcpy(trace.slice(op.ref)))
                row.copyBytes += d->bytes;
        }
    }
    for (auto& [track, row] : gpuRows) {
        row.busyNs = IntervalSet(std::move(gpuBusy[track])).totalNs();
        addCounts(out.gpuTotal, row);
        out.rows.push_back(row);
    }
    out.gpuTotal.busyNs = IntervalSet(std::move(allGpu)).totalNs();

    std::vector<Interval> allHost;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        if (tracks[t].kind != model::TrackKind::HostApi || !selected(t))
            continue;
        RowStats row;
        row.track = t;
        std::vector<Interval> busy;
        hostRow(tracks[t], window, row, busy);
        if (row.ops == 0)
            continue;
        allHost.insert(allHost.end(), busy.begin(), busy.end());
        row.busyNs = IntervalSet(std::move(busy)).totalNs();
        addCounts(out.hostTotal, row);
        out.rows.push_back(row);
    }
    out.hostTotal.busyNs = IntervalSet(std::move(allHost)).totalNs();
    return out;
}

}  // namespace wl::analysis
