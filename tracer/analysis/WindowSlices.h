#pragma once

#include <cstdint>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// The slices of a window on one row, found lane by lane without a scan of the whole row: the
// building block of the summaries of an area selection (SliceSummary, TopDown).

// The slices of lane `lane` of `track` that overlap [fromNs, toNs), as indices [first, last) into
// track.slices. A lane's slices do not overlap, so their ends are sorted like their starts and
// two binary searches find them. A slice of no duration counts as [start, start + 1), as
// overlapsParts has it.
struct LaneSpan {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
};
LaneSpan laneSpan(const model::Track& track, std::uint32_t lane, model::TimeNs fromNs,
                  model::TimeNs toNs);

// The time of [startNs, endNs) inside sorted, disjoint `parts`; 0 when it overlaps none.
model::TimeNs timeInParts(const std::vector<model::TimeRange>& parts, model::TimeNs startNs,
                          model::TimeNs endNs);

// Calls f(index, slice) for every slice of `track` (lane by lane, each lane in start order)
// that overlaps one of the window's parts. O(k log p) for k slices between the window's first
// start and last end, p parts.
template <typename F>
void forEachSliceInWindow(const model::Track& track, const AnalysisWindow& window, F&& f) {
    if (window.parts.empty())
        return;
    for (std::uint32_t d = 0; d < track.laneCount(); ++d) {
        const LaneSpan span = laneSpan(track, d, window.startNs(), window.endNs());
        for (std::uint32_t i = span.first; i < span.last; ++i) {
            const model::Slice& s = track.slices[i];
            if (window.parts.size() == 1 || overlapsParts(window.parts, s.startNs, s.endNs()))
                f(i, s);
        }
    }
}

// Whether the window's selection (AnalysisWindow::tracks, sorted; empty: every row) holds `track`.
bool windowSelects(const AnalysisWindow& window, model::TrackIndex track);

}  // namespace wl::analysis
