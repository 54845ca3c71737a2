#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QEvent>
#include <QFont>
#include <QFontMetrics>
#include <QRectF>
#include <QWidget>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"
#include "ui/find/SliceSearch.h"
#include "ui/timeline/DrawList.h"
#include "ui/timeline/Flags.h"
#include "ui/timeline/Overlays.h"
#include "ui/timeline/RulerTicks.h"
#include "ui/timeline/TimeFormat.h"
#include "ui/timeline/TimeMapper.h"
#include "ui/timeline/TimeScale.h"
#include "ui/timeline/TimeViewport.h"
#include "ui/timeline/TimelineContent.h"
#include "ui/timeline/TimelineFlagsController.h"
#include "ui/timeline/TimelineFramePainter.h"
#include "ui/timeline/TimelineGeometry.h"
#include "ui/timeline/TimelineInputHandler.h"
#include "ui/timeline/TimelineLayout.h"
#include "ui/timeline/TimelineNavigator.h"
#include "ui/timeline/TimelineRowHeaders.h"
#include "ui/timeline/TimelineSelection.h"

class QMenu;
class QScrollBar;

namespace wl::ui {

// The timeline widget: row headers on the left, a time ruler on top and the rows of a Trace
// (host API, NVTX, per-GPU streams, sync, idle gaps, counters) drawn with pixel-bounded work per
// frame. Holds a shared read-only Trace; GUI thread only. Times are ns since the trace origin.
//
// Keys and mouse as in Perfetto: W/S zoom at the cursor, A/D pan, Ctrl+wheel zoom, wheel scrolls
// rows, drag pans, F fits the selection, 0 fits all, click selects, hover shows a tooltip; L, [
// and ] go from the selected slice along its launch arrow and its waits (followRelation). A drag
// on the ruler (or a shift-drag anywhere) selects a time range (timeRangeSelected); a shift-drag
// over rows selects those rows with it (selectedTracks); a click on the ruler clears it. A
// right-click on a slice asks for its context menu (sliceContextMenuRequested).
//
// Flags (TimelineFlagsController), as in Perfetto and Nsight Systems: Ctrl+click on the ruler drops
// one there; key M drops one at the pointer (else at the selected slice's start, else the view's
// middle), and with a time selection marks its span with two flags at its edges, "Selection
// start" and "Selection end" (plain flags, so they can be jumped to, measured and renamed like any
// other, where Perfetto keeps an area mark). Each is a pennant with its name on the ruler and a
// line through the rows; hovering it tells its time and the time from the previous flag; a
// double-click renames it; its context menu renames, removes, makes it the reference (the
// ruler's ticks then count from it: "+12.4 ms", "from Flag 2"; the Details panel stays
// absolute) or removes them all. `.` and `,` centre the next and the previous flag. The measure
// (measureText, measureChanged): the time between the flags either side of the pointer, else
// between the last two dropped, and a time selection's duration and edges. Flags belong to
// the trace: setTrace clears them.
//
// Two views on one time scale (Compare): give both the same TimeScale,
//     auto scale = std::make_shared<TimeScale>();
//     baselineView->setTimeScale(scale); asyncView->setTimeScale(scale);
// and zooming/panning either moves both. setTrace() resets a shared scale to fit that trace; call
// setVisibleRange() afterwards to show e.g. the longer of the two traces. setTimeOffsetNs()
// shifts one view against the scale (TimeViewport), to align two traces at chosen times. The
// zoom, pan and fit arithmetic is TimeViewport's; this widget maps keys and mouse onto it.
//
// The widget owns small classes and forwards Qt's events and its own API to them (a one-line
// forward is defined where it is declared, below, so the header says whose it is):
// TimelineContent (what is shown: the trace, its rows, the overlays and indexes built from them,
// the rows' draw lists, what is hit or told at a point), TimelineNavigator (where fits, reveals
// and relations take the view: the time range, the folds to open, the scroll),
// TimelineInputHandler (the pointer, presses, drags, range selection, wheel, zoom keys),
// TimelineRowHeaders (clicks, drags and menus on the row headers), TimelineFlagsController (flags
// and the measure), and TimelineFramePainter (headers, ruler, legend, selection, time cursor)
// around the rows' draw lists. The state they share is TimeViewport (the time shown) and
// TimelineSelection (what is selected and marked); their shared geometry is TimelineGeometry.h.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // nullptr clears; resets to fit all and clears the overlays (they address this trace's
    // slices: call setOverlays() after setTrace()).
    void setTrace(model::TracePtr trace);
    model::TracePtr trace() const { return m_content.trace(); }
    void setOverlays(TimelineOverlays overlays);
    const TimelineOverlays& overlays() const { return m_content.overlays().overlays(); }
    // Kernels labelled with their full names instead of the short ones (View > Full Kernel Names).
    void setFullKernelNames(bool full);
    bool fullKernelNames() const { return m_content.overlays().fullKernelNames(); }
    // Arrows for every wait through a CUDA event in view (View > Dependencies); the selected
    // op's own are drawn either way.
    void setShowDependencies(bool show);
    bool showDependencies() const { return m_content.showDependencies(); }

    model::TimeNs visibleStartNs() const { return m_viewport.startNs(); }
    model::TimeNs visibleEndNs() const { return m_viewport.endNs(); }
    void setVisibleRange(model::TimeNs startNs, model::TimeNs endNs);
    void fitAll();
    // The view a trace opens on: where its events are dense (DenseSpan.h).
    void fitDense();
    void fitSelection();

    void selectSlice(model::SliceRef ref);  // also scrolls it into view vertically
    // Selects `ref` and makes it visible: its row scrolled into view, and the time panned to it,
    // zoomed in when it would be narrower than a few pixels and out when it is longer than the
    // view (a search match, the other end of a launch arrow). The zoom is kept when the whole
    // slice can be seen at it.
    void revealSlice(model::SliceRef ref);
    model::SliceRef selectedSlice() const { return m_selection.slice; }
    // Opens a process group (a rank of a job, a GPU) if folded and scrolls its title to the top.
    void revealProcess(model::ProcessIndex process);
    // Follows a relation of the selected slice and reveals where it leads (FlowNavigation): the
    // other end of its launch arrow (key L), what it waited for through a CUDA event ([), what
    // waited for it (]). False, and nothing changes, when it has no such relation.
    using Relation = TimelineNavigator::Relation;  // Launch, WaitedFor, AwaitedBy
    bool followRelation(Relation relation);
    // The single-key commands (W/S zoom at the pointer, A/D pan, F fit the selection, 0 fit all,
    // Escape clears the selection, L/[/] follow relations), for the key press and for a window
    // that makes them window-wide. False, and nothing happens, for any other key.
    bool handleKey(int key, bool autoRepeat = false);
    // Slices a search found, outlined (null: none). They address this trace's slices.
    void setSearchMatches(SearchMatchesPtr matches);
    const SearchMatchesPtr& searchMatches() const { return m_selection.search; }
    // Rectangles of the search matches drawn in the current frame, in time-area pixels (tests).
    std::vector<QRect> searchMatchRects() const;
    void zoomToSlices(const std::vector<model::SliceRef>& refs);  // select first, fit all of them

    // The time range selected by dragging on the ruler (nullopt when none).
    std::optional<model::TimeRange> timeSelection() const { return m_selection.time; }
    // The rows a shift-drag over them selected with the time (sorted tracks; a folded process
    // stands for all of its rows). Empty: every row (a drag on the ruler, setTimeSelection()).
    const std::vector<model::TrackIndex>& selectedTracks() const { return m_selection.tracks; }
    void setTimeSelection(std::optional<model::TimeRange> range);
    // The parts of the trace the analysis describes, shaded on the ruler and outlined over the
    // rows (empty: the whole trace, nothing drawn).
    void setAnalysisWindow(std::vector<model::TimeRange> parts);

    // Shares the visible range with other views (see the class comment). Never null afterwards.
    void setTimeScale(std::shared_ptr<TimeScale> scale);
    std::shared_ptr<TimeScale> timeScale() const { return m_viewport.scale(); }
    // This view's trace time at the shared scale's time 0 (0 unless aligned; see TimeViewport).
    // Visible ranges, selections and signals stay in trace time.
    void setTimeOffsetNs(model::TimeNs offsetNs);
    model::TimeNs timeOffsetNs() const { return m_viewport.offsetNs(); }

    // ---- flags (see the class comment) ----
    const FlagSet& flags() const { return m_flags.flags(); }
    int dropFlag(model::TimeNs timeNs, QString name = {}) {  // returns its id
        return m_flags.drop(timeNs, std::move(name));
    }
    void markFlags() { m_flags.mark(); }  // key M
    bool renameFlag(int id, const QString& name) { return m_flags.rename(id, name); }
    bool removeFlag(int id) { return m_flags.remove(id); }
    void clearFlags() { m_flags.clear(); }
    // Ruler times counted from this flag (nullopt: from the trace's start).
    void setReferenceFlag(std::optional<int> id) { m_flags.setReference(id); }
    // Centres the next (forward) or previous flag from the view's middle; false when none.
    bool jumpToFlag(bool forward) { return m_flags.jump(forward); }
    // The measure line for the status bar ("Flag 1 → Flag 2: 12.4 ms"; empty when nothing to
    // measure).
    QString measureText() const { return m_flags.measureText(); }
    // Where the ruler's labels count from now: a round anchor deep in a trace, the reference
    // flag when one is set.
    RulerOrigin currentRulerOrigin() const;

    // Width of the row-header column, in px (the time area starts right of it).
    int headerWidthPx() const { return timeline_geometry::kHeaderWidthPx; }
    // The rows as currently laid out, and the draw list of the current frame (its rows' lists,
    // built if needed, joined in time-area coordinates): for tests and for exporting what is on
    // screen.
    const TimelineLayout& layout() const { return m_content.layout(); }
    DrawList currentDrawList() const;
    // Rows' draw lists built so far (DrawListCache): a vertical scroll adds none for rows that
    // were in view before at the same time range and width.
    std::uint64_t drawListBuilds() const { return m_content.drawListBuilds(); }

    // Rows the user arranges (as in Perfetto): a right-click on a row header hides its row or
    // group, pins the row to the top, shows hidden rows again, collapses or expands all groups; a
    // drag of a header moves its row among its siblings (a group among groups). The title of the
    // group whose rows fill the top stays there while scrolling (a sticky header). Code in
    // TimelineRowHeaders. setArrangement() applies one (a window keeps one per trace kind)
    // without signalling; each change the user makes is signalled (arrangementChanged).
    void setArrangement(RowArrangement arrangement) {
        m_rowHeaders.setArrangement(std::move(arrangement));
    }
    const RowArrangement& arrangement() const { return m_content.rows().arrangement(); }
    using RowAction = TimelineRowHeaders::RowAction;
    // What the header menu's items do to layout row `rowIndex` (ShowAll and the collapses take
    // none).
    void applyRowAction(RowAction action, int rowIndex = -1) {
        m_rowHeaders.applyRowAction(action, rowIndex);
    }
    void showHiddenRow(const QString& identity) { m_rowHeaders.showHiddenRow(identity); }
    void setAllGroupsCollapsed(bool collapsed) { m_rowHeaders.setAllGroupsCollapsed(collapsed); }
    // The header context menu of a row (-1: the items for no row), parented to `parent`.
    QMenu* rowHeaderMenu(int rowIndex, QWidget* parent) {
        return m_rowHeaders.menu(rowIndex, parent);
    }
    // The layout row whose header is at a widget point (the sticky title counts as its group's).
    int headerRowAt(QPoint widgetPos) const;
    // The group row whose title is held at the top of the rows, or -1; its top in widget px.
    int stickyGroupRow(int* topPx = nullptr) const;

signals:
    void sliceSelected(wl::model::SliceRef ref);  // invalid ref when the selection is cleared
    void visibleRangeChanged(wl::model::TimeNs startNs, wl::model::TimeNs endNs);
    // A time range was selected by dragging (never empty), or the selection was cleared.
    void timeRangeSelected(wl::model::TimeNs startNs, wl::model::TimeNs endNs);
    void timeSelectionCleared();
    // A right-click on a slice, at a global screen position.
    void sliceContextMenuRequested(wl::model::SliceRef ref, QPoint globalPos);
    void arrangementChanged(const wl::ui::RowArrangement& arrangement);
    // The measure line changed (measureText()).
    void measureChanged(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;  // renames a flag
    void contextMenuEvent(QContextMenuEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    void rebuildLayout();  // the rows laid out again, the scroll bar fitted to them
    void updateScrollBar();
    QRect timeArea() const;  // where the slices are, in widget px
    TimeMapper mapper() const;
    // Where the view is now: its time area, time mapping and scroll (TimelineGeometry.h).
    TimelineFrame frame() const;
    void wireCollaborators();

    // What is shown: the trace, its rows, what is built from them to draw and hit-test.
    TimelineContent m_content;
    // What the user moves and marks on it, read by the input, the flags and the paint.
    TimeViewport m_viewport;
    TimelineSelection m_selection;
    // The rest of the frame around and over the rows' draw lists.
    TimelineFramePainter m_framePainter{m_selection, m_content.counters()};
    // Input: the pointer and presses over the rows, the flags, the row headers.
    TimelineInputHandler m_input{m_viewport, m_selection};
    TimelineFlagsController m_flags{m_viewport, m_selection,
                                    [this] { return m_input.pointerTimeNs(frame()); }};
    TimelineRowHeaders m_rowHeaders{m_content.rows(), m_content.overlays()};
    // Where fits, reveals and relations take the view.
    TimelineNavigator m_navigator{m_content, m_viewport, m_rowHeaders, [this] {
                                      rebuildLayout();
                                      update();
                                  }};

    QScrollBar* m_vbar = nullptr;  // the rows' vertical scroll, a child widget
    int m_lastKey = 0;             // the last zoom/pan key and when it came (handleKey)
    QElapsedTimer m_keyClock;
};

}  // namespace wl::ui
