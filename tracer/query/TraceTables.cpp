// The trace's tables as SQLite virtual tables (eponymous-only: they exist in every connection
// without a CREATE). Rows are read from the Trace when SQLite asks for them: a scan keeps a
// position (a track and a slice index, or a row number), and each column is made from the slice
// or record at that position; names are handed to SQLite without a copy (SQLITE_STATIC: the
// strings live as long as the shared trace, which the connection holds).
//
// xBestIndex takes `=` on a slice table's id, kind, name and track_id as hints that narrow the
// scan (one slice; the tracks holding a kind, compared as a small integer; one name's string id;
// one track), and `>=`, `>`, `<`, `<=` on its ts as a time range, found in each lane of each
// track by binary search (a lane is sorted by start). Each hint narrows to a superset of the
// matching rows and SQLite still checks the constraint itself (omit = 0), so a value the hint
// cannot use (another type, another collation) only costs a wider scan, never a wrong answer.
//
// The args table walks the slices as the slice table does (`=` on slice_id: one slice), skipping
// those without args, and splits each slice's args into rows once (JsonMembers.h). The analysis
// tables read the analysis of the default window, made the first time one of them is scanned
// (TraceContext::analysis).
#include "query/TraceTables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "analysis/Diagnostic.h"
#include "analysis/Utilization.h"
#include "analysis/Window.h"
#include "query/JsonMembers.h"
#include "query/TraceQuery.h"

namespace wl::query {

using model::Slice;
using model::SliceKind;
using model::Track;

namespace {

// Every column of every table; a table lists the ones it has.
enum class Col {
    SliceId,
    Ts,
    Dur,
    Name,
    Kind,
    Depth,
    TrackId,
    ProcessId,
    ThreadId,
    Device,
    Stream,
    ParentId,
    CorrelationId,
    Args,
    Category,
    GridX,
    GridY,
    GridZ,
    BlockX,
    BlockY,
    BlockZ,
    RegistersPerThread,
    StaticSharedBytes,
    DynamicSharedBytes,
    SharedBytes,
    Bytes,
    CopyKind,
    SrcKind,
    DstKind,
    SrcDevice,
    DstDevice,
    // Rows of the other tables (by row number).
    RowId,
    TrackName,
    TrackKind,
    TrackProcess,
    TrackThread,
    TrackDevice,
    TrackStream,
    TrackDomain,
    Pid,
    ProcessName,
    ProcessDevice,
    ProcessRank,
    Tid,
    ThreadProcess,
    CounterTrack,
    CounterName,
    CounterSeries,
    CounterUnit,
    CounterProcess,
    CounterDevice,
    CounterTs,
    CounterValue,
    FlowOut,
    FlowIn,
    FlowCorrelation,
    // The args table (its slice_id is SliceId).
    ArgKey,
    ArgValue,
    ArgType,
    // The analysis tables.
    GapDevice,
    GapStream,
    GapTs,
    GapDur,
    GapCause,
    GapBefore,
    GapAfter,
    GapLaunch,
    GapReason,
    FindingRule,
    FindingSeverity,
    FindingMessage,
    FindingFix,
    FindingCount,
    FindingTs,
    FindingDur,
    FindingCost,
    FindingDevice,
    WindowTs,
    WindowDur,
    WindowParts,
    WindowSource,
    WindowDescription,
};

struct ColumnDef {
    const char* name;
    const char* type;
    Col col;
};

enum class Rows {
    Slices,
    Tracks,
    Processes,
    Threads,
    Counters,
    Flows,
    Args,
    IdleGaps,
    Findings,
    Window,
};

// Tables whose scan walks the slices (and narrows on slice ids).
bool walksSlices(Rows rows) {
    return rows == Rows::Slices || rows == Rows::Args;
}
// Tables made from the analysis of the default window.
bool fromAnalysis(Rows rows) {
    return rows == Rows::IdleGaps || rows == Rows::Findings || rows == Rows::Window;
}

struct TableDef {
    const char* name;
    Rows rows;
    int kind;  // Slices: the one SliceKind the table holds, -1 for every kind
    std::vector<ColumnDef> columns;
};

std::vector<ColumnDef> sliceColumnsWith(const std::vector<ColumnDef>& extra) {
    std::vector<ColumnDef> cols = {
        {"slice_id", "INTEGER", Col::SliceId}, {"ts", "INTEGER", Col::Ts},
        {"dur", "INTEGER", Col::Dur},          {"name", "TEXT", Col::Name},
        {"track_id", "INTEGER", Col::TrackId}, {"device", "INTEGER", Col::Device},
        {"stream", "INTEGER", Col::Stream},    {"category", "TEXT", Col::Category}};
    cols.insert(cols.end(), extra.begin(), extra.end());
    return cols;
}

const std::vector<TableDef>& tableDefs() {
    static const std::vector<TableDef> defs = {
        {"slice",
         Rows::Slices,
         -1,
         {{"id", "INTEGER", Col::SliceId},
          {"ts", "INTEGER", Col::Ts},
          {"dur", "INTEGER", Col::Dur},
          {"name", "TEXT", Col::Name},
          {"kind", "TEXT", Col::Kind},
          {"depth", "INTEGER", Col::Depth},
          {"track_id", "INTEGER", Col::TrackId},
          {"process_id", "INTEGER", Col::ProcessId},
          {"thread_id", "INTEGER", Col::ThreadId},
          {"device", "INTEGER", Col::Device},
          {"stream", "INTEGER", Col::Stream},
          {"parent_id", "INTEGER", Col::ParentId},
          {"correlation_id", "INTEGER", Col::CorrelationId},
          {"args", "TEXT", Col::Args},
          {"category", "TEXT", Col::Category}}},
        {"kernel", Rows::Slices, static_cast<int>(SliceKind::Kernel),
         sliceColumnsWith({{"grid_x", "INTEGER", Col::GridX},
                           {"grid_y", "INTEGER", Col::GridY},
                           {"grid_z", "INTEGER", Col::GridZ},
                           {"block_x", "INTEGER", Col::BlockX},
                           {"block_y", "INTEGER", Col::BlockY},
                           {"block_z", "INTEGER", Col::BlockZ},
                           {"registers_per_thread", "INTEGER", Col::RegistersPerThread},
                           {"static_shared_bytes", "INTEGER", Col::StaticSharedBytes},
                           {"dynamic_shared_bytes", "INTEGER", Col::DynamicSharedBytes},
                           {"shared_bytes", "INTEGER", Col::SharedBytes}})},
        {"memcpy", Rows::Slices, static_cast<int>(SliceKind::Memcpy),
         sliceColumnsWith({{"bytes", "INTEGER", Col::Bytes},
                           {"copy_kind", "TEXT", Col::CopyKind},
                           {"src_kind", "TEXT", Col::SrcKind},
                           {"dst_kind", "TEXT", Col::DstKind},
                           {"src_device", "INTEGER", Col::SrcDevice},
                           {"dst_device", "INTEGER", Col::DstDevice}})},
        {"track",
         Rows::Tracks,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"name", "TEXT", Col::TrackName},
          {"kind", "TEXT", Col::TrackKind},
          {"process_id", "INTEGER", Col::TrackProcess},
          {"thread_id", "INTEGER", Col::TrackThread},
          {"device", "INTEGER", Col::TrackDevice},
          {"stream", "INTEGER", Col::TrackStream},
          {"domain", "TEXT", Col::TrackDomain}}},
        {"process",
         Rows::Processes,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"pid", "INTEGER", Col::Pid},
          {"name", "TEXT", Col::ProcessName},
          {"device", "INTEGER", Col::ProcessDevice},
          {"rank", "INTEGER", Col::ProcessRank}}},
        {"thread",
         Rows::Threads,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"tid", "INTEGER", Col::Tid},
          {"process_id", "INTEGER", Col::ThreadProcess}}},
        {"counter",
         Rows::Counters,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"counter_track_id", "INTEGER", Col::CounterTrack},
          {"name", "TEXT", Col::CounterName},
          {"series", "TEXT", Col::CounterSeries},
          {"unit", "TEXT", Col::CounterUnit},
          {"process_id", "INTEGER", Col::CounterProcess},
          {"device", "INTEGER", Col::CounterDevice},
          {"ts", "INTEGER", Col::CounterTs},
          {"value", "REAL", Col::CounterValue}}},
        {"flow",
         Rows::Flows,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"slice_out", "INTEGER", Col::FlowOut},
          {"slice_in", "INTEGER", Col::FlowIn},
          {"correlation_id", "INTEGER", Col::FlowCorrelation}}},
        {"args",
         Rows::Args,
         -1,
         {{"slice_id", "INTEGER", Col::SliceId},
          {"key", "TEXT", Col::ArgKey},
          {"value", "", Col::ArgValue},  // no affinity: each value keeps the type it was given
          {"type", "TEXT", Col::ArgType}}},
        {"idle_gap",
         Rows::IdleGaps,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"device", "INTEGER", Col::GapDevice},
          {"stream", "INTEGER", Col::GapStream},
          {"ts", "INTEGER", Col::GapTs},
          {"dur", "INTEGER", Col::GapDur},
          {"cause", "TEXT", Col::GapCause},
          {"before_slice_id", "INTEGER", Col::GapBefore},
          {"after_slice_id", "INTEGER", Col::GapAfter},
          {"launch_slice_id", "INTEGER", Col::GapLaunch},
          {"reason_slice_id", "INTEGER", Col::GapReason}}},
        {"finding",
         Rows::Findings,
         -1,
         {{"id", "INTEGER", Col::RowId},
          {"rule", "TEXT", Col::FindingRule},
          {"severity", "TEXT", Col::FindingSeverity},
          {"message", "TEXT", Col::FindingMessage},
          {"fix", "TEXT", Col::FindingFix},
          {"count", "INTEGER", Col::FindingCount},
          {"ts", "INTEGER", Col::FindingTs},
          {"dur", "INTEGER", Col::FindingDur},
          {"cost_ns", "INTEGER", Col::FindingCost},
          {"device", "INTEGER", Col::FindingDevice}}},
        {"analysis_window",
         Rows::Window,
         -1,
         {{"ts", "INTEGER", Col::WindowTs},
          {"dur", "INTEGER", Col::WindowDur},
          {"parts", "INTEGER", Col::WindowParts},
          {"source", "TEXT", Col::WindowSource},
          {"description", "TEXT", Col::WindowDescription}}},
    };
    return defs;
}

struct Module {
    const TableDef* def = nullptr;
    TraceContext* ctx = nullptr;
};

struct Vtab : sqlite3_vtab {
    const TableDef* def = nullptr;
    TraceContext* ctx = nullptr;
    // Columns a slice scan can narrow on (-1: the table has none).
    int idCol = -1, kindCol = -1, nameCol = -1, trackCol = -1, tsCol = -1;
};

constexpr std::uint16_t kAllKinds = 0xffff;
constexpr model::TimeNs kNoTimeBound = std::numeric_limits<model::TimeNs>::max();

struct Cursor : sqlite3_vtab_cursor {
    const Vtab* tab = nullptr;
    bool eof = true;
    // Slice scans: ctx->tracks[trackPos .. trackEnd), the slice `index` of the current track;
    // once the track is entered, the scan runs to rangeEnd (the track's end, or with a time range
    // the end of lane `lane`'s slices in it, then the next lane's).
    std::size_t trackPos = 0, trackEnd = 0;
    std::uint32_t index = 0;
    bool entered = false;
    std::uint32_t lane = 0;
    std::uint32_t rangeEnd = 0;
    std::uint16_t kindMask = kAllKinds;
    bool byName = false;
    model::StringId nameId = 0;
    bool single = false;    // one slice (by id): the next step ends the scan
    bool withArgs = false;  // the args table: only slices that have args
    // The time range (byTime): slices that start in [tsMin, tsMax].
    bool byTime = false;
    model::TimeNs tsMin = -kNoTimeBound, tsMax = kNoTimeBound;
    // The args table: the current slice's args, split, and the one at `member`; argRow counts
    // the rows given (the rowid).
    std::string argsText;
    std::vector<JsonMember> members;
    std::size_t member = 0;
    std::int64_t argRow = 0;
    // Other tables: the row number (and, for counters, the counter track holding it).
    std::int64_t row = 0, rowEnd = 0;
    std::size_t counter = 0;
    // The analysis tables: the analysis they read (made before the scan starts).
    const analysis::AnalysisResult* result = nullptr;

    const model::Trace& trace() const { return *tab->ctx->trace; }
    model::TrackIndex trackIndex() const { return tab->ctx->tracks[trackPos]; }
    const Track& track() const { return trace().track(trackIndex()); }
    const Slice& slice() const { return track().slices[index]; }
};

bool matches(const Cursor& c, const Slice& s) {
    return ((c.kindMask >> static_cast<unsigned>(s.kind)) & 1u) != 0 &&
           (!c.byName || s.nameId == c.nameId) && (!c.withArgs || s.argsIndex != model::kNoDetail);
}

// Positions the scan at the slices of lane `c.lane` that start in the time range.
void enterLane(Cursor& c, const Track& track) {
    const auto slices = track.lane(c.lane);
    const auto first =
        std::lower_bound(slices.begin(), slices.end(), c.tsMin,
                         [](const Slice& s, model::TimeNs t) { return s.startNs < t; });
    const auto last =
        std::upper_bound(first, slices.end(), c.tsMax,
                         [](model::TimeNs t, const Slice& s) { return t < s.startNs; });
    c.index = track.laneBegin[c.lane] + static_cast<std::uint32_t>(first - slices.begin());
    c.rangeEnd = track.laneBegin[c.lane] + static_cast<std::uint32_t>(last - slices.begin());
}

// Starts the scan of a track: all of it, or with a time range its first lane's part.
void enterTrack(Cursor& c, const Track& track) {
    c.entered = true;
    c.lane = 0;
    if (!c.byTime) {
        c.index = 0;
        c.rangeEnd = static_cast<std::uint32_t>(track.slices.size());
    } else if (track.laneCount() == 0) {
        c.index = c.rangeEnd = 0;
    } else {
        enterLane(c, track);
    }
}

// Moves to the first matching slice at or after the position.
void settle(Cursor& c) {
    TraceContext& ctx = *c.tab->ctx;
    std::uint64_t visited = 0;
    while (c.trackPos < c.trackEnd) {
        const model::TrackIndex t = ctx.tracks[c.trackPos];
        if ((ctx.kindsOnTrack[t] & c.kindMask) != 0) {
            const Track& track = ctx.trace->track(t);
            if (!c.entered)
                enterTrack(c, track);
            for (;;) {
                for (; c.index < c.rangeEnd; ++c.index) {
                    ++visited;
                    if (matches(c, track.slices[c.index])) {
                        ctx.slicesVisited += visited;
                        return;
                    }
                }
                if (!c.byTime || c.lane + 1 >= track.laneCount())
                    break;
                ++c.lane;
                enterLane(c, track);
            }
        }
        ++c.trackPos;
        c.entered = false;
    }
    ctx.slicesVisited += visited;
    c.eof = true;
}

// The args table: splits the current slice's args (the position is a slice that has them).
void loadArgs(Cursor& c) {
    c.argsText = c.trace().producerArgs(c.slice());
    splitJsonMembers(c.argsText, c.members);  // a fault ends the slice's rows at it
    c.member = 0;
}

// The args table: moves to the next arg at or after the position (the current slice's member
// `member`, else the first of the next slice with args).
void settleArg(Cursor& c) {
    while (!c.eof && c.member >= c.members.size()) {
        if (c.single) {
            c.eof = true;
            return;
        }
        ++c.index;
        settle(c);
        if (!c.eof)
            loadArgs(c);
    }
}

std::int64_t rowCount(const TraceContext& ctx, Rows rows) {
    switch (rows) {
        case Rows::Slices:
            return static_cast<std::int64_t>(ctx.trace->counts().slices);
        case Rows::Tracks:
            return static_cast<std::int64_t>(ctx.tracks.size());
        case Rows::Processes:
            return static_cast<std::int64_t>(ctx.trace->processes().size());
        case Rows::Threads:
            return static_cast<std::int64_t>(ctx.threads.size());
        case Rows::Counters:
            return ctx.counterBegin.back();
        case Rows::Flows:
            return static_cast<std::int64_t>(ctx.trace->flows().size());
        case Rows::Args:  // a guess: a few args a slice
            return 4 * static_cast<std::int64_t>(ctx.trace->counts().slices);
        case Rows::IdleGaps:
        case Rows::Findings:
        case Rows::Window:
            break;
    }
    // The analysis tables: their sizes once made, else a guess (xBestIndex does not make them).
    const analysis::AnalysisResult* result = ctx.analysisIfMade();
    switch (rows) {
        case Rows::IdleGaps:
            return result ? static_cast<std::int64_t>(result->utilization.gaps.size()) : 1000;
        case Rows::Findings:
            return result ? static_cast<std::int64_t>(result->diagnostics.size()) : 20;
        case Rows::Window:
            return 1;
        default:
            return 0;
    }
}

// The enclosing slice on the same track: the slice of the lane above that contains it (lanes are
// sorted by start). None at depth 0, and none for a slice spilled to a lane whose neighbour
// above does not contain it.
bool parentOf(const Track& track, std::uint32_t index, std::uint32_t& parent) {
    const Slice& s = track.slices[index];
    if (s.depth == 0 || s.depth >= track.laneCount() + 1)
        return false;
    const auto lane = track.lane(s.depth - 1);
    auto it = std::upper_bound(lane.begin(), lane.end(), s.startNs,
                               [](model::TimeNs t, const Slice& x) { return t < x.startNs; });
    if (it == lane.begin())
        return false;
    --it;
    if (it->startNs > s.startNs || it->endNs() < s.endNs())
        return false;
    parent = track.laneBegin[s.depth - 1] + static_cast<std::uint32_t>(it - lane.begin());
    return true;
}

void resultText(sqlite3_context* out, std::string_view text) {
    sqlite3_result_text(out, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}
void resultIntOrNull(sqlite3_context* out, std::int64_t v, bool known) {
    if (known)
        sqlite3_result_int64(out, v);
    else
        sqlite3_result_null(out);
}

void sliceColumn(const Cursor& c, Col col, sqlite3_context* out) {
    const model::Trace& trace = c.trace();
    const Track& track = c.track();
    const Slice& s = c.slice();
    const model::KernelDetail* k = nullptr;
    const model::MemcpyDetail* m = nullptr;
    if (col >= Col::GridX && col <= Col::SharedBytes) {
        k = trace.kernel(s);
        if (!k) {
            sqlite3_result_null(out);
            return;
        }
    } else if (col >= Col::Bytes && col <= Col::DstDevice) {
        m = trace.memcpy(s);
        if (!m) {
            sqlite3_result_null(out);
            return;
        }
    }
    switch (col) {
        case Col::SliceId:
            sqlite3_result_int64(out, sliceId({c.trackIndex(), c.index}));
            return;
        case Col::Ts:
            sqlite3_result_int64(out, s.startNs);
            return;
        case Col::Dur:
            sqlite3_result_int64(out, s.durationNs);
            return;
        case Col::Name:
            resultText(out, trace.str(s.nameId));
            return;
        case Col::Kind:
            sqlite3_result_text(out, sliceKindName(s.kind), -1, SQLITE_STATIC);
            return;
        case Col::Depth:
            sqlite3_result_int64(out, s.depth);
            return;
        case Col::TrackId:
            sqlite3_result_int64(out, c.trackIndex());
            return;
        case Col::ProcessId:
            sqlite3_result_int64(out, track.process);
            return;
        case Col::ThreadId:
            resultIntOrNull(out, track.threadId, track.threadId != -1);
            return;
        case Col::Device:
            resultIntOrNull(out, track.deviceId, track.deviceId >= 0);
            return;
        case Col::Stream:
            resultIntOrNull(out, track.streamId, track.kind == model::TrackKind::GpuStream);
            return;
        case Col::ParentId: {
            std::uint32_t parent = 0;
            const bool known = parentOf(track, c.index, parent);
            resultIntOrNull(out, sliceId({c.trackIndex(), parent}), known);
            return;
        }
        case Col::CorrelationId:
            resultIntOrNull(out, static_cast<std::int64_t>(s.correlationId), s.correlationId != 0);
            return;
        case Col::Args: {
            const std::string args = trace.producerArgs(s);
            if (args.empty()) {
                sqlite3_result_null(out);
                return;
            }
            const std::string object = "{" + args + "}";
            sqlite3_result_text(out, object.data(), static_cast<int>(object.size()),
                                SQLITE_TRANSIENT);
            return;
        }
        case Col::Category: {
            const model::SliceOrigin* origin = trace.origin(track, s);
            if (origin != nullptr && origin->hasCat)
                resultText(out, trace.str(origin->cat));
            else
                sqlite3_result_null(out);
            return;
        }
        case Col::GridX:
        case Col::GridY:
        case Col::GridZ:
            sqlite3_result_int64(out,
                                 k->grid[static_cast<int>(col) - static_cast<int>(Col::GridX)]);
            return;
        case Col::BlockX:
        case Col::BlockY:
        case Col::BlockZ:
            sqlite3_result_int64(out,
                                 k->block[static_cast<int>(col) - static_cast<int>(Col::BlockX)]);
            return;
        case Col::RegistersPerThread:
            sqlite3_result_int64(out, k->registersPerThread);
            return;
        case Col::StaticSharedBytes:
            sqlite3_result_int64(out, k->staticSharedBytes);
            return;
        case Col::DynamicSharedBytes:
            sqlite3_result_int64(out, k->dynamicSharedBytes);
            return;
        case Col::SharedBytes:
            sqlite3_result_int64(out, k->sharedBytesPerBlock());
            return;
        case Col::Bytes:
            sqlite3_result_int64(out, static_cast<std::int64_t>(m->bytes));
            return;
        case Col::CopyKind:
            sqlite3_result_text(out, model::toString(m->copyKind), -1, SQLITE_STATIC);
            return;
        case Col::SrcKind:
            sqlite3_result_text(out, model::toString(m->srcKind), -1, SQLITE_STATIC);
            return;
        case Col::DstKind:
            sqlite3_result_text(out, model::toString(m->dstKind), -1, SQLITE_STATIC);
            return;
        case Col::SrcDevice:
            resultIntOrNull(out, m->srcDevice, m->srcDevice >= 0);
            return;
        case Col::DstDevice:
            resultIntOrNull(out, m->dstDevice, m->dstDevice >= 0);
            return;
        default:
            sqlite3_result_null(out);
            return;
    }
}

void resultSliceOrNull(sqlite3_context* out, model::SliceRef ref) {
    resultIntOrNull(out, sliceId(ref), ref.valid());
}

void resultTransient(sqlite3_context* out, std::string_view text) {
    sqlite3_result_text(out, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void argColumn(const Cursor& c, Col col, sqlite3_context* out) {
    const JsonMember& m = c.members[c.member];
    switch (col) {
        case Col::SliceId:
            sqlite3_result_int64(out, sliceId({c.trackIndex(), c.index}));
            return;
        case Col::ArgKey:
            resultTransient(out, m.key);
            return;
        case Col::ArgType:
            sqlite3_result_text(out, jsonTypeName(m.type), -1, SQLITE_STATIC);
            return;
        case Col::ArgValue:
            break;
        default:
            sqlite3_result_null(out);
            return;
    }
    switch (m.type) {
        case JsonType::Integer:
            sqlite3_result_int64(out, m.integer);
            return;
        case JsonType::Real:
            sqlite3_result_double(out, m.real);
            return;
        case JsonType::Text:
            resultTransient(out, jsonStringText(m.value).value_or(std::string(m.value)));
            return;
        default:  // arrays, objects, true, false and null: the JSON as written
            resultTransient(out, m.value);
            return;
    }
}

// A row of the analysis tables.
void analysisColumn(const Cursor& c, Col col, sqlite3_context* out) {
    const analysis::AnalysisResult& result = *c.result;
    const auto r = static_cast<std::size_t>(c.row);
    if (c.tab->def->rows == Rows::IdleGaps) {
        const analysis::IdleGap& g = result.utilization.gaps[r];
        switch (col) {
            case Col::RowId:
                sqlite3_result_int64(out, c.row);
                return;
            case Col::GapDevice:
                sqlite3_result_int64(out, g.deviceId);
                return;
            case Col::GapStream:
                resultIntOrNull(out, g.streamId, g.streamId >= 0);
                return;
            case Col::GapTs:
                sqlite3_result_int64(out, g.startNs);
                return;
            case Col::GapDur:
                sqlite3_result_int64(out, g.durationNs);
                return;
            case Col::GapCause:
                sqlite3_result_text(out, analysis::toString(g.cause), -1, SQLITE_STATIC);
                return;
            case Col::GapBefore:
                resultSliceOrNull(out, g.before);
                return;
            case Col::GapAfter:
                resultSliceOrNull(out, g.after);
                return;
            case Col::GapLaunch:
                resultSliceOrNull(out, g.launch);
                return;
            case Col::GapReason:
                resultSliceOrNull(out, g.reason);
                return;
            default:
                break;
        }
    } else if (c.tab->def->rows == Rows::Findings) {
        const analysis::Diagnostic& d = result.diagnostics[r];
        switch (col) {
            case Col::RowId:
                sqlite3_result_int64(out, c.row);
                return;
            case Col::FindingRule:
                sqlite3_result_text(out, analysis::toString(d.rule), -1, SQLITE_STATIC);
                return;
            case Col::FindingSeverity:  // as `warpline analyze --json` writes it
                sqlite3_result_text(out,
                                    d.severity == analysis::Severity::Warning ? "warning" : "info",
                                    -1, SQLITE_STATIC);
                return;
            case Col::FindingMessage:
                resultText(out, d.message);
                return;
            case Col::FindingFix:
                resultText(out, d.fix);
                return;
            case Col::FindingCount:
                sqlite3_result_int64(out, static_cast<std::int64_t>(d.count));
                return;
            case Col::FindingTs:
                sqlite3_result_int64(out, d.startNs);
                return;
            case Col::FindingDur:
                sqlite3_result_int64(out, d.endNs - d.startNs);
                return;
            case Col::FindingCost:
                sqlite3_result_int64(out, d.costNs);
                return;
            case Col::FindingDevice:
                resultIntOrNull(out, d.deviceId, d.deviceId >= 0);
                return;
            default:
                break;
        }
    } else {
        const analysis::AnalysisWindow& w = result.window();
        switch (col) {
            case Col::WindowTs:
                sqlite3_result_int64(out, w.startNs());
                return;
            case Col::WindowDur:
                sqlite3_result_int64(out, w.endNs() - w.startNs());
                return;
            case Col::WindowParts:
                sqlite3_result_int64(out, static_cast<std::int64_t>(w.parts.size()));
                return;
            case Col::WindowSource:
                sqlite3_result_text(out, analysis::toString(w.source), -1, SQLITE_STATIC);
                return;
            case Col::WindowDescription:
                resultTransient(out, analysis::describeWindow(w));
                return;
            default:
                break;
        }
    }
    sqlite3_result_null(out);
}

void rowColumn(const Cursor& c, Col col, sqlite3_context* out) {
    const TraceContext& ctx = *c.tab->ctx;
    const model::Trace& trace = *ctx.trace;
    const auto r = static_cast<std::size_t>(c.row);
    switch (c.tab->def->rows) {
        case Rows::Tracks: {
            const model::TrackIndex index = ctx.tracks[r];
            const Track& t = trace.track(index);
            switch (col) {
                case Col::RowId:
                    sqlite3_result_int64(out, index);
                    return;
                case Col::TrackName:
                    resultText(out, trace.str(t.nameId));
                    return;
                case Col::TrackKind:
                    sqlite3_result_text(out, trackKindName(t.kind), -1, SQLITE_STATIC);
                    return;
                case Col::TrackProcess:
                    sqlite3_result_int64(out, t.process);
                    return;
                case Col::TrackThread:
                    resultIntOrNull(out, t.threadId, t.threadId != -1);
                    return;
                case Col::TrackDevice:
                    resultIntOrNull(out, t.deviceId, t.deviceId >= 0);
                    return;
                case Col::TrackStream:
                    resultIntOrNull(out, t.streamId, t.kind == model::TrackKind::GpuStream);
                    return;
                case Col::TrackDomain:
                    resultText(out, trace.str(t.domainId));
                    return;
                default:
                    break;
            }
            break;
        }
        case Rows::Processes: {
            const model::Process& p = trace.processes()[r];
            switch (col) {
                case Col::RowId:
                    sqlite3_result_int64(out, c.row);
                    return;
                case Col::Pid:
                    sqlite3_result_int64(out, p.pid);
                    return;
                case Col::ProcessName:
                    resultText(out, trace.str(p.nameId));
                    return;
                case Col::ProcessDevice:
                    resultIntOrNull(out, p.deviceId, p.deviceId >= 0);
                    return;
                case Col::ProcessRank:
                    resultIntOrNull(out, p.rank, p.rank >= 0);
                    return;
                default:
                    break;
            }
            break;
        }
        case Rows::Threads: {
            const auto& t = ctx.threads[r];
            switch (col) {
                case Col::RowId:
                    sqlite3_result_int64(out, c.row);
                    return;
                case Col::Tid:
                    sqlite3_result_int64(out, t.tid);
                    return;
                case Col::ThreadProcess:
                    sqlite3_result_int64(out, t.process);
                    return;
                default:
                    break;
            }
            break;
        }
        case Rows::Counters: {
            const model::CounterTrack& ct = trace.counters()[c.counter];
            const auto& sample =
                ct.samples[static_cast<std::size_t>(c.row - ctx.counterBegin[c.counter])];
            switch (col) {
                case Col::RowId:
                    sqlite3_result_int64(out, c.row);
                    return;
                case Col::CounterTrack:
                    sqlite3_result_int64(out, static_cast<std::int64_t>(c.counter));
                    return;
                case Col::CounterName:
                    resultText(out, trace.str(ct.nameId));
                    return;
                case Col::CounterSeries:
                    resultText(out, trace.str(ct.seriesId));
                    return;
                case Col::CounterUnit:
                    resultText(out, trace.str(ct.unitId));
                    return;
                case Col::CounterProcess:
                    sqlite3_result_int64(out, ct.process);
                    return;
                case Col::CounterDevice:
                    resultIntOrNull(out, ct.deviceId, ct.deviceId >= 0);
                    return;
                case Col::CounterTs:
                    sqlite3_result_int64(out, sample.timestampNs);
                    return;
                case Col::CounterValue:
                    sqlite3_result_double(out, sample.value);
                    return;
                default:
                    break;
            }
            break;
        }
        case Rows::Flows: {
            const model::Flow& f = trace.flows()[r];
            switch (col) {
                case Col::RowId:
                    sqlite3_result_int64(out, c.row);
                    return;
                case Col::FlowOut:
                    sqlite3_result_int64(out, sliceId(f.from));
                    return;
                case Col::FlowIn:
                    sqlite3_result_int64(out, sliceId(f.to));
                    return;
                case Col::FlowCorrelation:
                    resultIntOrNull(out, static_cast<std::int64_t>(f.id), f.id != 0);
                    return;
                default:
                    break;
            }
            break;
        }
        case Rows::IdleGaps:
        case Rows::Findings:
        case Rows::Window:
            analysisColumn(c, col, out);
            return;
        case Rows::Slices:
        case Rows::Args:
            break;
    }
    sqlite3_result_null(out);
}

void settleCounter(Cursor& c) {
    const auto& begin = c.tab->ctx->counterBegin;
    while (c.counter + 1 < begin.size() && c.row >= begin[c.counter + 1])
        ++c.counter;
}

// --- sqlite3_module callbacks ---

int xConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
    const auto* module = static_cast<const Module*>(aux);
    std::string schema = "CREATE TABLE x(";
    for (std::size_t i = 0; i < module->def->columns.size(); ++i) {
        const ColumnDef& c = module->def->columns[i];
        schema += (i ? ", " : "") + std::string(c.name) + " " + c.type;
    }
    schema += ")";
    if (const int rc = sqlite3_declare_vtab(db, schema.c_str()); rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
        return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    auto* tab = new Vtab();
    tab->def = module->def;
    tab->ctx = module->ctx;
    if (walksSlices(module->def->rows)) {
        for (std::size_t i = 0; i < module->def->columns.size(); ++i) {
            const int index = static_cast<int>(i);
            switch (module->def->columns[i].col) {
                case Col::SliceId:
                    tab->idCol = index;
                    break;
                case Col::Kind:
                    tab->kindCol = index;
                    break;
                case Col::Name:
                    tab->nameCol = index;
                    break;
                case Col::TrackId:
                    tab->trackCol = index;
                    break;
                case Col::Ts:
                    tab->tsCol = index;
                    break;
                default:
                    break;
            }
        }
    }
    *out = tab;
    return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* tab) {
    delete static_cast<Vtab*>(tab);
    return SQLITE_OK;
}

// idxNum bits: which hints xFilter gets, in this order of its arguments: `=` on the id, kind,
// name and track, then ts's bounds (>=, >, <, <=).
constexpr int kById = 1, kByKind = 2, kByName = 4, kByTrack = 8;
constexpr int kTsFrom = 16, kTsAfter = 32, kTsBefore = 64, kTsTo = 128;
constexpr int kHints = 8;

bool binaryCollation(sqlite3_index_info* info, int i) {
    const char* coll = sqlite3_vtab_collation(info, i);
    return coll == nullptr || sqlite3_stricmp(coll, "BINARY") == 0;
}

// Which hint a usable constraint can be (its bit's position), or -1.
int hintOf(const Vtab& tab, sqlite3_index_info* info, int i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < 0)
        return -1;
    if (c.iColumn == tab.tsCol) {
        switch (c.op) {
            case SQLITE_INDEX_CONSTRAINT_GE:
                return 4;
            case SQLITE_INDEX_CONSTRAINT_GT:
                return 5;
            case SQLITE_INDEX_CONSTRAINT_LT:
                return 6;
            case SQLITE_INDEX_CONSTRAINT_LE:
                return 7;
            default:
                return -1;
        }
    }
    if (c.op != SQLITE_INDEX_CONSTRAINT_EQ)
        return -1;
    if (c.iColumn == tab.idCol)
        return 0;
    if (c.iColumn == tab.kindCol && binaryCollation(info, i))
        return 1;
    if (c.iColumn == tab.nameCol && binaryCollation(info, i))
        return 2;
    if (c.iColumn == tab.trackCol)
        return 3;
    return -1;
}

int xBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
    const auto* tab = static_cast<const Vtab*>(vtab);
    const double rows =
        std::max<double>(1.0, static_cast<double>(rowCount(*tab->ctx, tab->def->rows)));
    info->estimatedCost = rows;
    info->estimatedRows = static_cast<sqlite3_int64>(rows);
    if (!walksSlices(tab->def->rows))
        return SQLITE_OK;
    std::array<int, kHints> found;  // the constraint taken for each hint
    found.fill(-1);
    for (int i = 0; i < info->nConstraint; ++i) {
        if (!info->aConstraint[i].usable)
            continue;
        const int hint = hintOf(*tab, info, i);
        if (hint >= 0 && found[static_cast<std::size_t>(hint)] < 0)
            found[static_cast<std::size_t>(hint)] = i;
    }
    // How much each hint is guessed to narrow the scan: by id to one slice (the args table: to
    // its few args, rowCount's guess), by each bound of the time range to a quarter.
    const double byId = tab->def->rows == Rows::Args ? rows / 4 : rows;
    const double narrowing[kHints] = {byId, 10.0, 1000.0, 100.0, 4.0, 4.0, 4.0, 4.0};
    int argv = 0;
    double cost = rows;
    for (std::size_t k = 0; k < kHints; ++k) {
        if (found[k] < 0)
            continue;
        info->idxNum |= 1 << k;
        info->aConstraintUsage[found[k]].argvIndex = ++argv;
        info->aConstraintUsage[found[k]].omit = 0;  // SQLite checks it again (see the top)
        cost /= narrowing[k];
    }
    if (found[0] >= 0 && tab->def->rows == Rows::Slices)
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    info->estimatedCost = std::max(1.0, cost);
    info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, cost));
    return SQLITE_OK;
}

int xOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
    auto* c = new Cursor();
    c->tab = static_cast<const Vtab*>(vtab);
    *out = c;
    return SQLITE_OK;
}

int xClose(sqlite3_vtab_cursor* cursor) {
    delete static_cast<Cursor*>(cursor);
    return SQLITE_OK;
}

std::optional<SliceKind> kindFromName(std::string_view name) {
    for (std::size_t k = 0; k < model::kSliceKindCount; ++k) {
        if (name == sliceKindName(static_cast<SliceKind>(k)))
            return static_cast<SliceKind>(k);
    }
    return std::nullopt;
}

// A bound of the time range the hint can use: an integer as it is, a real rounded outward (down
// for a lower bound, up for an upper one: the range only widens); none for text, blobs, NULL and
// reals past what a time can be (no narrowing: SQLite's own check decides).
std::optional<model::TimeNs> timeBound(sqlite3_value* v, bool lower) {
    if (sqlite3_value_type(v) == SQLITE_INTEGER)
        return sqlite3_value_int64(v);
    if (sqlite3_value_type(v) != SQLITE_FLOAT)
        return std::nullopt;
    const double d =
        lower ? std::floor(sqlite3_value_double(v)) : std::ceil(sqlite3_value_double(v));
    if (!(std::fabs(d) < 9e18))  // NaN too
        return std::nullopt;
    return static_cast<model::TimeNs>(d);
}

std::string_view valueText(sqlite3_value* v) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return text ? std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(v)))
                : std::string_view();
}

int xFilter(sqlite3_vtab_cursor* cursor, int idxNum, const char*, int argc, sqlite3_value** argv) {
    auto* c = static_cast<Cursor*>(cursor);
    TraceContext& ctx = *c->tab->ctx;
    const TableDef& def = *c->tab->def;
    c->eof = false;
    if (fromAnalysis(def.rows)) {
        c->result = ctx.analysis();
        if (c->result == nullptr) {
            sqlite3_vtab* vtab = cursor->pVtab;
            sqlite3_free(vtab->zErrMsg);
            vtab->zErrMsg = sqlite3_mprintf("the analysis was cancelled");
            return SQLITE_INTERRUPT;
        }
    }
    if (!walksSlices(def.rows)) {
        c->row = 0;
        c->counter = 0;
        c->rowEnd = rowCount(ctx, def.rows);
        c->eof = c->row >= c->rowEnd;
        if (def.rows == Rows::Counters && !c->eof)
            settleCounter(*c);
        return SQLITE_OK;
    }
    c->trackPos = 0;
    c->trackEnd = ctx.tracks.size();
    c->index = 0;
    c->entered = false;
    c->single = false;
    c->byName = false;
    c->byTime = false;
    c->tsMin = -kNoTimeBound;
    c->tsMax = kNoTimeBound;
    c->withArgs = def.rows == Rows::Args;
    c->members.clear();
    c->member = 0;
    c->argRow = 0;
    c->kindMask = def.kind >= 0 ? static_cast<std::uint16_t>(1u << def.kind) : kAllKinds;
    int arg = 0;
    const auto positionAtTrack = [&](std::int64_t track) {
        const auto it = std::lower_bound(ctx.tracks.begin(), ctx.tracks.end(), track,
                                         [](model::TrackIndex t, std::int64_t v) { return t < v; });
        if (it == ctx.tracks.end() || *it != track) {
            c->eof = true;
            return false;
        }
        c->trackPos = static_cast<std::size_t>(it - ctx.tracks.begin());
        c->trackEnd = c->trackPos + 1;
        return true;
    };
    if ((idxNum & kById) != 0 && arg < argc) {
        sqlite3_value* v = argv[arg++];
        if (sqlite3_value_type(v) == SQLITE_INTEGER) {
            const std::int64_t id = sqlite3_value_int64(v);
            const model::SliceRef ref = sliceRefFromId(id);
            if (id < 0 || !positionAtTrack(ref.track) ||
                ref.index >= ctx.trace->track(ref.track).slices.size()) {
                c->eof = true;
                return SQLITE_OK;
            }
            c->index = ref.index;
            c->single = true;
        }
    }
    if ((idxNum & kByKind) != 0 && arg < argc) {
        sqlite3_value* v = argv[arg++];
        if (sqlite3_value_type(v) == SQLITE_TEXT) {
            const auto kind = kindFromName(valueText(v));
            c->kindMask &=
                kind ? static_cast<std::uint16_t>(1u << static_cast<unsigned>(*kind)) : 0;
        }
    }
    if ((idxNum & kByName) != 0 && arg < argc) {
        sqlite3_value* v = argv[arg++];
        if (sqlite3_value_type(v) == SQLITE_TEXT) {
            c->byName = true;
            if (!ctx.findName(valueText(v), c->nameId))
                c->kindMask = 0;  // no slice has that name
        }
    }
    if ((idxNum & kByTrack) != 0 && arg < argc) {
        sqlite3_value* v = argv[arg++];
        if (sqlite3_value_type(v) == SQLITE_INTEGER && !c->single) {
            if (!positionAtTrack(sqlite3_value_int64(v)))
                return SQLITE_OK;
        }
    }
    for (const int bit : {kTsFrom, kTsAfter, kTsBefore, kTsTo}) {
        if ((idxNum & bit) == 0 || arg >= argc)
            continue;
        const bool lower = bit == kTsFrom || bit == kTsAfter;
        const auto t = timeBound(argv[arg++], lower);
        if (!t || c->single)
            continue;
        c->byTime = true;
        if (bit == kTsFrom)
            c->tsMin = std::max(c->tsMin, *t);
        else if (bit == kTsAfter)
            c->tsMin = std::max(c->tsMin, *t < kNoTimeBound ? *t + 1 : *t);
        else if (bit == kTsBefore)
            c->tsMax = std::min(c->tsMax, *t > -kNoTimeBound ? *t - 1 : *t);
        else
            c->tsMax = std::min(c->tsMax, *t);
    }
    if (c->kindMask == 0) {
        c->eof = true;
        return SQLITE_OK;
    }
    if (c->single) {
        ++ctx.slicesVisited;
        if (!matches(*c, c->slice()))
            c->eof = true;
    } else {
        settle(*c);
    }
    if (def.rows == Rows::Args && !c->eof) {
        loadArgs(*c);
        settleArg(*c);
    }
    return SQLITE_OK;
}

int xNext(sqlite3_vtab_cursor* cursor) {
    auto* c = static_cast<Cursor*>(cursor);
    if (c->tab->def->rows == Rows::Args) {
        ++c->member;
        ++c->argRow;
        settleArg(*c);
        return SQLITE_OK;
    }
    if (c->tab->def->rows != Rows::Slices) {
        ++c->row;
        c->eof = c->row >= c->rowEnd;
        if (c->tab->def->rows == Rows::Counters && !c->eof)
            settleCounter(*c);
        return SQLITE_OK;
    }
    if (c->single) {
        c->eof = true;
        return SQLITE_OK;
    }
    ++c->index;
    settle(*c);
    return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor* cursor) {
    return static_cast<Cursor*>(cursor)->eof ? 1 : 0;
}

int xColumn(sqlite3_vtab_cursor* cursor, sqlite3_context* out, int column) {
    const auto* c = static_cast<const Cursor*>(cursor);
    const Col col = c->tab->def->columns[static_cast<std::size_t>(column)].col;
    if (c->tab->def->rows == Rows::Slices)
        sliceColumn(*c, col, out);
    else if (c->tab->def->rows == Rows::Args)
        argColumn(*c, col, out);
    else
        rowColumn(*c, col, out);
    return SQLITE_OK;
}

int xRowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
    const auto* c = static_cast<const Cursor*>(cursor);
    switch (c->tab->def->rows) {
        case Rows::Slices:
            *rowid = sliceId({c->trackIndex(), c->index});
            break;
        case Rows::Args:
            *rowid = c->argRow;
            break;
        default:
            *rowid = c->row;
            break;
    }
    return SQLITE_OK;
}

sqlite3_module makeModule() {
    sqlite3_module m{};
    m.iVersion = 1;
    m.xCreate = nullptr;  // eponymous-only: no CREATE VIRTUAL TABLE makes another
    m.xConnect = xConnect;
    m.xBestIndex = xBestIndex;
    m.xDisconnect = xDisconnect;
    m.xDestroy = xDisconnect;
    m.xOpen = xOpen;
    m.xClose = xClose;
    m.xFilter = xFilter;
    m.xNext = xNext;
    m.xEof = xEof;
    m.xColumn = xColumn;
    m.xRowid = xRowid;
    return m;
}

}  // namespace

const char* sliceKindName(SliceKind kind) {
    switch (kind) {
        case SliceKind::Kernel:
            return "kernel";
        case SliceKind::Memcpy:
            return "memcpy";
        case SliceKind::Memset:
            return "memset";
        case SliceKind::Memory:
            return "memory";
        case SliceKind::Sync:
            return "sync";
        case SliceKind::RuntimeApi:
            return "runtime_api";
        case SliceKind::DriverApi:
            return "driver_api";
        case SliceKind::Nvtx:
            return "nvtx";
        case SliceKind::Overhead:
            return "overhead";
        case SliceKind::Instant:
            return "instant";
        case SliceKind::Other:
            return "other";
        case SliceKind::UnifiedMemory:
            return "unified_memory";
        case SliceKind::CpuOp:
            return "cpu_op";
    }
    return "other";
}

const char* trackKindName(model::TrackKind kind) {
    switch (kind) {
        case model::TrackKind::HostApi:
            return "host_api";
        case model::TrackKind::Nvtx:
            return "nvtx";
        case model::TrackKind::NvtxAsync:
            return "nvtx_async";
        case model::TrackKind::GpuStream:
            return "gpu_stream";
        case model::TrackKind::Sync:
            return "sync";
        case model::TrackKind::Memory:
            return "memory";
        case model::TrackKind::Host:
            return "host";
        case model::TrackKind::NvtxProjection:
            return "nvtx_projection";
        case model::TrackKind::GraphLaunches:
            return "graph_launches";
        case model::TrackKind::UnifiedMemory:
            return "unified_memory";
    }
    return "host";
}

TraceContext::TraceContext(model::TracePtr t) : trace(std::move(t)) {
    const auto all = trace->tracks();
    kindsOnTrack.assign(all.size(), 0);
    std::vector<std::pair<model::ProcessIndex, std::int64_t>> threadKeys;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Track& track = all[i];
        if (model::isDerived(track.kind))
            continue;
        tracks.push_back(static_cast<model::TrackIndex>(i));
        std::uint16_t mask = 0;
        for (const Slice& s : track.slices)
            mask |= static_cast<std::uint16_t>(1u << static_cast<unsigned>(s.kind));
        kindsOnTrack[i] = mask;
        if (track.threadId != -1)
            threadKeys.emplace_back(track.process, track.threadId);
    }
    std::sort(threadKeys.begin(), threadKeys.end());
    threadKeys.erase(std::unique(threadKeys.begin(), threadKeys.end()), threadKeys.end());
    for (const auto& [process, tid] : threadKeys)
        threads.push_back({process, tid});
    counterBegin.push_back(0);
    for (const model::CounterTrack& c : trace->counters())
        counterBegin.push_back(counterBegin.back() + static_cast<std::int64_t>(c.samples.size()));
}

bool TraceContext::findName(std::string_view name, model::StringId& id) {
    std::call_once(m_namesOnce, [this] {
        const model::StringTable& strings = trace->strings();
        m_names.reserve(strings.size());
        for (std::size_t i = 0; i < strings.size(); ++i)
            m_names.emplace(strings.get(static_cast<model::StringId>(i)),
                            static_cast<model::StringId>(i));
    });
    const auto it = m_names.find(name);
    if (it == m_names.end())
        return false;
    id = it->second;
    return true;
}

namespace {
// Thrown out of std::call_once by a cancelled analysis, so that the flag stays unset and the
// next scan runs it again.
struct AnalysisCancelled {};
}  // namespace

const analysis::AnalysisResult* TraceContext::analysis() {
    try {
        std::call_once(m_analysisOnce, [this] {
            // The default window, as analysis::analyzeTrace(trace) takes it.
            const auto window = analysis::resolveWindow(*trace, analysis::WindowRequest{});
            auto result = analysis::analyzeTrace(
                *trace, analysis::AnalysisOptions{},
                window.ok() ? window.value() : analysis::AnalysisWindow{}, cancel);
            if (!result)
                throw AnalysisCancelled{};
            m_analysis = std::move(*result);
        });
    } catch (const AnalysisCancelled&) {
        return nullptr;
    }
    return &*m_analysis;
}

int registerTraceTables(sqlite3* db, TraceContext& ctx) {
    static const sqlite3_module module = makeModule();
    for (const TableDef& def : tableDefs()) {
        auto* aux = new Module{&def, &ctx};
        const int rc = sqlite3_create_module_v2(db, def.name, &module, aux,
                                                [](void* p) { delete static_cast<Module*>(p); });
        if (rc != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}

}  // namespace wl::query
