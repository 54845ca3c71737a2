// Nsight Systems exports: the real ones other projects committed (../shared/external-traces/nsys,
// 2022.2 to 2026.1), counted independently here through SQLite queries of the same files, and
// small hand-made databases for what a real file rarely shows (bad input, a column inserted in
// the middle, two processes with the same correlation ids). The .nsys-rep path runs a fake
// `nsys` this test writes.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "io/TraceFile.h"
#include "model/GpuActivity.h"
#include "support/TestData.h"

namespace wl::io {
namespace {

namespace fs = std::filesystem;

const fs::path kNsysDir = fs::path(WARPLINE_EXTERNAL_TRACES_DIR) / "nsys";

std::vector<fs::path> realExports() {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(kNsysDir, ec)) {
        if (entry.path().extension() == ".sqlite")
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// A database opened with SQLite itself, for counts that do not go through the reader.
class Db {
public:
    explicit Db(const std::string& path, int flags = SQLITE_OPEN_READONLY) {
        EXPECT_EQ(sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr), SQLITE_OK) << path;
    }
    ~Db() { sqlite3_close(m_db); }
    bool has(const std::string& table) {
        return count("SELECT COUNT(*) FROM sqlite_master WHERE name = '" + table + "'") > 0;
    }
    std::int64_t count(const std::string& sql) {
        std::int64_t out = 0;
        query(sql, [&](sqlite3_stmt* s) { out = sqlite3_column_int64(s, 0); });
        return out;
    }
    template <typename F>
    void query(const std::string& sql, F each) {
        sqlite3_stmt* s = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr), SQLITE_OK)
            << sql << ": " << sqlite3_errmsg(m_db);
        while (sqlite3_step(s) == SQLITE_ROW)
            each(s);
        sqlite3_finalize(s);
    }
    void exec(const std::string& sql) {
        char* error = nullptr;
        ASSERT_EQ(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
            << sql << ": " << (error ? error : "");
        sqlite3_free(error);
    }
    std::int64_t rows(const std::string& table, const std::string& where = "") {
        if (!has(table))
            return 0;
        return count("SELECT COUNT(*) FROM " + table + (where.empty() ? "" : " WHERE " + where));
    }

private:
    sqlite3* m_db = nullptr;
};

std::map<model::SliceKind, std::uint64_t> sliceKinds(const model::Trace& trace) {
    std::map<model::SliceKind, std::uint64_t> kinds;
    for (const model::Track& t : trace.tracks()) {
        if (model::isDerived(t.kind))
            continue;
        for (const model::Slice& s : t.slices)
            ++kinds[s.kind];
    }
    return kinds;
}

// Length of the union of intervals.
std::int64_t unionLength(std::vector<std::pair<std::int64_t, std::int64_t>> v) {
    std::sort(v.begin(), v.end());
    std::int64_t total = 0;
    std::int64_t curStart = 0, curEnd = 0;
    bool open = false;
    for (const auto& [s, e] : v) {
        if (!open || s > curEnd) {
            if (open)
                total += curEnd - curStart;
            curStart = s;
            curEnd = e;
            open = true;
        } else {
            curEnd = std::max(curEnd, e);
        }
    }
    if (open)
        total += curEnd - curStart;
    return total;
}

TEST(NsysReader, RealExportsMatchTheirTables) {
    const auto files = realExports();
    if (files.empty())
        GTEST_SKIP() << "no Nsight Systems exports in " << kNsysDir;
    EXPECT_GE(files.size(), 4u);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.filename().string());
        const auto loaded = loadTrace(file.string());
        ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
        const model::Trace& trace = *loaded.value();
        Db db(file.string());
        const auto kinds = sliceKinds(trace);
        auto kind = [&](model::SliceKind k) {
            auto it = kinds.find(k);
            return it == kinds.end() ? 0 : static_cast<std::int64_t>(it->second);
        };
        // A graph traced as a whole is one kernel slice per launch.
        EXPECT_EQ(kind(model::SliceKind::Kernel), db.rows("CUPTI_ACTIVITY_KIND_KERNEL") +
                                                      db.rows("CUPTI_ACTIVITY_KIND_GRAPH_TRACE"));
        // Copies of Nsight's unified-memory kinds (11-13) are migrations.
        constexpr const char* kMigrations = "copyKind IN (11, 12, 13)";
        EXPECT_EQ(kind(model::SliceKind::Memcpy),
                  db.rows("CUPTI_ACTIVITY_KIND_MEMCPY") -
                      db.rows("CUPTI_ACTIVITY_KIND_MEMCPY", kMigrations));
        // GPU page faults of one batch are one event: at most a row each.
        const std::int64_t migrations = db.rows("CUPTI_ACTIVITY_KIND_MEMCPY", kMigrations);
        const std::int64_t cpuFaults = db.rows("CUDA_UM_CPU_PAGE_FAULT_EVENTS");
        const std::int64_t gpuFaults = db.rows("CUDA_UM_GPU_PAGE_FAULT_EVENTS");
        EXPECT_GE(kind(model::SliceKind::UnifiedMemory), migrations + cpuFaults + (gpuFaults > 0));
        EXPECT_LE(kind(model::SliceKind::UnifiedMemory), migrations + cpuFaults + gpuFaults);
        EXPECT_EQ(kind(model::SliceKind::Memset), db.rows("CUPTI_ACTIVITY_KIND_MEMSET"));
        EXPECT_EQ(kind(model::SliceKind::RuntimeApi),
                  db.rows("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass = 0"));
        EXPECT_EQ(kind(model::SliceKind::DriverApi),
                  db.rows("CUPTI_ACTIVITY_KIND_RUNTIME", "eventClass = 1"));
        EXPECT_EQ(kind(model::SliceKind::Nvtx),
                  db.rows("NVTX_EVENTS", "eventType IN (34, 59, 60)"));
        EXPECT_EQ(kind(model::SliceKind::Sync), db.rows("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
        // OS runtime calls, on their threads' rows.
        EXPECT_EQ(kind(model::SliceKind::Other), db.rows("OSRT_API"));

        // GPU busy per device: the union of the GPU tables' intervals, against the union of the
        // trace's GPU work on that device.
        std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> expected;
        for (const char* table :
             {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
              "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"}) {
            if (!db.has(table))
                continue;
            const std::string table_(table);
            const std::string where =
                table_ == "CUPTI_ACTIVITY_KIND_MEMCPY" ? " WHERE copyKind NOT IN (11, 12, 13)" : "";
            db.query("SELECT deviceId, start, end FROM " + table_ + where, [&](sqlite3_stmt* s) {
                expected[sqlite3_column_int64(s, 0)].emplace_back(sqlite3_column_int64(s, 1),
                                                                  sqlite3_column_int64(s, 2));
            });
        }
        std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> got;
        for (const model::Track& t : trace.tracks()) {
            if (t.kind != model::TrackKind::GpuStream)
                continue;
            for (const model::Slice& s : t.slices) {
                if (model::isGpuWork(s.kind))
                    got[t.deviceId].emplace_back(s.startNs, s.endNs());
            }
        }
        ASSERT_EQ(got.size(), expected.size());
        for (auto& [device, intervals] : expected)
            EXPECT_EQ(unionLength(got[device]), unionLength(intervals)) << "GPU " << device;

        // Names as users know them: no API call keeps a version suffix.
        for (const model::Track& t : trace.tracks()) {
            for (const model::Slice& s : t.slices) {
                if (s.kind != model::SliceKind::RuntimeApi && s.kind != model::SliceKind::DriverApi)
                    continue;
                const std::string_view name = trace.strings().get(s.nameId);
                EXPECT_EQ(model::apiNameOf(name), name);
            }
        }
        // Launches are linked: every GPU op whose call is in the table finds it.
        if (db.has("CUPTI_ACTIVITY_KIND_KERNEL") && db.has("CUPTI_ACTIVITY_KIND_RUNTIME")) {
            const auto linked = db.count(
                "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
                "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND "
                "r.globalTid / 16777216 % 16777216 = k.globalPid / 16777216 % 16777216 AND "
                "r.eventClass IN (0, 1))");
            std::int64_t kernelFlows = 0;
            for (const model::Flow& f : trace.flows()) {
                if (trace.slice(f.to).kind == model::SliceKind::Kernel &&
                    trace.strings().get(trace.slice(f.to).nameId).rfind("CUDA graph ", 0) != 0)
                    ++kernelFlows;
            }
            EXPECT_EQ(kernelFlows, linked);
        }

        // convert: our JSON has the same kernels.
        const std::string out = test::makeTempDir("wl-nsys-convert") + "/out.json.gz";
        ASSERT_TRUE(saveTrace(trace, out).ok());
        const auto back = loadTrace(out);
        ASSERT_TRUE(back.ok()) << back.error().describe();
        EXPECT_EQ(back.value()->counts().kernel, trace.counts().kernel);
        EXPECT_EQ(back.value()->counts().memcpy, trace.counts().memcpy);
        EXPECT_EQ(back.value()->counts().api, trace.counts().api);
        EXPECT_EQ(back.value()->counts().nvtx, trace.counts().nvtx);
    }
}

TEST(NsysReader, NvtxRangesOf2022AreAllNamed) {
    const fs::path file = kNsysDir / "nsys-2022.2-pipit-saxpy-mpi.sqlite";
    if (!fs::exists(file))
        GTEST_SKIP();
    const auto loaded = loadTrace(file.string());
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    Db db(file.string());
    // Most of its ranges have their name only in textId (StringIds).
    ASSERT_GT(db.rows("NVTX_EVENTS", "eventType = 59 AND text IS NULL"), 0);
    std::multiset<std::string> expected;
    db.query(
        "SELECT COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN StringIds s ON "
        "s.id = n.textId WHERE n.eventType IN (34, 59, 60)",
        [&](sqlite3_stmt* s) {
            const auto* t = sqlite3_column_text(s, 0);
            expected.insert(t ? reinterpret_cast<const char*>(t) : "");
        });
    std::multiset<std::string> names;
    for (const model::Track& t : loaded.value()->tracks()) {
        if (model::isDerived(t.kind))
            continue;  // the ranges' GPU projections
        for (const model::Slice& s : t.slices) {
            if (s.kind == model::SliceKind::Nvtx) {
                names.insert(std::string(loaded.value()->strings().get(s.nameId)));
                EXPECT_FALSE(names.count(""));
            }
        }
    }
    EXPECT_EQ(names, expected);
    EXPECT_EQ(names.count(""), 0u);
}

TEST(NsysReader, GraphTracedReportShowsItsLaunches) {
    const fs::path file = kNsysDir / "nsys-2025.5-flameox-graph-trace.sqlite";
    if (!fs::exists(file))
        GTEST_SKIP();
    const auto loaded = loadTrace(file.string());
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    Db db(file.string());
    std::multiset<std::string> expected;
    db.query("SELECT graphId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE", [&](sqlite3_stmt* s) {
        expected.insert("CUDA graph " + std::to_string(sqlite3_column_int64(s, 0)));
    });
    ASSERT_FALSE(expected.empty());
    std::multiset<std::string> launches;
    std::size_t fromGraphLaunch = 0;
    for (const model::Track& t : trace.tracks()) {
        for (const model::Slice& s : t.slices) {
            const std::string name(trace.strings().get(s.nameId));
            if (s.kind == model::SliceKind::Kernel && name.rfind("CUDA graph ", 0) == 0)
                launches.insert(name);
        }
    }
    for (const model::Flow& f : trace.flows()) {
        if (std::string(trace.strings().get(trace.slice(f.to).nameId)).rfind("CUDA graph ", 0) ==
                0 &&
            trace.strings().get(trace.slice(f.from).nameId) == "cudaGraphLaunch")
            ++fromGraphLaunch;
    }
    EXPECT_EQ(launches, expected);
    EXPECT_EQ(fromGraphLaunch, expected.size());
}

// A minimal export: the tables a reader needs, made here.
void makeExport(Db& db, bool kernelColumnInMiddle = false) {
    db.exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
    db.exec("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)");
    db.exec(
        "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.24.14'), "
        "('EXPORT_PRODUCT_VERSION', '2026.1.1.204')");
    db.exec(
        "INSERT INTO StringIds VALUES (1, 'saxpy'), (2, 'cudaLaunchKernel_v7000'), "
        "(3, 'axpy_kernel(float*)')");
    db.exec(std::string("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, "
                        "deviceId INTEGER, contextId INTEGER, ") +
            (kernelColumnInMiddle ? "greenContextId INTEGER, " : "") +
            "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, "
            "shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, "
            "blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER)");
    db.exec(
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass "
        "INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue "
        "INTEGER)");
}

std::string handMade(const std::string& name) {
    return test::makeTempDir("wl-nsys-hand") + "/" + name;
}

TEST(NsysReader, ColumnsAreReadByName) {
    const std::string path = handMade("middle.sqlite");
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db, true);
        const std::int64_t pid = (std::int64_t{7} << 24);
        const std::string cols =
            "(start, end, deviceId, contextId, greenContextId, streamId, "
            "correlationId, globalPid, demangledName, shortName, gridX, gridY, "
            "gridZ, blockX, blockY, blockZ, registersPerThread)";
        db.exec("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL " + cols +
                " VALUES (1000, 2000, 0, 1, 99, 13, 5, " + std::to_string(pid) +
                ", 3, 1, 64, 2, 1, 128, 1, 1, 32)");
        db.exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (900, 950, 0, " +
                std::to_string(pid + 8) + ", 5, 2, 0)");
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    ASSERT_EQ(trace.counts().kernel, 1u);
    for (const model::Track& t : trace.tracks()) {
        if (t.kind == model::TrackKind::GpuStream) {
            EXPECT_EQ(t.streamId, 13);  // not the green context id before it
            const model::KernelDetail* k = trace.kernel(t.slices.front());
            ASSERT_NE(k, nullptr);
            EXPECT_EQ(k->grid[0], 64);
            EXPECT_EQ(k->block[0], 128);
            EXPECT_EQ(k->registersPerThread, 32);
            EXPECT_EQ(trace.strings().get(t.slices.front().nameId), "axpy_kernel(float*)");
        }
        if (t.kind == model::TrackKind::HostApi) {
            EXPECT_EQ(trace.strings().get(t.slices.front().nameId), "cudaLaunchKernel");
            const model::ApiDetail* a = trace.api(t.slices.front());
            ASSERT_NE(a, nullptr);
            EXPECT_EQ(trace.strings().get(a->versionedNameId), "cudaLaunchKernel_v7000");
        }
    }
    EXPECT_EQ(trace.counts().flows, 1u);
}

// Unified memory as Nsight Systems exports it (none of the real exports holds any): migrations
// as copies of its kinds 11-13 with their cause and address, GPU page faults one row per page,
// CPU page faults as instants of their process.
TEST(NsysReader, UnifiedMemoryMigrationsAndPageFaults) {
    const std::string path = handMade("um.sqlite");
    const std::int64_t pid = std::int64_t{4242} << 24;
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db);
        db.exec(
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT "
            "NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind "
            "INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, "
            "srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId "
            "INTEGER, migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER)");
        const std::string p = std::to_string(pid);
        // 2 MiB to GPU 0 for a page fault, 64 KiB back for an eviction, a plain HtoD copy.
        db.exec(
            "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, "
            "streamId, correlationId, globalPid, bytes, copyKind, srcDeviceId, dstDeviceId, "
            "migrationCause, virtualAddress) VALUES "
            "(1000, 3000, 0, 1, 0, 0, " +
            p +
            ", 2097152, 11, NULL, 0, 2, 139637976727552), "
            "(5000, 5100, 0, 1, 0, 0, " +
            p +
            ", 65536, 12, 0, NULL, 4, 139637978824704), "
            "(6000, 7000, 0, 1, 7, 9, " +
            p + ", 4096, 1, 0, 0, NULL, NULL)");
        db.exec(
            "CREATE TABLE CUDA_UM_GPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL, address INTEGER NOT "
            "NULL, numberOfPageFaults INTEGER NOT NULL, faultAccessType INTEGER NOT NULL)");
        db.exec(
            "INSERT INTO CUDA_UM_GPU_PAGE_FAULT_EVENTS VALUES "
            "(900, 2900, " +
            p +
            ", 0, 139637976731648, 1, 1), "
            "(900, 2900, " +
            p +
            ", 0, 139637976727552, 2, 1), "
            "(4000, 4500, " +
            p + ", 0, 139637976735744, 1, 2)");
        db.exec(
            "CREATE TABLE CUDA_UM_CPU_PAGE_FAULT_EVENTS (start INTEGER NOT NULL, globalPid "
            "INTEGER NOT NULL, address INTEGER NOT NULL, originalFaultPc INTEGER, CpuInstruction "
            "INTEGER NOT NULL, module INTEGER NOT NULL, unresolvedFaultPc INTEGER)");
        db.exec("INSERT INTO CUDA_UM_CPU_PAGE_FAULT_EVENTS VALUES (8000, " + p +
                ", 139637976727552, 4198964, 1, 1, 0)");
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    EXPECT_EQ(trace.counts().memcpy, 1u);  // the plain copy
    EXPECT_EQ(trace.counts().unifiedMemory, 5u);
    for (const std::string& note : trace.diagnostics().notes)
        EXPECT_EQ(note.find("CUDA_UM_"), std::string::npos) << note;  // every table is read

    using K = model::UnifiedMemoryKind;
    std::map<K, std::vector<std::pair<const model::Slice*, const model::UnifiedMemoryDetail*>>> by;
    std::map<K, const model::Track*> rows;
    for (const model::Track& t : trace.tracks()) {
        if (t.kind != model::TrackKind::UnifiedMemory)
            continue;
        rows[t.unifiedMemoryKind] = &t;
        for (const model::Slice& s : t.slices)
            by[t.unifiedMemoryKind].emplace_back(&s, trace.unifiedMemory(s));
    }
    ASSERT_EQ(rows.size(), 4u);
    const auto& htod = by.at(K::MigrationHtoD).at(0);
    EXPECT_EQ(htod.second->bytes, 2u << 20);
    EXPECT_EQ(htod.second->cause, model::UnifiedMemoryCause::Coherence);
    EXPECT_EQ(htod.second->address, 139637976727552u);
    EXPECT_EQ(htod.second->srcDevice, model::kUnifiedMemoryCpu);
    EXPECT_EQ(htod.second->dstDevice, 0);
    EXPECT_EQ(htod.first->durationNs, 2000);
    EXPECT_EQ(trace.processes()[rows.at(K::MigrationHtoD)->process].deviceId, 0);
    const auto& dtoh = by.at(K::MigrationDtoH).at(0);
    EXPECT_EQ(dtoh.second->cause, model::UnifiedMemoryCause::Eviction);
    EXPECT_EQ(dtoh.second->srcDevice, 0);
    EXPECT_EQ(dtoh.second->dstDevice, model::kUnifiedMemoryCpu);

    // The first two faults were serviced together: one event of 3 faults at the lower page.
    auto faults = by.at(K::GpuPageFault);
    ASSERT_EQ(faults.size(), 2u);
    std::sort(faults.begin(), faults.end(),
              [](const auto& a, const auto& b) { return a.first->startNs < b.first->startNs; });
    EXPECT_EQ(faults[0].second->faultCount, 3u);
    EXPECT_EQ(faults[0].second->address, 139637976727552u);
    EXPECT_EQ(faults[0].second->access, model::UnifiedMemoryAccess::Read);
    EXPECT_EQ(faults[1].second->faultCount, 1u);
    EXPECT_EQ(faults[1].second->access, model::UnifiedMemoryAccess::Write);

    const model::Track& cpu = *rows.at(K::CpuPageFault);
    EXPECT_EQ(trace.processes()[cpu.process].deviceId, -1);
    EXPECT_EQ(trace.processes()[cpu.process].pid, 4242);
    const auto& cpuFault = by.at(K::CpuPageFault).at(0);
    EXPECT_EQ(cpuFault.first->durationNs, 0);
    EXPECT_EQ(cpuFault.second->pc, 4198964u);
}

TEST(NsysReader, CorrelationIdsArePerProcess) {
    const std::string path = handMade("two.sqlite");
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db);
        // Two processes, both with correlation id 5; their calls at different times.
        for (int p : {100, 200}) {
            const std::int64_t pid = std::int64_t{p} << 24;
            db.exec(
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, "
                "streamId, correlationId, globalPid, demangledName) VALUES (" +
                std::to_string(p * 100) + ", " + std::to_string(p * 100 + 50) + ", 0, 1, 7, 5, " +
                std::to_string(pid) + ", 3)");
            db.exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" +
                    std::to_string(p * 100 - 20) + ", " + std::to_string(p * 100 - 10) + ", 0, " +
                    std::to_string(pid + p + 1) + ", 5, 2, 0)");
        }
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    ASSERT_EQ(trace.flows().size(), 2u);
    for (const model::Flow& f : trace.flows()) {
        const model::Track& from = trace.tracks()[f.from.track];
        const model::Track& to = trace.tracks()[f.to.track];
        // The call is in the process that owns the GPU work.
        EXPECT_EQ(trace.processes()[from.process].pid, trace.processes()[to.process].ownerPid);
        EXPECT_LT(trace.slice(f.from).startNs, trace.slice(f.to).startNs);
        EXPECT_LT(trace.slice(f.to).startNs - trace.slice(f.from).startNs, 100);
    }
}

TEST(NsysReader, NvtxKeepsDomainsCategoriesColoursAndPayloads) {
    const std::string path = handMade("nvtx.sqlite");
    const std::int64_t thread = (std::int64_t{42} << 24) + 43;
    const std::int64_t other = (std::int64_t{42} << 24) + 44;
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db);
        db.exec("INSERT INTO StringIds VALUES (20, 'registered name')");
        db.exec(
            "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER "
            "NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid "
            "INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value "
            "INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value "
            "INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT)");
        const std::string t = std::to_string(thread);
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES "
            "(0, NULL, 75, 'MPI', " +
            t + ", 7)");
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, category, text, globalTid, "
            "domainId) VALUES (0, NULL, 33, 3, 'Comms', " +
            t + ", 7)");
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES "
            "(0, NULL, 39, 'worker', " +
            t + ")");
        // A push/pop range named by textId, with category, colour and payload, in domain MPI.
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, category, color, globalTid, "
            "textId, domainId, int64Value) VALUES (100, 500, 59, 3, 4278255360, " +
            t + ", 20, 7, -5)");
        // A mark, and a start/end range that ends on another thread.
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES "
            "(200, NULL, 34, 'mark', " +
            t + ")");
        db.exec(
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, endGlobalTid) "
            "VALUES (150, 900, 60, 'async', " +
            t + ", " + std::to_string(other) + ")");
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    EXPECT_EQ(trace.counts().nvtx, 3u);
    bool sawRange = false, sawMark = false, sawAsync = false;
    for (const model::Track& track : trace.tracks()) {
        if (model::isDerived(track.kind))
            continue;
        for (const model::Slice& s : track.slices) {
            if (s.kind != model::SliceKind::Nvtx)
                continue;
            const std::string name(trace.strings().get(s.nameId));
            const model::NvtxDetail* d = trace.nvtx(s);
            ASSERT_NE(d, nullptr);
            if (name == "registered name") {
                sawRange = true;
                EXPECT_EQ(track.kind, model::TrackKind::Nvtx);
                EXPECT_EQ(track.threadId, 43);
                EXPECT_EQ(trace.strings().get(d->domainId), "MPI");
                EXPECT_EQ(trace.strings().get(d->categoryNameId), "Comms");
                EXPECT_EQ(d->colorArgb, 4278255360u);
                EXPECT_TRUE(d->hasPayload);
                EXPECT_EQ(d->payload, -5.0);
                EXPECT_EQ(s.durationNs, 400);
                EXPECT_NE(std::string(trace.strings().get(track.nameId)).find("worker"),
                          std::string::npos);
            } else if (name == "mark") {
                sawMark = true;
                EXPECT_EQ(s.durationNs, 0);
            } else if (name == "async") {
                sawAsync = true;
                EXPECT_EQ(track.kind, model::TrackKind::NvtxAsync);
            }
        }
    }
    EXPECT_TRUE(sawRange && sawMark && sawAsync);
}

TEST(NsysReader, GpuMetricsAreCounters) {
    const std::string path = handMade("metrics.sqlite");
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db);
        db.exec(
            "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER, sourceId INTEGER, typeName "
            "TEXT, metricId INTEGER, metricName TEXT)");
        db.exec("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (1, 0, 'GA100', 5, 'SM Active')");
        db.exec(
            "CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER, metricId INTEGER, "
            "value INTEGER)");
        db.exec("INSERT INTO GPU_METRICS VALUES (100, 1, 5, 40), (200, 1, 5, 60), (300, 1, 5, 0)");
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const auto counters = loaded.value()->counters();
    ASSERT_EQ(counters.size(), 1u);
    EXPECT_EQ(loaded.value()->strings().get(counters[0].seriesId), "SM Active");
    ASSERT_EQ(counters[0].samples.size(), 3u);
    EXPECT_EQ(counters[0].samples[1].value, 60.0);
}

TEST(NsysReader, MissingTablesAreAbsentNotErrors) {
    const std::string path = handMade("bare.sqlite");
    {
        Db db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
        db.exec("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)");
        db.exec("CREATE TABLE SOMETHING_NEW (start INTEGER)");
        db.exec("INSERT INTO SOMETHING_NEW VALUES (1), (2)");
    }
    const auto loaded = loadTrace(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    EXPECT_EQ(loaded.value()->counts().slices, 0u);
    const auto& notes = loaded.value()->diagnostics().notes;
    EXPECT_NE(std::find(notes.begin(), notes.end(), "2 rows of SOMETHING_NEW not read"),
              notes.end());
}

TEST(NsysReader, BadInputIsAClearError) {
    // An SQLite database that is not an export.
    const std::string other = handMade("other.sqlite");
    {
        Db db(other, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec("CREATE TABLE people (name TEXT)");
    }
    auto loaded = loadTrace(other);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find("not an Nsight Systems export"), std::string::npos)
        << loaded.error().message;
    EXPECT_EQ(loaded.error().file, other);

    // Truncated: the first pages of a real export.
    const fs::path real = kNsysDir / "nsys-2024.5-pipit-cloverleaf.sqlite";
    if (fs::exists(real)) {
        const std::string bytes = test::readFile(real.string());
        const std::string truncated = handMade("truncated.sqlite");
        std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
        loaded = loadTrace(truncated);
        ASSERT_FALSE(loaded.ok());
        EXPECT_NE(loaded.error().message.find("damaged or truncated"), std::string::npos)
            << loaded.error().message;
    }

    // Locked: another program is writing it.
    const std::string locked = handMade("locked.sqlite");
    {
        Db db(locked, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        makeExport(db);
    }
    {
        Db writer(locked, SQLITE_OPEN_READWRITE);
        writer.exec("BEGIN EXCLUSIVE");
        writer.exec("INSERT INTO StringIds VALUES (10, 'x')");
        loaded = loadTrace(locked);
        ASSERT_FALSE(loaded.ok());
        EXPECT_NE(loaded.error().message.find("locked"), std::string::npos)
            << loaded.error().message;
        writer.exec("ROLLBACK");
    }
    EXPECT_TRUE(loadTrace(locked).ok());

    // In memory (a drop of bytes, not a file): the reader says to open the file.
    const auto bytes = parseTrace(test::readFile(locked), "report.sqlite");
    ASSERT_FALSE(bytes.ok());
    EXPECT_NE(bytes.error().message.find("Nsight Systems"), std::string::npos);
}

TEST(NsysReader, CancelledBetweenRows) {
    const fs::path file = kNsysDir / "nsys-2024.5-pipit-cloverleaf.sqlite";
    if (!fs::exists(file))
        GTEST_SKIP();
    std::atomic<bool> cancel{true};
    ReadControl control;
    control.cancel = &cancel;
    const auto loaded = loadTrace(file.string(), control);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message, kReadCancelled);

    std::uint64_t lastDone = 0, lastTotal = 0;
    int reports = 0;
    ReadControl progress;
    progress.progress = [&](std::uint64_t done, std::uint64_t total) {
        EXPECT_GE(done, lastDone);
        lastDone = done;
        lastTotal = total;
        ++reports;
    };
    ASSERT_TRUE(loadTrace(file.string(), progress).ok());
    EXPECT_GE(reports, 2);
    EXPECT_EQ(lastDone, lastTotal);
}

// The .nsys-rep path, with a fake nsys that checks its arguments and writes a known export.
class NsysReport : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = test::makeTempDir("wl-nsys-rep");
        m_source = kNsysDir / "nsys-2026.1-test-cuda-report1.sqlite";
        if (!fs::exists(m_source))
            GTEST_SKIP();
        m_log = m_dir + "/calls.log";
        m_fake = m_dir + "/fake nsys";
        std::ofstream script(m_fake);
        script << "#!/bin/sh\n"
                  "# args: export --type sqlite --force-overwrite true --output OUT REPORT\n"
                  "[ \"$1\" = export ] && [ \"$2\" = --type ] && [ \"$3\" = sqlite ] && "
                  "[ \"$4\" = --force-overwrite ] && [ \"$5\" = true ] && [ \"$6\" = --output ] "
                  "|| { echo \"bad arguments: $*\" >&2; exit 3; }\n"
                  "[ $# -eq 8 ] || { echo \"expected 8 arguments, got $#\" >&2; exit 3; }\n"
                  "[ -f \"$8\" ] || { echo \"no report at $8\" >&2; exit 4; }\n"
                  "printf '%s\\n' \"$8\" >> '" +
                      m_log +
                      "'\n"
                      "cp '" +
                      m_source.string() + "' \"$7\"\n";
        script.close();
        fs::permissions(m_fake, fs::perms::owner_all);
        m_report = m_dir + "/my \"odd\" report's $(touch pwned).nsys-rep";
        std::ofstream(m_report, std::ios::binary)
            << test::readFile((kNsysDir / "nsys-2026.1-test-cuda-report1.nsys-rep").string());
        setenv("WARPLINE_NSYS", m_fake.c_str(), 1);
        setenv("WARPLINE_NSYS_CACHE", (m_dir + "/cache").c_str(), 1);
    }
    void TearDown() override {
        unsetenv("WARPLINE_NSYS");
        unsetenv("WARPLINE_NSYS_CACHE");
    }
    std::vector<std::string> calls() {
        std::vector<std::string> out;
        std::ifstream in(m_log);
        for (std::string line; std::getline(in, line);)
            out.push_back(line);
        return out;
    }

    std::string m_dir, m_log, m_fake, m_report;
    fs::path m_source;
};

TEST_F(NsysReport, ExportsOnceThenReusesTheCache) {
    const auto first = loadTrace(m_report);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    Db db(m_source.string());
    EXPECT_EQ(static_cast<std::int64_t>(first.value()->counts().kernel),
              db.rows("CUPTI_ACTIVITY_KIND_KERNEL"));
    ASSERT_EQ(calls().size(), 1u);
    EXPECT_EQ(calls().front(), fs::absolute(m_report).string());  // one argument, as named
    EXPECT_FALSE(fs::exists(m_dir + "/pwned"));
    EXPECT_FALSE(fs::exists("pwned"));

    ASSERT_TRUE(loadTrace(m_report).ok());
    EXPECT_EQ(calls().size(), 1u) << "the second open reads the cached export";

    // A changed report is exported again (and its old export goes).
    std::ofstream(m_report, std::ios::binary | std::ios::app) << "x";
    ASSERT_TRUE(loadTrace(m_report).ok());
    EXPECT_EQ(calls().size(), 2u);
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(m_dir + "/cache"))
        entries += e.path().extension() == ".sqlite";
    EXPECT_EQ(entries, 1u);
}

TEST_F(NsysReport, ExportFailureAndMissingNsysNameTheCommand) {
    setenv("WARPLINE_NSYS", (m_dir + "/no-such-nsys").c_str(), 1);
    auto loaded = loadTrace(m_report);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find("nsys export --type sqlite"), std::string::npos)
        << loaded.error().message;
    EXPECT_EQ(loaded.error().file, m_report);

    // An nsys too old for the report fails its export: its words and the command are shown.
    const std::string old = m_dir + "/old-nsys";
    std::ofstream(old) << "#!/bin/sh\necho 'Importer error: report version is newer' >&2\nexit 1\n";
    fs::permissions(old, fs::perms::owner_all);
    setenv("WARPLINE_NSYS", old.c_str(), 1);
    loaded = loadTrace(m_report);
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.error().message.find("report version is newer"), std::string::npos)
        << loaded.error().message;
    EXPECT_NE(loaded.error().message.find("nsys export --type sqlite"), std::string::npos);
    EXPECT_TRUE(calls().empty());
}

TEST(NsysActivity, ApiNamesLoseTheirVersion) {
    EXPECT_EQ(model::apiNameOf("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
    EXPECT_EQ(model::apiNameOf("cudaMemcpy_v3020"), "cudaMemcpy");
    EXPECT_EQ(model::apiNameOf("cuLaunchKernel_ptsz"), "cuLaunchKernel_ptsz");
    EXPECT_EQ(model::apiNameOf("cudaFree"), "cudaFree");
    EXPECT_EQ(model::apiNameOf("_v1"), "_v1");
    EXPECT_EQ(model::apiNameOf("cudaGraphLaunch_v10000"), "cudaGraphLaunch");
}

}  // namespace
}  // namespace wl::io
