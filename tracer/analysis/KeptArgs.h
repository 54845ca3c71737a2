#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wl::analysis {

// One of the args a producer wrote that the model keeps as they were (model::Trace::extraArgs:
// JSON object members, `"Collective name":"allreduce","Group size":2`), by its key: a string's
// text unescaped, any other value (a number, an array) as written. Nullopt when the key is not
// there or the members are not well formed. Linear in the members' length; no state, any thread.
std::optional<std::string> keptArg(std::string_view members, std::string_view key);

}  // namespace wl::analysis
