#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "io/ChromeTraceFormat.h"
#include "model/Slice.h"

// The args keys of Chrome/Kineto events in one table. The reader decodes an event's args by it
// (key -> field, of the row's type), the writer writes a slice's args by it (the kind's layout
// below, each key spelled and formatted as its row says), and the import decides from it which
// of a producer's args export writes again from the model (writerWritesArg), so none is written
// twice. A key added here is read, written and deduplicated at once.
namespace wl::io::format {

// What an arg holds: the reader's field for it (chrome::EventArgs, whose presence bit is
// 1 << the field's number) and, for keys the writer writes, the model's field it comes from.
enum class ArgField : std::uint8_t {
    Correlation,     // Slice::correlationId
    Device,          // Track::deviceId
    Stream,          // Track::streamId; MemoryDetail::streamId; SyncDetail::streamId
    WaitOnStream,    // SyncDetail::recordStreamId
    EventId,         // SyncDetail::eventId
    Cbid,            // ApiDetail::callbackId
    ReturnCode,      // ApiDetail::returnCode
    SrcDevice,       // MemcpyDetail/UnifiedMemoryDetail::srcDevice (unified memory: -1 the host)
    DstDevice,       // MemcpyDetail/UnifiedMemoryDetail::dstDevice
    Category,        // NvtxDetail::category
    SortIndex,       // metadata events' row order (read only)
    Bytes,           // Memcpy/Memset/Memory/UnifiedMemoryDetail::bytes
    Value,           // MemsetDetail::value
    Grid,            // KernelDetail::grid
    Block,           // KernelDetail::block
    Registers,       // KernelDetail::registersPerThread
    SharedTotal,     // KernelDetail static + dynamic shared bytes
    SharedStatic,    // KernelDetail::staticSharedBytes
    SharedDynamic,   // KernelDetail::dynamicSharedBytes
    Warps,           // KernelDetail::warpsPerSm
    Occupancy,       // KernelDetail::estimatedOccupancyPct
    CopyKind,        // MemcpyDetail::copyKind
    SrcKind,         // MemcpyDetail::srcKind
    DstKind,         // MemcpyDetail::dstKind
    MemoryKind,      // MemsetDetail/MemoryDetail::memoryKind
    SyncKind,        // SyncDetail::syncKind
    Domain,          // NvtxDetail::domainId
    Name,            // metadata events' name (read only)
    Color,           // NvtxDetail::colorArgb
    Payload,         // NvtxDetail::payload
    CategoryName,    // NvtxDetail::categoryNameId
    WaitOnRecord,    // SyncDetail::recordCorrelationId (-1: none)
    GraphId,         // GraphNode::graphId
    GraphNodeId,     // GraphNode::nodeId
    MemoryOp,        // MemoryDetail::op
    Address,         // MemoryDetail/UnifiedMemoryDetail::address
    PoolAddress,     // MemoryDetail::poolAddress
    PoolReserve,     // MemoryDetail::poolReservedBytes
    DeviceType,      // the PyTorch profiler's "[memory]" instants (read only) ...
    DeviceId,        // ...
    TotalAllocated,  // ...
    TotalReserved,   // ...
    Bandwidth,       // computed by the writer from bytes and duration; not read
    UmKind,          // UnifiedMemoryDetail::kind
    UmCause,         // UnifiedMemoryDetail::cause
    UmAccess,        // UnifiedMemoryDetail::access
    FaultCount,      // UnifiedMemoryDetail::faultCount
    FaultPc,         // UnifiedMemoryDetail::pc
    Count
};

// How a value is written and read.
enum class ArgType : std::uint8_t {
    Int,        // a signed integer (readers also take it as a decimal or "0x" string)
    UInt,       // an unsigned integer (likewise)
    Hex,        // an unsigned integer written as a "0x..." string
    Float,      // a float
    Double,     // a double
    Text,       // a string: an enum's name, or an interned name
    IntTriple,  // [x, y, z]
    Color,      // "#aarrggbb"
    Computed,   // written from other fields, never read
};

struct ArgKey {
    std::string_view key;
    ArgField field;
    ArgType type;
};

// Computed by the writer for a copy or memset with bytes and a duration.
inline constexpr std::string_view kArgBandwidth = "memory bandwidth (GB/s)";

// Every key, in ArgField order (kArgKeys[field] is the field's row).
inline constexpr ArgKey kArgKeys[] = {
    {"correlation", ArgField::Correlation, ArgType::Int},
    {"device", ArgField::Device, ArgType::Int},
    {"stream", ArgField::Stream, ArgType::Int},
    {"wait_on_stream", ArgField::WaitOnStream, ArgType::Int},
    {"wait_on_cuda_event_id", ArgField::EventId, ArgType::Int},
    {"cbid", ArgField::Cbid, ArgType::Int},
    {"return code", ArgField::ReturnCode, ArgType::Int},
    {"src device", ArgField::SrcDevice, ArgType::Int},
    {"dst device", ArgField::DstDevice, ArgType::Int},
    {"category", ArgField::Category, ArgType::Int},
    {"sort_index", ArgField::SortIndex, ArgType::Int},
    {"bytes", ArgField::Bytes, ArgType::UInt},
    {"value", ArgField::Value, ArgType::UInt},
    {"grid", ArgField::Grid, ArgType::IntTriple},
    {"block", ArgField::Block, ArgType::IntTriple},
    {"registers per thread", ArgField::Registers, ArgType::Int},
    {"shared memory", ArgField::SharedTotal, ArgType::Int},
    {"static shared memory", ArgField::SharedStatic, ArgType::Int},
    {"dynamic shared memory", ArgField::SharedDynamic, ArgType::Int},
    {"warps per SM", ArgField::Warps, ArgType::Float},
    {"est. achieved occupancy %", ArgField::Occupancy, ArgType::Float},
    {"copy kind", ArgField::CopyKind, ArgType::Text},
    {"src kind", ArgField::SrcKind, ArgType::Text},
    {"dst kind", ArgField::DstKind, ArgType::Text},
    {"memory kind", ArgField::MemoryKind, ArgType::Text},
    {"cuda_sync_kind", ArgField::SyncKind, ArgType::Text},
    {"domain", ArgField::Domain, ArgType::Text},
    {"name", ArgField::Name, ArgType::Text},
    {"color", ArgField::Color, ArgType::Color},
    {"payload", ArgField::Payload, ArgType::Double},
    {"category name", ArgField::CategoryName, ArgType::Text},
    {"wait_on_cuda_event_record_corr_id", ArgField::WaitOnRecord, ArgType::Int},
    {"graph id", ArgField::GraphId, ArgType::UInt},
    {"graph node id", ArgField::GraphNodeId, ArgType::UInt},
    {"memory op", ArgField::MemoryOp, ArgType::Text},
    {"address", ArgField::Address, ArgType::Hex},
    {"pool address", ArgField::PoolAddress, ArgType::Hex},
    {"pool reserve", ArgField::PoolReserve, ArgType::UInt},
    {"Device Type", ArgField::DeviceType, ArgType::Int},
    {"Device Id", ArgField::DeviceId, ArgType::Int},
    {"Total Allocated", ArgField::TotalAllocated, ArgType::Int},
    {"Total Reserved", ArgField::TotalReserved, ArgType::Int},
    {kArgBandwidth, ArgField::Bandwidth, ArgType::Computed},
    {"um kind", ArgField::UmKind, ArgType::Text},
    {"um cause", ArgField::UmCause, ArgType::Text},
    {"um access", ArgField::UmAccess, ArgType::Text},
    {"fault count", ArgField::FaultCount, ArgType::UInt},
    {"fault pc", ArgField::FaultPc, ArgType::Hex},
};
static_assert(std::size(kArgKeys) == static_cast<std::size_t>(ArgField::Count));
static_assert(
    [] {
        for (std::size_t i = 0; i < std::size(kArgKeys); ++i) {
            if (static_cast<std::size_t>(kArgKeys[i].field) != i)
                return false;
        }
        return true;
    }(),
    "kArgKeys must be in ArgField order");

constexpr const ArgKey& argKey(ArgField field) {
    return kArgKeys[static_cast<std::size_t>(field)];
}

// The args the writer writes for a slice of each kind, in the order it writes them (Kineto's
// order: device, stream, correlation first on GPU work). A key is written for a kind (and so
// never kept from a producer's args beside the model's) exactly when it is in the kind's list.
namespace layout {
using F = ArgField;
inline constexpr F kKernel[] = {F::Device,        F::Stream,    F::Correlation, F::Grid,
                                F::Block,         F::Registers, F::SharedTotal, F::SharedStatic,
                                F::SharedDynamic, F::Warps,     F::Occupancy,   F::GraphId,
                                F::GraphNodeId};
inline constexpr F kMemcpy[] = {F::Device,    F::Stream,    F::Correlation, F::Bytes,
                                F::Bandwidth, F::CopyKind,  F::SrcKind,     F::DstKind,
                                F::SrcDevice, F::DstDevice, F::GraphId,     F::GraphNodeId};
inline constexpr F kMemset[] = {F::Device,     F::Stream,    F::Correlation,
                                F::Bytes,      F::Bandwidth, F::Value,
                                F::MemoryKind, F::GraphId,   F::GraphNodeId};
inline constexpr F kMemory[] = {F::Device, F::Correlation, F::MemoryOp,
                                F::Bytes,  F::Address,     F::MemoryKind,
                                F::Stream, F::PoolAddress, F::PoolReserve};
inline constexpr F kSync[] = {F::Device,  F::Correlation,  F::SyncKind,    F::Stream,
                              F::EventId, F::WaitOnStream, F::WaitOnRecord};
inline constexpr F kApi[] = {F::Correlation, F::Cbid, F::ReturnCode};
inline constexpr F kNvtx[] = {F::Correlation, F::Color,        F::Domain,
                              F::Category,    F::CategoryName, F::Payload};
inline constexpr F kUnifiedMemory[] = {F::Device,   F::UmKind,     F::Bytes,     F::Bandwidth,
                                       F::Address,  F::SrcDevice,  F::DstDevice, F::UmCause,
                                       F::UmAccess, F::FaultCount, F::FaultPc};
inline constexpr F kOther[] = {F::Correlation};
}  // namespace layout

constexpr std::span<const ArgField> writtenArgs(model::SliceKind kind) {
    switch (kind) {
        case model::SliceKind::Kernel:
            return layout::kKernel;
        case model::SliceKind::Memcpy:
            return layout::kMemcpy;
        case model::SliceKind::Memset:
            return layout::kMemset;
        case model::SliceKind::Memory:
            return layout::kMemory;
        case model::SliceKind::Sync:
            return layout::kSync;
        case model::SliceKind::RuntimeApi:
        case model::SliceKind::DriverApi:
            return layout::kApi;
        case model::SliceKind::Nvtx:
            return layout::kNvtx;
        case model::SliceKind::UnifiedMemory:
            return layout::kUnifiedMemory;
        case model::SliceKind::Overhead:
        case model::SliceKind::Instant:
        case model::SliceKind::Other:
        case model::SliceKind::CpuOp:
            break;
    }
    return layout::kOther;
}

constexpr std::uint64_t argBit(ArgField field) {
    return std::uint64_t{1} << static_cast<unsigned>(field);
}
static_assert(static_cast<unsigned>(ArgField::Count) <= 64);

// Key -> row, by open addressing on keyHash: one hash (the key's) and one compare per arg.
namespace detail {
inline constexpr std::size_t kLookupSize = 128;
inline constexpr std::uint8_t kNoRow = 0xff;
inline constexpr auto kLookup = [] {
    std::array<std::uint8_t, kLookupSize> slots{};
    for (auto& s : slots)
        s = kNoRow;
    for (std::size_t i = 0; i < std::size(kArgKeys); ++i) {
        std::size_t at = keyHash(kArgKeys[i].key) % kLookupSize;
        while (slots[at] != kNoRow)
            at = (at + 1) % kLookupSize;
        slots[at] = static_cast<std::uint8_t>(i);
    }
    return slots;
}();
}  // namespace detail

// The row of `key`, or nullptr for a key no reader or writer of ours knows.
constexpr const ArgKey* findArgKey(std::string_view key) {
    for (std::size_t at = keyHash(key) % detail::kLookupSize;;
         at = (at + 1) % detail::kLookupSize) {
        const std::uint8_t row = detail::kLookup[at];
        if (row == detail::kNoRow)
            return nullptr;
        if (kArgKeys[row].key == key)
            return &kArgKeys[row];
    }
}

// Per kind, the fields its layout writes, as presence bits.
inline constexpr auto kWrittenBits = [] {
    std::array<std::uint64_t, model::kSliceKindCount> bits{};
    for (std::size_t k = 0; k < bits.size(); ++k) {
        for (ArgField f : writtenArgs(static_cast<model::SliceKind>(k)))
            bits[k] |= argBit(f);
    }
    return bits;
}();

// Whether the writer writes `key` for a slice of this kind, from the model's fields. An imported
// event's other args are kept with its slice (Trace::extraArgs) and written after these, so
// export loses nothing and never writes a key twice.
constexpr bool writerWritesArg(model::SliceKind kind, const ArgKey& row) {
    return (kWrittenBits[static_cast<std::size_t>(kind)] & argBit(row.field)) != 0;
}
constexpr bool writerWritesArg(model::SliceKind kind, std::string_view key) {
    const ArgKey* row = findArgKey(key);
    return row != nullptr && writerWritesArg(kind, *row);
}

}  // namespace wl::io::format
