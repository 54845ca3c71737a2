// MainWindow's analyses: the current document over its window (the default, a time selection,
// an NVTX range or a slice's time from the slice menu) and Compare's pair, each on the analyzer's
// workers, and what their results show.
#include <QDockWidget>
#include <QMenu>
#include <QTabWidget>
#include <algorithm>

#include "app/gui/DockLayout.h"
#include "app/gui/MainWindow.h"
#include "app/gui/StatusLine.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/DiagnosticsPanel.h"
#include "ui/analysis/StatisticsView.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/EventsPanel.h"
#include "ui/ranks/RankPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

void MainWindow::analyzeCurrent(bool focus) {
    const DocumentPtr doc = currentDocument();
    if (!doc)
        return;
    m_status->setAnalysisText(tr("Analysing..."), false);
    // The analysis this document has (another window of it): its warp badges can be kept.
    std::shared_ptr<const DocumentAnalysis> previous = currentAnalysis();
    m_analyzer.analyze(doc, m_analysisOptions, m_windowRequest, std::move(previous),
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
    m_docks->statisticsDock()->raise();
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
    if (names.first.isEmpty())
        names = {tr("Baseline"), tr("Async")};
    m_analyzer.analyzePair(
        baseline, async, m_analysisOptions, [this, baseline, async, names](AnalysisPair results) {
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
    QDockWidget* ranksDock = m_docks->ranksDock();
    if (analysis->ranks && ranksDock->isHidden()) {
        ranksDock->show();
        ranksDock->raise();
    } else if (!analysis->ranks) {
        ranksDock->hide();
    }
    m_status->setAnalysisText(analysis->summary, true);
}

}  // namespace wl::app
