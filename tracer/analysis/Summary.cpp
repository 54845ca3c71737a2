// The Summary: its parts, each computed in its own file, assembled.
#include "analysis/Summary.h"

#include "analysis/Analysis.h"
#include "analysis/IterationBreakdown.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/OperatorStats.h"
#include "analysis/RankBreakdown.h"
#include "analysis/SummaryScope.h"
#include "analysis/UtilizationSeries.h"

namespace wl::analysis {

std::optional<Summary> computeSummary(const model::Trace& trace, const AnalysisResult& result,
                                      const SummaryOptions& options,
                                      const std::atomic<bool>* cancel) {
    const AnalysisWindow& window = result.window();
    Summary out;
    auto iterations = computeIterations(trace, window, cancel);
    if (!iterations || cancelled(cancel))
        return std::nullopt;
    out.iterationSource = iterations->source;
    out.iterations = std::move(iterations->iterations);
    auto utilization = utilizationSeries(trace, window, options.utilizationBins, cancel);
    if (!utilization || cancelled(cancel))
        return std::nullopt;
    out.utilization = std::move(*utilization);
    auto operators = operatorTable(trace, window, cancel);
    if (!operators || cancelled(cancel))
        return std::nullopt;
    out.operators = std::move(*operators);
    auto memory = memoryTimelines(trace, window, cancel);
    if (!memory || cancelled(cancel))
        return std::nullopt;
    out.memory = std::move(*memory);
    auto ranks = rankBreakdown(trace, window, cancel);
    if (!ranks || cancelled(cancel))
        return std::nullopt;
    out.ranks = std::move(*ranks);
    return out;
}

}  // namespace wl::analysis
