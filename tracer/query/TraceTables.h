#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/Trace.h"

namespace wl::query {

// What the virtual tables share about one trace: the trace itself (shared, read-only) and a few
// small indexes over it, made once when the database opens (none copies slices).
struct TraceContext {
    model::TracePtr trace;
    // The tracks the tables show, in index order: every track but the derived ones
    // (model::isDerived: NVTX projections and graph launches, remade by every reader), whose
    // slices repeat others'.
    std::vector<model::TrackIndex> tracks;
    // By track index: a bit per SliceKind held (a scan for one kind skips the other tracks).
    std::vector<std::uint16_t> kindsOnTrack;
    // The thread table's rows: one per (process, OS thread id) that has a track.
    struct ThreadRow {
        model::ProcessIndex process = 0;
        std::int64_t tid = 0;
    };
    std::vector<ThreadRow> threads;
    // The counter table's rows: counterBegin[c] is counter track c's first row (size + 1).
    std::vector<std::int64_t> counterBegin;

    // Slices the slice and args tables' scans have looked at since the database opened: what
    // tests read to see a hint narrow a scan (TraceDatabase::slicesVisited).
    std::uint64_t slicesVisited = 0;

    explicit TraceContext(model::TracePtr t);
    // A slice name's string id, when the trace has that name (made on the first call).
    bool findName(std::string_view name, model::StringId& id);

private:
    std::once_flag m_namesOnce;
    std::unordered_map<std::string_view, model::StringId> m_names;
};

// Registers the tables as eponymous-only modules of `db`; `ctx` must outlive the connection.
int registerTraceTables(sqlite3* db, TraceContext& ctx);

}  // namespace wl::query
