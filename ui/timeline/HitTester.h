#pragma once

#include <cstdint>

#include "model/Trace.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// What lies under a point of the time area.
struct HitResult {
    enum class Kind : std::uint8_t { None, Slice, Gap, Counter };
    Kind kind = Kind::None;
    int row = -1;
    model::SliceRef slice;
    std::uint32_t gap = 0;  // index into the overlays' gaps
    double counterValue = 0.0;
    model::TimeNs timeNs = 0;
};

// Finds the slice, gap or counter sample under a point with binary searches (cost independent of
// the event count). xPx is in time-area pixels, contentY in content pixels (scroll applied).
// A slice within `tolerancePx` counts, so thin slices can be clicked when zoomed out.
HitResult hitTest(const model::Trace& trace, const TimelineLayout& layout,
                  const OverlayIndex* overlays, const TimeMapper& mapper, double xPx, int contentY,
                  double tolerancePx = 3.0);

}  // namespace wl::ui
