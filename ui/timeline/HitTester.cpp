#include "ui/timeline/HitTester.h"

#include "ui/timeline/RowTypes.h"

namespace wl::ui {

HitResult hitTest(const model::Trace& trace, const TimelineLayout& layout,
                  const OverlayIndex* overlays, const TimeMapper& mapper, double xPx, int contentY,
                  double tolerancePx) {
    HitResult hit;
    hit.timeNs = mapper.nsForX(xPx);
    hit.row = layout.rowAt(contentY);
    if (hit.row < 0 || xPx < 0 || xPx >= mapper.widthPx()) {
        return hit;
    }
    const TimelineRow& row = layout.rows()[std::size_t(hit.row)];
    // What lies under the point is the row kind's to say (RowTypes.cpp).
    const RowProbe probe{trace, overlays, mapper.startNs() + xPx * mapper.nsPerPx(),
                         tolerancePx * mapper.nsPerPx(), contentY};
    rowType(row.kind).hit(probe, row, hit);
    return hit;
}

}  // namespace wl::ui
