#include "app/gui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "analysis/SliceSummary.h"
#include "app/gui/AppSettings.h"
#include "app/gui/DockLayout.h"
#include "app/gui/RunPanel.h"
#include "app/gui/SampleTraces.h"
#include "app/gui/StatusLine.h"
#include "app/gui/WindowActions.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/ranks/RankPanel.h"
#include "ui/timeline/OverviewStrip.h"
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
    m_runs = new RunController(this);
    if (deps.runner)
        m_runs->setRunner(deps.runner);
    m_loader = new TraceLoader(this);
    if (deps.loader)
        m_loader->setLoadFunction(deps.loader);

    createWidgets();
    createActions();
    m_runPanel->setRequest(loadRunRequest(m_settings));

    connect(m_runs, &RunController::runningChanged, this, [this](bool running) {
        m_runPanel->setBusy(running);
        m_actions->run()->setEnabled(m_deviceAvailable && !running);
        m_actions->compareRuns()->setEnabled(m_deviceAvailable && !running);
        m_actions->cancelRun()->setEnabled(running);
        onBusyChanged();
    });
    // A run's and a load's progress alike: a fraction and what is being done.
    const auto showProgress = [this](double fraction, const QString& label) {
        m_status->setRunProgress(fraction);
        m_status->setActivity(label);
    };
    connect(m_runs, &RunController::progressChanged, this, showProgress);
    connect(m_runs, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::deviceProbed, this,
            [this](const model::Result<std::string>& device) {
                showDevice(device);
                emit deviceProbed();
            });
    connect(m_loader, &TraceLoader::loadingChanged, this, [this] { onBusyChanged(); });
    connect(m_loader, &TraceLoader::progressChanged, this, showProgress);
    connect(m_loader, &TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &TraceLoader::jobLoaded, this, &MainWindow::onJobLoaded);
    m_exporter = new TraceExporter(this);
    connect(m_exporter, &TraceExporter::savingChanged, this, [this](bool saving) {
        m_actions->exportChromeTrace()->setEnabled(!saving);
        onBusyChanged();
    });
    connect(m_exporter, &TraceExporter::saved, this, &MainWindow::onExported);

    resize(kDefaultSize);
    m_docks->keepAsDefault();
    if (deps.restoreLayout) {
        restoreGeometry(m_settings.value("window/geometry").toByteArray());
        m_docks->restore(m_settings.value("window/state").toByteArray());
    }
    if (!deps.deviceProbe)
        prepareRuns();  // here, on the GUI thread: runDevice() may run on a worker
    probeDevice(deps.deviceProbe ? deps.deviceProbe : DeviceProbeFn(&runDevice),
                deps.probeDeviceInBackground);
}

// The objects working off the GUI thread drop what they have not delivered yet: no worker holds
// this window.
MainWindow::~MainWindow() = default;

void MainWindow::createWidgets() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    m_message = new MessageBar(central);
    m_tabs = new QTabWidget(central);
    m_tabs->setDocumentMode(true);
    m_tabs->setTabBarAutoHide(true);  // the Compare tab appears after the first comparison
    m_timeline = new ui::TimelineView(m_tabs);
    m_timeline->setFocusPolicy(Qt::StrongFocus);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    // The whole trace in one strip over the timeline, its time area aligned with the timeline's
    // (the tab pages have no margins); out of the way while Compare is shown.
    m_overview = new ui::OverviewStrip(m_timeline, central);
    connect(m_tabs, &QTabWidget::currentChanged, m_overview,
            [this] { m_overview->setVisible(m_tabs->currentWidget() == m_timeline); });
    layout->addWidget(m_message);
    layout->addWidget(m_overview);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_runPanel = new RunPanel(this);
    m_details = new ui::DetailsPanel(this);
    m_diagnostics = new ui::DiagnosticsPanel(this);
    m_statistics = new ui::StatisticsView(this);
    m_events = new ui::EventsPanel(this);
    m_find = new ui::FindPanel(this);
    m_ranks = new ui::RankPanel(this);
    m_docks = new DockLayout(
        *this, {m_runPanel, m_details, m_diagnostics, m_statistics, m_events, m_find, m_ranks});
    connect(m_ranks, &ui::RankPanel::rankTimeActivated, this,
            [this](model::ProcessIndex process, model::TimeNs startNs, model::TimeNs endNs) {
                m_tabs->setCurrentWidget(m_timeline);
                m_timeline->revealProcess(process);
                m_timeline->setVisibleRange(startNs, endNs);
            });

    // Compare needs the height for two timelines and its charts: the bottom docks step aside
    // while it is shown and come back with the timeline.
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_docks->setComparing(m_compare && m_tabs->currentWidget() == m_compare); });
    connect(m_diagnostics, &ui::DiagnosticsPanel::evidenceActivated, this,
            &MainWindow::showSlicesOnTimeline);
    connect(m_statistics, &ui::StatisticsView::kernelActivated, this, [this](model::StringId name) {
        const auto current = currentAnalysis();
        if (!current || m_timeline->trace() != currentDocument()->trace)
            return;
        // The launches the row counted: those in the analysed window.
        showSlicesOnTimeline(
            analysis::kernelLaunches(*m_timeline->trace(), name, current->result->window().parts));
    });
    // A line of the selection's summary: its events, in the analysed window, on the timeline.
    connect(m_statistics, &ui::StatisticsView::summaryActivated, this,
            [this](analysis::SummaryKind kind, model::StringId name) {
                const auto current = currentAnalysis();
                if (!current || m_timeline->trace() != currentDocument()->trace)
                    return;
                showSlicesOnTimeline(analysis::summarySlices(
                    *m_timeline->trace(), current->result->window(), kind, name));
            });
    connect(m_diagnostics, &ui::DiagnosticsPanel::rangeActivated, this,
            [this](model::TimeNs startNs, model::TimeNs endNs) {
                m_tabs->setCurrentWidget(m_timeline);
                const model::TimeNs margin = std::max<model::TimeNs>((endNs - startNs) / 10, 1);
                m_timeline->setVisibleRange(startNs - margin, endNs + margin);
            });
    connect(m_diagnostics, &ui::DiagnosticsPanel::gapThresholdChanged, this,
            [this](model::TimeNs thresholdNs) {
                m_analysisOptions.gapThresholdNs = thresholdNs;
                // Every cached analysis used the old threshold.
                m_documents.clearAnalyses();
                analyzeCurrent(false);  // keep the user's view
            });

    connect(m_timeline, &ui::TimelineView::sliceSelected, this, [this](model::SliceRef ref) {
        showSliceDetails(m_timeline->trace(), ref);
        m_find->setSelectedSlice(ref);
    });
    connect(m_find, &ui::FindPanel::matchesChanged, this, [this](ui::SearchMatchesPtr matches) {
        m_timeline->setSearchMatches(std::move(matches));
    });
    connect(m_find, &ui::FindPanel::sliceActivated, this, &MainWindow::revealOnTimeline);
    connect(m_events, &ui::EventsPanel::sliceActivated, this, &MainWindow::revealOnTimeline);
    connect(m_timeline, &ui::TimelineView::visibleRangeChanged, m_events,
            &ui::EventsPanel::setVisibleRange);
    connect(m_timeline, &ui::TimelineView::timeRangeSelected, this,
            [this](model::TimeNs startNs, model::TimeNs endNs) {
                selectTime({startNs, endNs}, m_timeline->selectedTracks());
            });
    connect(m_timeline, &ui::TimelineView::timeSelectionCleared, this,
            [this] { analyzeWindow({}); });
    connect(m_timeline, &ui::TimelineView::sliceContextMenuRequested, this,
            &MainWindow::showSliceMenu);
    // "Launched by", "Launches", "Waits for", "Awaited by": go there, on the timeline too.
    connect(m_details, &ui::DetailsPanel::relatedSliceActivated, this, [this](model::SliceRef ref) {
        if (m_details->trace() == m_timeline->trace())
            revealOnTimeline(ref);
        else
            m_details->showSlice(ref);  // a slice of one of Compare's traces
    });
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(m_runPanel, &RunPanel::compareRequested, this, &MainWindow::startCompare);
    connect(m_runPanel, &RunPanel::cancelRequested, this, &MainWindow::cancelRun);

    m_status = new StatusLine(*statusBar());
    connect(m_timeline, &ui::TimelineView::measureChanged, m_status, &StatusLine::setMeasure);
}

void MainWindow::onBusyChanged() {
    const bool busy = isBusy();
    m_status->setBusy(busy, m_runs->isRunning());
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
    return m_runs->isRunning() || m_loader->isLoading() || m_analyzer.isBusy() ||
           m_exporter->isSaving();
}

void MainWindow::addDocument(DocumentPtr document) {
    m_actions->history()->addItem(document->title);
    if (m_documents.add(std::move(document)))
        m_actions->history()->removeItem(0);
    setCurrentDocument(m_documents.size() - 1);
}

DocumentPtr MainWindow::currentDocument() const {
    return m_documents.current();
}

void MainWindow::setCurrentDocument(int index) {
    if (!m_documents.setCurrent(index))
        return;
    const DocumentPtr doc = m_documents.at(index);
    m_actions->history()->setCurrentIndex(index);
    m_timeline->setTrace(doc->trace);
    if (doc->trace)  // the rows as the user arranged this kind of trace (View menu, row headers)
        m_timeline->setArrangement(ui::RowArrangement::fromStrings(
            m_settings.value(ui::RowArrangement::key(*doc->trace)).toStringList()));
    m_timeline->setOverlays({});
    m_details->setTrace(doc->trace);
    m_find->setTrace(doc->trace);  // the same query, on this trace
    m_events->setVisibleRange(m_timeline->visibleStartNs(), m_timeline->visibleEndNs());
    m_events->setTrace(doc->trace);
    m_diagnostics->setAnalysis(doc->trace, nullptr);
    m_statistics->clear();
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->setFocus();  // W/S/A/D work at once
    setWindowTitle(tr("%1 — Warpline").arg(doc->title));
    m_actions->exportChromeTrace()->setEnabled(true);
    m_actions->exportViewPng()->setEnabled(true);
    if (doc->request)  // a run, or a trace of one: the panel shows what made it
        m_runPanel->setRequest(*doc->request);
    updateRunDock();
    if (doc->origin == TraceDocument::Origin::Run)
        m_status->setRunText(lastRunSummary(*doc));
    m_status->keepRunTextAsToolTip();
    const std::shared_ptr<const DocumentAnalysis> known = m_documents.analysisAt(index);
    m_windowRequest = known ? known->request : analysis::WindowRequest{};
    if (known) {
        m_analyzer.abandonCurrent();  // an older document's analysis must not land here
        applyAnalysis(known, true);
    } else {
        analyzeCurrent(true);
    }
    emit documentChanged();
}

std::shared_ptr<const DocumentAnalysis> MainWindow::currentAnalysis() const {
    return m_documents.currentAnalysis();
}

ui::TimelineView* MainWindow::activeTimeline() const {
    if (auto* focused = qobject_cast<ui::TimelineView*>(QApplication::focusWidget()))
        return focused;  // the main one or one of Compare's (they share a time scale)
    if (m_compare != nullptr && m_tabs->currentWidget() == m_compare)
        return m_compare->baselineView();
    return m_timeline;
}

void MainWindow::showSlicesOnTimeline(const std::vector<model::SliceRef>& refs) {
    m_tabs->setCurrentWidget(m_timeline);
    if (refs.empty())
        return;
    m_timeline->zoomToSlices(refs);
    showSliceDetails(m_timeline->trace(), refs.front());
}

void MainWindow::revealOnTimeline(model::SliceRef ref) {
    const DocumentPtr doc = currentDocument();
    if (!doc || m_timeline->trace() != doc->trace)
        return;
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->revealSlice(ref);
    if (m_details->trace() != m_timeline->trace() || m_details->slice() != ref)
        showSliceDetails(m_timeline->trace(), ref);
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
    return m_docks->findDock();
}

QDockWidget* MainWindow::eventsDock() const {
    return m_docks->eventsDock();
}

void MainWindow::showEvents() {
    m_docks->eventsDock()->show();
    m_docks->eventsDock()->raise();
}

void MainWindow::showFind() {
    m_docks->findDock()->show();
    m_docks->findDock()->raise();
    m_find->focusQuery();
}

void MainWindow::find(const QString& text, bool regex) {
    m_docks->findDock()->show();
    m_docks->findDock()->raise();
    m_find->setQuery({text, regex});
}

void MainWindow::showSliceDetails(model::TracePtr trace, model::SliceRef ref) {
    if (m_details->trace() != trace) {
        m_details->setTrace(trace);
        if (const auto known = m_documents.analysisOf(trace))
            m_details->setAnalysis(known->result);
    }
    m_details->showSlice(ref);
}

void MainWindow::showError(const QString& text) {
    m_message->showMessage(MessageBar::Level::Error, text);
}

void MainWindow::showInfo(const QString& text) {
    m_message->showMessage(MessageBar::Level::Info, text);
}

void MainWindow::saveSettings() {
    m_settings.setValue("window/geometry", saveGeometry());
    m_settings.setValue("window/state", saveState());
    saveRunRequest(m_settings, m_runPanel->request());
}

void MainWindow::updateRunDock() {
    m_docks->showRunDockFor(runDockWanted());
}

bool MainWindow::runDockWanted() const {
    const DocumentPtr doc = currentDocument();
    return doc ? doc->origin == TraceDocument::Origin::Run : m_deviceAvailable;
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    m_docks->windowShown();
}

void MainWindow::resetLayout() {
    m_tabs->setCurrentWidget(m_timeline);  // parked docks back first
    // What the current trace shows beside the defaults: its ranks.
    const auto analysis = currentAnalysis();
    m_docks->reset(analysis && analysis->ranks, runDockWanted());
    m_settings.remove("window/state");
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_tabs->setCurrentWidget(m_timeline);  // brings parked docks back before the layout is saved
    saveSettings();
    if (m_runs->isRunning()) {
        m_runs->cancel();  // the destructor waits for the worker to reach a check point
    }
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
    // Several files or a folder are a job's per-rank traces (startLoad() tells).
    QStringList paths;
    for (const QUrl& url : urls) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    startLoad({LoadIntent::Source::Drop, paths});
    event->acceptProposedAction();
}

}  // namespace wl::app
