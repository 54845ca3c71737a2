// MainWindow's menus and tool bar, wired: what each of WindowActions' actions does (File, Edit,
// Run, View with the timeline's keys window-wide, Help) and the recent files it lists.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QTabWidget>

#include "app/gui/AppSettings.h"
#include "app/gui/DockLayout.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "app/gui/WindowActions.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

void MainWindow::createActions() {
    m_actions = new WindowActions(
        *this, {m_docks->runDock(), m_docks->detailsDock(), m_docks->diagnosticsDock(),
                m_docks->statisticsDock(), m_docks->eventsDock(), m_docks->findDock()});
    WindowActions& a = *m_actions;
    connect(a.open(), &QAction::triggered, this, &MainWindow::openInteractive);
    connect(a.openRankTraces(), &QAction::triggered, this, &MainWindow::openRankTracesInteractive);
    connect(a.compareWith(), &QAction::triggered, this, &MainWindow::compareWithInteractive);
    connect(&a, &WindowActions::sampleChosen, this, [this](const QString& path) {
        startLoad({LoadIntent::Source::Sample, {path}});
    });
    connect(&a, &WindowActions::samplePairChosen, this, &MainWindow::compareSamples);
    connect(&a, &WindowActions::syntheticSampleChosen, this, [this] {
        addDocument(TraceDocument::fromFile(syntheticSampleTrace(),
                                            QStringLiteral("synthetic-reduce-async"),
                                            TraceDocument::Origin::Sample));
    });
    connect(a.exportChromeTrace(), &QAction::triggered, this,
            &MainWindow::exportChromeTraceInteractive);
    connect(a.exportViewPng(), &QAction::triggered, this, &MainWindow::exportViewPngInteractive);
    connect(&a, &WindowActions::recentChosen, this, [this](const QString& path) {
        startLoad({LoadIntent::Source::Recent, {path}});
    });
    connect(&a, &WindowActions::recentCleared, this, [this] {
        m_recent.clear();
        rebuildRecentMenu();
    });
    rebuildRecentMenu();

    connect(a.find(), &QAction::triggered, this, &MainWindow::showFind);
    connect(a.findNext(), &QAction::triggered, m_find, &ui::FindPanel::findNext);
    connect(a.findPrevious(), &QAction::triggered, m_find, &ui::FindPanel::findPrevious);

    connect(a.run(), &QAction::triggered, this, &MainWindow::startRun);
    connect(a.compareRuns(), &QAction::triggered, this, &MainWindow::startCompare);
    connect(a.cancelRun(), &QAction::triggered, this, &MainWindow::cancelRun);

    connect(&a, &WindowActions::timelineKey, this, [this](int key, bool followsFlow) {
        if (followsFlow) {
            m_tabs->setCurrentWidget(m_timeline);
            m_timeline->handleKey(key);
        } else {
            activeTimeline()->handleKey(key);
        }
    });
    connect(a.resetLayout(), &QAction::triggered, this, &MainWindow::resetLayout);
    a.fullKernelNames()->setChecked(loadFullKernelNames(m_settings));
    m_statistics->setFullKernelNames(a.fullKernelNames()->isChecked());
    m_timeline->setFullKernelNames(a.fullKernelNames()->isChecked());
    connect(a.fullKernelNames(), &QAction::toggled, this, [this](bool full) {
        saveFullKernelNames(m_settings, full);
        m_statistics->setFullKernelNames(full);
        m_timeline->setFullKernelNames(full);
    });
    a.dependencies()->setChecked(loadShowDependencies(m_settings));
    m_timeline->setShowDependencies(a.dependencies()->isChecked());
    connect(a.dependencies(), &QAction::toggled, this, [this](bool show) {
        saveShowDependencies(m_settings, show);
        m_timeline->setShowDependencies(show);
    });
    // Rows the user arranges on the timeline, kept per trace kind (setCurrentDocument loads them).
    using RowAction = ui::TimelineView::RowAction;
    connect(a.showAllRows(), &QAction::triggered, this,
            [this] { m_timeline->applyRowAction(RowAction::ShowAll); });
    connect(a.collapseAllGroups(), &QAction::triggered, this,
            [this] { m_timeline->applyRowAction(RowAction::CollapseAll); });
    connect(a.expandAllGroups(), &QAction::triggered, this,
            [this] { m_timeline->applyRowAction(RowAction::ExpandAll); });
    connect(m_timeline, &ui::TimelineView::arrangementChanged, this,
            [this](const ui::RowArrangement& arrangement) {
                if (const model::TracePtr trace = m_timeline->trace())
                    m_settings.setValue(ui::RowArrangement::key(*trace), arrangement.toStrings());
            });

    connect(a.keys(), &QAction::triggered, this, [this] {
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

    // Switching traces leaves the last one's message behind ("Could not open README.md" stayed
    // over every trace after it).
    connect(a.history(), &QComboBox::activated, this, [this](int index) {
        m_message->clearMessage();
        setCurrentDocument(index);
    });
}

void MainWindow::rebuildRecentMenu() {
    m_actions->setRecentFiles(m_recent.list());
}

}  // namespace wl::app
