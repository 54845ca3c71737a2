#pragma once

#include <vector>

#include "analysis/Diagnostic.h"
#include "analysis/GpuOps.h"
#include "analysis/Options.h"
#include "analysis/Overlap.h"
#include "analysis/Statistics.h"
#include "analysis/Utilization.h"
#include "model/Trace.h"

namespace wl::analysis {

struct AnalysisResult;

// What every rule may read: the trace and the results computed before the rules run.
struct RuleContext {
    const model::Trace& trace;
    const AnalysisOptions& options;
    const GpuOps& ops;
    const AnalysisResult& result;
};

// One function per rule (or family); each appends zero or more diagnostics.
void checkPageableMemcpy(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkSyncMemcpy(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkMissedCopyOverlap(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkSyncApiInLoop(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkGpuGaps(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkLowUtilization(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkLowOccupancy(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkStreamsSerialized(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkHostRangeStalls(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkLaunchBound(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkAllocInLoop(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkDevicesWait(const RuleContext& ctx, std::vector<Diagnostic>& out);
void checkCollectiveWait(const RuleContext& ctx, std::vector<Diagnostic>& out);

// Helpers shared by the rules.
namespace rules {
// The GPU op a host API call launched (via its launch flow), or an invalid ref.
model::SliceRef launchedOp(const model::Trace& trace, model::SliceRef apiCall);
// The API call that launched a GPU op, or an invalid ref.
model::SliceRef launchingCall(const model::Trace& trace, model::SliceRef gpuOp);
// Adds ref to evidence unless the cap is reached.
void addEvidence(Diagnostic& d, model::SliceRef ref, std::size_t cap);
// Grows [startNs, endNs) of d to cover the slice.
void cover(Diagnostic& d, const model::Trace& trace, model::SliceRef ref);
}  // namespace rules

}  // namespace wl::analysis
