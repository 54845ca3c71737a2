#pragma once

// The timeline's tooltip texts for what the pointer is over: a row header, and a slice, an idle
// gap or a counter sample (a HitResult). The flags' are TimelineFlagsController's; the slice's
// and the gap's own texts are SliceText's.

#include <QString>

#include "model/Trace.h"
#include "ui/timeline/HitTester.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// The row's title, and for a track of several lanes how many and what a click does.
QString rowHeaderTooltip(const TimelineRow& row);
// What was hit (empty for nothing).
QString hitTooltip(const model::Trace& trace, const TimelineLayout& layout,
                   const OverlayIndex& overlays, const HitResult& hit);

}  // namespace wl::ui
