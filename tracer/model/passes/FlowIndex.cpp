// Flows by their ends, for Trace::flowFrom and flowTo.
#include <algorithm>
#include <numeric>

#include "model/passes/Passes.h"

namespace wl::model {

void indexFlows(FinalizeState& s) {
    auto& flows = s.flows;
    // Stable, so of two flows between the same slices the first added (the launch link) stays.
    std::stable_sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) {
        if (a.from != b.from)
            return a.from < b.from;
        return a.to < b.to;
    });
    flows.erase(
        std::unique(flows.begin(), flows.end(),
                    [](const Flow& a, const Flow& b) { return a.from == b.from && a.to == b.to; }),
        flows.end());
    s.flowFromIndex.resize(flows.size());
    std::iota(s.flowFromIndex.begin(), s.flowFromIndex.end(), 0u);
    s.flowToIndex = s.flowFromIndex;
    std::stable_sort(s.flowToIndex.begin(), s.flowToIndex.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return flows[a].to < flows[b].to; });
}

}  // namespace wl::model
