#pragma once

#include <QTabWidget>
#include <memory>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/Ranks.h"
#include "analysis/Summary.h"
#include "model/Trace.h"

namespace wl::ui::summary {

class KernelsPage;
class MemoryPage;
class OperatorsPage;
class OverviewPage;
class RanksPage;

// The summary a PyTorch or Nsight user looks at first, for the analysed window: Overview (the
// iterations' time breakdown, GPU utilisation, the top findings), Kernels, Operators, Memory and,
// for a job, Ranks. It shows figures computed off the GUI thread with the analysis
// (analysis::computeSummary) and asks for spans or slices on the timeline with its signals.
// GUI thread.
class SummaryView : public QTabWidget {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);

    // A new analysis of `trace`: every page follows. `ranks`: the job's cross-rank analysis (null
    // for one process: the Ranks page is hidden).
    void setAnalysis(model::TracePtr trace, std::shared_ptr<const analysis::AnalysisResult> result,
                     std::shared_ptr<const analysis::Summary> summary,
                     std::shared_ptr<const analysis::RankStats> ranks);
    void clear();

    OverviewPage* overview() const { return m_overview; }
    KernelsPage* kernels() const { return m_kernels; }
    OperatorsPage* operators() const { return m_operators; }
    MemoryPage* memory() const { return m_memory; }
    RanksPage* ranks() const { return m_ranks; }
    const analysis::Summary* summary() const { return m_summary.get(); }

signals:
    // A span to show on the timeline (an iteration, a stretch of the utilisation line).
    void rangeActivated(wl::model::TimeRange range);
    // Slices to show on the timeline (a kernel's launches, an operator's calls, what ran at a
    // memory peak, a collective's kernels).
    void slicesActivated(std::vector<wl::model::SliceRef> refs);

private:
    std::shared_ptr<const analysis::Summary> m_summary;
    OverviewPage* m_overview = nullptr;
    KernelsPage* m_kernels = nullptr;
    OperatorsPage* m_operators = nullptr;
    MemoryPage* m_memory = nullptr;
    RanksPage* m_ranks = nullptr;
    int m_ranksTab = -1;
};

}  // namespace wl::ui::summary
