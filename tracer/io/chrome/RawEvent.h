#pragma once

// A decoded Chrome trace event: its fields and the args the reader understands, as plain data
// (views into the text), with the constants the import's layers share. Built by the decoder
// (EventDecoding.cpp), assembled into slices and flows by PhaseAssembler, placed on tracks by
// the Kineto mapping. Internal to wl_io.

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

#include "io/ArgKeys.h"
#include "io/ChromeTraceFormat.h"
#include "model/Slice.h"
#include "model/StringTable.h"
#include "model/Time.h"
#include "model/Track.h"

namespace wl::io::chrome {

using model::ProcessIndex;
using model::SliceKind;
using model::StringId;
using model::TimeNs;
using model::TrackIndex;

// Times beyond this (about 73 years, either side of the base) are refused.
constexpr TimeNs kMaxAbsTimeNs = TimeNs{1} << 61;

// String pids/tids ("Spans", "PyTorch Profiler") become numbers above any OS id.
constexpr std::int64_t kStringIdBase = model::kSyntheticIdBase;
// Ids of flows/async events given as strings live above numeric ones.
constexpr std::uint64_t kStringFlowIdBit = std::uint64_t{1} << 63;
// The process key of async events with a global id ("id2": {"global": ...}).
constexpr std::int64_t kGlobalScope = std::numeric_limits<std::int64_t>::min();

// Marks a slice whose "B" never met its "E": it ends with its thread's last event.
constexpr std::string_view kUnclosedSuffix = " (unclosed)";

// Launch arrows (API call -> GPU work) keyed by correlation id, of every PyTorch profiler vintage.
inline bool isLaunchFlowCat(std::string_view cat) {
    return cat == format::kCatLaunchFlow || cat == format::kCatLaunchFlowLegacy ||
           cat == format::kCatLaunchFlowOldest || cat == format::kCatLaunchFlowCpuToGpu;
}

// Presence bits of the EventArgs fields the readers test: a field's bit is its number in the args
// table (ArgKeys.h; format::argBit gives any other field's).
enum ArgBit : std::uint64_t {
    kArgCorrelation = format::argBit(format::ArgField::Correlation),
    kArgDevice = format::argBit(format::ArgField::Device),
    kArgStream = format::argBit(format::ArgField::Stream),
    kArgWaitOnStream = format::argBit(format::ArgField::WaitOnStream),
    kArgCbid = format::argBit(format::ArgField::Cbid),
    kArgBytes = format::argBit(format::ArgField::Bytes),
    kArgGrid = format::argBit(format::ArgField::Grid),
    kArgBlock = format::argBit(format::ArgField::Block),
    kArgSharedStatic = format::argBit(format::ArgField::SharedStatic),
    kArgCopyKind = format::argBit(format::ArgField::CopyKind),
    kArgSrcKind = format::argBit(format::ArgField::SrcKind),
    kArgDstKind = format::argBit(format::ArgField::DstKind),
    kArgMemoryKind = format::argBit(format::ArgField::MemoryKind),
    kArgSyncKind = format::argBit(format::ArgField::SyncKind),
    kArgDomain = format::argBit(format::ArgField::Domain),
    kArgName = format::argBit(format::ArgField::Name),
    kArgPayload = format::argBit(format::ArgField::Payload),
    kArgCategoryName = format::argBit(format::ArgField::CategoryName),
    kArgGraphId = format::argBit(format::ArgField::GraphId),
    kArgGraphNodeId = format::argBit(format::ArgField::GraphNodeId),
    kArgMemoryOp = format::argBit(format::ArgField::MemoryOp),
    kArgPoolAddress = format::argBit(format::ArgField::PoolAddress),
    kArgDeviceType = format::argBit(format::ArgField::DeviceType),
    kArgDeviceId = format::argBit(format::ArgField::DeviceId),
    kArgTotalAllocated = format::argBit(format::ArgField::TotalAllocated),
    kArgTotalReserved = format::argBit(format::ArgField::TotalReserved),
    kArgSrcDevice = format::argBit(format::ArgField::SrcDevice),
    kArgDstDevice = format::argBit(format::ArgField::DstDevice),
    kArgUmKind = format::argBit(format::ArgField::UmKind),
    kArgUmCause = format::argBit(format::ArgField::UmCause),
    kArgUmAccess = format::argBit(format::ArgField::UmAccess),
};

// The args we understand (Kineto's names and ours). Views point into the parser's buffers,
// valid for the whole document.
struct EventArgs {
    std::uint64_t has = 0;
    std::int64_t correlation = 0;
    std::int64_t device = -1;
    std::int64_t stream = -1;
    std::int64_t waitOnStream = -1;
    std::int64_t waitOnRecord = -1;  // the awaited cudaEventRecord's correlation id
    std::uint64_t graphId = 0;       // the CUDA graph (and node) that ran a GPU op
    std::uint64_t graphNodeId = 0;
    std::uint64_t address = 0;  // a memory operation's allocation, and its pool
    std::uint64_t poolAddress = 0;
    std::uint64_t poolReserve = 0;
    std::uint64_t faultCount = 0;  // a unified-memory page fault's count, and the host's pc
    std::uint64_t faultPc = 0;
    std::int64_t deviceType = -1;  // "[memory]": 1 is CUDA; its device, in use and reserved bytes
    std::int64_t deviceId = -1;
    std::int64_t totalAllocated = 0;
    std::int64_t totalReserved = 0;
    std::int64_t eventId = -1;
    std::int64_t cbid = 0;
    std::int64_t returnCode = 0;
    std::int64_t srcDevice = -1;
    std::int64_t dstDevice = -1;
    std::int64_t category = 0;
    std::int64_t sortIndex = 0;
    std::uint64_t bytes = 0;
    std::uint64_t value = 0;
    std::int64_t registers = 0;
    std::int64_t sharedTotal = 0;
    std::int64_t sharedStatic = 0;
    std::int64_t sharedDynamic = 0;
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    float warps = -1.0f;
    float occupancy = -1.0f;
    std::uint32_t color = 0;
    double payload = 0.0;
    std::string_view copyKind, srcKind, dstKind, memoryKind, memoryOp, syncKind, domain, name,
        categoryName, umKind, umCause, umAccess;

    bool hasAll(std::uint64_t bits) const { return (has & bits) == bits; }
    bool hasAny(std::uint64_t bits) const { return (has & bits) != 0; }

    // The field the args table names for a decoded value of its row's type (and its presence
    // bit): the reader's half of ArgKeys.h.
    void set(format::ArgField field, std::int64_t v);
    void set(format::ArgField field, std::uint64_t v);
    void set(format::ArgField field, float v);
    void set(format::ArgField field, double v);
    void set(format::ArgField field, std::string_view v);
    // grid or block, read in place (a short array keeps the rest): the caller sets the bit.
    std::array<std::int32_t, 3>& triple(format::ArgField field) {
        return field == format::ArgField::Grid ? grid : block;
    }
};

struct RawEvent {
    const char* at = nullptr;  // the event's '{'
    char ph = 0;
    bool phaseKnown = false;  // a one-character phase
    bool hasTs = false;
    bool hasId = false;
    bool globalId = false;   // "id2": {"global": ...}: one id space across processes
    bool hasCat = false;     // "cat" was given
    bool pidQuoted = false;  // pid, tid given as strings
    bool tidQuoted = false;
    bool hasBindId = false;
    bool flowIn = false;   // flow v2: this slice ends (or continues) flow `bindId`
    bool flowOut = false;  // flow v2: this slice starts (or continues) flow `bindId`
    std::string_view name, cat, scope, bindPoint;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    TimeNs ts = 0;
    TimeNs dur = 0;
    std::uint64_t id = 0;
    std::uint64_t bindId = 0;
    EventArgs args;
    // Its args as written, [membersBegin, +membersCount) of Importer::m_members: those the
    // writer does not write back for the slice's kind are kept with it (Trace::extraArgs).
    std::uint32_t membersBegin = 0;
    std::uint32_t membersCount = 0;
};

// Unsigned arithmetic: hashing must not overflow a signed type.
inline std::size_t mixHash(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ull) ^
                                    (b + 0x7F4A7C15ull + (a << 6) + (a >> 2)));
}

struct PairHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const noexcept {
        return mixHash(static_cast<std::uint64_t>(p.first), static_cast<std::uint64_t>(p.second));
    }
};

}  // namespace wl::io::chrome
