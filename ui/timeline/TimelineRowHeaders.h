#pragma once

#include <QObject>
#include <QPoint>
#include <QString>

#include "model/Trace.h"
#include "ui/timeline/OverlayIndex.h"
#include "ui/timeline/RowArrangement.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineRows.h"

class QMenu;
class QWidget;

namespace wl::ui {

// The row headers as the user handles them (as in Perfetto): a click folds or unfolds a row, a
// drag moves a row among its siblings (a group among groups), the context menu hides, pins, shows
// hidden rows again, collapses or expands all; and where the sticky title of the group whose rows
// fill the top is. It changes the TimelineRows it is given and tells the view through signals
// (lay the rows out again, the arrangement changed), so that a test can press and drag headers
// without a widget. The painting of the headers is TimelineFramePainter's. GUI thread only.
class TimelineRowHeaders : public QObject {
    Q_OBJECT
public:
    enum class RowAction { Hide, HideGroup, Pin, Unpin, ShowAll, CollapseAll, ExpandAll };

    // `overlays` says which devices get an idle-gap row, for unhiding a row.
    TimelineRowHeaders(TimelineRows& rows, const OverlayIndex& overlays, QObject* parent = nullptr);

    void setTrace(const model::Trace* trace) { m_trace = trace; }

    // Applies an arrangement without signalling arrangementChanged (a window restoring one).
    void setArrangement(RowArrangement arrangement);
    // What the header menu's items do to layout row `rowIndex` (ShowAll and the collapses take
    // none); the arrangement's changes are signalled.
    void applyRowAction(RowAction action, int rowIndex = -1);
    void showHiddenRow(const QString& identity);
    void setAllGroupsCollapsed(bool collapsed);
    // Shows again the hidden row and group that hold `track`; false when neither is hidden.
    bool unhideRowOf(model::TrackIndex track);
    // The header context menu of a row (-1: the items for no row), parented to `parent`.
    QMenu* menu(int rowIndex, QWidget* parent);

    // The group row whose title is held at the top of the rows at scroll `scrollPx`, or -1; its
    // top in widget px.
    int stickyGroupRow(int scrollPx, int* topPx = nullptr) const;
    // The layout row whose header is at a widget point (the sticky title counts as its group's).
    int headerRowAt(QPoint widgetPos, int scrollPx) const;

    // A left press on the headers (true: it is theirs), the drag and the release after it.
    bool press(QPoint widgetPos, const TimelineFrame& frame);
    bool drag(QPoint widgetPos, const TimelineFrame& frame);  // false: no header pressed
    bool release(QPoint widgetPos, const TimelineFrame& frame);
    // The header menu at a widget point over the headers; false elsewhere.
    bool contextMenu(QPoint widgetPos, QPoint globalPos, const TimelineFrame& frame,
                     QWidget* parent);
    // Where a dragged header would go (content y), or -1 when none is dragged.
    int dropLineYPx() const { return m_headerDragging ? m_dropLineYPx : -1; }

signals:
    void relayoutNeeded();  // folds or arrangement changed: lay the rows out again and repaint
    void arrangementChanged(const wl::ui::RowArrangement& arrangement);
    void repaintNeeded();
    void cursorChanged(Qt::CursorShape shape);
    void cursorReset();

private:
    void changeArrangement(RowArrangement arrangement);

    TimelineRows& m_rows;
    const OverlayIndex& m_overlays;
    const model::Trace* m_trace = nullptr;
    // A header pressed (layout row, -1: none) and maybe being dragged to the drop line.
    int m_pressRow = -1;
    QPoint m_pressPx;
    bool m_headerDragging = false;
    int m_dropLineYPx = -1;  // content y
};

}  // namespace wl::ui
