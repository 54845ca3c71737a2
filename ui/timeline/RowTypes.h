#pragma once

#include <cstdint>
#include <vector>

#include <QRgb>

#include "model/Trace.h"
#include "ui/timeline/DrawListBuilder.h"
#include "ui/timeline/HitTester.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// What a row draws with: the frame being built (DrawListBuilder's), as primitives that several
// kinds of row share. Row coordinates are time-area pixels (content y minus the scroll).
class RowCanvas {
public:
    virtual const DrawListRequest& request() const = 0;
    // The slices of lane `depth` of a track in the band [y, y + h): with names, occupancy gauges
    // and low-fill marks when `decorated`, else as a bare strip (a folded process's summary).
    virtual void lane(model::TrackIndex track, std::uint32_t depth, int y, int h,
                      bool decorated) = 0;
    // Idle gaps (indices into the overlays' gaps, sorted by start) hatched in [y, y + h).
    virtual void gaps(const std::vector<std::uint32_t>& list, int y, int h) = 0;
    // The fills of one colour (counter areas, gauges).
    virtual DrawBatch& fills(QRgb color) = 0;

protected:
    ~RowCanvas() = default;
};

// A point of the time area being hit-tested: t and tol in ns (tol: how far a thin slice may be).
struct RowProbe {
    const model::Trace& trace;
    const OverlayIndex* overlays;  // optional
    double t = 0.0;
    double tol = 0.0;
    int contentY = 0;
};

// What one kind of timeline row does, as Tracy's TimelineItem: how it draws in a frame and what
// lies under a point of it. A kind's behaviour is its RowType (RowTypes.cpp, one class per kind),
// so a new kind of row is its RowType, one entry in rowType() and the rows TimelineLayout makes.
class RowType {
public:
    virtual ~RowType() = default;
    virtual void draw(RowCanvas& canvas, const TimelineRow& row) const = 0;
    // Fills `hit` (its kind None on entry) with what lies under the probe in this row.
    virtual void hit(const RowProbe& probe, const TimelineRow& row, HitResult& hit) const = 0;
};

// The behaviour of a kind: one virtual call per visible row and frame, nothing per slice.
const RowType& rowType(RowKind kind);

}  // namespace wl::ui
