#pragma once

#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/Analysis.h"
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

    // The running query's cancel flag (TraceDatabase::run sets it; null between queries).
    const std::atomic<bool>* cancel = nullptr;
    // Slices the slice and args tables' scans have looked at since the database opened: what
    // tests read to see a hint narrow a scan (TraceDatabase::slicesVisited).
    std::uint64_t slicesVisited = 0;

    explicit TraceContext(model::TracePtr t);
    // A slice name's string id, when the trace has that name (made on the first call).
    bool findName(std::string_view name, model::StringId& id);
    // The analysis of the default window (analysis::analyzeTrace: the capture range, the
    // iterations, the steady state, ...), made the first time an analysis table is scanned and
    // kept. Null when `cancel` was raised while it ran: nothing is kept then, and the next call
    // runs it again.
    const analysis::AnalysisResult* analysis();
    // The analysis when it has been made, without making it (null otherwise).
    const analysis::AnalysisResult* analysisIfMade() const {
        return m_analysis ? &*m_analysis : nullptr;
    }

private:
    std::once_flag m_namesOnce;
    std::unordered_map<std::string_view, model::StringId> m_names;
    std::once_flag m_analysisOnce;
    std::optional<analysis::AnalysisResult> m_analysis;
};

// Registers the tables as eponymous-only modules of `db`; `ctx` must outlive the connection.
int registerTraceTables(sqlite3* db, TraceContext& ctx);

}  // namespace wl::query
