#pragma once

#include <QObject>
#include <QPoint>
#include <QString>
#include <memory>
#include <vector>

#include "analysis/Analysis.h"
#include "app/gui/DocumentAnalysis.h"
#include "app/gui/DocumentAnalyzer.h"
#include "app/gui/TraceDocument.h"
#include "model/Slice.h"
#include "model/Time.h"

class QMainWindow;
class QTabWidget;

namespace wl::ui::summary {
class SummaryView;
}

namespace wl::ui {
class CompareView;
class DetailsPanel;
class DiagnosticsPanel;
class EventsPanel;
class FindPanel;
class OverviewStrip;
class QueryPanel;
class RankPanel;
struct RowArrangement;
class StatisticsView;
class TimelineView;
}  // namespace wl::ui

namespace wl::app {

class DockLayout;
class DocumentController;
class MessageBar;
class RunPanel;

// The window's views and how they follow one another: the message bar, the overview strip and
// the tabs (the timeline, the Summary, and Compare from the first comparison) in the middle, the
// panels in their docks (run, details, diagnostics, statistics, events, find, ranks; DockLayout
// places them). A slice selected anywhere shows in Details, a search's matches on the timeline, a
// finding's evidence or a kernel's launches are zoomed to, and so on: the wiring between views
// lives here. What needs a document's analysis (a new analysis window, the gap threshold) is
// asked for with a signal; the window passes it to the DocumentController. GUI thread.
class WindowViews : public QObject {
    Q_OBJECT

public:
    // Builds the views into `window` (its central widget and docks). `documents`: whose analyses
    // the views look up (read only).
    WindowViews(QMainWindow& window, const DocumentController& documents);
    ~WindowViews() override;

    MessageBar* message() const { return m_message; }
    QTabWidget* tabs() const { return m_tabs; }
    ui::TimelineView* timeline() const { return m_timeline; }
    ui::OverviewStrip* overview() const { return m_overview; }
    RunPanel* runPanel() const { return m_runPanel; }
    ui::DetailsPanel* details() const { return m_details; }
    ui::DiagnosticsPanel* diagnostics() const { return m_diagnostics; }
    ui::StatisticsView* statistics() const { return m_statistics; }
    ui::EventsPanel* events() const { return m_events; }
    ui::FindPanel* find() const { return m_find; }
    ui::RankPanel* ranks() const { return m_ranks; }
    ui::QueryPanel* query() const { return m_query; }
    ui::CompareView* compare() const { return m_compare; }  // null before the first comparison
    ui::summary::SummaryView* summary() const { return m_summary; }
    DockLayout& docks() const { return *m_docks; }

    // Shows `doc`'s trace in every view (nothing analysed yet), with its rows arranged as the
    // user arranged this kind of trace.
    void showDocument(const TraceDocument& doc, const ui::RowArrangement& arrangement);
    // Shows the current document's analysis; `focus`: zoom to the GPU's work.
    void showAnalysis(const TraceDocument& doc, const DocumentAnalysis& analysis, bool focus,
                      model::TimeNs gapThresholdNs);
    // Shows two analysed documents side by side in Compare (brought to the front).
    void showComparison(const TraceDocument& baseline, const TraceDocument& async,
                        const AnalysisPair& results, const QString& baselineName,
                        const QString& asyncName);
    // Marks `range` as selected on the timeline (unless it is so already) and brings the
    // selection's summary forward in Statistics.
    void showTimeSelection(model::TimeRange range);
    // Clears the timeline's time selection unless the analysis window is one; the events table
    // follows the timeline's.
    void followAnalysisWindow(const analysis::WindowRequest& request);

    // Switches to the timeline, selects the first slice and fits them all (a finding's evidence,
    // a kernel's launches).
    void showSlicesOnTimeline(const std::vector<model::SliceRef>& refs);
    // Switches to the timeline and selects and reveals one slice of the trace shown there (a
    // search match, an events-table row, the other end of a flow).
    void revealOnTimeline(model::SliceRef ref);
    // Shows a slice of `trace` (the timeline's, or one of Compare's) in the details.
    void showSliceDetails(model::TracePtr trace, model::SliceRef ref);
    // The timeline the window-wide keys act on: the focused one, else the one in view.
    ui::TimelineView* activeTimeline() const;
    // The Find panel brought forward, with its cursor in the query (Ctrl+F).
    void showFind();
    // The Find panel brought forward, searching for `text` (the command line's --find).
    void find(const QString& text, bool regex);
    void showEvents();
    // The Query panel brought forward, running `sql`.
    void showQuery(const QString& sql);
    // The Summary tab brought forward, on page `page` (its tab index).
    void showSummary(int page);

signals:
    // A time range was selected on the timeline (of `tracks` only, when not empty).
    void timeSelected(wl::model::TimeRange range, std::vector<wl::model::TrackIndex> tracks);
    // Analyse the current document over another window ({}: the default one).
    void windowRequested(const wl::analysis::WindowRequest& request);
    void gapThresholdChanged(wl::model::TimeNs thresholdNs);

private:
    void createCentre(QMainWindow& window);
    // Whether the timeline shows the current document (not an older one, nor none).
    bool showsCurrentDocument() const;
    // The current document's analysis when the timeline shows that document; else null.
    std::shared_ptr<const DocumentAnalysis> shownAnalysis() const;
    void connectViews();
    // Selects `range` on the timeline, which the analysis then describes (as a drag would), and
    // shows it there: a Summary bar's span, a query row's.
    void selectSpanOnTimeline(model::TimeRange range);
    // The right-click menu of a slice on the timeline: analyse its range, its time, the default
    // window or the whole trace.
    void showSliceMenu(model::SliceRef ref, QPoint globalPos);

    const DocumentController& m_documents;
    QMainWindow& m_window;
    MessageBar* m_message = nullptr;
    QTabWidget* m_tabs = nullptr;
    ui::TimelineView* m_timeline = nullptr;
    ui::OverviewStrip* m_overview = nullptr;
    ui::CompareView* m_compare = nullptr;  // created by the first comparison
    ui::summary::SummaryView* m_summary = nullptr;
    RunPanel* m_runPanel = nullptr;
    ui::DetailsPanel* m_details = nullptr;
    ui::DiagnosticsPanel* m_diagnostics = nullptr;
    ui::StatisticsView* m_statistics = nullptr;
    ui::EventsPanel* m_events = nullptr;
    ui::FindPanel* m_find = nullptr;
    ui::RankPanel* m_ranks = nullptr;
    ui::QueryPanel* m_query = nullptr;
    DockLayout* m_docks = nullptr;
};

}  // namespace wl::app
