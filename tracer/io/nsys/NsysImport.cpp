// An Nsight Systems SQLite export into a Trace: every table optional, columns by name, names
// from `text` or StringIds, enum codes hard-coded (2022.x exports have no ENUM_* tables), GPU
// work as the neutral activities of model/GpuActivity.h, launch links per process. What is not
// read is counted in the trace's notes.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "io/nsys/NsysReader.h"
#include "io/nsys/Sqlite.h"
#include "model/GpuActivity.h"
#include "model/TraceBuilder.h"

namespace wl::io {

namespace {

using nsys::Database;
using nsys::Statement;

// Nsight Systems packs ids as documented: globalTid / 0x1000000 % 0x1000000 is the pid,
// globalTid % 0x1000000 the tid (bits above 48 name the host or VM).
constexpr std::int64_t pidOf(std::int64_t global) {
    return (global >> 24) & 0xFFFFFF;
}
constexpr std::int64_t tidOf(std::int64_t global) {
    return global & 0xFFFFFF;
}

// Where a GPU activity ran and who queued it, from the five columns every GPU activity table
// holds, selected in this order from column `first` on: deviceId, contextId, streamId,
// correlationId, globalPid.
model::ActivityPlace placeAt(Statement& r, int first) {
    model::ActivityPlace place;
    place.deviceId = static_cast<std::int32_t>(r.integer(first));
    place.contextId = static_cast<std::uint32_t>(r.integer(first + 1));
    place.streamId = r.integer(first + 2);
    place.correlationId = static_cast<std::uint64_t>(r.integer(first + 3));
    place.pid = pidOf(r.integer(first + 4));
    return place;
}

// ENUM_CUDA_MEM_KIND: Nsight Systems counts from "pageable" (CUPTI from "unknown").
model::MemoryKind memoryKindOf(std::int64_t code) {
    switch (code) {
        case 0:
            return model::MemoryKind::Pageable;
        case 1:
            return model::MemoryKind::Pinned;
        case 2:
        case 5:  // device static
            return model::MemoryKind::Device;
        case 3:
            return model::MemoryKind::Array;
        case 4:
        case 6:  // managed static
            return model::MemoryKind::Managed;
        default:
            return model::MemoryKind::Unknown;
    }
}

// ENUM_NSYS_EVENT_TYPE values of NVTX_EVENTS.
constexpr std::int64_t kNvtxCategory = 33;
constexpr std::int64_t kNvtxMark = 34;
constexpr std::int64_t kNvtxThreadName = 39;
constexpr std::int64_t kNvtxPushPop = 59;
constexpr std::int64_t kNvtxStartEnd = 60;
constexpr std::int64_t kNvtxDomainCreate = 75;
// ENUM_NSYS_EVENT_CLASS values of CUPTI_ACTIVITY_KIND_RUNTIME.
constexpr std::int64_t kClassRuntime = 0;
constexpr std::int64_t kClassDriver = 1;

// 32-bit "not applicable" values (and NULL) of stream and event ids.
bool notApplicable(const Statement& r, int column) {
    return r.isNull(column) || r.integer(column) == 0xFFFFFFFFll || r.integer(column) < 0;
}

// Tables read (or read as metadata of those): everything else with rows is a note.
const std::set<std::string>& tablesRead() {
    static const std::set<std::string> kRead = {
        "StringIds",
        "ThreadNames",
        "PROCESSES",
        "META_DATA_EXPORT",
        "META_DATA_CAPTURE",
        "EXPORT_META_DATA",
        "TARGET_INFO_GPU",
        "TARGET_INFO_CUDA_DEVICE",
        "TARGET_INFO_SESSION_START_TIME",
        "TARGET_INFO_GPU_METRICS",
        "CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        "CUPTI_ACTIVITY_KIND_CUDA_EVENT",
        "CUPTI_ACTIVITY_KIND_RUNTIME",
        "CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
        "CUDA_GPU_MEMORY_USAGE_EVENTS",
        "CUDA_UM_CPU_PAGE_FAULT_EVENTS",
        "CUDA_UM_GPU_PAGE_FAULT_EVENTS",
        "NVTX_EVENTS",
        "OSRT_API",
        "GPU_METRICS",
    };
    return kRead;
}

// Tables that describe the session or hold lookups, not events: never a note.
bool isDescriptive(const std::string& table) {
    return table.starts_with("ENUM_") || table.starts_with("TARGET_INFO_") ||
           table.starts_with("sqlite_") || table.starts_with("ANALYSIS_") ||
           table == "ProcessStreams" || table == "UnwindMethodType";
}

class NsysImport {
public:
    NsysImport(Database& db, const std::string& path, const ReadControl& control)
        : m_db(db), m_path(path), m_control(control) {}

    model::Result<model::TracePtr> run();

private:
    // Steps through `sql`'s rows, calling `each` per row; checks the cancel flag and reports
    // progress between batches of rows.
    template <typename Each>
    model::Status scan(const std::string& sql, Each each);
    // scan() over `columns` of `table` (those it lacks read as NULL); nothing to do, and no
    // error, when the export has no such table.
    template <typename Each>
    model::Status scanTable(const std::string& table, std::initializer_list<const char*> columns,
                            Each each) {
        if (!m_db.hasTable(table))
            return {};
        return scan("SELECT " + m_db.select(table, "t", columns) + " FROM " + table + " AS t",
                    std::move(each));
    }
    model::Error fail(model::Error e) const {
        e.file = m_path;
        return e;
    }

    model::Status readMetadata();
    model::Status readNames();
    model::Status chooseRows();
    model::Status readKernels();
    model::Status readCopies();
    model::Status readMemsets();
    model::Status readGraphTraces();
    model::Status readMemory();
    model::Status readPageFaults();
    model::Status readEvents();
    model::Status readSyncs();
    model::Status readApi();
    model::Status readNvtx();
    model::Status readOsRuntime();
    model::Status readMetrics();
    model::Status readDevices();
    model::Status countUnread();
    void nameThreads();

    // A StringIds value, looked up once per id: a trace has few distinct names, and a join
    // would look one up per row. A null or unknown id reads "".
    std::string_view stringOf(const Statement& row, int column);
    model::ProcessIndex hostProcess(std::int64_t pid);
    model::TrackIndex threadRow(
        std::map<std::pair<std::int64_t, std::int64_t>, model::TrackIndex>& rows,
        std::int64_t globalTid, const char* prefix, bool api);
    std::string domainName(std::int64_t domainId) const;

    Database& m_db;
    std::string m_path;
    const ReadControl& m_control;
    model::TraceBuilder m_builder;
    std::optional<model::GpuActivityMapper> m_mapper;
    bool m_hasStrings = false;
    std::optional<Statement> m_stringLookup;
    std::unordered_map<std::int64_t, std::string> m_strings;  // node-based: views stay valid

    std::uint64_t m_rowsDone = 0;
    std::uint64_t m_rowsTotal = 0;
    std::string m_productVersion;
    std::string m_schemaVersion;

    std::unordered_map<std::int64_t, std::string> m_processNames;  // pid -> name
    std::unordered_map<std::int64_t, std::string> m_threadNames;   // globalTid -> name
    std::map<std::int64_t, model::ProcessIndex> m_hosts;
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackIndex> m_apiRows;
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackIndex> m_osrtRows;
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, model::TrackIndex> m_nvtxRows;
    // Rows named after their thread at the end: (globalTid, track, prefix).
    std::vector<std::tuple<std::int64_t, model::TrackIndex, std::string>> m_threadRows;
    std::map<std::int64_t, std::string> m_domains;  // NVTX domain id -> name
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_categories;  // (domain, id)
    std::map<std::string, std::uint64_t> m_skipped;  // what was left out of read tables, counted
};

template <typename Each>
model::Status NsysImport::scan(const std::string& sql, Each each) {
    auto statement = m_db.prepare(sql);
    if (!statement)
        return fail(statement.error());
    Statement& st = statement.value();
    std::uint32_t batch = 0;
    while (true) {
        auto row = st.step();
        if (!row)
            return fail(row.error());
        if (!row.value())
            break;
        each(st);
        ++m_rowsDone;
        if (++batch == 16384) {
            batch = 0;
            if (m_control.cancelled())
                return model::Error{kReadCancelled, m_path, -1};
            m_control.report(m_rowsDone, std::max(m_rowsDone, m_rowsTotal));
        }
    }
    if (m_control.cancelled())
        return model::Error{kReadCancelled, m_path, -1};
    return {};
}

std::string_view NsysImport::stringOf(const Statement& row, int column) {
    if (row.isNull(column))
        return {};
    const std::int64_t id = row.integer(column);
    auto [it, fresh] = m_strings.try_emplace(id);
    if (fresh && m_stringLookup) {
        m_stringLookup->rebind(1, id);
        auto found = m_stringLookup->step();
        if (found && found.value())
            it->second = std::string(m_stringLookup->text(0));
    }
    return it->second;
}

model::ProcessIndex NsysImport::hostProcess(std::int64_t pid) {
    if (auto it = m_hosts.find(pid); it != m_hosts.end())
        return it->second;
    std::string name;
    if (auto it = m_processNames.find(pid); it != m_processNames.end() && !it->second.empty())
        name = it->second + " (pid " + std::to_string(pid) + ")";
    else
        name = "Process " + std::to_string(pid);
    const auto index = m_builder.hostProcess(pid, name);
    m_hosts.emplace(pid, index);
    return index;
}

model::TrackIndex NsysImport::threadRow(
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackIndex>& rows,
    std::int64_t globalTid, const char* prefix, bool api) {
    const std::int64_t pid = pidOf(globalTid);
    const std::int64_t tid = tidOf(globalTid);
    const auto key = std::make_pair(pid, tid);
    if (auto it = rows.find(key); it != rows.end())
        return it->second;
    const auto process = hostProcess(pid);
    const auto track = api ? m_mapper->apiRow(process, tid) : m_builder.hostTrack(process, tid);
    rows.emplace(key, track);
    m_threadRows.emplace_back(globalTid, track, prefix);
    return track;
}

std::string NsysImport::domainName(std::int64_t domainId) const {
    if (domainId == 0)
        return {};
    if (auto it = m_domains.find(domainId); it != m_domains.end())
        return it->second;
    return "domain " + std::to_string(domainId);
}

model::Status NsysImport::readMetadata() {
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!m_db.hasTable(table) || !m_db.hasColumn(table, "name") ||
            !m_db.hasColumn(table, "value"))
            continue;
        auto status = scan("SELECT name, value FROM " + std::string(table) +
                               " WHERE name IN ('EXPORT_SCHEMA_VERSION', 'EXPORT_PRODUCT_VERSION')",
                           [&](Statement& r) {
                               if (r.text(0) == "EXPORT_SCHEMA_VERSION")
                                   m_schemaVersion = std::string(r.text(1));
                               else
                                   m_productVersion = std::string(r.text(1));
                           });
        if (!status)
            return status;
        break;
    }
    return {};
}

model::Status NsysImport::readNames() {
    auto status = scanTable("PROCESSES", {"pid", "name", "globalPid"}, [&](Statement& r) {
        const std::int64_t pid = r.isNull(0) ? pidOf(r.integer(2)) : r.integer(0);
        m_processNames[pid] = std::string(r.text(1));
    });
    if (!status)
        return status;
    return scanTable("ThreadNames", {"globalTid", "nameId"}, [&](Statement& r) {
        if (const auto name = stringOf(r, 1); !name.empty())
            m_threadNames[r.integer(0)] = std::string(name);
    });
}

model::Status NsysImport::chooseRows() {
    // Several processes with GPU work: a GPU process per device and process, so that correlation
    // ids (numbered per process) find their call in their own process.
    std::string sql;
    for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"}) {
        if (!m_db.hasTable(table) || !m_db.hasColumn(table, "globalPid"))
            continue;
        sql +=
            (sql.empty() ? "" : " UNION ") + std::string("SELECT DISTINCT globalPid FROM ") + table;
    }
    std::size_t processes = 0;
    if (!sql.empty()) {
        auto count = m_db.scalar("SELECT COUNT(*) FROM (" + sql + ")");
        if (!count)
            return fail(count.error());
        processes = static_cast<std::size_t>(count.value());
    }
    model::GpuActivityMapper::Options options;
    options.gpuRowsPerProcess = processes > 1;
    m_mapper.emplace(m_builder, options);
    return {};
}

model::Status NsysImport::readKernels() {
    return scanTable("CUPTI_ACTIVITY_KIND_KERNEL",
                     {"start",
                      "end",
                      "deviceId",
                      "contextId",
                      "streamId",
                      "correlationId",
                      "globalPid",
                      "gridX",
                      "gridY",
                      "gridZ",
                      "blockX",
                      "blockY",
                      "blockZ",
                      "registersPerThread",
                      "staticSharedMemory",
                      "dynamicSharedMemory",
                      "graphId",
                      "graphNodeId",
                      "demangledName",
                      "shortName"},
                     [&](Statement& r) {
                         model::KernelActivity a;
                         a.startNs = r.integer(0);
                         a.endNs = r.integer(1);
                         a.place = placeAt(r, 2);
                         auto dim = [&](int c) {
                             return r.isNull(c) ? 1 : static_cast<std::int32_t>(r.integer(c));
                         };
                         a.detail.grid = {dim(7), dim(8), dim(9)};
                         a.detail.block = {dim(10), dim(11), dim(12)};
                         a.detail.registersPerThread = static_cast<std::int32_t>(r.integer(13));
                         a.detail.staticSharedBytes = static_cast<std::int32_t>(r.integer(14));
                         a.detail.dynamicSharedBytes = static_cast<std::int32_t>(r.integer(15));
                         a.detail.graph.graphId = static_cast<std::uint32_t>(r.integer(16));
                         a.detail.graph.nodeId = static_cast<std::uint64_t>(r.integer(17));
                         a.name = stringOf(r, 18);
                         if (a.name.empty())
                             a.name = stringOf(r, 19);
                         if (a.name.empty())
                             a.name = "(unnamed kernel)";
                         m_mapper->add(a);
                     });
}

// Nsight Systems writes unified-memory migrations as copies of its own kinds (11-13,
// ENUM_CUDA_MEMCPY_OPER's UVM_HTOD, UVM_DTOH, UVM_DTOD), with their cause and address.
std::optional<model::UnifiedMemoryKind> migrationKindOf(std::int64_t copyKind) {
    switch (copyKind) {
        case 11:
            return model::UnifiedMemoryKind::MigrationHtoD;
        case 12:
            return model::UnifiedMemoryKind::MigrationDtoH;
        case 13:
            return model::UnifiedMemoryKind::MigrationDtoD;
        default:
            return std::nullopt;
    }
}

model::Status NsysImport::readCopies() {
    return scanTable(
        "CUPTI_ACTIVITY_KIND_MEMCPY",
        {"start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid", "bytes",
         "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "graphNodeId",
         "migrationCause", "virtualAddress"},
        [&](Statement& r) {
            if (const auto migration = migrationKindOf(r.integer(8))) {
                model::UnifiedMemoryActivity a;
                a.startNs = r.integer(0);
                a.endNs = r.integer(1);
                a.place = placeAt(r, 2);
                a.detail.kind = *migration;
                a.detail.bytes = static_cast<std::uint64_t>(r.integer(7));
                a.detail.address = static_cast<std::uint64_t>(r.integer(15));
                a.detail.cause =
                    model::migrationCauseFromCuptiCode(static_cast<std::uint32_t>(r.integer(14)));
                // The host is no device: the side that is not the GPU.
                const auto side = [&](int column, bool host) {
                    return host               ? model::kUnifiedMemoryCpu
                           : r.isNull(column) ? a.place.deviceId
                                              : static_cast<std::int32_t>(r.integer(column));
                };
                a.detail.srcDevice =
                    side(11, *migration == model::UnifiedMemoryKind::MigrationHtoD);
                a.detail.dstDevice =
                    side(12, *migration == model::UnifiedMemoryKind::MigrationDtoH);
                m_mapper->add(a);
                return;
            }
            model::CopyActivity a;
            a.startNs = r.integer(0);
            a.endNs = r.integer(1);
            a.place = placeAt(r, 2);
            a.detail.bytes = static_cast<std::uint64_t>(r.integer(7));
            a.detail.copyKind =
                model::copyKindFromCuptiCode(static_cast<std::uint32_t>(r.integer(8)));
            a.detail.srcKind =
                r.isNull(9) ? model::MemoryKind::Unknown : memoryKindOf(r.integer(9));
            a.detail.dstKind =
                r.isNull(10) ? model::MemoryKind::Unknown : memoryKindOf(r.integer(10));
            a.detail.srcDevice =
                r.isNull(11) ? a.place.deviceId : static_cast<std::int32_t>(r.integer(11));
            a.detail.dstDevice =
                r.isNull(12) ? a.place.deviceId : static_cast<std::int32_t>(r.integer(12));
            a.detail.graph.nodeId = static_cast<std::uint64_t>(r.integer(13));
            m_mapper->add(a);
        });
}

model::Status NsysImport::readMemsets() {
    return scanTable("CUPTI_ACTIVITY_KIND_MEMSET",
                     {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
                      "globalPid", "bytes", "value", "memKind", "graphNodeId"},
                     [&](Statement& r) {
                         model::MemsetActivity a;
                         a.startNs = r.integer(0);
                         a.endNs = r.integer(1);
                         a.place = placeAt(r, 2);
                         a.detail.bytes = static_cast<std::uint64_t>(r.integer(7));
                         a.detail.value = static_cast<std::uint32_t>(r.integer(8));
                         a.detail.memoryKind =
                             r.isNull(9) ? model::MemoryKind::Unknown : memoryKindOf(r.integer(9));
                         a.detail.graph.nodeId = static_cast<std::uint64_t>(r.integer(10));
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readGraphTraces() {
    return scanTable("CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
                     {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
                      "globalPid", "graphId", "graphExecId"},
                     [&](Statement& r) {
                         model::GraphLaunchActivity a;
                         a.startNs = r.integer(0);
                         a.endNs = r.integer(1);
                         a.place = placeAt(r, 2);
                         a.graphId = static_cast<std::uint32_t>(r.integer(7));
                         a.graphExecId = static_cast<std::uint64_t>(r.integer(8));
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readMemory() {
    return scanTable("CUDA_GPU_MEMORY_USAGE_EVENTS",
                     {"start", "deviceId", "contextId", "correlationId", "globalPid", "address",
                      "bytes", "memKind", "memoryOperationType"},
                     [&](Statement& r) {
                         model::MemoryActivity a;
                         a.timestampNs = r.integer(0);
                         a.place.deviceId = static_cast<std::int32_t>(r.integer(1));
                         a.place.contextId = static_cast<std::uint32_t>(r.integer(2));
                         a.place.correlationId = static_cast<std::uint64_t>(r.integer(3));
                         a.place.pid = pidOf(r.integer(4));
                         a.detail.address = static_cast<std::uint64_t>(r.integer(5));
                         a.detail.bytes = static_cast<std::uint64_t>(r.integer(6));
                         a.detail.memoryKind =
                             r.isNull(7) ? model::MemoryKind::Unknown : memoryKindOf(r.integer(7));
                         a.detail.op = r.integer(8) == 1 ? model::MemoryOp::Release
                                                         : model::MemoryOp::Allocation;
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readPageFaults() {
    // GPU page faults: one row per faulting page, numberOfPageFaults its fault groups; the
    // mapper counts those the driver serviced together as one event.
    auto status =
        scanTable("CUDA_UM_GPU_PAGE_FAULT_EVENTS",
                  {"start", "end", "globalPid", "deviceId", "address", "numberOfPageFaults",
                   "faultAccessType"},
                  [&](Statement& r) {
                      model::UnifiedMemoryActivity a;
                      a.startNs = r.integer(0);
                      a.endNs = r.integer(1);
                      a.place.pid = pidOf(r.integer(2));
                      a.place.deviceId = static_cast<std::int32_t>(r.integer(3));
                      a.detail.kind = model::UnifiedMemoryKind::GpuPageFault;
                      a.detail.address = static_cast<std::uint64_t>(r.integer(4));
                      a.detail.faultCount =
                          static_cast<std::uint64_t>(std::max<std::int64_t>(r.integer(5), 1));
                      a.detail.access =
                          model::faultAccessFromCuptiCode(static_cast<std::uint32_t>(r.integer(6)));
                      a.detail.srcDevice = a.place.deviceId;
                      m_mapper->add(a);
                  });
    if (!status)
        return status;
    // CPU page faults: instants of the host process.
    return scanTable("CUDA_UM_CPU_PAGE_FAULT_EVENTS",
                     {"start", "globalPid", "address", "originalFaultPc"}, [&](Statement& r) {
                         model::UnifiedMemoryActivity a;
                         a.startNs = r.integer(0);
                         a.endNs = a.startNs;
                         a.place.deviceId = -1;
                         a.hostProcess = hostProcess(pidOf(r.integer(1)));
                         a.detail.kind = model::UnifiedMemoryKind::CpuPageFault;
                         a.detail.address = static_cast<std::uint64_t>(r.integer(2));
                         a.detail.pc = static_cast<std::uint64_t>(r.integer(3));
                         a.detail.faultCount = 1;
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readEvents() {
    return scanTable("CUPTI_ACTIVITY_KIND_CUDA_EVENT",
                     {"deviceId", "contextId", "streamId", "correlationId", "globalPid", "eventId"},
                     [&](Statement& r) {
                         model::CudaEventActivity a;
                         a.place = placeAt(r, 0);
                         a.eventId = static_cast<std::uint64_t>(r.integer(5));
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readSyncs() {
    return scanTable("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                     {"start", "end", "deviceId", "contextId", "streamId", "correlationId",
                      "globalPid", "syncType", "eventId"},
                     [&](Statement& r) {
                         model::SyncActivity a;
                         a.startNs = r.integer(0);
                         a.endNs = r.integer(1);
                         a.place.deviceId = static_cast<std::int32_t>(r.integer(2));
                         a.place.contextId = static_cast<std::uint32_t>(r.integer(3));
                         a.place.correlationId = static_cast<std::uint64_t>(r.integer(5));
                         a.place.pid = pidOf(r.integer(6));
                         a.detail.syncKind =
                             model::syncKindFromCuptiCode(static_cast<std::uint32_t>(r.integer(7)));
                         a.detail.streamId = notApplicable(r, 4) ? -1 : r.integer(4);
                         if (!notApplicable(r, 8)) {
                             a.eventId = static_cast<std::uint64_t>(r.integer(8));
                             a.detail.eventId = a.eventId;
                         }
                         m_mapper->add(a);
                     });
}

model::Status NsysImport::readApi() {
    const std::string table = "CUPTI_ACTIVITY_KIND_RUNTIME";
    return scanTable(
        table,
        {"start", "end", "eventClass", "globalTid", "correlationId", "returnValue", "nameId"},
        [&](Statement& r) {
            const std::int64_t eventClass = r.isNull(2) ? kClassRuntime : r.integer(2);
            if (eventClass != kClassRuntime && eventClass != kClassDriver) {
                // CUDA backtraces (class 67 in 2022.x) and anything else of the table.
                ++m_skipped[table + " rows of event class " + std::to_string(eventClass)];
                return;
            }
            const std::int64_t globalTid = r.integer(3);
            const auto track = threadRow(m_apiRows, globalTid, "CUDA API", true);
            const std::string_view versioned = stringOf(r, 6);
            model::ApiActivity a;
            a.startNs = r.integer(0);
            a.endNs = r.integer(1);
            a.pid = pidOf(globalTid);
            a.tid = tidOf(globalTid);
            a.name = model::apiNameOf(versioned);
            if (a.name.empty())
                a.name = eventClass == kClassRuntime ? "CUDA runtime call" : "CUDA driver call";
            a.correlationId = static_cast<std::uint64_t>(r.integer(4));
            a.detail.apiKind =
                eventClass == kClassRuntime ? model::ApiKind::Runtime : model::ApiKind::Driver;
            a.detail.returnCode = static_cast<std::int32_t>(r.integer(5));
            if (versioned.size() != a.name.size())
                a.detail.versionedNameId = m_builder.intern(versioned);
            m_mapper->add(track, a);
        });
}

model::Status NsysImport::readNvtx() {
    const std::string table = "NVTX_EVENTS";
    if (!m_db.hasTable(table))
        return {};
    // The name: `text` when the program passed a string, else the registered string `textId`
    // names (most ranges of a 2022.x export).
    const std::string text = m_db.select(table, "t", {"text", "textId"});
    auto nameOf = [&](const Statement& r, int textColumn) {
        return r.isNull(textColumn) ? stringOf(r, textColumn + 1) : r.text(textColumn);
    };
    // Domains, categories and thread names first: the ranges are named by them.
    auto status = scan(
        "SELECT " + m_db.select(table, "t", {"eventType", "domainId", "category", "globalTid"}) +
            ", " + text + " FROM " + table + " AS t WHERE t.eventType IN (33, 39, 75)",
        [&](Statement& r) {
            const std::int64_t type = r.integer(0);
            std::string name(nameOf(r, 4));
            if (type == kNvtxDomainCreate)
                m_domains[r.integer(1)] = std::move(name);
            else if (type == kNvtxCategory)
                m_categories[{r.integer(1), r.integer(2)}] = std::move(name);
            else if (type == kNvtxThreadName && !name.empty())
                m_threadNames[r.integer(3)] = std::move(name);
        });
    if (!status)
        return status;
    const std::string sql =
        "SELECT " +
        m_db.select(table, "t",
                    {"start", "end", "eventType", "category", "color", "globalTid", "endGlobalTid",
                     "domainId", "uint64Value", "int64Value", "doubleValue", "uint32Value",
                     "int32Value", "floatValue"}) +
        ", " + text + " FROM " + table + " AS t";
    auto& diag = m_builder.diagnostics();
    std::uint64_t neverEnded = 0;
    status = scan(sql, [&](Statement& r) {
        const std::int64_t type = r.integer(2);
        if (type != kNvtxPushPop && type != kNvtxStartEnd && type != kNvtxMark) {
            if (type != kNvtxCategory && type != kNvtxThreadName && type != kNvtxDomainCreate)
                ++m_skipped[table + " rows of event type " + std::to_string(type)];
            return;
        }
        const std::int64_t globalTid = r.integer(5);
        const std::int64_t pid = pidOf(globalTid);
        const std::int64_t tid = tidOf(globalTid);
        const std::int64_t domainId = r.integer(7);
        const std::string domain = domainName(domainId);
        model::TimeNs start = r.integer(0);
        model::TimeNs end = start;
        if (type != kNvtxMark) {
            if (r.isNull(1)) {
                ++neverEnded;  // shown as a mark where it started
            } else {
                end = r.integer(1);
            }
        }
        model::NvtxDetail detail;
        detail.colorArgb = static_cast<std::uint32_t>(r.integer(4));
        detail.domainId = m_builder.intern(domain);
        detail.category = static_cast<std::int32_t>(r.integer(3));
        if (auto it = m_categories.find({domainId, r.integer(3)}); it != m_categories.end())
            detail.categoryNameId = m_builder.intern(it->second);
        for (int c = 8; c <= 13; ++c) {
            if (r.isNull(c))
                continue;
            detail.hasPayload = true;
            detail.payload = (c == 10 || c == 13) ? r.real(c) : static_cast<double>(r.integer(c));
            if (c == 8)
                detail.payload = static_cast<double>(static_cast<std::uint64_t>(r.integer(c)));
            break;
        }
        const bool crossesThreads = !r.isNull(6) && r.integer(6) != globalTid;
        model::TrackIndex track;
        if (type == kNvtxStartEnd || crossesThreads) {
            track = m_builder.nvtxAsyncTrack(hostProcess(pid), domain);
        } else {
            const auto key = std::make_tuple(pid, tid, domainId);
            if (auto it = m_nvtxRows.find(key); it != m_nvtxRows.end()) {
                track = it->second;
            } else {
                track = m_builder.nvtxTrack(hostProcess(pid), tid, domain);
                m_nvtxRows.emplace(key, track);
                m_threadRows.emplace_back(globalTid, track,
                                          domain.empty() ? "NVTX" : "NVTX " + domain);
            }
        }
        const std::string_view name = nameOf(r, 14);
        m_builder.addNvtx(track, start, end, name, detail);
    });
    if (neverEnded != 0) {
        diag.unmatchedEnds += neverEnded;
        diag.warn(std::to_string(neverEnded) +
                  " NVTX range(s) never ended (no end time in the export): shown as marks");
    }
    return status;
}

model::Status NsysImport::readOsRuntime() {
    return scanTable("OSRT_API", {"start", "end", "globalTid", "nameId"}, [&](Statement& r) {
        const auto track = threadRow(m_osrtRows, r.integer(2), "OS runtime", false);
        std::string_view text = stringOf(r, 3);
        if (text.empty())
            text = "OS runtime call";
        m_builder.addSlice(track, r.integer(0), std::max(r.integer(0), r.integer(1)), text,
                           model::SliceKind::Other);
    });
}

model::Status NsysImport::readMetrics() {
    const std::string table = "GPU_METRICS";
    if (!m_db.hasTable(table))
        return {};
    // Metric names (TARGET_INFO_GPU_METRICS: typeId, metricId, metricName); the GPU is the
    // type's low byte (inference: one type per GPU).
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> names;
    const auto status = scanTable("TARGET_INFO_GPU_METRICS", {"typeId", "metricId", "metricName"},
                                  [&](Statement& r) {
                                      names[{r.integer(0), r.integer(1)}] = std::string(r.text(2));
                                  });
    if (!status)
        return status;
    std::map<std::pair<std::int64_t, std::int64_t>, std::uint32_t> counters;
    return scanTable(table, {"timestamp", "typeId", "metricId", "value"}, [&](Statement& r) {
        const auto key = std::make_pair(r.integer(1), r.integer(2));
        auto [it, fresh] = counters.try_emplace(key, 0);
        if (fresh) {
            auto named = names.find(key);
            const std::string series = named != names.end() && !named->second.empty()
                                           ? named->second
                                           : "metric " + std::to_string(key.second);
            const auto device = static_cast<std::int32_t>(key.first & 0xFF);
            it->second =
                m_builder.counterTrack(m_mapper->gpuProcess(device), "GPU metrics", series);
        }
        m_builder.addCounterSample(it->second, r.integer(0), r.real(3));
    });
}

model::Status NsysImport::readDevices() {
    if (!m_db.hasTable("TARGET_INFO_GPU"))
        return {};
    const std::string table = "TARGET_INFO_GPU";
    const std::string sql = "SELECT " +
                            m_db.select(table, "t",
                                        {"id",
                                         "name",
                                         "smCount",
                                         "totalMemory",
                                         "clockRate",
                                         "memoryBandwidth",
                                         "computeMajor",
                                         "computeMinor",
                                         "maxRegistersPerBlock",
                                         "maxShmemPerBlock",
                                         "maxShmemPerBlockOptin",
                                         "maxShmemPerSm",
                                         "maxRegistersPerSm",
                                         "threadsPerWarp",
                                         "maxWarpsPerSm",
                                         "maxBlocksPerSm",
                                         "maxThreadsPerBlock",
                                         "l2CacheSize",
                                         "uuid",
                                         "busLocation"}) +
                            " FROM " + table + " AS t";
    const auto& gpus = m_mapper->gpuProcesses();
    return scan(sql, [&](Statement& r) {
        const auto id = static_cast<std::int32_t>(r.integer(0));
        // Exports list every GPU of the node: the ones that ran work are the trace's.
        bool ran = false;
        for (const auto& [key, process] : gpus)
            ran |= key.first == id;
        if (!ran)
            return;
        model::DeviceProperties p;
        p.id = id;
        p.name = std::string(r.text(1));
        p.smCount = static_cast<std::int32_t>(r.integer(2));
        p.totalMemoryBytes = r.integer(3);
        p.clockRateKHz = static_cast<std::int32_t>(r.integer(4) / 1000);  // Hz
        p.memoryBandwidthGBps = static_cast<double>(r.integer(5)) / 1e9;  // bytes/s
        p.computeMajor = static_cast<std::int32_t>(r.integer(6));
        p.computeMinor = static_cast<std::int32_t>(r.integer(7));
        p.registersPerBlock = static_cast<std::int32_t>(r.integer(8));
        p.sharedMemoryPerBlockBytes = r.integer(9);
        p.sharedMemoryPerBlockOptinBytes = r.integer(10);
        p.sharedMemoryPerSmBytes = r.integer(11);
        p.registersPerSm = static_cast<std::int32_t>(r.integer(12));
        if (!r.isNull(13) && r.integer(13) > 0)
            p.warpSize = static_cast<std::int32_t>(r.integer(13));
        p.maxWarpsPerSm = static_cast<std::int32_t>(r.integer(14));
        p.maxThreadsPerSm = p.maxWarpsPerSm * p.warpSize;
        p.maxBlocksPerSm = static_cast<std::int32_t>(r.integer(15));
        p.maxThreadsPerBlock = static_cast<std::int32_t>(r.integer(16));
        p.l2CacheBytes = r.integer(17);
        p.uuid = std::string(r.text(18));
        p.pciBusId = std::string(r.text(19));
        m_builder.addDevice(p);
        for (const auto& [key, process] : gpus) {
            if (key.first == id && !p.name.empty())
                m_builder.setProcessName(process, "GPU " + std::to_string(id) + ": " + p.name);
        }
    });
}

model::Status NsysImport::countUnread() {
    auto& diag = m_builder.diagnostics();
    for (const auto& [what, count] : m_skipped)
        diag.note(std::to_string(count) + " " + what + " not read");
    for (const std::string& table : m_db.tables()) {
        if (tablesRead().count(table) || isDescriptive(table))
            continue;
        auto rows = m_db.scalar("SELECT COUNT(*) FROM " + nsys::quoteName(table));
        if (!rows)
            return fail(rows.error());
        if (rows.value() > 0)
            diag.note(std::to_string(rows.value()) + " rows of " + table + " not read");
    }
    return {};
}

void NsysImport::nameThreads() {
    for (const auto& [globalTid, track, prefix] : m_threadRows) {
        std::string name = prefix;
        if (auto it = m_threadNames.find(globalTid); it != m_threadNames.end())
            name += ": " + it->second;
        name += " (tid " + std::to_string(tidOf(globalTid)) + ")";
        m_builder.setTrackName(track, name);
    }
}

model::Result<model::TracePtr> NsysImport::run() {
    // An nsys export has its string table and at least one of its own tables.
    static const char* const kMarks[] = {"META_DATA_EXPORT",
                                         "EXPORT_META_DATA",
                                         "CUPTI_ACTIVITY_KIND_KERNEL",
                                         "CUPTI_ACTIVITY_KIND_RUNTIME",
                                         "NVTX_EVENTS",
                                         "TARGET_INFO_SESSION_START_TIME",
                                         "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "OSRT_API"};
    m_hasStrings = m_db.hasTable("StringIds");
    const bool marked = std::any_of(std::begin(kMarks), std::end(kMarks),
                                    [&](const char* t) { return m_db.hasTable(t); });
    if (!m_hasStrings || !marked) {
        return model::Error{
            "an SQLite database, but not an Nsight Systems export (no StringIds, "
            "META_DATA_EXPORT or CUPTI_ACTIVITY_KIND_* tables); export a report "
            "with `nsys export --type sqlite`",
            m_path, -1};
    }
    if (m_db.hasColumn("StringIds", "id") && m_db.hasColumn("StringIds", "value")) {
        auto lookup = m_db.prepare("SELECT value FROM StringIds WHERE id = ?");
        if (!lookup)
            return fail(lookup.error());
        m_stringLookup.emplace(std::move(lookup.value()));
    }
    // Rows to read, for progress: each table's largest rowid (no scan).
    for (const std::string& table : tablesRead()) {
        if (!m_db.hasTable(table))
            continue;
        auto rows = m_db.scalar("SELECT MAX(rowid) FROM " + nsys::quoteName(table));
        if (!rows)
            return fail(rows.error());
        m_rowsTotal += static_cast<std::uint64_t>(std::max<std::int64_t>(0, rows.value()));
    }
    m_control.report(0, m_rowsTotal);
    for (auto step :
         {&NsysImport::readMetadata, &NsysImport::readNames, &NsysImport::chooseRows,
          &NsysImport::readKernels, &NsysImport::readCopies, &NsysImport::readMemsets,
          &NsysImport::readGraphTraces, &NsysImport::readMemory, &NsysImport::readPageFaults,
          &NsysImport::readEvents, &NsysImport::readSyncs, &NsysImport::readApi,
          &NsysImport::readNvtx, &NsysImport::readOsRuntime, &NsysImport::readMetrics,
          &NsysImport::readDevices, &NsysImport::countUnread}) {
        if (auto status = (this->*step)(); !status)
            return status.error();
    }
    m_mapper->complete();
    nameThreads();
    if (!m_schemaVersion.empty()) {
        const int major = std::atoi(m_schemaVersion.c_str());
        if (major != 2 && major != 3)
            m_builder.diagnostics().warn("export schema " + m_schemaVersion +
                                         " is newer than the ones Warpline knows (2.x, 3.x): "
                                         "tables or columns it changed may be missing");
    }
    m_builder.setMetadata(
        "producer",
        "Nsight Systems" + (m_productVersion.empty() ? std::string() : " " + m_productVersion));
    if (!m_schemaVersion.empty())
        m_builder.setMetadata("nsys export schema", m_schemaVersion);
    m_control.report(m_rowsTotal, m_rowsTotal);
    return m_builder.finalize();
}

}  // namespace

model::Result<model::TracePtr> readNsysSqlite(const std::string& path, const ReadControl& control) {
    auto db = nsys::Database::open(path);
    if (!db)
        return db.error();
    NsysImport import(*db.value(), path, control);
    return import.run();
}

bool NsysSqliteReader::recognizes(std::string_view head) const {
    return head.starts_with(std::string_view("SQLite format 3\0", 16));
}

model::Result<model::TracePtr> NsysSqliteReader::readFile(const std::string& path,
                                                          const ReadControl& control) const {
    return readNsysSqlite(path, control);
}

}  // namespace wl::io
