#pragma once

#include <map>
#include <optional>
#include <string>

#include "app/RunSession.h"
#include "model/Result.h"
#include "model/Trace.h"
#include "workloads/catalog/RunCatalog.h"

namespace wl::app {

// The run options of `warpline run` and of the window's command line, parsed by one function for
// both: names, ranges and messages come from the run catalog, so a bad value reads the same in
// either. Each caller splits its own arguments (the window also takes --option=value) and hands
// over one option at a time.
//
// Applies `option` to `request`. `value` is the text given with it, nullopt when none was (a flag
// takes none and ignores it). Errors name the option, the value and what was expected:
// "--streams must be between 1 and 64 (got 65)", "unknown workload 'matmul' (known: reduce,
// power)", "--mode needs a value (baseline or async)".
model::Status applyRunOption(const workloads::OptionSpec& option,
                             const std::optional<std::string>& value, RunRequest& request);

// What a run's trace keeps of its request: every option of the catalog under its metadata key
// (workloads::metadataKey), a 0 that stands for a default written as that default, and the
// producer. runRequestOf() reads it back: request -> metadata -> request is the same request.
std::map<std::string, std::string> runMetadata(const RunRequest& request);
// The request a trace's metadata describes; nullopt for a trace that no run of ours made. A value
// out of range is brought into it; one missing or unreadable leaves the request's default.
std::optional<RunRequest> runRequestOf(const model::Trace& trace);

}  // namespace wl::app
