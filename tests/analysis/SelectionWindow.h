#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::test {

// An area selection as the window makes one: its time parts and, when some are named, its rows.
inline analysis::AnalysisWindow selectionOf(std::vector<model::TimeRange> parts,
                                            std::vector<model::TrackIndex> tracks = {}) {
    analysis::AnalysisWindow w;
    w.source = analysis::WindowSource::Selection;
    w.parts = std::move(parts);
    w.tracks = std::move(tracks);
    return w;
}

// The first row of a kind (a failure when there is none).
inline model::TrackIndex firstTrackOf(const model::Trace& trace, model::TrackKind kind) {
    for (model::TrackIndex t = 0; t < trace.tracks().size(); ++t)
        if (trace.track(t).kind == kind)
            return t;
    ADD_FAILURE() << "no track of kind " << static_cast<int>(kind);
    return 0;
}

// The row of GPU stream `streamId` in a finished trace (a failure when there is none).
inline model::TrackIndex streamTrack(const model::Trace& trace, std::int64_t streamId) {
    for (model::TrackIndex t = 0; t < trace.tracks().size(); ++t)
        if (trace.track(t).kind == model::TrackKind::GpuStream &&
            trace.track(t).streamId == streamId)
            return t;
    ADD_FAILURE() << "no stream " << streamId;
    return 0;
}

}  // namespace wl::test
