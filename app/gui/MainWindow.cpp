#include "app/gui/MainWindow.h"

#include <QPointer>

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <utility>

#include "app/gui/AppSettings.h"
#include "app/gui/DockLayout.h"
#include "app/gui/RunPanel.h"
#include "app/gui/SampleTraces.h"
#include "app/gui/StatusLine.h"
#include "app/gui/WindowActions.h"
#include "ui/analysis/CompareView.h"
#include "ui/charts/ChartExport.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/RowArrangement.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

constexpr QSize kDefaultSize{1600, 1000};

}  // namespace

MainWindow::MainWindow(MainWindowDeps deps, QWidget* parent) : QMainWindow(parent) {
    registerResources();
    setWindowTitle(QStringLiteral("Warpline"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/warpline.png")));
    setAcceptDrops(true);
    m_documents = new DocumentController(m_settings, deps.loader, this);
    m_views = new WindowViews(*this, *m_documents);
    m_status = new StatusLine(*statusBar());
    connect(timeline(), &ui::TimelineView::measureChanged, m_status, &StatusLine::setMeasure);
    createActions();
    m_runs = new RunCoordinator(deps.runner, *m_documents,
                                {*runPanel(), *m_actions, *m_status, *m_views->message()},
                                m_settings, this);
    connect(m_runs, &RunCoordinator::runningChanged, this, &MainWindow::onBusyChanged);
    connect(m_runs, &RunCoordinator::progressChanged, this, &MainWindow::showProgress);
    connect(m_runs, &RunCoordinator::deviceChanged, this, &MainWindow::updateRunDock);
    connect(m_runs, &RunCoordinator::deviceProbed, this, &MainWindow::deviceProbed);
    connect(m_runs, &RunCoordinator::runFinished, this, &MainWindow::runFinished);
    connectDocuments();
    runPanel()->setRequest(loadRunRequest(m_settings));

    resize(kDefaultSize);
    m_views->docks().keepAsDefault();
    if (deps.restoreLayout) {
        restoreGeometry(m_settings.value("window/geometry").toByteArray());
        m_views->docks().restore(m_settings.value("window/state").toByteArray());
    }
    if (!deps.deviceProbe)
        prepareRuns();  // here, on the GUI thread: runDevice() may run on a worker
    m_runs->probeDevice(deps.deviceProbe ? deps.deviceProbe : DeviceProbeFn(&runDevice),
                        deps.probeDeviceInBackground);
}

// The objects working off the GUI thread drop what they have not delivered yet: no worker holds
// this window.
MainWindow::~MainWindow() = default;

void MainWindow::connectDocuments() {
    DocumentController* docs = m_documents;
    connect(docs, &DocumentController::activity, m_status, &StatusLine::setActivity);
    connect(docs, &DocumentController::progressChanged, this, &MainWindow::showProgress);
    connect(docs, &DocumentController::busyChanged, this, &MainWindow::onBusyChanged);
    connect(m_status, &StatusLine::stopRequested, docs, &DocumentController::stopLoading);
    connect(m_actions->stopOpening(), &QAction::triggered, docs, &DocumentController::stopLoading);
    connect(docs, &DocumentController::documentAdded, this,
            [this](const QString& title, bool droppedOldest) {
                m_actions->history()->addItem(title);
                if (droppedOldest)
                    m_actions->history()->removeItem(0);
            });
    connect(docs, &DocumentController::currentChanged, this, &MainWindow::showDocument);
    connect(docs, &DocumentController::analysisStarted, this,
            [this] { m_status->setAnalysisText(tr("Analysing..."), false); });
    connect(docs, &DocumentController::analysisReady, this, &MainWindow::showAnalysis);
    connect(docs, &DocumentController::currentSettled, this, &MainWindow::documentChanged);
    connect(docs, &DocumentController::comparisonReady, this, &MainWindow::showComparison);
    connect(docs, &DocumentController::message, this,
            [this](MessageBar::Level level, const QString& text, const QString& details) {
                m_views->message()->showMessage(level, text, details);
            });
    connect(docs, &DocumentController::messageCleared, m_views->message(),
            &MessageBar::clearMessage);
    connect(docs, &DocumentController::recentChanged, m_actions, &WindowActions::setRecentFiles);
    // The charts' and the Query panel's saves: the dialogs are the window's.
    const auto& exports = ui::charts::ExportRequests::instance();
    connect(&exports, &ui::charts::ExportRequests::pngRequested, this,
            [this](QWidget* widget, const QString& baseName) {
                const QPointer<QWidget> chart(widget);  // a new analysis may replace it meanwhile
                saveChartFile(baseName + QStringLiteral(".png"),
                              [chart](const QString& path, QString* error) {
                                  if (chart.isNull()) {
                                      *error = tr("The chart was replaced before it was saved.");
                                      return false;
                                  }
                                  return ui::charts::writePng(chart, path, error);
                              });
            });
    connect(&exports, &ui::charts::ExportRequests::csvRequested, this,
            [this](const QString& csv, const QString& baseName) {
                saveChartFile(baseName + QStringLiteral(".csv"),
                              [csv](const QString& path, QString* error) {
                                  return ui::charts::writeCsv(csv, path, error);
                              });
            });
    connect(docs, &DocumentController::openFinished, this, &MainWindow::openFinished);
    connect(docs, &DocumentController::exportingChanged, this,
            [this](bool exporting) { m_actions->exportChromeTrace()->setEnabled(!exporting); });
    connect(docs, &DocumentController::exported, this, &MainWindow::onExported);

    connect(m_views, &WindowViews::timeSelected, this, &MainWindow::selectTime);
    connect(m_views, &WindowViews::windowRequested, this, &MainWindow::analyzeWindow);
    connect(m_views, &WindowViews::gapThresholdChanged, m_documents,
            &DocumentController::setGapThresholdNs);
}

void MainWindow::showProgress(double fraction, const QString& label) {
    m_status->setRunProgress(fraction);
    m_status->setActivity(label);
}

void MainWindow::onBusyChanged() {
    const bool busy = isBusy();
    m_status->setBusy(busy, m_runs->isRunning());
    const bool loading = m_documents->isLoading();
    m_status->setStoppable(loading);
    m_actions->stopOpening()->setEnabled(loading);
    if (busy)
        setCursor(Qt::BusyCursor);
    else
        unsetCursor();
    if (m_wasBusy && !busy) {
        m_wasBusy = false;
        // Let the finished/loaded handlers run first: they are queued right behind us.
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (!isBusy())
                    emit idle();
            },
            Qt::QueuedConnection);
    }
    m_wasBusy = busy;
}

bool MainWindow::isBusy() const {
    return m_runs->isRunning() || m_documents->isBusy();
}

DocumentPtr MainWindow::currentDocument() const {
    return m_documents->current();
}

void MainWindow::setCurrentDocument(int index) {
    m_documents->setCurrent(index);
}

void MainWindow::showDocument(const DocumentPtr& doc) {
    m_actions->history()->setCurrentIndex(m_documents->documents().currentIndex());
    // The rows as the user arranged this kind of trace (View menu, row headers).
    m_views->showDocument(
        *doc, doc->trace
                  ? ui::RowArrangement::fromStrings(
                        m_settings.value(ui::RowArrangement::key(*doc->trace)).toStringList())
                  : ui::RowArrangement{});
    setWindowTitle(tr("%1 — Warpline").arg(doc->title));
    m_actions->exportChromeTrace()->setEnabled(true);
    m_actions->exportViewPng()->setEnabled(true);
    if (doc->request)  // a run, or a trace of one: the panel shows what made it
        runPanel()->setRequest(*doc->request);
    updateRunDock();
    if (doc->origin == TraceDocument::Origin::Run)
        m_status->setRunText(lastRunSummary(*doc));
    m_status->keepRunTextAsToolTip();
}

std::shared_ptr<const DocumentAnalysis> MainWindow::currentAnalysis() const {
    return m_documents->currentAnalysis();
}

void MainWindow::analyzeWindow(const analysis::WindowRequest& request) {
    if (!currentDocument())
        return;
    m_views->followAnalysisWindow(request);
    m_documents->analyzeWindow(request);
}

void MainWindow::selectTime(model::TimeRange range, std::vector<model::TrackIndex> tracks) {
    if (!currentDocument() || range.empty())
        return;
    analysis::WindowRequest request;
    request.kind = analysis::WindowRequest::Kind::Selection;
    request.time = range;
    request.tracks = std::move(tracks);
    m_views->showTimeSelection(range);
    analyzeWindow(request);
}

void MainWindow::showAnalysis(const std::shared_ptr<const DocumentAnalysis>& analysis, bool focus) {
    m_views->showAnalysis(*currentDocument(), *analysis, focus,
                          m_documents->analysisOptions().gapThresholdNs);
    m_status->setAnalysisText(analysis->summary, true);
}

void MainWindow::showComparison(const DocumentPtr& baseline, const DocumentPtr& async,
                                const AnalysisPair& results, const QString& baselineName,
                                const QString& asyncName) {
    m_views->showComparison(*baseline, *async, results, baselineName, asyncName);
    showInfo(tr("%1 — both runs are also in the Trace box above.").arg(compareView()->headline()));
}

QAction* MainWindow::fullKernelNamesAction() const {
    return m_actions->fullKernelNames();
}

QAction* MainWindow::dependenciesAction() const {
    return m_actions->dependencies();
}

QComboBox* MainWindow::historyBox() const {
    return m_actions->history();
}

QDockWidget* MainWindow::findDock() const {
    return m_views->docks().findDock();
}

QDockWidget* MainWindow::eventsDock() const {
    return m_views->docks().eventsDock();
}

void MainWindow::runQuery(const QString& sql) {
    m_views->showQuery(sql);
}

ui::QueryPanel* MainWindow::queryPanel() const {
    return m_views->query();
}

void MainWindow::showSummary(int page) {
    m_views->showSummary(page);
}

void MainWindow::showEvents() {
    m_views->showEvents();
}

void MainWindow::showFind() {
    m_views->showFind();
}

void MainWindow::find(const QString& text, bool regex) {
    m_views->find(text, regex);
}

void MainWindow::startRun() {
    m_runs->startRun();
}

void MainWindow::startCompare() {
    m_runs->startCompare();
}

void MainWindow::cancelRun() {
    m_runs->cancelRun();
}

bool MainWindow::isProbingDevice() const {
    return m_runs->isProbingDevice();
}

QString MainWindow::lastRunText() const {
    return m_status->runText();
}

void MainWindow::setRunRequest(const RunRequest& request) {
    runPanel()->setRequest(request);
}

RunRequest MainWindow::runRequest() const {
    return runPanel()->request();
}

void MainWindow::showError(const QString& text) {
    m_views->message()->showMessage(MessageBar::Level::Error, text);
}

void MainWindow::showInfo(const QString& text) {
    m_views->message()->showMessage(MessageBar::Level::Info, text);
}

void MainWindow::saveSettings() {
    m_settings.setValue("window/geometry", saveGeometry());
    m_settings.setValue("window/state", saveState());
    saveRunRequest(m_settings, runPanel()->request());
}

void MainWindow::updateRunDock() {
    m_views->docks().showRunDockFor(runDockWanted());
}

bool MainWindow::runDockWanted() const {
    const DocumentPtr doc = currentDocument();
    return doc ? doc->origin == TraceDocument::Origin::Run : m_runs->deviceAvailable();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    m_views->docks().windowShown();
}

void MainWindow::resetLayout() {
    tabs()->setCurrentWidget(timeline());  // parked docks back first
    // What the current trace shows beside the defaults: its ranks.
    const auto analysis = currentAnalysis();
    m_views->docks().reset(analysis && analysis->ranks, runDockWanted());
    m_settings.remove("window/state");
}

void MainWindow::closeEvent(QCloseEvent* event) {
    tabs()->setCurrentWidget(timeline());  // brings parked docks back before the layout is saved
    saveSettings();
    m_runs->cancelRun();  // the destructor waits for the worker to reach a check point
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().front().isLocalFile()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile())
        return;
    // Several files or a folder are a job's per-rank traces (DocumentController::load tells).
    QStringList paths;
    for (const QUrl& url : urls) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    m_documents->load({LoadIntent::Source::Drop, paths});
    event->acceptProposedAction();
}

}  // namespace wl::app
