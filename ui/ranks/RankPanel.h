#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/Ranks.h"
#include "model/Trace.h"

class QLabel;
class QTableWidget;

namespace wl::ui {

class CollectiveMap;
class RankHeatMap;

// The ranks of a distributed job opened together (several per-rank traces merged, one process
// group per rank): how they were aligned, the rank × time overview (RankHeatMap), the rank ×
// collective map of who arrived last at each collective and what the others waited
// (CollectiveMap), a table of each rank's GPU busy share, idle, kernel and NCCL time, and the
// stragglers of the ranges every rank repeats (which rank is slowest in each step, and by how
// much). Clicking a cell of the overview asks to see that rank at that time
// (rankTimeActivated); clicking one of the collective map asks to select that collective's
// kernels (collectiveActivated). Holds the statistics it shows; GUI thread only.
class RankPanel : public QWidget {
    Q_OBJECT
public:
    explicit RankPanel(QWidget* parent = nullptr);

    // Shows `stats` of `trace` (a merged job); null clears the panel.
    void setStats(model::TracePtr trace, std::shared_ptr<const analysis::RankStats> stats);
    const std::shared_ptr<const analysis::RankStats>& stats() const { return m_stats; }

    RankHeatMap* heatMap() const { return m_heatMap; }
    CollectiveMap* collectiveMap() const { return m_collectiveMap; }
    QLabel* collectivesLabel() const { return m_collectives; }
    QTableWidget* table() const { return m_table; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* stragglersLabel() const { return m_stragglers; }
    // "'ProfilerStep#': rank 1 slowest in 25 of 30 iterations; spread 8.10 ms on average, at
    // most 9.30 ms; the slowest 1.31x the median" per range, longest first ("" without ranges).
    static QString stragglersText(const analysis::RankStats& stats);
    // What the collective map shows, in a sentence or two: "70 collectives matched on NCCL
    // stream 17 (by each rank's kernel order). Rank 1 arrived last at 44 of them, late by
    // 247.76 ms in all; the ranks waited 261.39 ms in all. ..." ("" without collectives).
    static QString collectivesText(const analysis::RankStats& stats);
    // The kernels of collective `collective` (an index of stats' collectives), the one of rank
    // index `rank` first (the timeline selects the first); empty when out of range.
    static std::vector<model::SliceRef> collectiveKernels(const analysis::RankStats& stats,
                                                          std::size_t collective, std::size_t rank);

signals:
    // A rank (its first process) at a time of the overview, to reveal on the timeline.
    void rankTimeActivated(wl::model::ProcessIndex process, wl::model::TimeNs startNs,
                           wl::model::TimeNs endNs);
    // A collective's kernels, one per member rank, the clicked rank's first: to select and fit.
    void collectiveActivated(const std::vector<wl::model::SliceRef>& kernels);

private:
    model::TracePtr m_trace;
    std::shared_ptr<const analysis::RankStats> m_stats;
    QLabel* m_summary = nullptr;
    QLabel* m_overviewCaption = nullptr;
    RankHeatMap* m_heatMap = nullptr;
    QLabel* m_collectives = nullptr;
    CollectiveMap* m_collectiveMap = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_stragglers = nullptr;
};

}  // namespace wl::ui
