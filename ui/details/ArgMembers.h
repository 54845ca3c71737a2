#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include <QString>

namespace wl::ui {

// A slice's kept args (model::Trace::extraArgs: JSON object members as the producer wrote them)
// as (key, value) pairs for display, in the file's order: strings unescaped, numbers exactly as
// written (a 64-bit id stays exact), objects and arrays as compact JSON.
std::vector<std::pair<QString, QString>> splitArgMembers(std::string_view members);

}  // namespace wl::ui
