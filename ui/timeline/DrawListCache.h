#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <QFont>

#include "ui/timeline/DrawList.h"
#include "ui/timeline/DrawListBuilder.h"

namespace wl::ui {

// The timeline's draw lists, one per row in row coordinates, kept for as long as what they are
// drawn from stays the same: the trace, the rows, the overlays, the visible time range and the
// time area's width. The vertical scroll and the height are not among those: a scroll only moves
// the rows' lists to where their rows now are, so it never rebuilds one (as Qt Creator's timeline
// keeps its rows' geometry across scrolls). A row's list is built the first time it is asked for,
// so a zoom or a pan builds only the rows in view. GUI thread (it holds the frame's inputs).
class DrawListCache {
public:
    explicit DrawListCache(const QFont& labelFont) : m_builder(labelFont) {}

    // What every row's list depends on besides the row itself.
    struct Key {
        const model::Trace* trace = nullptr;
        std::uint64_t layoutVersion = 0;   // the caller's count of layout changes
        std::uint64_t overlayVersion = 0;  // the caller's count of overlay changes
        model::TimeNs startNs = 0;
        model::TimeNs endNs = 0;
        int widthPx = 0;
        friend bool operator==(const Key&, const Key&) = default;
    };

    // The inputs of the frames to come (the pointers are borrowed until the next call; the
    // request's scroll and height are not used). Drops every kept list when `key` differs from
    // the last call's.
    void setInputs(const DrawListRequest& request, const Key& key);
    // Drops every kept list: something they were drawn from changed that the key does not name
    // (the labels: full or short kernel names).
    void invalidate();

    // Row `rowIndex`'s list, in row coordinates (y = 0 at the row's top), built if not kept.
    const DrawList& row(int rowIndex);
    // The rows that reach into content y [topPx, topPx + heightPx): first, one past the last.
    std::pair<int, int> rowsIn(int topPx, int heightPx) const;
    // The visible rows' lists at a scroll, moved to time-area coordinates and joined into one
    // (what the frame shows, for tests, benchmarks and exports; painting uses row()).
    DrawList frame(int scrollYPx, int heightPx);

    // Rows' lists built since this cache was made: what a test or a benchmark reads to see that a
    // frame rebuilt nothing.
    std::uint64_t buildCount() const { return m_builds; }

private:
    DrawListBuilder m_builder;
    DrawListRequest m_request;
    std::optional<Key> m_key;
    std::vector<std::optional<DrawList>> m_rows;  // by layout row; empty until built
    std::uint64_t m_builds = 0;
};

}  // namespace wl::ui
