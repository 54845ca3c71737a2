#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <utility>

#include <QString>
#include <QStringList>

#include "model/Trace.h"
#include "ui/timeline/RowArrangement.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {

// The timeline's rows as the user has them: which process groups and tracks are folded, how the
// rows are arranged (hidden, pinned, moved: RowArrangement), and the TimelineLayout laid out
// from those. Every change is a new layout and a new version, which is what the draw lists are
// kept for. A plain model, testable without a widget; the view maps clicks, drags and menus onto
// it.
class TimelineRows {
public:
    // A new trace (null: none): its producer's bookkeeping processes folded, nothing else. Call
    // rebuild() next.
    void setTrace(const model::Trace* trace);
    // Lays the rows out again; `devicesWithGaps` get an idle-gap row (the overlays' devices).
    void rebuild(const std::unordered_set<std::int32_t>& devicesWithGaps);

    const TimelineLayout& layout() const { return m_layout; }
    // Bumped by every rebuild: what a draw list of the rows was built from.
    std::uint64_t version() const { return m_version; }
    const RowArrangement& arrangement() const { return m_arrangement; }
    // The user's arrangement (rebuild() applies it).
    void setArrangement(RowArrangement arrangement) { m_arrangement = std::move(arrangement); }

    // Unfolds what hides lane `depth` of `track`: its process, and the track itself for a nested
    // lane. True when something was folded (rebuild() then).
    bool unfoldFor(model::TrackIndex track, std::uint32_t depth);
    // Unfolds a process group; true when it was folded.
    bool unfoldProcess(model::ProcessIndex process);
    // A click on a foldable row's header: folds it, or unfolds it.
    void toggleFolded(std::uint64_t key);
    // Folds (or unfolds) every process group.
    void setAllProcessesFolded(bool folded);

    // The arrangement that shows `track`'s row again (its row and its group unhidden), or nullopt
    // when neither is hidden. Lays the rows out once without hiding anything, to learn their
    // identities: a few milliseconds, only when a hidden row's slice is asked for.
    std::optional<RowArrangement> arrangementShowing(
        model::TrackIndex track, const std::unordered_set<std::int32_t>& devicesWithGaps) const;

    // Dragging row `rowIndex`'s header among its siblings (its group's rows; the groups; the
    // pinned rows): where it would go at content y `contentYPx` (the sibling it would go
    // before, empty for last) and where the drop line is drawn (content y).
    struct Drop {
        QString before;
        int lineYPx = 0;
    };
    Drop dropAt(int rowIndex, int contentYPx) const;
    // The arrangement after dropping row `rowIndex` at content y `contentYPx`.
    RowArrangement arrangementAfterMove(int rowIndex, int contentYPx) const;

private:
    // The dragged row's siblings' identities in layout order, each with its span of content y
    // (a group spans its title and rows).
    struct Siblings {
        QStringList identities;
        std::vector<std::pair<int, int>> spans;  // [top, bottom)
    };
    Siblings siblingsOf(int rowIndex) const;

    const model::Trace* m_trace = nullptr;
    std::unordered_set<std::uint64_t> m_folded;  // TimelineLayout's keys
    RowArrangement m_arrangement;
    TimelineLayout m_layout;
    std::uint64_t m_version = 0;
};

}  // namespace wl::ui
