#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::query {

// One cell of a result, typed as SQLite gave it.
struct Value {
    enum class Type : std::uint8_t { Null, Integer, Real, Text, Blob };
    Type type = Type::Null;
    std::int64_t integer = 0;
    double real = 0.0;
    std::string text;  // Text, and Blob's bytes
};

// Why a query gave no (or no complete) result.
enum class QueryErrorKind : std::uint8_t {
    Invalid,    // SQLite could not compile it (syntax, unknown table or column)
    Refused,    // it asks for something the read-only database refuses (ATTACH, a write, ...)
    Cancelled,  // the cancel flag was raised while it ran
    Failed,     // it failed while running
};

struct QueryError {
    QueryErrorKind kind = QueryErrorKind::Failed;
    std::string message;  // one line: SQLite's message, with the position where there is one
    int offset = -1;      // byte offset in the SQL of the error, -1 when SQLite gives none
};

// Receives a result as it is produced: the column names once, then each row. A row sink that
// returns false stops the query (not an error).
class RowSink {
public:
    virtual ~RowSink() = default;
    virtual void columns(const std::vector<std::string>& names) = 0;
    virtual bool row(const std::vector<Value>& values) = 0;
};

// A RowSink that keeps everything (tests, the aligned text table).
struct QueryResult final : RowSink {
    std::vector<std::string> names;
    std::vector<std::vector<Value>> rows;
    void columns(const std::vector<std::string>& n) override { names = n; }
    bool row(const std::vector<Value>& values) override {
        rows.push_back(values);
        return true;
    }
};

struct QueryOptions {
    // Raised by another thread to stop the query: checked every kProgressSteps SQLite steps.
    const std::atomic<bool>* cancel = nullptr;
    // Called at the same points (tests wait on it before cancelling; the window may count).
    std::function<void()> onProgress;
};

inline constexpr int kProgressSteps = 1000;

// An in-memory SQLite database whose tables are the trace (docs in README.md, "SQL"): slice,
// kernel, memcpy, track, process, thread, counter, flow and args, as eponymous virtual tables
// that read the shared, immutable Trace in place, and idle_gap, finding and analysis_window, which
// read the analysis of the default window (made the first time one of them is scanned, once per
// database; a query's cancel flag stops it too, and a stopped one is made again next time).
// Read-only: an authorizer refuses ATTACH/DETACH, every write, schema change, transaction,
// state-changing PRAGMA and load_extension, and extension loading stays off. One statement per run.
// Not thread-safe: one thread uses one database (a cancel flag may be raised from any thread).
class TraceDatabase {
public:
    static model::Result<std::unique_ptr<TraceDatabase>> open(model::TracePtr trace);
    ~TraceDatabase();
    TraceDatabase(const TraceDatabase&) = delete;
    TraceDatabase& operator=(const TraceDatabase&) = delete;

    // Runs one SQL statement, giving its rows to `sink`; nullopt on success.
    std::optional<QueryError> run(const std::string& sql, RowSink& sink,
                                  const QueryOptions& options = {});
    // How many slices the slice and args tables' scans have looked at since the database opened
    // (for tests: a hint narrows a scan).
    std::uint64_t slicesVisited() const;

    struct Impl;

private:
    explicit TraceDatabase(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// The name the slice table's `kind` column gives a kind ("kernel", "runtime_api", "cpu_op").
const char* sliceKindName(model::SliceKind kind);
// The name the track table's `kind` column gives a track kind ("gpu_stream", "host_api").
const char* trackKindName(model::TrackKind kind);

// A slice's id in the tables: its track index in the high 32 bits, its index in the low ones.
inline std::int64_t sliceId(model::SliceRef ref) {
    return static_cast<std::int64_t>((std::uint64_t{ref.track} << 32) | ref.index);
}
inline model::SliceRef sliceRefFromId(std::int64_t id) {
    const auto u = static_cast<std::uint64_t>(id);
    return {static_cast<std::uint32_t>(u >> 32), static_cast<std::uint32_t>(u & 0xffffffffu)};
}

}  // namespace wl::query
