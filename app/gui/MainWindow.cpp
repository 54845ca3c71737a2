#include "app/gui/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "app/gui/AppSettings.h"
#include "app/gui/RunPanel.h"
#include "app/gui/SampleTraces.h"
#include "io/TraceFile.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/ranks/RankPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

constexpr QSize kDefaultSize{1600, 1000};

QString lastRunSummary(const TraceDocument& doc) {
    QString text = doc.title;
    if (!doc.checkText.isEmpty()) {
        // Words, not check-mark glyphs: screenshots are taken where few fonts are installed.
        text +=
            QStringLiteral(" — %1: %2")
                .arg(doc.checkPassed ? QObject::tr("check passed") : QObject::tr("CHECK FAILED"),
                     doc.checkText);
    }
    if (doc.wallTimeMs > 0.0)
        text += QObject::tr(" — wall time %1 ms").arg(doc.wallTimeMs, 0, 'f', 1);
    return text;
}

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
        m_runAction->setEnabled(m_deviceAvailable && !running);
        m_compareAction->setEnabled(m_deviceAvailable && !running);
        m_cancelAction->setEnabled(running);
        onBusyChanged();
    });
    connect(m_runs, &RunController::progressChanged, this,
            [this](double fraction, const QString& label) {
                m_progress->setRange(0, 1000);
                m_progress->setValue(static_cast<int>(fraction * 1000.0));
                m_progressLabel->setText(label);
            });
    connect(m_runs, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_loader, &TraceLoader::loadingChanged, this, [this] { onBusyChanged(); });
    connect(m_loader, &TraceLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &TraceLoader::jobLoaded, this, &MainWindow::onJobLoaded);
    m_exporter = new TraceExporter(this);
    connect(m_exporter, &TraceExporter::savingChanged, this, [this](bool saving) {
        m_exportJsonAction->setEnabled(!saving);
        onBusyChanged();
    });
    connect(m_exporter, &TraceExporter::saved, this, &MainWindow::onExported);

    resize(kDefaultSize);
    if (deps.restoreLayout) {
        restoreGeometry(m_settings.value("window/geometry").toByteArray());
        restoreState(m_settings.value("window/state").toByteArray());
    }
    if (!deps.deviceProbe)
        prepareRuns();  // here, on the GUI thread: runDevice() may run on a worker
    probeDevice(deps.deviceProbe ? deps.deviceProbe : DeviceProbeFn(&runDevice),
                deps.probeDeviceInBackground);
}

MainWindow::~MainWindow() {
    // Workers capture this window: let them finish before the members go.
    m_analysisJobs.abandon();
    m_compareJobs.abandon();
    m_deviceJobs.abandon();
    m_analysisPool.waitForDone();
    m_devicePool.waitForDone();
}

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
    layout->addWidget(m_message);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_runPanel = new RunPanel(this);
    m_runDock = new QDockWidget(tr("Run"), this);
    m_runDock->setObjectName(QStringLiteral("runDock"));
    // In a scroll area: on a short screen (1024x700) the panel scrolls instead of squeezing its
    // fields to a few pixels.
    auto* runScroll = new QScrollArea(this);
    runScroll->setWidget(m_runPanel);
    runScroll->setWidgetResizable(true);
    runScroll->setFrameShape(QFrame::NoFrame);
    runScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    runScroll->setMinimumWidth(270);  // its fields and check boxes stay readable
    m_runDock->setWidget(runScroll);
    addDockWidget(Qt::LeftDockWidgetArea, m_runDock);

    m_details = new ui::DetailsPanel(this);
    m_detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("detailsDock"));
    m_detailsDock->setWidget(m_details);
    addDockWidget(Qt::LeftDockWidgetArea, m_detailsDock);
    m_diagnostics = new ui::DiagnosticsPanel(this);
    m_diagnosticsDock = new QDockWidget(tr("Diagnostics"), this);
    m_diagnosticsDock->setObjectName(QStringLiteral("diagnosticsDock"));
    m_diagnosticsDock->setWidget(m_diagnostics);
    addDockWidget(Qt::BottomDockWidgetArea, m_diagnosticsDock);

    m_statistics = new ui::StatisticsView(this);
    m_statisticsDock = new QDockWidget(tr("Statistics"), this);
    m_statisticsDock->setObjectName(QStringLiteral("statisticsDock"));
    m_statisticsDock->setWidget(m_statistics);
    addDockWidget(Qt::BottomDockWidgetArea, m_statisticsDock);
    splitDockWidget(m_diagnosticsDock, m_statisticsDock, Qt::Horizontal);
    // The left column holds the narrow forms; the bottom row the lists that like width.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    // Every slice, sortable: a tab beside Statistics (it collects only while shown).
    m_events = new ui::EventsPanel(this);
    m_eventsDock = new QDockWidget(tr("Events"), this);
    m_eventsDock->setObjectName(QStringLiteral("eventsDock"));
    m_eventsDock->setWidget(m_events);
    addDockWidget(Qt::BottomDockWidgetArea, m_eventsDock);
    tabifyDockWidget(m_statisticsDock, m_eventsDock);
    m_statisticsDock->raise();

    // Find (Ctrl+F): a tab beside Statistics, hidden until asked for.
    m_find = new ui::FindPanel(this);
    m_findDock = new QDockWidget(tr("Find"), this);
    m_findDock->setObjectName(QStringLiteral("findDock"));
    m_findDock->setWidget(m_find);
    addDockWidget(Qt::BottomDockWidgetArea, m_findDock);
    tabifyDockWidget(m_statisticsDock, m_findDock);
    m_findDock->hide();

    // Ranks: a job's per-rank traces opened together; a tab beside Statistics while one is open.
    m_ranks = new ui::RankPanel(this);
    m_ranksDock = new QDockWidget(tr("Ranks"), this);
    m_ranksDock->setObjectName(QStringLiteral("ranksDock"));
    m_ranksDock->setWidget(m_ranks);
    addDockWidget(Qt::BottomDockWidgetArea, m_ranksDock);
    tabifyDockWidget(m_statisticsDock, m_ranksDock);
    m_ranksDock->hide();
    connect(m_ranks, &ui::RankPanel::rankTimeActivated, this,
            [this](model::ProcessIndex process, model::TimeNs startNs, model::TimeNs endNs) {
                m_tabs->setCurrentWidget(m_timeline);
                m_timeline->revealProcess(process);
                m_timeline->setVisibleRange(startNs, endNs);
            });

    resizeDocks({m_runDock, m_detailsDock}, {340, 340}, Qt::Horizontal);
    resizeDocks({m_runDock, m_detailsDock}, {400, 560}, Qt::Vertical);
    resizeDocks({m_diagnosticsDock, m_statisticsDock}, {640, 620}, Qt::Horizontal);
    resizeDocks({m_runDock}, {280}, Qt::Horizontal);
    resizeDocks({m_diagnosticsDock}, {280}, Qt::Vertical);

    // Compare needs the height for two timelines and its charts: the bottom docks step aside
    // while it is shown and come back with the timeline.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        const bool comparing = m_compare && m_tabs->currentWidget() == m_compare;
        if (comparing && !m_bottomDocksParked) {
            m_bottomDocksParked = true;
            m_parkedDocks.clear();
            for (QDockWidget* dock :
                 {m_diagnosticsDock, m_statisticsDock, m_eventsDock, m_findDock}) {
                if (!dock->isHidden()) {
                    m_parkedDocks.push_back(dock);
                    dock->hide();
                }
            }
        } else if (!comparing && m_bottomDocksParked) {
            m_bottomDocksParked = false;
            for (QDockWidget* dock : m_parkedDocks)
                dock->show();
            m_parkedDocks.clear();
        }
    });
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

    m_deviceStatus = new QLabel(this);
    m_runStatus = new QLabel(tr("No run yet"), this);
    m_analysisStatus = new QLabel(this);
    m_progressLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(260);
    m_progress->setTextVisible(false);
    m_progress->hide();
    // A long run check must give way to the analysis summary instead of painting over it: the
    // label takes the room that is left and is clipped there (the whole text is in its tooltip).
    // The same for the analysis summary: neither may widen the window past a small screen.
    m_runStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_analysisStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(m_runStatus, 1);
    statusBar()->addWidget(m_analysisStatus, 2);
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_deviceStatus);
}

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Trace..."), this, &MainWindow::openInteractive);
    // A distributed job: one trace per rank, opened as one (aligned, a process group per rank).
    file->addAction(tr("Open &Rank Traces..."), this, &MainWindow::openRankTracesInteractive);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    // Another trace beside the current one: Compare's timelines, charts and speedup.
    file->addAction(tr("Compare &With..."), this, &MainWindow::compareWithInteractive);
    QMenu* samples = file->addMenu(tr("Open &Sample"));
    const QStringList bundled = bundledSamples();
    for (const QString& path : bundled) {
        samples->addAction(QFileInfo(path).fileName(), this, [this, path] {
            m_loadingOrigin = TraceDocument::Origin::Sample;
            m_loader->load(path);
        });
    }
    // Pairs in Compare: the first opens, then the second beside it.
    if (const std::vector<SamplePair> pairs = bundledSamplePairs(); !pairs.empty()) {
        QMenu* compare = file->addMenu(tr("Compare Sa&mples"));
        for (const SamplePair& pair : pairs) {
            compare->addAction(tr(pair.title.toUtf8().constData()), this,
                               [this, pair] { compareSamples(pair.first, pair.second); });
        }
    }
    samples->addAction(tr("Synthetic reduce async (4 streams)"), this, [this] {
        addDocument(TraceDocument::fromFile(syntheticSampleTrace(),
                                            QStringLiteral("synthetic-reduce-async"),
                                            TraceDocument::Origin::Sample));
    });
    file->addSeparator();
    m_exportJsonAction = file->addAction(tr("&Export Chrome Trace..."), this,
                                         &MainWindow::exportChromeTraceInteractive);
    m_exportJsonAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportPngAction =
        file->addAction(tr("Export View as &PNG..."), this, &MainWindow::exportViewPngInteractive);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    rebuildRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* findAction = edit->addAction(tr("&Find..."), this, &MainWindow::showFind);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WindowShortcut);
    QAction* findNext = edit->addAction(tr("Find &Next"), m_find, &ui::FindPanel::findNext);
    findNext->setShortcut(QKeySequence(Qt::Key_F3));
    QAction* findPrevious =
        edit->addAction(tr("Find &Previous"), m_find, &ui::FindPanel::findPrevious);
    findPrevious->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(tr("&Run"), this, &MainWindow::startRun);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_compareAction =
        run->addAction(tr("&Compare Baseline and Async"), this, &MainWindow::startCompare);
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_cancelAction = run->addAction(tr("C&ancel"), this, &MainWindow::cancelRun);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setShortcutContext(Qt::WindowShortcut);
    m_cancelAction->setEnabled(false);  // only during a run, so Escape is free otherwise

    // The timeline's single-letter keys, window-wide: they act on the timeline in view wherever
    // the focus is (a finding, a table), except in a text field, which takes its letters first
    // (QLineEdit accepts the shortcut override for text).
    QMenu* view = menuBar()->addMenu(tr("&View"));
    struct TimelineKey {
        const char* text;
        Qt::Key key;
        bool followsFlow;  // acts on the main timeline: Compare's traces have no flows to follow
    };
    static constexpr TimelineKey kTimelineKeys[] = {
        {QT_TR_NOOP("Zoom &In"), Qt::Key_W, false},
        {QT_TR_NOOP("Zoom &Out"), Qt::Key_S, false},
        {QT_TR_NOOP("Pan Le&ft"), Qt::Key_A, false},
        {QT_TR_NOOP("Pan &Right"), Qt::Key_D, false},
        {QT_TR_NOOP("Fit &All"), Qt::Key_0, false},
        {QT_TR_NOOP("Fit &Selection"), Qt::Key_F, false},
        // From the selected op along its launch arrow and its waits through CUDA events.
        {QT_TR_NOOP("Go to the Other End of the &Launch"), Qt::Key_L, true},
        {QT_TR_NOOP("Go to What It &Waited For"), Qt::Key_BracketLeft, true},
        {QT_TR_NOOP("Go to What Wai&ted for It"), Qt::Key_BracketRight, true},
    };
    for (const TimelineKey& k : kTimelineKeys) {
        if (k.key == Qt::Key_L)
            view->addSeparator();
        QAction* action = view->addAction(tr(k.text), this, [this, k] {
            if (k.followsFlow) {
                m_tabs->setCurrentWidget(m_timeline);
                m_timeline->handleKey(k.key);
            } else {
                activeTimeline()->handleKey(k.key);
            }
        });
        action->setShortcut(QKeySequence(k.key));
        action->setShortcutContext(Qt::WindowShortcut);
    }
    view->addSeparator();
    view->addAction(m_runDock->toggleViewAction());
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_diagnosticsDock->toggleViewAction());
    view->addAction(m_statisticsDock->toggleViewAction());
    view->addAction(m_eventsDock->toggleViewAction());
    view->addAction(m_findDock->toggleViewAction());
    view->addSeparator();
    // Short kernel names (gemvx::kernel) by default; the full signatures on request.
    m_fullNamesAction = view->addAction(tr("Full &Kernel Names"));
    m_fullNamesAction->setCheckable(true);
    m_fullNamesAction->setChecked(loadFullKernelNames(m_settings));
    m_statistics->setFullKernelNames(m_fullNamesAction->isChecked());
    m_timeline->setFullKernelNames(m_fullNamesAction->isChecked());
    connect(m_fullNamesAction, &QAction::toggled, this, [this](bool full) {
        saveFullKernelNames(m_settings, full);
        m_statistics->setFullKernelNames(full);
        m_timeline->setFullKernelNames(full);
    });
    // Arrows from an op to the ops that waited for it through a CUDA event.
    m_dependenciesAction = view->addAction(tr("&Dependencies"));
    m_dependenciesAction->setCheckable(true);
    m_dependenciesAction->setChecked(loadShowDependencies(m_settings));
    m_timeline->setShowDependencies(m_dependenciesAction->isChecked());
    connect(m_dependenciesAction, &QAction::toggled, this, [this](bool show) {
        saveShowDependencies(m_settings, show);
        m_timeline->setShowDependencies(show);
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keys"), this, [this] {
        showInfo(
            tr("Timeline: W/S zoom at the cursor, A/D pan, Ctrl+wheel zoom, drag to pan, "
               "F fit selection, 0 fit all, click a slice for its details; L goes to the other "
               "end of its launch arrow (API call and GPU op), [ to the op it waited for through "
               "a CUDA event, ] to the op that waited for it. "
               "Find: Ctrl+F, then Enter / Shift+Enter (or F3 / Shift+F3) for the next / "
               "previous match."));
    });
    help->addAction(tr("&About Warpline"), this, [this] {
        QMessageBox::about(this, tr("About Warpline"),
                           tr("<b>Warpline %1</b><p>A timeline viewer for CUDA asynchrony: runs "
                              "workloads under CUPTI and shows what the GPU did.</p>")
                               .arg(QStringLiteral(WARPLINE_VERSION)));
    });

    auto* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);
    toolbar->addAction(open);
    toolbar->addAction(m_exportJsonAction);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr(" Trace: "), toolbar));
    m_history = new QComboBox(toolbar);
    m_history->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_history->setMinimumContentsLength(40);
    m_history->setToolTip(tr("Opened traces and runs: switch between them"));
    toolbar->addWidget(m_history);
    connect(m_history, &QComboBox::activated, this, &MainWindow::setCurrentDocument);

    m_exportJsonAction->setEnabled(false);
    m_exportPngAction->setEnabled(false);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = m_recent.list();
    for (const QString& path : files) {
        m_recentMenu->addAction(path, this, [this, path] { openFile(path); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] {
            m_recent.clear();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::probeDevice(const DeviceProbeFn& probe, bool inBackground) {
    if (!inBackground) {
        showDevice(probe());
        return;
    }
    // Until the answer comes, runs are unavailable and say why; traces open meanwhile.
    m_deviceText = tr("still looking for a CUDA GPU");
    m_runPanel->setDevice(false, m_deviceText);
    m_runAction->setEnabled(false);
    m_compareAction->setEnabled(false);
    m_deviceStatus->setText(tr("GPU: looking..."));
    m_deviceJobs.start(m_devicePool, probe, [this](model::Result<std::string> device) {
        showDevice(device);
        emit deviceProbed();
    });
}

void MainWindow::showDevice(const model::Result<std::string>& device) {
    m_deviceAvailable = device.ok();
    m_deviceText = device.ok() ? QString::fromStdString(device.value())
                               : QString::fromStdString(device.error().message);
    const QString text = device.ok() ? QString::fromStdString(device.value())
                                     : QString::fromStdString(device.error().message);
    m_runPanel->setDevice(m_deviceAvailable, text);
    m_runAction->setEnabled(m_deviceAvailable);
    m_compareAction->setEnabled(m_deviceAvailable);
    m_deviceStatus->setText(m_deviceAvailable ? tr("GPU: %1").arg(text) : tr("No GPU"));
    if (!m_deviceAvailable)
        m_runStatus->setText(tr("Runs need a CUDA GPU; traces open as usual"));
    m_deviceStatus->setToolTip(text);
}

void MainWindow::openFile(const QString& path) {
    if (QFileInfo(path).isDir()) {
        openRankJob({path});  // a folder of per-rank traces
        return;
    }
    m_loadingOrigin = TraceDocument::Origin::File;
    m_progressLabel->setText(tr("Opening %1...").arg(QFileInfo(path).fileName()));
    m_loader->load(path);
}

void MainWindow::openBundledSample() {
    const QStringList samples = bundledSamples();
    if (!samples.isEmpty()) {
        m_loadingOrigin = TraceDocument::Origin::Sample;
        m_progressLabel->setText(tr("Opening the sample trace..."));
        m_loader->load(samples.front());
        return;
    }
    addDocument(TraceDocument::fromFile(syntheticSampleTrace(),
                                        QStringLiteral("synthetic-reduce-async"),
                                        TraceDocument::Origin::Sample));
    if (!m_deviceAvailable) {
        showInfo(
            tr("No GPU here, so this is a small hand-made sample shaped like a reduce run on "
               "4 streams. Open a real trace with Ctrl+O or drop one on the window."));
    }
}

void MainWindow::openTrace(model::TracePtr trace, const QString& title,
                           TraceDocument::Origin origin) {
    addDocument(TraceDocument::fromFile(std::move(trace), title, origin));
}

void MainWindow::onLoaded(const QString& path, const model::Result<model::TracePtr>& result) {
    if (!result.ok()) {
        m_compareFirst.reset();  // nothing to compare with
        m_compareNext.clear();
        showError(tr("Could not open %1: %2")
                      .arg(QFileInfo(path).fileName(),
                           QString::fromStdString(result.error().describe())));
        emit openFinished(false);
        return;
    }
    addDocument(TraceDocument::fromFile(result.value(), path, m_loadingOrigin));
    if (const QString next = std::exchange(m_compareNext, QString()); !next.isEmpty()) {
        m_compareFirst = currentDocument();  // a sample pair: its second trace comes next
        m_loadingOrigin = TraceDocument::Origin::Sample;
        m_loader->load(next);
        return;  // openFinished comes with the second
    }
    if (DocumentPtr first = std::exchange(m_compareFirst, nullptr)) {
        showComparison(first, currentDocument(),
                       {QFileInfo(first->title).fileName(), QFileInfo(path).fileName()});
    }
    if (m_loadingOrigin == TraceDocument::Origin::File) {
        m_recent.add(path);
        rebuildRecentMenu();
    }
    const model::Diagnostics& diag = result.value()->diagnostics();
    if (m_loadingOrigin == TraceDocument::Origin::Sample && !m_deviceAvailable) {
        showInfo(tr("No GPU here, so this is %1, a sample recorded on a real GPU (more in File > "
                    "Open Sample). Open your own trace with Ctrl+O or drop it on the window.")
                     .arg(QFileInfo(path).fileName()));
    } else if (diag.lostData()) {
        showError(tr("This trace lost %1 records (tracer buffers were full): gaps may be "
                     "missing work.")
                      .arg(diag.droppedRecords));
    } else if (diag.warningCount > 0 || diag.noteCount > 0) {
        // Warnings in yellow; routine quirks of the producer (flow ends Kineto leaves unmatched,
        // ...) said quietly.
        const bool warn = diag.warningCount > 0;
        const auto& messages = warn ? diag.warnings : diag.notes;
        m_message->showMessage(
            warn ? MessageBar::Level::Warning : MessageBar::Level::Info,
            (warn ? tr("%1 warning(s) while reading %2; first: %3")
                  : tr("%1 note(s) on %2 (routine quirks of the tool that wrote it); first: %3"))
                .arg(warn ? diag.warningCount : diag.noteCount)
                .arg(QFileInfo(path).fileName(),
                     messages.empty() ? QString() : QString::fromStdString(messages.front())));
    } else {
        m_message->clearMessage();
    }
    emit openFinished(true);
}

void MainWindow::startRun() {
    if (!m_deviceAvailable) {
        showError(tr("Run is unavailable: %1").arg(m_deviceText));
        emit runFinished(false);
        return;
    }
    if (m_runs->isRunning())
        return;
    const RunRequest request = m_runPanel->request();
    saveRunRequest(m_settings, request);
    m_message->clearMessage();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progressLabel->setText(tr("Starting %1...").arg(describeRequest(request)));
    m_runs->start({request});
}

void MainWindow::startCompare() {
    if (!m_deviceAvailable) {
        showError(tr("Compare is unavailable: %1").arg(m_deviceText));
        emit runFinished(false);
        return;
    }
    if (m_runs->isRunning())
        return;
    const RunRequest request = m_runPanel->request();
    saveRunRequest(m_settings, request);
    const auto [first, second] = RunPanel::comparison(request);
    m_message->clearMessage();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progressLabel->setText(second.graph ? tr("Comparing async without and with CUDA graphs...")
                                          : tr("Comparing baseline and async..."));
    m_runs->start({first, second});
}

void MainWindow::cancelRun() {
    if (!m_runs->isRunning())
        return;
    m_runs->cancel();
    m_progressLabel->setText(tr("Cancelling..."));
}

void MainWindow::onRunFinished(const RunBatchResult& result) {
    for (std::size_t i = 0; i < result.outcomes.size(); ++i) {
        addDocument(TraceDocument::fromRun(result.requests[i], result.outcomes[i], ++m_runNumber));
    }
    if (result.outcomes.size() == 2 && result.requests.size() == 2) {
        showComparison(m_documents.at(m_documents.size() - 2),
                       m_documents.at(m_documents.size() - 1));
    }
    const bool ok = !result.error && !result.cancelled;
    if (result.error) {
        const QString what = QString::fromStdString(result.error->describe());
        const QString which =
            result.requests.size() > 1
                ? tr("The %1 run failed: ")
                      .arg(QString::fromStdString(result.requests[result.outcomes.size()].mode))
                : tr("The run failed: ");
        showError(which + what);
        m_runStatus->setText(tr("Last run failed: %1").arg(what));
    } else if (result.cancelled) {
        showInfo(tr("The run was cancelled."));
        m_runStatus->setText(tr("Last run cancelled"));
    } else if (const DocumentPtr doc = currentDocument()) {
        m_runStatus->setText(lastRunSummary(*doc));
        m_runStatus->setToolTip(m_runStatus->text());
        if (!doc->checkPassed) {
            showError(tr("The result check failed: %1").arg(doc->checkText));
        } else if (result.outcomes.size() == 2) {
            // The speedup itself is told by Compare once both runs are analysed.
            showInfo(tr("Compared baseline and async: both runs are in the Trace box above."));
        }
    }
    emit runFinished(ok && (!currentDocument() || currentDocument()->checkPassed));
}

void MainWindow::onBusyChanged() {
    const bool busy = isBusy();
    m_progress->setVisible(busy);
    m_progressLabel->setVisible(busy);
    if (busy && !m_runs->isRunning())
        m_progress->setRange(0, 0);  // loading: no fraction known
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
    return m_runs->isRunning() || m_loader->isLoading() || m_analysisJobs.isRunning() ||
           m_compareJobs.isRunning() || m_exporter->isSaving();
}

QString MainWindow::lastRunText() const {
    return m_runStatus->text();
}

void MainWindow::addDocument(DocumentPtr document) {
    m_history->addItem(document->title);
    if (m_documents.add(std::move(document)))
        m_history->removeItem(0);
    setCurrentDocument(m_documents.size() - 1);
}

DocumentPtr MainWindow::currentDocument() const {
    return m_documents.current();
}

void MainWindow::setCurrentDocument(int index) {
    if (!m_documents.setCurrent(index))
        return;
    const DocumentPtr doc = m_documents.at(index);
    m_history->setCurrentIndex(index);
    m_timeline->setTrace(doc->trace);
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
    m_exportJsonAction->setEnabled(true);
    m_exportPngAction->setEnabled(true);
    if (doc->request)  // a run, or a trace of one: the panel shows what made it
        m_runPanel->setRequest(*doc->request);
    if (doc->origin == TraceDocument::Origin::Run)
        m_runStatus->setText(lastRunSummary(*doc));
    m_runStatus->setToolTip(m_runStatus->text());
    const std::shared_ptr<const DocumentAnalysis> known = m_documents.analysisAt(index);
    m_windowRequest = known ? known->request : analysis::WindowRequest{};
    if (known) {
        m_analysisJobs.abandon();  // an older document's analysis must not land here
        applyAnalysis(known, true);
    } else {
        analyzeCurrent(true);
    }
    emit documentChanged();
}

std::shared_ptr<const DocumentAnalysis> MainWindow::currentAnalysis() const {
    return m_documents.currentAnalysis();
}

void MainWindow::analyzeCurrent(bool focus) {
    const DocumentPtr doc = currentDocument();
    if (!doc)
        return;
    m_analysisStatus->setText(tr("Analysing..."));
    const analysis::AnalysisOptions options = m_analysisOptions;
    const analysis::WindowRequest request = m_windowRequest;
    // The analysis this document has (another window of it): its warp badges can be kept.
    std::shared_ptr<const DocumentAnalysis> previous = currentAnalysis();
    m_analysisJobs.start(
        m_analysisPool,
        [doc, options, request, previous] {
            return analyzeDocument(*doc->trace, options, request, previous);
        },
        [this, doc, focus](std::shared_ptr<const DocumentAnalysis> result) {
            // The document may have moved in the history (or left it) meanwhile.
            m_documents.setAnalysis(doc, result);
            if (currentDocument() == doc)
                applyAnalysis(result, focus);
            onBusyChanged();
        });
    onBusyChanged();
}

void MainWindow::selectTime(model::TimeRange range, std::vector<model::TrackIndex> tracks) {
    if (!currentDocument() || range.empty())
        return;
    if (m_timeline->timeSelection() != range)
        m_timeline->setTimeSelection(range);  // (not a drag, which selected rows with it)
    analysis::WindowRequest request;
    request.kind = analysis::WindowRequest::Kind::Selection;
    request.time = range;
    request.tracks = std::move(tracks);
    analyzeWindow(request);
    m_statistics->showRows();  // the selection's summary: what each row did in it
    m_statisticsDock->raise();
}

void MainWindow::analyzeWindow(const analysis::WindowRequest& request) {
    if (!currentDocument())
        return;
    m_windowRequest = request;
    if (request.kind != analysis::WindowRequest::Kind::Selection)
        m_timeline->setTimeSelection(std::nullopt);
    m_events->setTimeSelection(m_timeline->timeSelection());
    analyzeCurrent(false);  // keep the user's view
}

ui::TimelineView* MainWindow::activeTimeline() const {
    if (auto* focused = qobject_cast<ui::TimelineView*>(QApplication::focusWidget()))
        return focused;  // the main one or one of Compare's (they share a time scale)
    if (m_compare != nullptr && m_tabs->currentWidget() == m_compare)
        return m_compare->baselineView();
    return m_timeline;
}

void MainWindow::showSliceMenu(model::SliceRef ref, QPoint globalPos) {
    const DocumentPtr doc = currentDocument();
    if (!doc || m_timeline->trace() != doc->trace)
        return;
    const model::Trace& trace = *doc->trace;
    QMenu menu(this);
    const model::Slice& slice = trace.slice(ref);
    const std::int32_t instance = analysis::nvtxInstanceNumber(trace, ref);
    if (instance > 0) {
        const std::string_view raw = trace.str(slice.nameId);
        const std::string name(raw);
        const QString shown = QString::fromStdString(name);
        menu.addAction(tr("Analyse this range ('%1' #%2)").arg(shown).arg(instance), this,
                       [this, name, instance] {
                           analysis::WindowRequest r;
                           r.kind = analysis::WindowRequest::Kind::NvtxRange;
                           r.rangeName = name;
                           r.instance = instance;
                           analyzeWindow(r);
                       });
        // "ProfilerStep#4" is one of the steps: every one of them is "ProfilerStep#".
        const analysis::WindowRequest every = analysis::WindowRequest::everyInstanceOf(name);
        menu.addAction(tr("Analyse every '%1'").arg(QString::fromStdString(every.rangeName)), this,
                       [this, every] { analyzeWindow(every); });
    } else {
        menu.addAction(tr("Analyse the time of this slice"), this,
                       [this, start = slice.startNs, end = slice.endNs()] {
                           analysis::WindowRequest r;
                           r.kind = analysis::WindowRequest::Kind::Selection;
                           r.time = {start, std::max(end, start + 1)};
                           m_timeline->setTimeSelection(r.time);
                           analyzeWindow(r);
                       });
    }
    menu.addSeparator();
    menu.addAction(tr("Analyse the default window"), this, [this] { analyzeWindow({}); });
    menu.addAction(tr("Analyse the whole trace"), this, [this] {
        analysis::WindowRequest r;
        r.kind = analysis::WindowRequest::Kind::WholeTrace;
        analyzeWindow(r);
    });
    menu.exec(globalPos);
}

void MainWindow::showComparison(DocumentPtr baseline, DocumentPtr async,
                                std::pair<QString, QString> names) {
    const analysis::AnalysisOptions options = m_analysisOptions;
    if (names.first.isEmpty())
        names = {tr("Baseline"), tr("Async")};
    m_compareJobs.start(
        m_analysisPool,
        [baseline, async, options] {
            return std::pair{analyzeDocument(*baseline->trace, options),
                             analyzeDocument(*async->trace, options)};
        },
        [this, baseline, async, names](auto results) {
            m_documents.setAnalysis(baseline, results.first, /*onlyIfNone=*/true);
            m_documents.setAnalysis(async, results.second, /*onlyIfNone=*/true);
            if (!m_compare) {
                m_compare = new ui::CompareView(m_tabs);
                m_tabs->addTab(m_compare, tr("Compare"));
                connect(m_compare, &ui::CompareView::sliceSelected, this,
                        [this](model::TracePtr trace, model::SliceRef ref) {
                            showSliceDetails(std::move(trace), ref);
                        });
            }
            m_compare->setRuns(baseline->trace, results.first->result, async->trace,
                               results.second->result);
            m_compare->setNames(names.first, names.second);
            // Compare what the workloads time (copies and kernels, or the loop), not the setup
            // around it. The view shows both from their windows' starts (CompareView).
            if (baseline->timedPartMs > 0.0 && async->timedPartMs > 0.0) {
                m_compare->setWallTimes(baseline->timedPartMs, async->timedPartMs,
                                        tr("timed part"));
            }
            m_tabs->setCurrentWidget(m_compare);
            showInfo(
                tr("%1 — both runs are also in the Trace box above.").arg(m_compare->headline()));
            onBusyChanged();
        });
    onBusyChanged();
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

void MainWindow::showEvents() {
    m_eventsDock->show();
    m_eventsDock->raise();
}

void MainWindow::showFind() {
    m_findDock->show();
    m_findDock->raise();
    m_find->focusQuery();
}

void MainWindow::find(const QString& text, bool regex) {
    m_findDock->show();
    m_findDock->raise();
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

void MainWindow::applyAnalysis(const std::shared_ptr<const DocumentAnalysis>& analysis,
                               bool focus) {
    m_timeline->setOverlays(analysis->overlays);
    const analysis::AnalysisWindow& window = analysis->result->window();
    m_timeline->setAnalysisWindow(window.source == analysis::WindowSource::Trace
                                      ? std::vector<model::TimeRange>{}
                                      : window.parts);
    if (focus && analysis->focus) {
        // Open on the GPU's work rather than on setup and warm-up; 0 shows everything.
        m_timeline->setVisibleRange(analysis->focus->first, analysis->focus->second);
    }
    if (m_details->trace() == currentDocument()->trace)
        m_details->setAnalysis(analysis->result);
    m_diagnostics->setAnalysis(currentDocument()->trace, analysis->result);
    m_diagnostics->setGapThresholdUs(static_cast<double>(m_analysisOptions.gapThresholdNs) /
                                     static_cast<double>(model::kNsPerUs));
    m_statistics->setStatistics(analysis->result->statistics, currentDocument()->trace);
    // A job of several ranks: the Ranks tab shows them side by side (brought forward the first
    // time a job is shown); otherwise it goes away.
    m_ranks->setStats(currentDocument()->trace, analysis->ranks);
    if (analysis->ranks && m_ranksDock->isHidden()) {
        m_ranksDock->show();
        m_ranksDock->raise();
    } else if (!analysis->ranks) {
        m_ranksDock->hide();
    }
    m_analysisStatus->setText(analysis->summary);
    m_analysisStatus->setToolTip(analysis->summary);
}

void MainWindow::setRunRequest(const RunRequest& request) {
    m_runPanel->setRequest(request);
}

RunRequest MainWindow::runRequest() const {
    return m_runPanel->request();
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
    // Several files or a folder: a job's per-rank traces.
    if (urls.size() > 1 || QFileInfo(urls.front().toLocalFile()).isDir()) {
        QStringList paths;
        for (const QUrl& url : urls) {
            if (url.isLocalFile())
                paths << url.toLocalFile();
        }
        openRankJob(paths);
        event->acceptProposedAction();
        return;
    }
    openFile(urls.front().toLocalFile());
    event->acceptProposedAction();
}

}  // namespace wl::app
