#pragma once

#include <optional>
#include <string>

#include "app/RunSession.h"
#include "model/Result.h"
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

}  // namespace wl::app
