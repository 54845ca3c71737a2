#include "app/gui/WindowActions.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>

#include "app/gui/SampleTraces.h"

namespace wl::app {

WindowActions::WindowActions(QMainWindow& window, const std::vector<QDockWidget*>& viewDocks)
    : QObject(&window), m_window(window) {
    QMenu* file = window.menuBar()->addMenu(tr("&File"));
    m_open = file->addAction(tr("&Open Trace..."));
    // A distributed job: one trace per rank, opened as one (aligned, a process group per rank).
    m_openRanks = file->addAction(tr("Open &Rank Traces..."));
    m_open->setShortcut(QKeySequence::Open);
    m_recent = file->addMenu(tr("Open &Recent"));
    // Another trace beside the current one: Compare's timelines, charts and speedup.
    m_compareWith = file->addAction(tr("Compare &With..."));
    // Stops the file being opened (a big trace takes a while); the trace shown before stays.
    m_stopOpening = file->addAction(tr("S&top Opening"));
    m_stopOpening->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopOpening->setShortcutContext(Qt::WindowShortcut);
    m_stopOpening->setEnabled(false);  // only while a file opens, so Escape is free otherwise
    QMenu* samples = file->addMenu(tr("Open &Sample"));
    for (const QString& path : bundledSamples()) {
        samples->addAction(QFileInfo(path).fileName(), this,
                           [this, path] { emit sampleChosen(path); });
    }
    // Pairs in Compare: the first opens, then the second beside it.
    if (const std::vector<SamplePair> pairs = bundledSamplePairs(); !pairs.empty()) {
        QMenu* compare = file->addMenu(tr("Compare Sa&mples"));
        for (const SamplePair& pair : pairs) {
            compare->addAction(tr(pair.title.toUtf8().constData()), this,
                               [this, pair] { emit samplePairChosen(pair.first, pair.second); });
        }
    }
    samples->addAction(tr("Synthetic reduce async (4 streams)"), this,
                       [this] { emit syntheticSampleChosen(); });
    file->addSeparator();
    m_exportJson = file->addAction(tr("&Export Chrome Trace..."));
    m_exportJson->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportPng = file->addAction(tr("Export View as &PNG..."));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), &window, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    setRecentFiles({});

    QMenu* edit = window.menuBar()->addMenu(tr("&Edit"));
    m_find = edit->addAction(tr("&Find..."));
    m_find->setShortcut(QKeySequence::Find);
    m_find->setShortcutContext(Qt::WindowShortcut);
    m_findNext = edit->addAction(tr("Find &Next"));
    m_findNext->setShortcut(QKeySequence(Qt::Key_F3));
    m_findPrevious = edit->addAction(tr("Find &Previous"));
    m_findPrevious->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3));

    QMenu* run = window.menuBar()->addMenu(tr("&Run"));
    m_run = run->addAction(tr("&Run"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_compare = run->addAction(tr("&Compare Baseline and Async"));
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_cancel = run->addAction(tr("C&ancel"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setShortcutContext(Qt::WindowShortcut);
    m_cancel->setEnabled(false);  // only during a run, so Escape is free otherwise

    // The timeline's single-letter keys, window-wide: they act on the timeline in view wherever
    // the focus is (a finding, a table), except in a text field, which takes its letters first
    // (QLineEdit accepts the shortcut override for text).
    QMenu* view = window.menuBar()->addMenu(tr("&View"));
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
        QAction* action = view->addAction(tr(k.text), this,
                                          [this, k] { emit timelineKey(k.key, k.followsFlow); });
        action->setShortcut(QKeySequence(k.key));
        action->setShortcutContext(Qt::WindowShortcut);
    }
    view->addSeparator();
    for (QDockWidget* dock : viewDocks)
        view->addAction(dock->toggleViewAction());
    m_resetLayout = view->addAction(tr("&Reset Layout"));
    view->addSeparator();
    // Short kernel names (gemvx::kernel) by default; the full signatures on request.
    m_fullNames = view->addAction(tr("Full &Kernel Names"));
    m_fullNames->setCheckable(true);
    // Arrows from an op to the ops that waited for it through a CUDA event.
    m_dependencies = view->addAction(tr("&Dependencies"));
    m_dependencies->setCheckable(true);
    // Rows the user arranges on the timeline, kept per trace kind.
    view->addSeparator();
    m_showAllRows = view->addAction(tr("Show All Rows"));
    m_collapseAll = view->addAction(tr("Colla&pse All Groups"));
    m_expandAll = view->addAction(tr("E&xpand All Groups"));

    QMenu* help = window.menuBar()->addMenu(tr("&Help"));
    m_keys = help->addAction(tr("&Keys"));
    help->addAction(tr("&About Warpline"), this, [this] {
        QMessageBox::about(&m_window, tr("About Warpline"),
                           tr("<b>Warpline %1</b><p>A timeline viewer for CUDA asynchrony: runs "
                              "workloads under CUPTI and shows what the GPU did.</p>")
                               .arg(QStringLiteral(WARPLINE_VERSION)));
    });

    auto* toolbar = window.addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);
    toolbar->addAction(m_open);
    toolbar->addAction(m_exportJson);
    toolbar->addSeparator();
    toolbar->addWidget(new QLabel(tr(" Trace: "), toolbar));
    m_history = new QComboBox(toolbar);
    m_history->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_history->setMinimumContentsLength(40);
    m_history->setToolTip(tr("Opened traces and runs: switch between them"));
    toolbar->addWidget(m_history);

    // Nothing to export until a trace is shown.
    m_exportJson->setEnabled(false);
    m_exportPng->setEnabled(false);
}

void WindowActions::setRecentFiles(const QStringList& paths) {
    m_recent->clear();
    for (const QString& path : paths) {
        m_recent->addAction(path, this, [this, path] { emit recentChosen(path); });
    }
    if (!paths.isEmpty()) {
        m_recent->addSeparator();
        m_recent->addAction(tr("Clear List"), this, [this] { emit recentCleared(); });
    }
    m_recent->setEnabled(!paths.isEmpty());
}

}  // namespace wl::app
