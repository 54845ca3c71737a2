#pragma once

#include <span>

#include <QFont>
#include <QFontMetrics>

#include "model/Trace.h"
#include "ui/timeline/CounterSummary.h"
#include "ui/timeline/DrawList.h"
#include "ui/timeline/LaneIndex.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// Everything a frame of the time area depends on. Pointers are borrowed for the call.
struct DrawListRequest {
    const model::Trace* trace = nullptr;
    const TimelineLayout* layout = nullptr;
    const OverlayIndex* overlays = nullptr;    // optional
    const CounterSummary* counters = nullptr;  // required when the trace has counters
    const LaneIndex* lanes = nullptr;          // optional: speeds up very dense lanes
    TimeMapper mapper;
    int scrollYPx = 0;         // content y shown at the top of the time area
    int viewportHeightPx = 0;  // height of the time area
};

// Turns (trace, visible range, width, rows) into a DrawList with work bounded by the pixels: per
// lane, the first visible slice by binary search on the sorted ends, then one step per pixel —
// a slice at least a pixel wide becomes its own item, a run of thinner ones becomes one counted
// block found by galloping search (over the LaneIndex's coarse starts where thousands of slices
// share a pixel) — so a frame never visits every event. Stateless apart from the
// label font; a build may run on any thread (no widgets touched).
class DrawListBuilder {
public:
    static constexpr double kMinSinglePx = 1.0;  // narrower slices merge into counted blocks
    static constexpr int kMinLabelPx = 40;       // slices this wide get their name written in
    static constexpr int kMarkSpacingPx = 8;     // low-fill marks at least this far apart
    // A collapsed process's strip of what it holds, inside its title band.
    static constexpr int kSummaryTopPx = 8;
    static constexpr int kSummaryHeightPx = 10;

    explicit DrawListBuilder(const QFont& labelFont);

    DrawList build(const DrawListRequest& request) const;
    // Row `rowIndex` of the request's layout on its own, all of its lanes, in row coordinates
    // (y = 0 at the row's top; the request's scroll and height are not used): what DrawListCache
    // keeps per row, so that a vertical scroll moves the rows' lists instead of rebuilding them.
    DrawList buildRow(const DrawListRequest& request, int rowIndex) const;

    // First index in [from, lane.size()) whose start is >= t (lane sorted by start), by galloping
    // from `from`: cost O(log distance), so stepping through a lane pixel by pixel stays cheap.
    static std::size_t gallopToStart(std::span<const model::Slice> lane, std::size_t from,
                                     double t);

private:
    class Builder;
    QFontMetrics m_metrics;
};

}  // namespace wl::ui
