#include "ui/timeline/TimelineRowHeaders.h"

#include <QMenu>
#include <utility>

namespace wl::ui {

using namespace timeline_geometry;

TimelineRowHeaders::TimelineRowHeaders(TimelineRows& rows, const OverlayIndex& overlays,
                                       QObject* parent)
    : QObject(parent), m_rows(rows), m_overlays(overlays) {}

void TimelineRowHeaders::setArrangement(RowArrangement arrangement) {
    m_rows.setArrangement(std::move(arrangement));
    emit relayoutNeeded();
}

void TimelineRowHeaders::changeArrangement(RowArrangement arrangement) {
    setArrangement(std::move(arrangement));
    emit arrangementChanged(m_rows.arrangement());
}

void TimelineRowHeaders::applyRowAction(RowAction action, int rowIndex) {
    const std::vector<TimelineRow>& rows = m_rows.layout().rows();
    const bool valid = rowIndex >= 0 && rowIndex < int(rows.size());
    RowArrangement a = m_rows.arrangement();
    switch (action) {
        case RowAction::CollapseAll:
        case RowAction::ExpandAll:
            setAllGroupsCollapsed(action == RowAction::CollapseAll);
            return;
        case RowAction::ShowAll:
            a.hidden.clear();
            break;
        case RowAction::Hide:
        case RowAction::HideGroup:
        case RowAction::Pin:
        case RowAction::Unpin: {
            if (!valid)
                return;
            const TimelineRow& row = rows[std::size_t(rowIndex)];
            if (action == RowAction::Hide)
                a.hide(row.identity);
            else if (action == RowAction::HideGroup)
                a.hide(row.groupIdentity);
            else if (action == RowAction::Pin)
                a.pin(row.identity);
            else
                a.unpin(row.identity);
            break;
        }
    }
    changeArrangement(std::move(a));
}

bool TimelineRowHeaders::unhideRowOf(model::TrackIndex track) {
    std::optional<RowArrangement> shown =
        m_rows.arrangementShowing(track, m_overlays.devicesWithGaps());
    if (!shown)
        return false;
    changeArrangement(std::move(*shown));
    return true;
}

void TimelineRowHeaders::showHiddenRow(const QString& identity) {
    RowArrangement a = m_rows.arrangement();
    a.show(identity);
    changeArrangement(std::move(a));
}

void TimelineRowHeaders::setAllGroupsCollapsed(bool collapsed) {
    if (!m_trace)
        return;
    m_rows.setAllProcessesFolded(collapsed);
    emit relayoutNeeded();
}

QMenu* TimelineRowHeaders::menu(int rowIndex, QWidget* parent) {
    auto* menu = new QMenu(parent);
    const std::vector<TimelineRow>& rows = m_rows.layout().rows();
    if (rowIndex >= 0 && rowIndex < int(rows.size())) {
        const TimelineRow& row = rows[std::size_t(rowIndex)];
        if (row.kind != RowKind::Process) {
            menu->addAction(tr("Hide Row"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Hide, rowIndex); });
        }
        menu->addAction(tr("Hide Group"), this,
                        [this, rowIndex] { applyRowAction(RowAction::HideGroup, rowIndex); });
        if (m_rows.arrangement().isPinned(row.identity)) {
            menu->addAction(tr("Unpin"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Unpin, rowIndex); });
        } else {
            menu->addAction(tr("Pin to Top"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Pin, rowIndex); });
        }
        menu->addSeparator();
    }
    QMenu* hidden = menu->addMenu(tr("Show Hidden Rows"));
    for (const auto& [identity, title] : m_rows.layout().hiddenRows())
        hidden->addAction(title, this, [this, id = identity] { showHiddenRow(id); });
    hidden->addSeparator();
    hidden->addAction(tr("Show All"), this, [this] { applyRowAction(RowAction::ShowAll); });
    hidden->setEnabled(!m_rows.arrangement().hidden.isEmpty());
    menu->addSeparator();
    menu->addAction(tr("Collapse All"), this, [this] { applyRowAction(RowAction::CollapseAll); });
    menu->addAction(tr("Expand All"), this, [this] { applyRowAction(RowAction::ExpandAll); });
    return menu;
}

int TimelineRowHeaders::stickyGroupRow(int scrollPx, int* topPx) const {
    const int first = m_rows.layout().rowAt(scrollPx);
    if (first < 0)
        return -1;
    const std::vector<TimelineRow>& rows = m_rows.layout().rows();
    const TimelineRow& row = rows[std::size_t(first)];
    const int group =
        row.kind == RowKind::Process ? (row.yPx < scrollPx ? first : -1) : row.groupRow;
    if (group < 0)
        return -1;
    // The next group's title pushes this one up as it arrives.
    int top = kRulerHeightPx;
    for (std::size_t i = std::size_t(first) + 1;
         i < rows.size() && rows[i].yPx < scrollPx + TimelineLayout::kProcessHeightPx; ++i) {
        if (rows[i].kind == RowKind::Process) {
            top = kRulerHeightPx + rows[i].yPx - scrollPx - TimelineLayout::kProcessHeightPx;
            break;
        }
    }
    if (topPx)
        *topPx = top;
    return group;
}

int TimelineRowHeaders::headerRowAt(QPoint widgetPos, int scrollPx) const {
    if (widgetPos.x() >= kHeaderWidthPx || widgetPos.y() < kRulerHeightPx)
        return -1;
    int top = 0;
    const int sticky = stickyGroupRow(scrollPx, &top);
    if (sticky >= 0 && widgetPos.y() >= top &&
        widgetPos.y() < top + m_rows.layout().rows()[std::size_t(sticky)].heightPx)
        return sticky;
    return m_rows.layout().rowAt(widgetPos.y() - kRulerHeightPx + scrollPx);
}

bool TimelineRowHeaders::press(QPoint widgetPos, const TimelineFrame& frame) {
    if (widgetPos.x() >= kHeaderWidthPx || widgetPos.y() < kRulerHeightPx)
        return false;
    m_pressRow = headerRowAt(widgetPos, frame.scrollPx);
    m_pressPx = widgetPos;
    m_headerDragging = false;
    m_dropLineYPx = -1;
    return true;
}

bool TimelineRowHeaders::drag(QPoint widgetPos, const TimelineFrame& frame) {
    if (m_pressRow < 0)
        return false;
    if (!m_headerDragging && (widgetPos - m_pressPx).manhattanLength() < kDragThresholdPx)
        return true;
    m_headerDragging = true;
    emit cursorChanged(Qt::SizeVerCursor);
    m_dropLineYPx = m_rows.dropAt(m_pressRow, frame.contentYAt(widgetPos.y())).lineYPx;
    emit repaintNeeded();
    return true;
}

bool TimelineRowHeaders::release(QPoint widgetPos, const TimelineFrame& frame) {
    const int row = std::exchange(m_pressRow, -1);
    if (row < 0 || row >= int(m_rows.layout().rows().size()))
        return false;
    m_dropLineYPx = -1;
    const TimelineRow& pressed = m_rows.layout().rows()[std::size_t(row)];
    if (!std::exchange(m_headerDragging, false)) {
        // A click folds or unfolds the row.
        if (pressed.collapsible) {
            m_rows.toggleFolded(pressed.key);
            emit relayoutNeeded();
        }
        emit repaintNeeded();
        return true;
    }
    emit cursorReset();
    changeArrangement(m_rows.arrangementAfterMove(row, frame.contentYAt(widgetPos.y())));
    return true;
}

bool TimelineRowHeaders::contextMenu(QPoint widgetPos, QPoint globalPos, const TimelineFrame& frame,
                                     QWidget* parent) {
    if (widgetPos.x() >= kHeaderWidthPx || widgetPos.y() < kRulerHeightPx)
        return false;
    QMenu* m = menu(headerRowAt(widgetPos, frame.scrollPx), parent);
    m->setAttribute(Qt::WA_DeleteOnClose);
    m->popup(globalPos);
    return true;
}

}  // namespace wl::ui
