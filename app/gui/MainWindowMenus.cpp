// MainWindow's menus and tool bar: File (open, recent, samples, export), Edit (find), Run, View
// (the timeline's keys window-wide, the docks, name and dependency options) and Help.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTabWidget>
#include <QToolBar>

#include "app/gui/AppSettings.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

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
            startLoad({LoadIntent::Source::Sample, {path}});
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
        // Flags: at the pointer (or the selected slice), or at a time selection's edges.
        {QT_TR_NOOP("Drop a Fla&g"), Qt::Key_M, false},
        {QT_TR_NOOP("&Next Flag"), Qt::Key_Period, false},
        {QT_TR_NOOP("&Previous Flag"), Qt::Key_Comma, false},
    };
    for (const TimelineKey& k : kTimelineKeys) {
        if (k.key == Qt::Key_L || k.key == Qt::Key_M)
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
    // Only the user's own click (triggered, not toggled) pins the Run dock's visibility.
    connect(m_runDock->toggleViewAction(), &QAction::triggered, this,
            [this] { m_runDockChosen = true; });
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_diagnosticsDock->toggleViewAction());
    view->addAction(m_statisticsDock->toggleViewAction());
    view->addAction(m_eventsDock->toggleViewAction());
    view->addAction(m_findDock->toggleViewAction());
    view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
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
    // Rows the user arranges on the timeline, kept per trace kind (setCurrentDocument loads them).
    view->addSeparator();
    using RowAction = ui::TimelineView::RowAction;
    view->addAction(tr("Show All Rows"), this,
                    [this] { m_timeline->applyRowAction(RowAction::ShowAll); });
    view->addAction(tr("Colla&pse All Groups"), this,
                    [this] { m_timeline->applyRowAction(RowAction::CollapseAll); });
    view->addAction(tr("E&xpand All Groups"), this,
                    [this] { m_timeline->applyRowAction(RowAction::ExpandAll); });
    connect(m_timeline, &ui::TimelineView::arrangementChanged, this,
            [this](const ui::RowArrangement& arrangement) {
                if (const model::TracePtr trace = m_timeline->trace())
                    m_settings.setValue(ui::RowArrangement::key(*trace), arrangement.toStrings());
            });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keys"), this, [this] {
        showInfo(
            tr("Timeline: W/S zoom at the cursor, A/D pan, Ctrl+wheel zoom, drag to pan, "
               "F fit selection, 0 fit all, click a slice for its details; L goes to the other "
               "end of its launch arrow (API call and GPU op), [ to the op it waited for through "
               "a CUDA event, ] to the op that waited for it. "
               "Flags: Ctrl+click on the ruler or M drops one (M with a time selection flags its "
               "edges), . / , go to the next / previous, double-click one to rename it, "
               "right-click it to remove it or count the ruler's times from it; the status bar "
               "measures between flags and a selection. "
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
    // Switching traces leaves the last one's message behind ("Could not open README.md" stayed
    // over every trace after it).
    connect(m_history, &QComboBox::activated, this, [this](int index) {
        m_message->clearMessage();
        setCurrentDocument(index);
    });

    m_exportJsonAction->setEnabled(false);
    m_exportPngAction->setEnabled(false);
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = m_recent.list();
    for (const QString& path : files) {
        m_recentMenu->addAction(path, this, [this, path] {
            startLoad({LoadIntent::Source::Recent, {path}});
        });
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

}  // namespace wl::app
