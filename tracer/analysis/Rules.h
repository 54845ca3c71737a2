#pragma once

#include <span>
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

// A check reads the context and appends zero or more findings.
using RuleCheck = void (*)(const RuleContext& ctx, std::vector<Diagnostic>& out);

// A rule as the analysis runs it: its name in code, its stable id ("pageable-memcpy": the command
// line's JSON and tests use it) and the check that finds it. A check may find a second rule in the
// same pass (low occupancy also finds library kernels): that rule names no check of its own.
struct Rule {
    RuleId rule;
    const char* id;
    RuleCheck check;  // null: found by another rule's check (same file)
    // Its findings are about a device as a whole (its idle time, how its streams share the work,
    // its copies' overlap): a selection of some of a device's streams cannot show them, so they
    // are left out for such a device (AnalysisResult::partialDevices) rather than drawn from the
    // rows that happen to be selected.
    bool deviceWide = false;
};

// A new rule is its check and one line of its file's table (the file's `...Rules()` function),
// beside a name in RuleId. A new file of rules declares its function here and adds it to
// allRules' list (Diagnostic.cpp).
std::span<const Rule> collectiveRules();
std::span<const Rule> copyRules();
std::span<const Rule> deviceRules();
std::span<const Rule> kernelRules();
std::span<const Rule> memoryRules();
std::span<const Rule> streamRules();
std::span<const Rule> syncRules();
std::span<const Rule> timeRules();

// Every registered rule, sorted by RuleId (so index = RuleId while every name is registered). A
// RuleId that no table registers is missing here and toString says "unknown" for it: RulesTest's
// RuleIds tests fail then.
std::span<const Rule> allRules();

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
