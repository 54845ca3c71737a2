#include "app/gui/WindowViews.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "analysis/SliceSummary.h"
#include "app/gui/DockLayout.h"
#include "app/gui/DocumentController.h"
#include "app/gui/MessageBar.h"
#include "app/gui/RunPanel.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/query/QueryPanel.h"
#include "ui/ranks/RankPanel.h"
#include "ui/summary/SummaryView.h"
#include "ui/timeline/OverviewStrip.h"
#include "ui/timeline/RowArrangement.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

WindowViews::WindowViews(QMainWindow& window, const DocumentController& documents)
    : QObject(&window), m_documents(documents), m_window(window) {
    createCentre(window);
    m_runPanel = new RunPanel(&window);
    m_details = new ui::DetailsPanel(&window);
    m_diagnostics = new ui::DiagnosticsPanel(&window);
    m_statistics = new ui::StatisticsView(&window);
    m_events = new ui::EventsPanel(&window);
    m_find = new ui::FindPanel(&window);
    m_ranks = new ui::RankPanel(&window);
    m_query = new ui::QueryPanel(&window);
    m_docks = new DockLayout(window, {m_runPanel, m_details, m_diagnostics, m_statistics, m_events,
                                      m_find, m_ranks, m_query});
    connectViews();
}

WindowViews::~WindowViews() = default;

void WindowViews::createCentre(QMainWindow& window) {
    auto* central = new QWidget(&window);
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
    // The Summary's charts need the room of the middle more than a dock's strip (1024x700 leaves
    // a bottom dock under 200 px): a tab beside the timeline.
    m_summary = new ui::summary::SummaryView(m_tabs);
    m_tabs->addTab(m_summary, tr("Summary"));
    // The whole trace in one strip over the timeline, its time area aligned with the timeline's
    // (the tab pages have no margins); out of the way while Compare is shown.
    m_overview = new ui::OverviewStrip(m_timeline, central);
    connect(m_tabs, &QTabWidget::currentChanged, m_overview,
            [this] { m_overview->setVisible(m_tabs->currentWidget() == m_timeline); });
    layout->addWidget(m_message);
    layout->addWidget(m_overview);
    layout->addWidget(m_tabs, 1);
    window.setCentralWidget(central);
}

void WindowViews::connectViews() {
    connect(m_ranks, &ui::RankPanel::rankTimeActivated, this,
            [this](model::ProcessIndex process, model::TimeNs startNs, model::TimeNs endNs) {
                m_tabs->setCurrentWidget(m_timeline);
                m_timeline->revealProcess(process);
                m_timeline->setVisibleRange(startNs, endNs);
            });
    // A cell of the collective map: that collective's kernels on every rank, selected and fitted
    // (the clicked rank's selected, in Details).
    connect(m_ranks, &ui::RankPanel::collectiveActivated, this,
            [this](const std::vector<model::SliceRef>& kernels) {
                if (showsCurrentDocument())
                    showSlicesOnTimeline(kernels);
            });
    // Compare needs the height for two timelines and its charts, the Summary for its charts: the
    // bottom docks step aside while either is shown and come back with the timeline.
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_docks->setTallCentre(m_tabs->currentWidget() != m_timeline); });
    connect(m_diagnostics, &ui::DiagnosticsPanel::evidenceActivated, this,
            &WindowViews::showSlicesOnTimeline);
    connect(m_statistics, &ui::StatisticsView::kernelActivated, this, [this](model::StringId name) {
        const auto current = shownAnalysis();
        if (!current)
            return;
        // The launches the row counted: those in the analysed window.
        showSlicesOnTimeline(
            analysis::kernelLaunches(*m_timeline->trace(), name, current->result->window().parts));
    });
    // A line of the selection's summary: its events, in the analysed window, on the timeline.
    connect(m_statistics, &ui::StatisticsView::summaryActivated, this,
            [this](analysis::SummaryKind kind, model::StringId name) {
                const auto current = shownAnalysis();
                if (!current)
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
            &WindowViews::gapThresholdChanged);
    // A bar or point of a Summary chart: its span selected on the timeline, which the analysis
    // then describes (as a drag would); its slices selected and fitted.
    connect(m_summary, &ui::summary::SummaryView::rangeActivated, this,
            &WindowViews::selectSpanOnTimeline);
    // A query's row: its slice, or its span, on the timeline (as the Summary's).
    connect(m_query, &ui::QueryPanel::sliceActivated, this, [this](model::SliceRef ref) {
        if (showsCurrentDocument())
            showSlicesOnTimeline({ref});
    });
    connect(m_query, &ui::QueryPanel::rangeActivated, this, &WindowViews::selectSpanOnTimeline);
    connect(m_summary, &ui::summary::SummaryView::slicesActivated, this,
            [this](const std::vector<model::SliceRef>& refs) {
                if (showsCurrentDocument() && !refs.empty())
                    showSlicesOnTimeline(refs);
            });

    connect(m_timeline, &ui::TimelineView::sliceSelected, this, [this](model::SliceRef ref) {
        showSliceDetails(m_timeline->trace(), ref);
        m_find->setSelectedSlice(ref);
    });
    connect(m_find, &ui::FindPanel::matchesChanged, this, [this](ui::SearchMatchesPtr matches) {
        m_timeline->setSearchMatches(std::move(matches));
    });
    connect(m_find, &ui::FindPanel::sliceActivated, this, &WindowViews::revealOnTimeline);
    connect(m_events, &ui::EventsPanel::sliceActivated, this, &WindowViews::revealOnTimeline);
    connect(m_timeline, &ui::TimelineView::visibleRangeChanged, m_events,
            &ui::EventsPanel::setVisibleRange);
    connect(m_timeline, &ui::TimelineView::timeRangeSelected, this,
            [this](model::TimeNs startNs, model::TimeNs endNs) {
                emit timeSelected({startNs, endNs}, m_timeline->selectedTracks());
            });
    connect(m_timeline, &ui::TimelineView::timeSelectionCleared, this,
            [this] { emit windowRequested({}); });
    connect(m_timeline, &ui::TimelineView::sliceContextMenuRequested, this,
            &WindowViews::showSliceMenu);
    // "Launched by", "Launches", "Waits for", "Awaited by": go there, on the timeline too.
    connect(m_details, &ui::DetailsPanel::relatedSliceActivated, this, [this](model::SliceRef ref) {
        if (m_details->trace() == m_timeline->trace())
            revealOnTimeline(ref);
        else
            m_details->showSlice(ref);  // a slice of one of Compare's traces
    });
}

void WindowViews::showDocument(const TraceDocument& doc, const ui::RowArrangement& arrangement) {
    m_timeline->setTrace(doc.trace);
    if (doc.trace)
        m_timeline->setArrangement(arrangement);
    m_timeline->setOverlays({});
    m_details->setTrace(doc.trace);
    m_find->setTrace(doc.trace);  // the same query, on this trace
    m_query->setTrace(doc.trace);
    m_events->setVisibleRange(m_timeline->visibleStartNs(), m_timeline->visibleEndNs());
    m_events->setTrace(doc.trace);
    m_diagnostics->setAnalysis(doc.trace, nullptr);
    m_statistics->clear();
    m_summary->clear();
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->setFocus();  // W/S/A/D work at once
}

void WindowViews::showAnalysis(const TraceDocument& doc, const DocumentAnalysis& analysis,
                               bool focus, model::TimeNs gapThresholdNs) {
    m_timeline->setOverlays(analysis.overlays);
    const analysis::AnalysisWindow& window = analysis.result->window();
    m_timeline->setAnalysisWindow(window.source == analysis::WindowSource::Trace
                                      ? std::vector<model::TimeRange>{}
                                      : window.parts);
    if (focus && analysis.focus) {
        // Open on the GPU's work rather than on setup and warm-up; 0 shows everything.
        m_timeline->setVisibleRange(analysis.focus->first, analysis.focus->second);
    }
    if (m_details->trace() == doc.trace)
        m_details->setAnalysis(analysis.result);
    m_diagnostics->setAnalysis(doc.trace, analysis.result);
    m_diagnostics->setGapThresholdUs(static_cast<double>(gapThresholdNs) /
                                     static_cast<double>(model::kNsPerUs));
    m_statistics->setStatistics(analysis.result->statistics, doc.trace);
    m_summary->setAnalysis(doc.trace, analysis.result, analysis.figures, analysis.ranks);
    // A job of several ranks: the Ranks tab shows them side by side (brought forward the first
    // time a job is shown); otherwise it goes away.
    m_ranks->setStats(doc.trace, analysis.ranks);
    QDockWidget* ranksDock = m_docks->ranksDock();
    if (analysis.ranks && ranksDock->isHidden()) {
        ranksDock->show();
        ranksDock->raise();
    } else if (!analysis.ranks) {
        ranksDock->hide();
    }
}

void WindowViews::showComparison(const TraceDocument& baseline, const TraceDocument& async,
                                 const AnalysisPair& results, const QString& baselineName,
                                 const QString& asyncName) {
    if (!m_compare) {
        m_compare = new ui::CompareView(m_tabs);
        m_tabs->addTab(m_compare, tr("Compare"));
        connect(m_compare, &ui::CompareView::sliceSelected, this,
                [this](model::TracePtr trace, model::SliceRef ref) {
                    showSliceDetails(std::move(trace), ref);
                });
    }
    m_compare->setRuns(baseline.trace, results.first->result, async.trace, results.second->result);
    m_compare->setNames(baselineName, asyncName);
    // Compare what the workloads time (copies and kernels, or the loop), not the setup around
    // it. The view shows both from their windows' starts (CompareView).
    if (baseline.timedPartMs > 0.0 && async.timedPartMs > 0.0)
        m_compare->setWallTimes(baseline.timedPartMs, async.timedPartMs, tr("timed part"));
    m_tabs->setCurrentWidget(m_compare);
}

void WindowViews::showTimeSelection(model::TimeRange range) {
    if (m_timeline->timeSelection() != range)
        m_timeline->setTimeSelection(range);  // (not a drag, which selected rows with it)
    m_statistics->showRows();                 // the selection's summary: what each row did in it
    m_docks->statisticsDock()->raise();
}

void WindowViews::followAnalysisWindow(const analysis::WindowRequest& request) {
    if (request.kind != analysis::WindowRequest::Kind::Selection)
        m_timeline->setTimeSelection(std::nullopt);
    m_events->setTimeSelection(m_timeline->timeSelection());
}

bool WindowViews::showsCurrentDocument() const {
    const DocumentPtr doc = m_documents.current();
    return doc && m_timeline->trace() == doc->trace;
}

std::shared_ptr<const DocumentAnalysis> WindowViews::shownAnalysis() const {
    return showsCurrentDocument() ? m_documents.currentAnalysis() : nullptr;
}

void WindowViews::showSliceMenu(model::SliceRef ref, QPoint globalPos) {
    if (!showsCurrentDocument())
        return;
    const model::Trace& trace = *m_timeline->trace();
    QMenu menu(&m_window);
    const model::Slice& slice = trace.slice(ref);
    const std::int32_t instance = analysis::nvtxInstanceNumber(trace, ref);
    if (instance > 0) {
        const std::string name(trace.str(slice.nameId));
        const QString shown = QString::fromStdString(name);
        menu.addAction(tr("Analyse this range ('%1' #%2)").arg(shown).arg(instance), this,
                       [this, name, instance] {
                           analysis::WindowRequest r;
                           r.kind = analysis::WindowRequest::Kind::NvtxRange;
                           r.rangeName = name;
                           r.instance = instance;
                           emit windowRequested(r);
                       });
        // "ProfilerStep#4" is one of the steps: every one of them is "ProfilerStep#".
        const analysis::WindowRequest every = analysis::WindowRequest::everyInstanceOf(name);
        menu.addAction(tr("Analyse every '%1'").arg(QString::fromStdString(every.rangeName)), this,
                       [this, every] { emit windowRequested(every); });
    } else {
        menu.addAction(tr("Analyse the time of this slice"), this,
                       [this, start = slice.startNs, end = slice.endNs()] {
                           analysis::WindowRequest r;
                           r.kind = analysis::WindowRequest::Kind::Selection;
                           r.time = {start, std::max(end, start + 1)};
                           m_timeline->setTimeSelection(r.time);
                           emit windowRequested(r);
                       });
    }
    menu.addSeparator();
    menu.addAction(tr("Analyse the default window"), this, [this] { emit windowRequested({}); });
    menu.addAction(tr("Analyse the whole trace"), this, [this] {
        analysis::WindowRequest r;
        r.kind = analysis::WindowRequest::Kind::WholeTrace;
        emit windowRequested(r);
    });
    menu.exec(globalPos);
}

ui::TimelineView* WindowViews::activeTimeline() const {
    if (auto* focused = qobject_cast<ui::TimelineView*>(QApplication::focusWidget()))
        return focused;  // the main one or one of Compare's (they share a time scale)
    if (m_compare != nullptr && m_tabs->currentWidget() == m_compare)
        return m_compare->baselineView();
    return m_timeline;
}

void WindowViews::selectSpanOnTimeline(model::TimeRange range) {
    if (!showsCurrentDocument() || range.empty())
        return;
    m_tabs->setCurrentWidget(m_timeline);
    const model::TimeNs margin = std::max<model::TimeNs>(range.durationNs() / 10, 1);
    m_timeline->setVisibleRange(range.startNs - margin, range.endNs + margin);
    emit timeSelected(range, {});
}

void WindowViews::showSlicesOnTimeline(const std::vector<model::SliceRef>& refs) {
    m_tabs->setCurrentWidget(m_timeline);
    if (refs.empty())
        return;
    m_timeline->zoomToSlices(refs);
    showSliceDetails(m_timeline->trace(), refs.front());
}

void WindowViews::revealOnTimeline(model::SliceRef ref) {
    if (!showsCurrentDocument())
        return;
    m_tabs->setCurrentWidget(m_timeline);
    m_timeline->revealSlice(ref);
    if (m_details->trace() != m_timeline->trace() || m_details->slice() != ref)
        showSliceDetails(m_timeline->trace(), ref);
}

void WindowViews::showSliceDetails(model::TracePtr trace, model::SliceRef ref) {
    if (m_details->trace() != trace) {
        m_details->setTrace(trace);
        if (const auto known = m_documents.analysisOf(trace))
            m_details->setAnalysis(known->result);
    }
    m_details->showSlice(ref);
}

void WindowViews::showFind() {
    m_docks->findDock()->show();
    m_docks->findDock()->raise();
    m_find->focusQuery();
}

void WindowViews::find(const QString& text, bool regex) {
    m_docks->findDock()->show();
    m_docks->findDock()->raise();
    m_find->setQuery({text, regex});
}

void WindowViews::showQuery(const QString& sql) {
    m_docks->queryDock()->show();
    m_docks->queryDock()->raise();
    m_query->setQuery(sql);
    m_query->run();
}

void WindowViews::showSummary(int page) {
    m_tabs->setCurrentWidget(m_summary);
    m_summary->setCurrentIndex(page);
}

void WindowViews::showEvents() {
    m_docks->eventsDock()->show();
    m_docks->eventsDock()->raise();
}

}  // namespace wl::app
