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
    const DockLayout& docks = m_views->docks();
    m_actions = new WindowActions(
        *this, {docks.runDock(), docks.detailsDock(), docks.diagnosticsDock(),
                docks.statisticsDock(), docks.eventsDock(), docks.findDock(), docks.queryDock()});
    WindowActions& a = *m_actions;
    connect(a.open(), &QAction::triggered, this, &MainWindow::openInteractive);
    connect(a.openRankTraces(), &QAction::triggered, this, &MainWindow::openRankTracesInteractive);
    connect(a.compareWith(), &QAction::triggered, this, &MainWindow::compareWithInteractive);
    connect(&a, &WindowActions::sampleChosen, this, [this](const QString& path) {
        m_documents->load({LoadIntent::Source::Sample, {path}});
    });
    connect(&a, &WindowActions::samplePairChosen, this, &MainWindow::compareSamples);
    connect(&a, &WindowActions::syntheticSampleChosen, this, [this] {
        openTrace(syntheticSampleTrace(), QStringLiteral("synthetic-reduce-async"),
                  TraceDocument::Origin::Sample);
    });
    connect(a.exportChromeTrace(), &QAction::triggered, this,
            &MainWindow::exportChromeTraceInteractive);
    connect(a.exportViewPng(), &QAction::triggered, this, &MainWindow::exportViewPngInteractive);
    connect(&a, &WindowActions::recentChosen, this, [this](const QString& path) {
        m_documents->load({LoadIntent::Source::Recent, {path}});
    });
    connect(&a, &WindowActions::recentCleared, this, [this] {
        m_documents->recent().clear();
        m_actions->setRecentFiles(m_documents->recent().list());
    });
    m_actions->setRecentFiles(m_documents->recent().list());

    connect(a.find(), &QAction::triggered, this, &MainWindow::showFind);
    connect(a.findNext(), &QAction::triggered, findPanel(), &ui::FindPanel::findNext);
    connect(a.findPrevious(), &QAction::triggered, findPanel(), &ui::FindPanel::findPrevious);

    // Run, Compare Runs and Cancel Run: the RunCoordinator's.

    connect(&a, &WindowActions::timelineKey, this, [this](int key, bool followsFlow) {
        if (followsFlow) {
            tabs()->setCurrentWidget(timeline());
            timeline()->handleKey(key);
        } else {
            m_views->activeTimeline()->handleKey(key);
        }
    });
    connect(a.resetLayout(), &QAction::triggered, this, &MainWindow::resetLayout);
    a.fullKernelNames()->setChecked(loadFullKernelNames(m_settings));
    statistics()->setFullKernelNames(a.fullKernelNames()->isChecked());
    timeline()->setFullKernelNames(a.fullKernelNames()->isChecked());
    connect(a.fullKernelNames(), &QAction::toggled, this, [this](bool full) {
        saveFullKernelNames(m_settings, full);
        statistics()->setFullKernelNames(full);
        timeline()->setFullKernelNames(full);
    });
    a.dependencies()->setChecked(loadShowDependencies(m_settings));
    timeline()->setShowDependencies(a.dependencies()->isChecked());
    connect(a.dependencies(), &QAction::toggled, this, [this](bool show) {
        saveShowDependencies(m_settings, show);
        timeline()->setShowDependencies(show);
    });
    // Rows the user arranges on the timeline, kept per trace kind (setCurrentDocument loads them).
    using RowAction = ui::TimelineView::RowAction;
    connect(a.showAllRows(), &QAction::triggered, this,
            [this] { timeline()->applyRowAction(RowAction::ShowAll); });
    connect(a.collapseAllGroups(), &QAction::triggered, this,
            [this] { timeline()->applyRowAction(RowAction::CollapseAll); });
    connect(a.expandAllGroups(), &QAction::triggered, this,
            [this] { timeline()->applyRowAction(RowAction::ExpandAll); });
    connect(timeline(), &ui::TimelineView::arrangementChanged, this,
            [this](const ui::RowArrangement& arrangement) {
                if (const model::TracePtr trace = timeline()->trace())
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
        m_views->message()->clearMessage();
        setCurrentDocument(index);
    });
}

}  // namespace wl::app
