#include "ui/timeline/TimelineRows.h"

namespace wl::ui {

void TimelineRows::setTrace(const model::Trace* trace) {
    m_trace = trace;
    m_folded.clear();
    if (trace) {
        // Producers' bookkeeping processes (Kineto's "Spans", "Traces") start folded.
        for (model::ProcessIndex p : TimelineLayout::foldedAtOpen(*trace)) {
            m_folded.insert(TimelineLayout::processKey(p));
        }
    }
}

void TimelineRows::rebuild(const std::unordered_set<std::int32_t>& devicesWithGaps) {
    m_layout.build(m_trace, m_folded, devicesWithGaps, m_arrangement);
    ++m_version;
}

bool TimelineRows::unfoldFor(model::TrackIndex track, std::uint32_t depth) {
    if (!m_trace || track >= m_trace->tracks().size()) {
        return false;
    }
    bool changed = m_folded.erase(TimelineLayout::processKey(m_trace->track(track).process)) > 0;
    if (depth > 0) {
        changed |= m_folded.erase(TimelineLayout::trackKey(track)) > 0;
    }
    return changed;
}

bool TimelineRows::unfoldProcess(model::ProcessIndex process) {
    return m_folded.erase(TimelineLayout::processKey(process)) > 0;
}

void TimelineRows::toggleFolded(std::uint64_t key) {
    if (!m_folded.erase(key)) {
        m_folded.insert(key);
    }
}

void TimelineRows::setAllProcessesFolded(bool folded) {
    if (!m_trace) {
        return;
    }
    for (std::size_t p = 0; p < m_trace->processes().size(); ++p) {
        const std::uint64_t key = TimelineLayout::processKey(model::ProcessIndex(p));
        if (folded) {
            m_folded.insert(key);
        } else {
            m_folded.erase(key);
        }
    }
}

std::optional<RowArrangement> TimelineRows::arrangementShowing(
    model::TrackIndex track, const std::unordered_set<std::int32_t>& devicesWithGaps) const {
    if (!m_trace || m_arrangement.hidden.isEmpty()) {
        return std::nullopt;
    }
    // The row's and its group's identities, from a layout that hides nothing; either may be
    // what hides it.
    RowArrangement all = m_arrangement;
    all.hidden.clear();
    TimelineLayout unhidden;
    unhidden.build(m_trace, m_folded, devicesWithGaps, all);
    const int row = unhidden.rowOfTrack(track);
    if (row < 0) {
        return std::nullopt;
    }
    const TimelineRow& r = unhidden.rows()[std::size_t(row)];
    RowArrangement a = m_arrangement;
    a.show(r.identity);
    a.show(r.groupIdentity);
    if (a.hidden.size() == m_arrangement.hidden.size()) {
        return std::nullopt;
    }
    return a;
}

TimelineRows::Siblings TimelineRows::siblingsOf(int rowIndex) const {
    const std::vector<TimelineRow>& rows = m_layout.rows();
    const TimelineRow& moved = rows[std::size_t(rowIndex)];
    Siblings out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& row = rows[i];
        bool sibling = false;
        if (moved.pinned) {
            sibling = row.pinned;
        } else if (moved.kind == RowKind::Process) {
            sibling = row.kind == RowKind::Process;
        } else {
            sibling = !row.pinned && row.groupRow == moved.groupRow;
        }
        if (!sibling) {
            if (moved.kind == RowKind::Process && !out.spans.empty() && !row.pinned) {
                out.spans.back().second = row.yPx + row.heightPx;  // the group's rows
            }
            continue;
        }
        out.identities << row.identity;
        out.spans.emplace_back(row.yPx, row.yPx + row.heightPx);
    }
    return out;
}

TimelineRows::Drop TimelineRows::dropAt(int rowIndex, int contentYPx) const {
    const Siblings siblings = siblingsOf(rowIndex);
    for (int i = 0; i < siblings.identities.size(); ++i) {
        const auto [top, bottom] = siblings.spans[std::size_t(i)];
        if (contentYPx < (top + bottom) / 2) {
            return {siblings.identities[i], top};
        }
    }
    return {QString(), siblings.spans.empty() ? 0 : siblings.spans.back().second};
}

RowArrangement TimelineRows::arrangementAfterMove(int rowIndex, int contentYPx) const {
    const TimelineRow& pressed = m_layout.rows()[std::size_t(rowIndex)];
    const QString before = dropAt(rowIndex, contentYPx).before;
    RowArrangement a = m_arrangement;
    if (pressed.pinned) {
        // The pinned band's order is the pin order.
        a.pinned.removeAll(pressed.identity);
        const qsizetype at = before.isEmpty() ? -1 : a.pinned.indexOf(before);
        a.pinned.insert(at < 0 ? a.pinned.size() : at, pressed.identity);
    } else {
        a.move(pressed.identity, before, siblingsOf(rowIndex).identities);
    }
    return a;
}

}  // namespace wl::ui
