#include "ui/timeline/TimelineSelection.h"

#include <algorithm>

namespace wl::ui {

void TimelineSelection::selectRowsBetween(const model::Trace& trace, const TimelineLayout& layout,
                                          int y0Px, int y1Px) {
    const auto& rows = layout.rows();
    const int first = std::max(0, layout.rowAt(std::min(y0Px, y1Px)));
    int last = layout.rowAt(std::max(y0Px, y1Px));
    if (last < 0)
        last = static_cast<int>(rows.size()) - 1;
    tracks.clear();
    if (first > last || rows.empty()) {
        rowsBandYPx = {0, 0};
        return;
    }
    for (int r = first; r <= last; ++r) {
        const TimelineRow& row = rows[std::size_t(r)];
        if (showsTrack(row.kind)) {
            tracks.push_back(row.track);
        } else if (row.kind == RowKind::Process && row.collapsed) {
            // A folded process stands for all of its rows.
            const auto all = trace.tracks();
            for (model::TrackIndex t = 0; t < all.size(); ++t) {
                if (all[t].process == row.process)
                    tracks.push_back(t);
            }
        }
    }
    std::sort(tracks.begin(), tracks.end());
    tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
    rowsBandYPx = {rows[std::size_t(first)].yPx,
                   rows[std::size_t(last)].yPx + rows[std::size_t(last)].heightPx};
}

}  // namespace wl::ui
