#pragma once

#include "model/Time.h"
#include "model/Trace.h"

namespace wl::ui {

// Where a trace's slices are (its counter samples when it has no slices), for the view a trace
// opens on: its whole span, except stray events (together at most 1% of them) cut off from the rest
// by an empty stretch longer than the rest's own extent. A Fuchsia trace whose one early event lies
// 13 days before the other 137,000 opens on those 137,000, not on a 13-day axis with its content a
// sliver at the edge. Fit all (key 0) still shows everything.
model::TimeRange denseSpan(const model::Trace& trace);

}  // namespace wl::ui
