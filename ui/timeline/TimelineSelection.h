#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"
#include "ui/find/SliceSearch.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// What is selected and marked on the timeline: a slice; a time range, with the rows a shift-drag
// over them took with it; the parts of the trace the analysis describes; the search's matches.
// A plain value that the view draws, changes on input and signals about.
struct TimelineSelection {
    model::SliceRef slice;  // invalid: none
    std::optional<model::TimeRange> time;
    // The rows selected with the time (sorted tracks; a folded process stands for all of its
    // rows), and the band of content y they cover (top, bottom). Empty: every row.
    std::vector<model::TrackIndex> tracks;
    std::pair<int, int> rowsBandYPx{0, 0};
    std::vector<model::TimeRange> analysisWindow;  // empty: the whole trace, nothing drawn
    SearchMatchesPtr search;                       // null: none

    // The time selection and its rows go.
    void clearTime() {
        time.reset();
        tracks.clear();
    }
    // The rows between content y `y0Px` and `y1Px` (either order) become the selected rows.
    void selectRowsBetween(const model::Trace& trace, const TimelineLayout& layout, int y0Px,
                           int y1Px);
};

}  // namespace wl::ui
