#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <vector>

class QAction;
class QComboBox;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace wl::app {

// The window's menus and tool bar: every action with its text, shortcut and place (File, Edit,
// Run, View, Help; the tool bar with the trace history box). What an action does is the
// window's: it connects to the actions and signals here, and enables them as its state changes.
// GUI thread.
class WindowActions : public QObject {
    Q_OBJECT

public:
    // `viewDocks`: the docks the View menu shows and hides, in its order.
    WindowActions(QMainWindow& window, const std::vector<QDockWidget*>& viewDocks);

    // File
    QAction* open() const { return m_open; }
    QAction* openRankTraces() const { return m_openRanks; }
    QAction* compareWith() const { return m_compareWith; }
    QAction* stopOpening() const { return m_stopOpening; }
    QAction* exportChromeTrace() const { return m_exportJson; }
    QAction* exportViewPng() const { return m_exportPng; }
    // Edit
    QAction* find() const { return m_find; }
    QAction* findNext() const { return m_findNext; }
    QAction* findPrevious() const { return m_findPrevious; }
    // Run
    QAction* run() const { return m_run; }
    QAction* compareRuns() const { return m_compare; }
    QAction* cancelRun() const { return m_cancel; }
    // View
    QAction* resetLayout() const { return m_resetLayout; }
    QAction* fullKernelNames() const { return m_fullNames; }  // checkable
    QAction* dependencies() const { return m_dependencies; }  // checkable
    QAction* showAllRows() const { return m_showAllRows; }
    QAction* collapseAllGroups() const { return m_collapseAll; }
    QAction* expandAllGroups() const { return m_expandAll; }
    // Help
    QAction* keys() const { return m_keys; }
    // The tool bar's box of opened traces and runs.
    QComboBox* history() const { return m_history; }

    // File > Open Recent lists these (disabled when there are none).
    void setRecentFiles(const QStringList& paths);

signals:
    void recentChosen(const QString& path);
    void recentCleared();
    void sampleChosen(const QString& path);  // File > Open Sample
    void syntheticSampleChosen();
    void samplePairChosen(const QString& first, const QString& second);  // Compare Samples
    // One of the timeline's single-letter keys, window-wide (View menu); `followsFlow`: it acts
    // on the main timeline (Compare's traces have no flows to follow), else on the one in view.
    void timelineKey(int key, bool followsFlow);

private:
    QMainWindow& m_window;
    QAction* m_open = nullptr;
    QAction* m_openRanks = nullptr;
    QAction* m_compareWith = nullptr;
    QAction* m_stopOpening = nullptr;
    QAction* m_exportJson = nullptr;
    QAction* m_exportPng = nullptr;
    QAction* m_find = nullptr;
    QAction* m_findNext = nullptr;
    QAction* m_findPrevious = nullptr;
    QAction* m_run = nullptr;
    QAction* m_compare = nullptr;
    QAction* m_cancel = nullptr;
    QAction* m_resetLayout = nullptr;
    QAction* m_fullNames = nullptr;
    QAction* m_dependencies = nullptr;
    QAction* m_showAllRows = nullptr;
    QAction* m_collapseAll = nullptr;
    QAction* m_expandAll = nullptr;
    QAction* m_keys = nullptr;
    QMenu* m_recent = nullptr;
    QComboBox* m_history = nullptr;
};

}  // namespace wl::app
