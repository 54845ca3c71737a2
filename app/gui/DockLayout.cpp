#include "app/gui/DockLayout.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <algorithm>
#include <utility>

namespace wl::app {

namespace {

QDockWidget* makeDock(QMainWindow& window, const QString& title, const char* name, QWidget* panel) {
    auto* dock = new QDockWidget(title, &window);
    dock->setObjectName(QLatin1String(name));
    dock->setWidget(panel);
    return dock;
}

}  // namespace

DockLayout::DockLayout(QMainWindow& window, const Panels& panels)
    : QObject(&window), m_window(window) {
    // In a scroll area: on a short screen (1024x700) the panel scrolls instead of squeezing its
    // fields to a few pixels.
    auto* runScroll = new QScrollArea(&window);
    runScroll->setWidget(panels.run);
    runScroll->setWidgetResizable(true);
    runScroll->setFrameShape(QFrame::NoFrame);
    runScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    runScroll->setMinimumWidth(270);  // its fields and check boxes stay readable
    m_run = makeDock(window, tr("Run"), "runDock", runScroll);
    window.addDockWidget(Qt::LeftDockWidgetArea, m_run);
    // Only the user's own click (triggered, not toggled) pins the Run dock's visibility.
    connect(m_run->toggleViewAction(), &QAction::triggered, this,
            [this] { m_runDockChosen = true; });

    m_details = makeDock(window, tr("Details"), "detailsDock", panels.details);
    window.addDockWidget(Qt::LeftDockWidgetArea, m_details);
    m_diagnostics = makeDock(window, tr("Diagnostics"), "diagnosticsDock", panels.diagnostics);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_diagnostics);

    m_statistics = makeDock(window, tr("Statistics"), "statisticsDock", panels.statistics);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_statistics);
    window.splitDockWidget(m_diagnostics, m_statistics, Qt::Horizontal);
    // The left column holds the narrow forms; the bottom row the lists that like width.
    window.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    // Every slice, sortable: a tab beside Statistics (it collects only while shown).
    m_events = makeDock(window, tr("Events"), "eventsDock", panels.events);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_events);
    window.tabifyDockWidget(m_statistics, m_events);

    // Find (Ctrl+F): a tab beside Statistics, hidden until asked for.
    m_find = makeDock(window, tr("Find"), "findDock", panels.find);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_find);
    window.tabifyDockWidget(m_statistics, m_find);
    m_find->hide();

    // Ranks: a job's per-rank traces opened together; a tab beside Statistics while one is open.
    m_ranks = makeDock(window, tr("Ranks"), "ranksDock", panels.ranks);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_ranks);
    window.tabifyDockWidget(m_statistics, m_ranks);
    m_ranks->hide();

    // Query (View > Query): SQL over the trace, a tab beside Statistics, hidden until asked for.
    m_query = makeDock(window, tr("Query"), "queryDock", panels.query);
    window.addDockWidget(Qt::BottomDockWidgetArea, m_query);
    window.tabifyDockWidget(m_statistics, m_query);
    m_query->hide();

    // Statistics in front of its tabs (raised last: tabifying and hiding the others moves the
    // front to Events).
    m_statistics->raise();

    window.resizeDocks({m_run, m_details}, {340, 340}, Qt::Horizontal);
    window.resizeDocks({m_run, m_details}, {400, 560}, Qt::Vertical);
    window.resizeDocks({m_diagnostics, m_statistics}, {640, 620}, Qt::Horizontal);
    window.resizeDocks({m_run}, {280}, Qt::Horizontal);
    window.resizeDocks({m_diagnostics}, {280}, Qt::Vertical);
}

void DockLayout::keepAsDefault() {
    m_default = m_window.saveState();
}

bool DockLayout::restore(const QByteArray& state) {
    m_restored = m_window.restoreState(state);
    return m_restored;
}

void DockLayout::setTallCentre(bool tall) {
    // Compare needs the height for two timelines and its charts, the Summary for its charts and
    // tables (which hold the findings and kernels the bottom docks would show).
    if (tall == m_tallCentre)
        return;
    m_tallCentre = tall;
    if (tall) {
        m_parked.clear();
        for (QDockWidget* dock : {m_diagnostics, m_statistics, m_events, m_find, m_query}) {
            if (!dock->isHidden()) {
                m_parked.push_back(dock);
                dock->hide();
            }
        }
    } else {
        for (QDockWidget* dock : m_parked)
            dock->show();
        m_parked.clear();
    }
}

void DockLayout::showRunDockFor(bool runs) {
    if (!m_runDockChosen)
        m_run->setVisible(runs);
}

void DockLayout::fitToWindow() {
    // Fixed sizes (280 px high, 340 px wide) left the timeline 250 px of a 700 px window and
    // 700 of a 1024 px one; shares of the window keep it the most room on a small screen.
    const int bottom = std::clamp(m_window.height() * 28 / 100, 170, 320);
    const int left = std::clamp(m_window.width() * 22 / 100, 220, 340);
    m_window.resizeDocks({m_diagnostics}, {bottom}, Qt::Vertical);
    m_window.resizeDocks({m_details}, {left}, Qt::Horizontal);
}

void DockLayout::windowShown() {
    // After the first layout at the shown size (resizeDocks before it is undone by it).
    if (!std::exchange(m_shownOnce, true) && !m_restored)
        QMetaObject::invokeMethod(this, &DockLayout::fitToWindow, Qt::QueuedConnection);
}

void DockLayout::reset(bool showRanks, bool runs) {
    m_runDockChosen = false;
    m_window.restoreState(m_default);
    m_ranks->setVisible(showRanks);
    // A job's Ranks in front of the bottom tabs, else Statistics.
    (showRanks ? m_ranks : m_statistics)->raise();
    showRunDockFor(runs);
    fitToWindow();
}

}  // namespace wl::app
