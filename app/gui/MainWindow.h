#pragma once

#include <QMainWindow>
#include <QSettings>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/DocumentController.h"
#include "app/gui/FileDialogs.h"
#include "app/gui/MessageBar.h"
#include "app/gui/RunCoordinator.h"
#include "app/gui/TraceDocument.h"
#include "app/gui/TraceLoader.h"
#include "app/gui/WindowViews.h"
#include "model/Result.h"

class QComboBox;
class QDockWidget;
class QTabWidget;

namespace wl::ui::summary {
class SummaryView;
}

namespace wl::ui {
class CompareView;
class QueryPanel;
class DetailsPanel;
class DiagnosticsPanel;
class OverviewStrip;
class EventsPanel;
class FindPanel;
class RankPanel;
class StatisticsView;
class TimelineView;
}  // namespace wl::ui

namespace wl::app {

class StatusLine;
class WindowActions;
class RunPanel;

// What the window depends on, injectable so tests run without a GPU or files.
struct MainWindowDeps {
    RunnerFn runner;            // empty: validateRun + runTraced
    DeviceProbeFn deviceProbe;  // empty: runDevice
    TraceLoadFn loader;         // empty: io::loadTrace (and resources)
    bool restoreLayout = true;  // restore window geometry and dock layout from QSettings
    // Ask deviceProbe on a worker thread (with a GPU, runDevice() initialises the CUDA driver,
    // which the window must not wait for); false: in the constructor, so that tests see the
    // answer at once.
    bool probeDeviceInBackground = true;
};

// The main window: it assembles four collaborators and routes between them. The
// DocumentController holds the documents (every opened file and every run) and opens, analyses,
// compares and exports them off the GUI thread; the RunController runs workloads and probes the
// device on its worker; WindowViews holds the views (timeline, panels, Compare) and how they follow
// one another; WindowActions the menus and tool bar. The window turns their signals into each
// other's calls and into the status line and message bar (failures show there, never on stderr).
// GUI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // View > Reset Layout: every dock back where a fresh start puts it.
    void resetLayout();

    explicit MainWindow(MainWindowDeps deps = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a trace file in the background; the result becomes the current document, or an error
    // in the message bar (the current document stays).
    void openFile(const QString& path);
    // Opens a distributed job's per-rank traces (files, or folders of them) together as one trace,
    // in the background: aligned on one clock, a process group per rank, and the Ranks tab.
    void openRankJob(const QStringList& paths);
    // Opens the first bundled sample trace (a synthetic one when none is bundled).
    void openBundledSample();
    // Shows an already built trace as a new document (no file involved).
    void openTrace(model::TracePtr trace, const QString& title,
                   TraceDocument::Origin origin = TraceDocument::Origin::File);
    void startRun();
    void startCompare();
    void cancelRun();

    // Writes the current trace to `path` on a worker, as File > Export does once its dialog has a
    // path; exported() follows, or the message bar shows why it failed. False without a trace.
    bool exportChromeTrace(const QString& path);
    model::Status exportViewPng(const QString& path);

    // Documents: every opened file and every run, newest last.
    int documentCount() const { return m_documents->documents().size(); }
    DocumentPtr document(int index) const { return m_documents->documents().at(index); }
    int currentDocumentIndex() const { return m_documents->documents().currentIndex(); }
    // File > Compare With: opens `path` and compares it (second) with the current trace (first),
    // each over its own analysis window. Nothing happens without a current trace.
    void compareWith(const QString& path);
    // Opens two bundled samples (resource paths) and shows them side by side in Compare.
    void compareSamples(const QString& first, const QString& second);
    DocumentPtr currentDocument() const;
    // The analysis of the current document; null while it is being computed.
    std::shared_ptr<const DocumentAnalysis> currentAnalysis() const;
    void setCurrentDocument(int index);

    // False until the device probe has answered (see deviceProbed()).
    bool deviceAvailable() const { return m_runs->deviceAvailable(); }
    bool isProbingDevice() const;
    // The device name, or why runs are unavailable.
    QString deviceText() const { return m_runs->deviceText(); }
    bool isBusy() const;
    QString messageText() const { return m_views->message()->text(); }
    MessageBar::Level messageLevel() const { return m_views->message()->level(); }
    MessageBar* messageBar() const { return m_views->message(); }
    // The result of the last run in words (status bar).
    QString lastRunText() const;

    // Analyses the current document over another window (a time selection, an NVTX range, the
    // whole trace); the status bar, diagnostics and statistics follow it.
    void analyzeWindow(const analysis::WindowRequest& request);
    // Selects a time range of the current trace as a drag on the ruler does (of some rows, as a
    // shift-drag over them does, when `tracks` names them): it is analysed and the statistics
    // (its per-row summary) come forward. Nothing happens for an empty range.
    void selectTime(model::TimeRange range, std::vector<model::TrackIndex> tracks = {});
    analysis::WindowRequest windowRequest() const { return m_documents->windowRequest(); }

    void setRunRequest(const RunRequest& request);
    RunRequest runRequest() const;

    ui::TimelineView* timeline() const { return m_views->timeline(); }
    ui::OverviewStrip* overview() const { return m_views->overview(); }
    ui::DetailsPanel* details() const { return m_views->details(); }
    ui::DiagnosticsPanel* diagnostics() const { return m_views->diagnostics(); }
    ui::StatisticsView* statistics() const { return m_views->statistics(); }
    ui::CompareView* compareView() const { return m_views->compare(); }
    ui::summary::SummaryView* summaryView() const { return m_views->summary(); }
    ui::FindPanel* findPanel() const { return m_views->find(); }
    QDockWidget* findDock() const;
    ui::EventsPanel* eventsPanel() const { return m_views->events(); }
    QDockWidget* eventsDock() const;
    // Brings the events table to the front (View > Events).
    void showEvents();
    // The Query panel brought forward, running `sql` over the current trace.
    void runQuery(const QString& sql);
    ui::QueryPanel* queryPanel() const;
    // The Summary tab brought forward, on page `page` (Overview, Kernels, Operators, Memory,
    // Ranks).
    void showSummary(int page);
    // Edit > Find (Ctrl+F): shows the Find panel and puts the cursor in its query field.
    void showFind();
    // Shows the Find panel and searches the current trace for `text` (the command line's --find).
    void find(const QString& text, bool regex = false);
    QAction* fullKernelNamesAction() const;
    QAction* dependenciesAction() const;
    QTabWidget* tabs() const { return m_views->tabs(); }
    RunPanel* runPanel() const { return m_views->runPanel(); }
    QComboBox* historyBox() const;

signals:
    void documentChanged();
    // The background device probe answered: deviceAvailable() and deviceText() say what it found.
    void deviceProbed();
    // Emitted when a load or run ends and nothing else is in progress.
    void idle();
    // An export finished writing `path`.
    void exported(const QString& path);
    void runFinished(bool ok);
    void openFinished(bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void connectDocuments();
    void createActions();
    // The current document changed: the views show it, the actions and status line follow.
    void showDocument(const DocumentPtr& doc);
    void showAnalysis(const std::shared_ptr<const DocumentAnalysis>& analysis, bool focus);
    void showComparison(const DocumentPtr& baseline, const DocumentPtr& async,
                        const AnalysisPair& results, const QString& baselineName,
                        const QString& asyncName);
    void onExported(const QString& path, const model::Status& status);
    void onBusyChanged();
    // A run's or a load's progress: a fraction in 0..1 and what is being done.
    void showProgress(double fraction, const QString& label);
    void saveSettings();
    void showError(const QString& text);
    void showInfo(const QString& text);
    // The Run dock is for runs: shown while a run is the current document (or, before any, when
    // a GPU can run one), out of the way for opened traces, unless the user chose it in View.
    void updateRunDock();
    bool runDockWanted() const;
    void exportChromeTraceInteractive();
    void exportViewPngInteractive();
    // A chart's or a query's "Save …" (ui::charts::ExportRequests): asks where, from `fileName`,
    // then `write`s there; a failure says why in the message bar.
    void saveChartFile(const QString& fileName,
                       const std::function<bool(const QString&, QString*)>& write);
    void openInteractive();
    void openRankTracesInteractive();
    void compareWithInteractive();

    QSettings m_settings;
    DocumentController* m_documents = nullptr;  // what is open, its analyses, loads and exports
    RunCoordinator* m_runs = nullptr;           // runs and the device probe
    WindowViews* m_views = nullptr;             // the timeline, the panels and Compare
    WindowActions* m_actions = nullptr;         // menus and tool bar
    StatusLine* m_status = nullptr;
    FileDialogs m_dialogs{*this, m_settings};
    bool m_wasBusy = false;
};

}  // namespace wl::app
