#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>
#include <vector>

#include "model/TraceBuilder.h"
#include "model/passes/Passes.h"

namespace wl::test {

// Finalizes `builder` with only the named passes, in the order given: a pass's test feeds it a
// small built state (and the passes it relies on) and checks what it did.
inline model::TracePtr runPasses(model::TraceBuilder& builder,
                                 std::initializer_list<std::string_view> names) {
    std::vector<model::FinalizePass> passes;
    for (std::string_view name : names) {
        const model::FinalizePass* pass = model::findFinalizePass(name);
        if (pass == nullptr) {
            ADD_FAILURE() << "no finalize pass named '" << name << "'";
            continue;
        }
        passes.push_back(*pass);
    }
    return builder.finalize(passes);
}

}  // namespace wl::test
