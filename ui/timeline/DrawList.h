#pragma once

#include <cstdint>
#include <vector>

#include <QColor>
#include <QPoint>
#include <QRect>
#include <QString>

#include "model/Slice.h"

namespace wl::ui {

// One rectangle of slices: a single slice (count 1) or a merged run of slices too small to see
// one by one (count = how many). Coordinates are pixels of the time area (x = 0 at its left
// edge, y = 0 at the top of the visible rows).
struct DrawItem {
    std::int32_t x = 0;
    std::int32_t y = 0;
    std::int32_t w = 0;
    std::int32_t h = 0;
    std::uint32_t count = 0;
    model::SliceRef first;  // the first slice it stands for
};

// Items of one colour, painted together (fillRect batches by colour).
struct DrawBatch {
    QRgb color = 0;
    std::vector<DrawItem> items;
};

struct DrawLabel {
    QRect rect;
    QString text;  // already elided to the rect
    QRgb color = 0;
};

struct DrawHatch {
    QRect rect;
    QRgb color = 0;
};

// What one frame of the timeline's time area draws, built by DrawListBuilder from (trace, range,
// width, rows) and painted by TimelinePainter. Bounded by the pixels, not by the events: at most
// one slice item per pixel per lane. A plain value; the view keeps one per row (DrawListCache).
struct DrawList {
    std::vector<DrawBatch> sliceBatches;  // slices and merged runs, by colour
    std::vector<DrawBatch> fillBatches;   // counters, occupancy gauges: drawn over the slices
    std::vector<DrawHatch> hatches;       // idle gaps: drawn under the slices
    std::vector<DrawLabel> labels;
    std::vector<QPoint> lowFillMarks;  // top-left corner of each warning mark

    // Statistics of the build, for tests and benchmarks.
    std::uint64_t visibleSlices = 0;  // slices in view (= sum of item counts)
    std::uint32_t lanesDrawn = 0;     // lanes with their slices in this list
    std::uint32_t mergedItems = 0;    // items with count > 1

    bool empty() const {
        return sliceBatches.empty() && fillBatches.empty() && hatches.empty() && labels.empty() &&
               lowFillMarks.empty();
    }

    std::size_t sliceItemCount() const {
        std::size_t n = 0;
        for (const DrawBatch& b : sliceBatches) {
            n += b.items.size();
        }
        return n;
    }
};

}  // namespace wl::ui
