#include "analysis/SummaryScope.h"

#include "analysis/Ranks.h"

namespace wl::analysis {

SummaryScope summaryScope(const model::Trace& trace) {
    SummaryScope scope;
    const auto processes = trace.processes();
    scope.byProcess.assign(processes.size(), false);
    const std::vector<JobRank> ranks = jobRanks(trace);
    if (!ranks.empty()) {
        scope.rank = ranks.front().rank;
        for (const model::ProcessIndex p : ranks.front().processes) {
            if (p < processes.size())
                scope.byProcess[p] = true;
        }
        return scope;
    }
    for (model::ProcessIndex p = 0; p < processes.size(); ++p) {
        scope.byProcess[p] = !model::isSyntheticId(processes[p].pid);
    }
    return scope;
}

}  // namespace wl::analysis
