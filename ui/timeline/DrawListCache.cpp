#include "ui/timeline/DrawListCache.h"

#include <algorithm>

namespace wl::ui {

namespace {

// Appends `from`'s items to the batch of the same colour in `to`, moved down by `dy`.
void appendBatches(std::vector<DrawBatch>& to, const std::vector<DrawBatch>& from, int dy) {
    for (const DrawBatch& batch : from) {
        auto it = std::find_if(to.begin(), to.end(),
                               [&](const DrawBatch& b) { return b.color == batch.color; });
        if (it == to.end()) {
            to.push_back(DrawBatch{batch.color, {}});
            it = to.end() - 1;
        }
        for (DrawItem item : batch.items) {
            item.y += dy;
            it->items.push_back(item);
        }
    }
}

}  // namespace

void DrawListCache::setInputs(const DrawListRequest& request, const Key& key) {
    m_request = request;
    if (m_key && *m_key == key) {
        return;
    }
    m_key = key;
    m_rows.assign(request.layout ? request.layout->rows().size() : 0, std::nullopt);
}

void DrawListCache::invalidate() {
    m_key.reset();  // the next setInputs starts afresh
    m_rows.clear();
}

const DrawList& DrawListCache::row(int rowIndex) {
    std::optional<DrawList>& kept = m_rows.at(std::size_t(rowIndex));
    if (!kept) {
        kept = m_builder.buildRow(m_request, rowIndex);
        ++m_builds;
    }
    return *kept;
}

std::pair<int, int> DrawListCache::rowsIn(int topPx, int heightPx) const {
    if (!m_request.layout) {
        return {0, 0};
    }
    if (topPx >= m_request.layout->totalHeightPx()) {
        return {0, 0};
    }
    const std::vector<TimelineRow>& rows = m_request.layout->rows();
    const int first = std::max(0, m_request.layout->rowAt(topPx));
    int last = first;
    while (last < int(rows.size()) && rows[std::size_t(last)].yPx < topPx + heightPx) {
        ++last;
    }
    return {first, last};
}

DrawList DrawListCache::frame(int scrollYPx, int heightPx) {
    DrawList out;
    const auto [first, last] = rowsIn(scrollYPx, heightPx);
    for (int r = first; r < last; ++r) {
        const DrawList& list = row(r);
        const int dy = m_request.layout->rows()[std::size_t(r)].yPx - scrollYPx;
        appendBatches(out.sliceBatches, list.sliceBatches, dy);
        appendBatches(out.fillBatches, list.fillBatches, dy);
        for (DrawHatch hatch : list.hatches) {
            hatch.rect.translate(0, dy);
            out.hatches.push_back(hatch);
        }
        for (DrawLabel label : list.labels) {
            label.rect.translate(0, dy);
            out.labels.push_back(std::move(label));
        }
        for (const QPoint& at : list.lowFillMarks) {
            out.lowFillMarks.push_back(at + QPoint(0, dy));
        }
        out.visibleSlices += list.visibleSlices;
        out.lanesDrawn += list.lanesDrawn;
        out.mergedItems += list.mergedItems;
    }
    return out;
}

}  // namespace wl::ui
