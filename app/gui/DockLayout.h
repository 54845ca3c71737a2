#pragma once

#include <QByteArray>
#include <QObject>
#include <vector>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace wl::app {

// Where the window's panels sit: Run and Details in the left column; Diagnostics beside
// Statistics at the bottom, with Events, Find, Ranks and Query as tabs of Statistics (Find, Ranks
// and Query hidden until asked for). The bottom docks step aside while Compare is shown and come
// back with the timeline; the Run dock is for runs unless the user chose in the View menu; the dock
// sizes are shares of the window when it is first shown (unless a saved layout was restored) and at
// Reset Layout. It makes the docks (children of the window, named for QMainWindow::saveState)
// around panels the window made; GUI thread.
class DockLayout : public QObject {
    Q_OBJECT

public:
    struct Panels {
        QWidget* run;  // in a scroll area of its own: it scrolls on a short screen
        QWidget* details;
        QWidget* diagnostics;
        QWidget* statistics;
        QWidget* events;
        QWidget* find;
        QWidget* ranks;
        QWidget* query;
    };
    DockLayout(QMainWindow& window, const Panels& panels);

    QDockWidget* runDock() const { return m_run; }
    QDockWidget* detailsDock() const { return m_details; }
    QDockWidget* diagnosticsDock() const { return m_diagnostics; }
    QDockWidget* statisticsDock() const { return m_statistics; }
    QDockWidget* eventsDock() const { return m_events; }
    QDockWidget* findDock() const { return m_find; }
    QDockWidget* ranksDock() const { return m_ranks; }
    QDockWidget* queryDock() const { return m_query; }

    // The layout as it is now becomes what Reset Layout goes back to (call once the window has its
    // size and tool bar, before restoring a saved one).
    void keepAsDefault();
    // A saved QMainWindow state; true when it applied (its dock sizes are then the user's).
    bool restore(const QByteArray& state);
    // A tab that needs the window's height is shown (Compare, the Summary), or not: the bottom
    // docks step aside (or come back as they were).
    void setTallCentre(bool tall);
    // The Run dock: shown while a run is current (or, before any, when a GPU can run one), unless
    // the user showed or hid it in the View menu.
    void showRunDockFor(bool runs);
    // The window was shown: at its first show, unless restored, the docks take shares of it.
    void windowShown();
    // Reset Layout: every dock where a fresh start puts it, Ranks shown for a job's trace, and the
    // Run dock for runs (the user's choice of it forgotten).
    void reset(bool showRanks, bool runs);

private:
    void fitToWindow();

    QMainWindow& m_window;
    QDockWidget* m_run = nullptr;
    QDockWidget* m_details = nullptr;
    QDockWidget* m_diagnostics = nullptr;
    QDockWidget* m_statistics = nullptr;
    QDockWidget* m_events = nullptr;
    QDockWidget* m_find = nullptr;
    QDockWidget* m_ranks = nullptr;
    QDockWidget* m_query = nullptr;
    std::vector<QDockWidget*> m_parked;  // hidden while Compare is shown
    bool m_tallCentre = false;
    bool m_runDockChosen = false;  // the user showed or hid it (View menu): it stays so
    QByteArray m_default;          // the docks as a fresh start arranges them
    bool m_restored = false;       // a saved layout was applied: its dock sizes are the user's
    bool m_shownOnce = false;
};

}  // namespace wl::app
