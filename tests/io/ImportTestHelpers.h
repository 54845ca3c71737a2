#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "io/TraceFile.h"
#include "model/Trace.h"
#include "support/TestData.h"

namespace wl::io::testing {

inline model::TracePtr loadOk(const std::string& name) {
    auto result = loadTrace(test::dataPath(name));
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

// The first slice with this name, anywhere.
inline model::SliceRef findSlice(const model::Trace& t, std::string_view name) {
    for (std::uint32_t ti = 0; ti < t.tracks().size(); ++ti) {
        const auto& slices = t.tracks()[ti].slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (t.str(slices[i].nameId) == name)
                return {ti, i};
        }
    }
    return {};
}

inline std::vector<const model::Track*> tracksOfKind(const model::Trace& t, model::TrackKind kind) {
    std::vector<const model::Track*> out;
    for (const auto& track : t.tracks()) {
        if (track.kind == kind)
            out.push_back(&track);
    }
    return out;
}

}  // namespace wl::io::testing
