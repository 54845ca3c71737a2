#pragma once

#include <QMainWindow>
#include <QSettings>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/DocumentAnalysis.h"
#include "app/gui/DocumentAnalyzer.h"
#include "app/gui/DocumentHistory.h"
#include "app/gui/MessageBar.h"
#include "app/gui/RecentFiles.h"
#include "app/gui/RunController.h"
#include "app/gui/TraceDocument.h"
#include "app/gui/TraceExporter.h"
#include "app/gui/TraceLoader.h"
#include "model/Result.h"

class QComboBox;
class QDockWidget;
class QTabWidget;

namespace wl::ui {
class CompareView;
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

class DockLayout;
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

// The main window: run panel, timeline, details, run history and the menus. Owns the documents
// (shared read-only traces) and the objects that work off the GUI thread for it: the run
// controller (runs, the device probe), the loader, the exporter and the analyzer. It assembles the
// window and routes their results; everything here runs on the GUI thread. Failures show in the
// message bar, never on stderr.
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
    int documentCount() const { return m_documents.size(); }
    DocumentPtr document(int index) const { return m_documents.at(index); }
    int currentDocumentIndex() const { return m_documents.currentIndex(); }
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
    bool deviceAvailable() const { return m_deviceAvailable; }
    bool isProbingDevice() const { return m_runs->isProbingDevice(); }
    // The device name, or why runs are unavailable.
    QString deviceText() const { return m_deviceText; }
    bool isBusy() const;
    QString messageText() const { return m_message->text(); }
    MessageBar::Level messageLevel() const { return m_message->level(); }
    // The result of the last run in words (status bar).
    QString lastRunText() const;

    // Analyses the current document over another window (a time selection, an NVTX range, the
    // whole trace); the status bar, diagnostics and statistics follow it.
    void analyzeWindow(const analysis::WindowRequest& request);
    // Selects a time range of the current trace as a drag on the ruler does (of some rows, as a
    // shift-drag over them does, when `tracks` names them): it is analysed and the statistics
    // (its per-row summary) come forward. Nothing happens for an empty range.
    void selectTime(model::TimeRange range, std::vector<model::TrackIndex> tracks = {});
    analysis::WindowRequest windowRequest() const { return m_windowRequest; }

    void setRunRequest(const RunRequest& request);
    RunRequest runRequest() const;

    ui::TimelineView* timeline() const { return m_timeline; }
    ui::OverviewStrip* overview() const { return m_overview; }
    ui::DetailsPanel* details() const { return m_details; }
    ui::DiagnosticsPanel* diagnostics() const { return m_diagnostics; }
    ui::StatisticsView* statistics() const { return m_statistics; }
    ui::CompareView* compareView() const { return m_compare; }
    ui::FindPanel* findPanel() const { return m_find; }
    QDockWidget* findDock() const;
    ui::EventsPanel* eventsPanel() const { return m_events; }
    QDockWidget* eventsDock() const;
    // Brings the events table to the front (View > Events).
    void showEvents();
    // Edit > Find (Ctrl+F): shows the Find panel and puts the cursor in its query field.
    void showFind();
    // Shows the Find panel and searches the current trace for `text` (the command line's --find).
    void find(const QString& text, bool regex = false);
    QAction* fullKernelNamesAction() const;
    QAction* dependenciesAction() const;
    QTabWidget* tabs() const { return m_tabs; }
    RunPanel* runPanel() const { return m_runPanel; }
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
    void createWidgets();
    void createActions();
    void rebuildRecentMenu();
    void probeDevice(const DeviceProbeFn& probe, bool inBackground);
    void showDevice(const model::Result<std::string>& device);
    void addDocument(DocumentPtr document);
    // Loads a trace (or a job's traces) for `intent`, which comes back with the result.
    void startLoad(LoadIntent intent);
    void onLoaded(const LoadIntent& intent, const model::Result<model::TracePtr>& result);
    void onJobLoaded(const LoadIntent& intent, const model::Result<io::RankJob>& result);
    // Tells what reading the trace at `path` noticed (lost records, warnings), or clears the bar.
    void showLoadDiagnostics(const QString& path, const model::Diagnostics& diag,
                             TraceDocument::Origin origin);
    void onExported(const QString& path, const model::Status& status);
    // The run panel's request, saved, when a run can start now; otherwise nothing (and why, for
    // `what`, when there is no device).
    std::optional<RunRequest> requestToRun(const QString& what);
    void startRuns(std::vector<RunRequest> requests, const QString& label);
    void onRunFinished(const RunBatchResult& result);
    void onBusyChanged();
    // `focus`: zoom the timeline to the GPU's work when the analysis arrives.
    void analyzeCurrent(bool focus);
    // `names`: what the two sides are called ("Baseline"/"Async" when empty).
    void showComparison(DocumentPtr baseline, DocumentPtr async,
                        std::pair<QString, QString> names = {});
    void showSliceMenu(model::SliceRef ref, QPoint globalPos);
    // The timeline the window-wide keys act on: the focused one, else the one in view.
    ui::TimelineView* activeTimeline() const;
    // Switches to the timeline, selects the first slice and fits them all (a finding's evidence,
    // a kernel's launches).
    void showSlicesOnTimeline(const std::vector<model::SliceRef>& refs);
    // Switches to the timeline and selects and reveals one slice of the current trace (a search
    // match, an events-table row, the other end of a flow).
    void revealOnTimeline(model::SliceRef ref);
    // Shows a slice of `trace` (the current document's, or one of Compare's) in the details.
    void showSliceDetails(model::TracePtr trace, model::SliceRef ref);
    void applyAnalysis(const std::shared_ptr<const DocumentAnalysis>& analysis, bool focus);
    void saveSettings();
    void showError(const QString& text);
    // The Run dock is for runs: shown while a run is the current document (or, before any, when
    // a GPU can run one), out of the way for opened traces, unless the user chose it in View.
    void updateRunDock();
    bool runDockWanted() const;
    void showInfo(const QString& text);
    void exportChromeTraceInteractive();
    void exportViewPngInteractive();
    void openInteractive();
    void openRankTracesInteractive();
    void compareWithInteractive();

    QSettings m_settings;
    RecentFiles m_recent{m_settings};
    RunController* m_runs = nullptr;
    TraceLoader* m_loader = nullptr;
    TraceExporter* m_exporter = nullptr;

    ui::TimelineView* m_timeline = nullptr;
    ui::DetailsPanel* m_details = nullptr;
    ui::DiagnosticsPanel* m_diagnostics = nullptr;
    ui::StatisticsView* m_statistics = nullptr;
    ui::RankPanel* m_ranks = nullptr;
    ui::CompareView* m_compare = nullptr;  // created by the first comparison
    QTabWidget* m_tabs = nullptr;
    ui::FindPanel* m_find = nullptr;
    ui::EventsPanel* m_events = nullptr;
    DockLayout* m_docks = nullptr;  // where the panels sit
    StatusLine* m_status = nullptr;
    WindowActions* m_actions = nullptr;  // menus and tool bar
    RunPanel* m_runPanel = nullptr;
    MessageBar* m_message = nullptr;
    ui::OverviewStrip* m_overview = nullptr;

    DocumentHistory m_documents;
    analysis::AnalysisOptions m_analysisOptions;
    analysis::WindowRequest m_windowRequest;  // of the current document
    DocumentAnalyzer m_analyzer{this};
    int m_runNumber = 0;
    bool m_deviceAvailable = false;
    QString m_deviceText;
    bool m_wasBusy = false;
};

}  // namespace wl::app
