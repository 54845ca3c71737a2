// TimelineView's rows as the user arranges them: the header context menu (hide, pin, show hidden,
// collapse or expand all), dragging a header among its siblings, the sticky group title and the
// pinned band. The arrangement itself is RowArrangement, kept with the folds by TimelineRows.
#include <QMenu>

#include "ui/timeline/TimelineView.h"
#include "ui/timeline/TimelineViewState.h"

namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

void TimelineView::setArrangement(RowArrangement arrangement) {
    m_state->rows.setArrangement(std::move(arrangement));
    rebuildLayout();
    update();
}

const RowArrangement& TimelineView::arrangement() const {
    return m_state->rows.arrangement();
}

void TimelineView::changeArrangement(RowArrangement arrangement) {
    setArrangement(std::move(arrangement));
    emit arrangementChanged(m_state->rows.arrangement());
}

void TimelineView::applyRowAction(RowAction action, int rowIndex) {
    State& s = *m_state;
    const std::vector<TimelineRow>& rows = s.rows.layout().rows();
    const bool valid = rowIndex >= 0 && rowIndex < int(rows.size());
    RowArrangement a = s.rows.arrangement();
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
            if (!valid) {
                return;
            }
            const TimelineRow& row = rows[std::size_t(rowIndex)];
            if (action == RowAction::Hide) {
                a.hide(row.identity);
            } else if (action == RowAction::HideGroup) {
                a.hide(row.groupIdentity);
            } else if (action == RowAction::Pin) {
                a.pin(row.identity);
            } else {
                a.unpin(row.identity);
            }
            break;
        }
    }
    changeArrangement(std::move(a));
}

bool TimelineView::unhideRowOf(model::TrackIndex track) {
    State& s = *m_state;
    std::optional<RowArrangement> shown =
        s.rows.arrangementShowing(track, s.overlays.devicesWithGaps());
    if (!shown) {
        return false;
    }
    changeArrangement(std::move(*shown));
    return true;
}

void TimelineView::showHiddenRow(const QString& identity) {
    RowArrangement a = m_state->rows.arrangement();
    a.show(identity);
    changeArrangement(std::move(a));
}

void TimelineView::setAllGroupsCollapsed(bool collapsed) {
    State& s = *m_state;
    if (!s.trace) {
        return;
    }
    s.rows.setAllProcessesFolded(collapsed);
    rebuildLayout();
    update();
}

QMenu* TimelineView::rowHeaderMenu(int rowIndex, QWidget* parent) {
    State& s = *m_state;
    auto* menu = new QMenu(parent);
    const std::vector<TimelineRow>& rows = s.rows.layout().rows();
    if (rowIndex >= 0 && rowIndex < int(rows.size())) {
        const TimelineRow& row = rows[std::size_t(rowIndex)];
        const bool group = row.kind == RowKind::Process;
        if (!group) {
            menu->addAction(tr("Hide Row"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Hide, rowIndex); });
        }
        menu->addAction(tr("Hide Group"), this,
                        [this, rowIndex] { applyRowAction(RowAction::HideGroup, rowIndex); });
        if (s.rows.arrangement().isPinned(row.identity)) {
            menu->addAction(tr("Unpin"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Unpin, rowIndex); });
        } else {
            menu->addAction(tr("Pin to Top"), this,
                            [this, rowIndex] { applyRowAction(RowAction::Pin, rowIndex); });
        }
        menu->addSeparator();
    }
    QMenu* hidden = menu->addMenu(tr("Show Hidden Rows"));
    for (const auto& [identity, title] : s.rows.layout().hiddenRows()) {
        hidden->addAction(title, this, [this, id = identity] { showHiddenRow(id); });
    }
    hidden->addSeparator();
    hidden->addAction(tr("Show All"), this, [this] { applyRowAction(RowAction::ShowAll); });
    hidden->setEnabled(!s.rows.arrangement().hidden.isEmpty());
    menu->addSeparator();
    menu->addAction(tr("Collapse All"), this, [this] { applyRowAction(RowAction::CollapseAll); });
    menu->addAction(tr("Expand All"), this, [this] { applyRowAction(RowAction::ExpandAll); });
    return menu;
}

int TimelineView::stickyGroupRow(int* topPx) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    const int first = s.rows.layout().rowAt(scroll);
    if (first < 0) {
        return -1;
    }
    const std::vector<TimelineRow>& rows = s.rows.layout().rows();
    const TimelineRow& row = rows[std::size_t(first)];
    const int group = row.kind == RowKind::Process ? (row.yPx < scroll ? first : -1) : row.groupRow;
    if (group < 0) {
        return -1;
    }
    // The next group's title pushes this one up as it arrives.
    int top = kRulerHeightPx;
    for (std::size_t i = std::size_t(first) + 1;
         i < rows.size() && rows[i].yPx < scroll + TimelineLayout::kProcessHeightPx; ++i) {
        if (rows[i].kind == RowKind::Process) {
            top = kRulerHeightPx + rows[i].yPx - scroll - TimelineLayout::kProcessHeightPx;
            break;
        }
    }
    if (topPx) {
        *topPx = top;
    }
    return group;
}

int TimelineView::headerRowAt(QPoint widgetPos) const {
    const State& s = *m_state;
    if (widgetPos.x() >= kHeaderWidthPx || widgetPos.y() < kRulerHeightPx) {
        return -1;
    }
    int top = 0;
    const int sticky = stickyGroupRow(&top);
    if (sticky >= 0 && widgetPos.y() >= top &&
        widgetPos.y() < top + s.rows.layout().rows()[std::size_t(sticky)].heightPx) {
        return sticky;
    }
    return s.rows.layout().rowAt(widgetPos.y() - kRulerHeightPx + s.vbar->value());
}

bool TimelineView::pressRowHeader(QPoint widgetPos) {
    State& s = *m_state;
    if (widgetPos.x() >= kHeaderWidthPx || widgetPos.y() < kRulerHeightPx) {
        return false;
    }
    s.headerPressRow = headerRowAt(widgetPos);
    s.headerPressPos = widgetPos;
    s.headerDragging = false;
    s.rowDropYPx = -1;
    return true;
}

bool TimelineView::dragRowHeader(QPoint widgetPos) {
    State& s = *m_state;
    if (s.headerPressRow < 0) {
        return false;
    }
    if (!s.headerDragging && (widgetPos - s.headerPressPos).manhattanLength() < kDragThresholdPx) {
        return true;
    }
    s.headerDragging = true;
    setCursor(Qt::SizeVerCursor);
    const int contentY = widgetPos.y() - kRulerHeightPx + s.vbar->value();
    s.rowDropYPx = s.rows.dropAt(s.headerPressRow, contentY).lineYPx;
    update();
    return true;
}

bool TimelineView::releaseRowHeader(QPoint widgetPos) {
    State& s = *m_state;
    const int row = std::exchange(s.headerPressRow, -1);
    if (row < 0 || row >= int(s.rows.layout().rows().size())) {
        return false;
    }
    s.rowDropYPx = -1;
    const TimelineRow& pressed = s.rows.layout().rows()[std::size_t(row)];
    if (!std::exchange(s.headerDragging, false)) {
        // A click collapses or expands the row.
        if (pressed.collapsible) {
            s.rows.toggleFolded(pressed.key);
            rebuildLayout();
        }
        update();
        return true;
    }
    unsetCursor();
    const int contentY = widgetPos.y() - kRulerHeightPx + s.vbar->value();
    changeArrangement(s.rows.arrangementAfterMove(row, contentY));
    return true;
}

bool TimelineView::rowHeaderContextMenu(QContextMenuEvent* event) {
    if (event->pos().x() >= kHeaderWidthPx || event->pos().y() < kRulerHeightPx) {
        return false;
    }
    QMenu* menu = rowHeaderMenu(headerRowAt(event->pos()), this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
    event->accept();
    return true;
}

void TimelineView::paintRowArrangement(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    p.save();
    p.setClipRect(QRect(0, area.top(), area.right() + 1, area.height()));
    // The pinned band ends with a firm line.
    const std::vector<TimelineRow>& rows = s.rows.layout().rows();
    if (!rows.empty() && rows.front().pinned) {
        int end = 0;
        for (std::size_t i = 0; i < rows.size() && rows[i].pinned; ++i) {
            end = rows[i].yPx + rows[i].heightPx;
        }
        p.setPen(QPen(QColor::fromRgb(Palette::kHeaderText), 2));
        p.drawLine(0, area.top() + end - scroll - 1, area.right(), area.top() + end - scroll - 1);
    }
    // The sticky title of the group whose rows fill the top, over them.
    int top = 0;
    if (const int sticky = stickyGroupRow(&top); sticky >= 0) {
        const TimelineRow& row = rows[std::size_t(sticky)];
        p.fillRect(QRect(0, top, area.right() + 1, row.heightPx),
                   QColor::fromRgb(Palette::kProcessBand));
        p.setClipRect(QRect(0, area.top(), kHeaderWidthPx, area.height()));
        paintRowHeader(p, row, top, headerFonts());
        p.setClipRect(QRect(0, area.top(), area.right() + 1, area.height()));
        p.setPen(QColor::fromRgb(Palette::kGridLine));
        p.drawLine(0, top + row.heightPx - 1, area.right(), top + row.heightPx - 1);
    }
    // Where a dragged header would go.
    if (s.headerDragging && s.rowDropYPx >= 0) {
        p.setPen(QPen(QColor::fromRgb(Palette::kSearchMatch), 2));
        const int y = area.top() + s.rowDropYPx - scroll;
        p.drawLine(0, y, area.right(), y);
    }
    p.restore();
}

}  // namespace wl::ui
