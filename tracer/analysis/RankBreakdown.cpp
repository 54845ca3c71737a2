#include "analysis/RankBreakdown.h"

#include <algorithm>
#include <map>

#include "analysis/GpuOps.h"
#include "analysis/Intervals.h"
#include "analysis/KernelNames.h"
#include "analysis/Ranks.h"
#include "analysis/SummaryScope.h"

namespace wl::analysis {

std::optional<std::vector<RankTimeBreakdown>> rankBreakdown(const model::Trace& trace,
                                                            const AnalysisWindow& window,
                                                            const std::atomic<bool>* cancel) {
    std::vector<RankTimeBreakdown> out;
    const std::vector<JobRank> ranks = jobRanks(trace);
    if (ranks.empty() || window.parts.empty())
        return out;
    AnalysisWindow everyRow = window;
    everyRow.tracks.clear();
    CollectiveKernels collectives(trace);
    for (const JobRank& rank : ranks) {
        if (cancelled(cancel))
            return std::nullopt;
        RankTimeBreakdown r;
        r.rank = rank.rank;
        const GpuOps ops(trace, &everyRow, rank.rank);
        // By GPU process (the rank's GPU ordinals: one process each).
        std::map<model::ProcessIndex, std::pair<std::vector<Interval>, std::vector<Interval>>>
            byGpu;
        for (const model::ProcessIndex p : rank.processes) {
            const std::int32_t device = trace.processes()[p].deviceId;
            if (device >= 0 && std::find(rank.deviceIds.begin(), rank.deviceIds.end(), device) !=
                                   rank.deviceIds.end())
                byGpu[p];  // a GPU idle through the window counts its window as other time
        }
        for (const GpuOp& op : ops.all()) {
            auto& [compute, communication] = byGpu[trace.track(op.ref.track).process];
            const bool collective =
                op.kind == GpuOpKind::Kernel && collectives.contains(trace.slice(op.ref).nameId);
            (collective ? communication : compute).push_back({op.startNs, op.endNs});
        }
        for (auto& [gpu, intervals] : byGpu) {
            const IntervalSet compute(std::move(intervals.first));
            const IntervalSet communication(std::move(intervals.second));
            const model::TimeNs windowNs = window.durationNs();
            const model::TimeNs overlapNs = compute.intersectionNs(communication);
            r.windowNs += windowNs;
            r.computeNs += compute.totalNs();
            r.communicationNs += communication.totalNs();
            r.overlapNs += overlapNs;
            r.otherNs += windowNs - (compute.totalNs() + communication.totalNs() - overlapNs);
        }
        out.push_back(r);
    }
    return out;
}

}  // namespace wl::analysis
