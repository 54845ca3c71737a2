// SQL over a recorded PyTorch training run (tests/data/recorded/torch_train.json.gz), checked
// against figures computed from its JSON by tests/data/query/check_query.py, and the database's
// locks: what it refuses, its error positions, and cancellation. The args table is checked on a
// PyTorch profiler trace too (torch_graph_replay.pt.trace.json.gz: External ids) and on
// tests/data/query/args.json (every kind of JSON value), the analysis tables against
// analysis::analyzeTrace on the same trace.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "analysis/Analysis.h"
#include "io/TraceFile.h"
#include "model/TraceBuilder.h"
#include "query/ResultFormat.h"
#include "query/TraceQuery.h"

namespace wl::query {
namespace {

model::TracePtr load(const std::string& path) {
    auto loaded = io::loadTrace(path);
    EXPECT_TRUE(loaded.ok()) << path << ": " << (loaded.ok() ? "" : loaded.error().describe());
    return loaded.ok() ? loaded.value() : model::TracePtr();
}

model::TracePtr torchTrain() {
    static const model::TracePtr trace =
        load(WARPLINE_TEST_DATA_DIR "/recorded/torch_train.json.gz");
    return trace;
}

std::unique_ptr<TraceDatabase> openDatabase(model::TracePtr trace) {
    auto opened = TraceDatabase::open(std::move(trace));
    EXPECT_TRUE(opened.ok()) << (opened.ok() ? "" : opened.error().describe());
    return opened.ok() ? std::move(opened.value()) : nullptr;
}

QueryResult runOn(TraceDatabase& db, const std::string& sql) {
    QueryResult result;
    const auto error = db.run(sql, result);
    EXPECT_FALSE(error) << sql << ": " << (error ? error->message : "");
    return result;
}

class TraceQueryTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = TraceDatabase::open(torchTrain());
        ASSERT_TRUE(opened.ok()) << opened.error().describe();
        db = std::move(opened.value());
    }
    QueryResult run(const std::string& sql) { return runOn(*db, sql); }
    QueryError fail(const std::string& sql, const QueryOptions& options = {}) {
        QueryResult result;
        const auto error = db->run(sql, result, options);
        EXPECT_TRUE(error) << sql << " should fail";
        return error.value_or(QueryError{});
    }
    std::unique_ptr<TraceDatabase> db;
};

// /usr/bin/python3 tests/data/query/check_query.py tests/data/recorded/torch_train.json.gz
//   kernels 3133 total_ns 27330617
//   top_kernel 3277855 void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(...)
//   runtime cudaLaunchKernel_v7000 2528
//   copies DtoD 12 4283944
//   copies DtoH 55 220
//   copies HtoD 128 47566648
//   nvtx 1 2660114 step 10
//   nvtx 1 123697521 train
//   nvtx 1 706824559 warmup
//   train_kernels 2850 24883616
TEST_F(TraceQueryTest, KernelCountAndTimeMatchTheJson) {
    const auto r = run("SELECT count(*), sum(dur) FROM slice WHERE kind = 'kernel'");
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0][0].integer, 3133);
    EXPECT_EQ(r.rows[0][1].integer, 27330617);
    // The kernel table holds the same slices.
    const auto k = run("SELECT count(*), sum(dur) FROM kernel");
    EXPECT_EQ(k.rows[0][0].integer, 3133);
    EXPECT_EQ(k.rows[0][1].integer, 27330617);
}

TEST_F(TraceQueryTest, TopKernelByTotalTime) {
    const auto r =
        run("SELECT name, sum(dur) AS total FROM kernel GROUP BY name ORDER BY total DESC LIMIT 1");
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0][1].integer, 3277855);
    EXPECT_NE(r.rows[0][0].text.find("bn_bw_1C11_kernel_new"), std::string::npos)
        << r.rows[0][0].text;
}

TEST_F(TraceQueryTest, CopiesByKind) {
    const auto r = run(
        "SELECT copy_kind, count(*), sum(bytes) FROM memcpy GROUP BY copy_kind ORDER BY copy_kind");
    ASSERT_EQ(r.rows.size(), 3u);
    EXPECT_EQ(r.rows[0][0].text, "DtoD");
    EXPECT_EQ(r.rows[0][1].integer, 12);
    EXPECT_EQ(r.rows[0][2].integer, 4283944);
    EXPECT_EQ(r.rows[1][0].text, "DtoH");
    EXPECT_EQ(r.rows[1][1].integer, 55);
    EXPECT_EQ(r.rows[1][2].integer, 220);
    EXPECT_EQ(r.rows[2][0].text, "HtoD");
    EXPECT_EQ(r.rows[2][1].integer, 128);
    EXPECT_EQ(r.rows[2][2].integer, 47566648);
}

TEST_F(TraceQueryTest, NvtxRangesByName) {
    const auto r =
        run("SELECT name, count(*), sum(dur) FROM slice WHERE kind = 'nvtx' GROUP BY name "
            "ORDER BY name");
    ASSERT_EQ(r.rows.size(), 52u);  // step 0 .. step 49, train, warmup
    std::map<std::string, std::int64_t> total;
    for (const auto& row : r.rows) {
        EXPECT_EQ(row[1].integer, 1) << row[0].text;
        total[row[0].text] = row[2].integer;
    }
    EXPECT_EQ(total["step 10"], 2660114);
    EXPECT_EQ(total["train"], 123697521);
    EXPECT_EQ(total["warmup"], 706824559);
}

TEST_F(TraceQueryTest, KernelsInsideAnNvtxRangeByTimeContainment) {
    const auto r =
        run("SELECT count(*), sum(k.dur) FROM slice n JOIN kernel k "
            "ON k.ts >= n.ts AND k.ts + k.dur <= n.ts + n.dur "
            "WHERE n.kind = 'nvtx' AND n.name = 'train'");
    ASSERT_EQ(r.rows.size(), 1u);
    EXPECT_EQ(r.rows[0][0].integer, 2850);
    EXPECT_EQ(r.rows[0][1].integer, 24883616);
}

TEST_F(TraceQueryTest, NameAndKindHintsGiveWhatAFullScanGives) {
    // `=` on name and kind narrows the scan; the same filter through an expression SQLite cannot
    // hand to the table (a full scan) must count the same rows.
    const auto hinted = run("SELECT count(*) FROM slice WHERE name = 'cudaLaunchKernel_v7000'");
    const auto scanned =
        run("SELECT count(*) FROM slice WHERE name || '' = 'cudaLaunchKernel_v7000'");
    EXPECT_EQ(hinted.rows[0][0].integer, 2528);
    EXPECT_EQ(hinted.rows[0][0].integer, scanned.rows[0][0].integer);
    const auto kinds = run("SELECT count(*) FROM slice WHERE kind = 'runtime_api'");
    const auto kindsScanned = run("SELECT count(*) FROM slice WHERE kind || '' = 'runtime_api'");
    EXPECT_EQ(kinds.rows[0][0].integer, kindsScanned.rows[0][0].integer);
    EXPECT_EQ(run("SELECT count(*) FROM slice WHERE name = 'no such name'").rows[0][0].integer, 0);
    EXPECT_EQ(run("SELECT count(*) FROM slice WHERE kind = 'no such kind'").rows[0][0].integer, 0);
    // Another collation: the hint is not taken and the answer stays right.
    EXPECT_EQ(
        run("SELECT count(*) FROM slice WHERE kind = 'KERNEL' COLLATE NOCASE").rows[0][0].integer,
        3133);
}

TEST_F(TraceQueryTest, SliceIdsLookUpTheirSliceAndParents) {
    const auto first = run("SELECT id, name, ts FROM slice WHERE kind = 'kernel' LIMIT 1");
    ASSERT_EQ(first.rows.size(), 1u);
    const auto again =
        run("SELECT name, ts FROM slice WHERE id = " + std::to_string(first.rows[0][0].integer));
    ASSERT_EQ(again.rows.size(), 1u);
    EXPECT_EQ(again.rows[0][0].text, first.rows[0][1].text);
    EXPECT_EQ(again.rows[0][1].integer, first.rows[0][2].integer);
    // Every "step N" range sits inside "train" or "warmup" on the NVTX track.
    const auto parents =
        run("SELECT p.name, count(*) FROM slice s JOIN slice p ON p.id = s.parent_id "
            "WHERE s.kind = 'nvtx' AND s.name LIKE 'step %' GROUP BY p.name ORDER BY p.name");
    std::int64_t steps = 0;
    for (const auto& row : parents.rows) {
        EXPECT_TRUE(row[0].text == "train" || row[0].text == "warmup") << row[0].text;
        steps += row[1].integer;
    }
    EXPECT_EQ(steps, 50);
}

TEST_F(TraceQueryTest, FlowsLinkLaunchesToKernels) {
    const auto r =
        run("SELECT count(*) FROM flow f JOIN slice a ON a.id = f.slice_out "
            "JOIN slice k ON k.id = f.slice_in WHERE k.kind = 'kernel' AND a.kind IN "
            "('runtime_api', 'driver_api')");
    EXPECT_GT(r.rows[0][0].integer, 3000);
    const auto tracks = run("SELECT count(*) FROM track WHERE kind = 'gpu_stream'");
    EXPECT_EQ(tracks.rows[0][0].integer, 3);  // streams 7, 13, 30
    const auto processes = run("SELECT count(*) FROM process");
    EXPECT_EQ(processes.rows[0][0].integer, 2);
}

TEST_F(TraceQueryTest, RefusesWhatIsNotARead) {
    for (const char* sql :
         {"ATTACH DATABASE '/tmp/x.db' AS x", "DETACH DATABASE main", "CREATE TABLE t(a)",
          "CREATE TEMP TABLE t(a)", "INSERT INTO slice(id) VALUES (1)", "PRAGMA writable_schema=1",
          "PRAGMA journal_mode=WAL", "DELETE FROM slice", "SELECT load_extension('/tmp/x.so')",
          "BEGIN", "VACUUM"}) {
        const QueryError e = fail(sql);
        EXPECT_TRUE(e.kind == QueryErrorKind::Refused || e.kind == QueryErrorKind::Invalid)
            << sql << ": " << e.message;
        EXPECT_FALSE(e.message.empty()) << sql;
    }
    const QueryError attach = fail("ATTACH DATABASE '/tmp/x.db' AS x");
    EXPECT_EQ(attach.kind, QueryErrorKind::Refused);
    EXPECT_NE(attach.message.find("ATTACH is not allowed"), std::string::npos) << attach.message;
    const QueryError create = fail("CREATE TABLE t(a)");
    EXPECT_EQ(create.kind, QueryErrorKind::Refused) << create.message;
    const QueryError insert = fail("INSERT INTO slice(id) VALUES (1)");
    EXPECT_EQ(insert.kind, QueryErrorKind::Refused) << insert.message;
    const QueryError pragma = fail("PRAGMA writable_schema=1");
    EXPECT_EQ(pragma.kind, QueryErrorKind::Refused) << pragma.message;
    EXPECT_NE(pragma.message.find("writable_schema"), std::string::npos) << pragma.message;
    const QueryError extension = fail("SELECT load_extension('/tmp/x.so')");
    EXPECT_EQ(extension.kind, QueryErrorKind::Refused) << extension.message;
    // Reading pragmas still work, and the database still answers after a refusal.
    EXPECT_EQ(run("PRAGMA table_info(slice)").rows.size(), 15u);
    EXPECT_EQ(run("SELECT count(*) FROM process").rows[0][0].integer, 2);
}

TEST_F(TraceQueryTest, SyntaxErrorNamesItsPosition) {
    const QueryError e = fail("SELECT name FROM slice WHERE kind = 'kernel' GROUP name");
    EXPECT_EQ(e.kind, QueryErrorKind::Invalid);
    EXPECT_EQ(e.offset, 51);
    EXPECT_NE(e.message.find("syntax error"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("at offset 51: \"name\""), std::string::npos) << e.message;
    const QueryError column = fail("SELECT nme FROM slice");
    EXPECT_NE(column.message.find("no such column: nme"), std::string::npos) << column.message;
    EXPECT_EQ(column.offset, 7);
    const QueryError two = fail("SELECT 1; SELECT 2");
    EXPECT_NE(two.message.find("one statement at a time"), std::string::npos) << two.message;
}

TEST_F(TraceQueryTest, CancelStopsALongQuery) {
    // 10^8 pairs or more: minutes without the flag.
    const std::string sql = "SELECT count(*) FROM slice a, slice b WHERE a.dur + b.dur < 0";
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable running;
    int calls = 0;
    QueryOptions options;
    options.cancel = &cancel;
    options.onProgress = [&] {
        std::lock_guard lock(mutex);
        if (++calls == 3)
            running.notify_all();
    };
    std::optional<QueryError> error;
    std::thread worker([&] {
        QueryResult result;
        error = db->run(sql, result, options);
    });
    {
        std::unique_lock lock(mutex);
        running.wait(lock, [&] { return calls >= 3; });
    }
    cancel = true;
    worker.join();
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind, QueryErrorKind::Cancelled);
    EXPECT_EQ(error->message, "the query was cancelled");
    // The database answers the next query.
    EXPECT_EQ(run("SELECT count(*) FROM process").rows[0][0].integer, 2);
}

model::TracePtr argsTrace() {
    static const model::TracePtr trace = load(WARPLINE_TEST_DATA_DIR "/query/args.json");
    return trace;
}

TEST(TraceQueryArgsTest, CategoryIsNullWhereNoneWasWritten) {
    auto db = openDatabase(argsTrace());
    ASSERT_TRUE(db);
    const auto r = runOn(*db, "SELECT name, category FROM slice ORDER BY ts");
    ASSERT_EQ(r.rows.size(), 4u);
    EXPECT_EQ(r.rows[0][1].text, "cpu_op");
    EXPECT_EQ(r.rows[1][1].text, "cpu_op");
    EXPECT_EQ(r.rows[2][0].text, "no_category");
    EXPECT_EQ(r.rows[2][1].type, Value::Type::Null);
    EXPECT_EQ(r.rows[3][1].text, "python_function");
    // A slice Warpline made itself has no producer, so no category, but its args are rows.
    model::TraceBuilder builder;
    const auto process = builder.hostProcess(1, "p");
    const auto track = builder.hostTrack(process, 1);
    builder.addSlice(track, 0, 10, "work", model::SliceKind::Other);
    builder.setLastSliceExtraArgs(track, R"("n":1)");
    auto own = openDatabase(builder.finalize());
    ASSERT_TRUE(own);
    const auto mine = runOn(*own, "SELECT category, args FROM slice");
    ASSERT_EQ(mine.rows.size(), 1u);
    EXPECT_EQ(mine.rows[0][0].type, Value::Type::Null);
    EXPECT_EQ(mine.rows[0][1].text, R"({"n":1})");
    const auto args = runOn(*own, "SELECT key, value FROM args");
    ASSERT_EQ(args.rows.size(), 1u);
    EXPECT_EQ(args.rows[0][0].text, "n");
    EXPECT_EQ(args.rows[0][1].integer, 1);
}

TEST(TraceQueryArgsTest, ValuesAreTypedAsSqliteSeesFit) {
    auto db = openDatabase(argsTrace());
    ASSERT_TRUE(db);
    const auto id = runOn(*db, "SELECT id FROM slice WHERE name = 'aten::mm'");
    ASSERT_EQ(id.rows.size(), 1u);
    const std::uint64_t before = db->slicesVisited();
    const auto r = runOn(*db, "SELECT key, value, typeof(value), type FROM args WHERE slice_id = " +
                                  std::to_string(id.rows[0][0].integer));
    EXPECT_EQ(db->slicesVisited() - before, 1u);  // the one slice, looked up by its id
    ASSERT_EQ(r.rows.size(), 12u);
    std::map<std::string, std::vector<Value>> by;
    std::vector<std::string> keys;
    for (const auto& row : r.rows) {
        keys.push_back(row[0].text);
        by[row[0].text] = row;
    }
    // In the order the file wrote them.
    EXPECT_EQ(keys,
              (std::vector<std::string>{"External id", "Input Dims", "Input type", "Note", "Scale",
                                        "Ratio", "Flag", "Off", "Nothing", "Meta", "Big", "Neg"}));
    const auto expect = [&](const std::string& key, const char* sqlType, const char* type) {
        EXPECT_EQ(by[key][2].text, sqlType) << key;
        EXPECT_EQ(by[key][3].text, type) << key;
        return by[key][1];
    };
    EXPECT_EQ(expect("External id", "integer", "integer").integer, 7);
    EXPECT_EQ(expect("Neg", "integer", "integer").integer, -42);
    EXPECT_DOUBLE_EQ(expect("Scale", "real", "real").real, 1500.0);
    EXPECT_DOUBLE_EQ(expect("Ratio", "real", "real").real, 0.25);
    EXPECT_DOUBLE_EQ(expect("Big", "real", "real").real, 18446744073709551615.0);
    // A string unescaped; arrays, objects, true, false and null as written.
    EXPECT_EQ(expect("Note", "text", "text").text,
              "a \"quoted\" \\ path\nnext \xc3\xa9 \xf0\x9f\x98\x80 /");
    EXPECT_EQ(expect("Input Dims", "text", "array").text, "[[2,3],[3,4]]");
    EXPECT_EQ(expect("Input type", "text", "array").text, R"(["float","float"])");
    EXPECT_EQ(expect("Meta", "text", "object").text, R"({"k":[1,{"x":"]"}]})");
    EXPECT_EQ(expect("Flag", "text", "true").text, "true");
    EXPECT_EQ(expect("Off", "text", "false").text, "false");
    EXPECT_EQ(expect("Nothing", "text", "null").text, "null");
    // A key unescaped; every slice's args (check_query.py: args_rows 14, External id 2 15).
    const auto key = runOn(*db, "SELECT value FROM args WHERE key = 'ke\"y'");
    ASSERT_EQ(key.rows.size(), 1u);
    EXPECT_EQ(key.rows[0][0].text, "v");
    EXPECT_EQ(runOn(*db, "SELECT count(*) FROM args").rows[0][0].integer, 14);
    const auto ids = runOn(*db, "SELECT count(*), sum(value) FROM args WHERE key = 'External id'");
    EXPECT_EQ(ids.rows[0][0].integer, 2);
    EXPECT_EQ(ids.rows[0][1].integer, 15);
}

TEST_F(TraceQueryTest, WarplinesOwnRecordingHasNoCategoriesOrArgs) {
    // torch_train.json.gz was recorded by Warpline: its slices have no producer's row, category
    // or args (what they say is in the columns).
    EXPECT_EQ(run("SELECT count(*) FROM slice WHERE category IS NOT NULL").rows[0][0].integer, 0);
    EXPECT_EQ(run("SELECT count(*) FROM slice WHERE args IS NOT NULL").rows[0][0].integer, 0);
    EXPECT_EQ(run("SELECT count(*) FROM args").rows[0][0].integer, 0);
    const auto external = run("SELECT count(*), sum(value) FROM args WHERE key = 'External id'");
    EXPECT_EQ(external.rows[0][0].integer, 0);
    EXPECT_EQ(external.rows[0][1].type, Value::Type::Null);
}

// A PyTorch profiler trace (Kineto JSON), whose slices keep their producer's categories and args:
// /usr/bin/python3 tests/data/query/check_query.py TRACE
//   (TRACE: tests/data/recorded/torch_graph_replay.pt.trace.json.gz)
//   kernels 7040 total_ns 22980942
//   category NULL 2
//   category Trace 1
//   category cpu_op 1280
//   category cuda_runtime 2242
//   category gpu_memcpy 640
//   category kernel 7040
//   category overhead 1
//   args_rows 101765
//   args 'External id' 3840 2459520
//   args 'correlation' 9922 68404010
class ProfilerTraceQueryTest : public ::testing::Test {
protected:
    static model::TracePtr trace() {
        static const model::TracePtr t =
            load(WARPLINE_TEST_DATA_DIR "/recorded/torch_graph_replay.pt.trace.json.gz");
        return t;
    }
    void SetUp() override {
        db = openDatabase(trace());
        ASSERT_TRUE(db);
    }
    QueryResult run(const std::string& sql) { return runOn(*db, sql); }
    std::unique_ptr<TraceDatabase> db;
};

TEST_F(ProfilerTraceQueryTest, SliceCategoryIsTheProducersCategory) {
    const auto r = run("SELECT category, count(*) FROM slice GROUP BY category ORDER BY category");
    const std::vector<std::pair<std::string, std::int64_t>> expected = {{"", 2},
                                                                        {"Trace", 1},
                                                                        {"cpu_op", 1280},
                                                                        {"cuda_runtime", 2242},
                                                                        {"gpu_memcpy", 640},
                                                                        {"kernel", 7040},
                                                                        {"overhead", 1}};
    ASSERT_EQ(r.rows.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(r.rows[i][0].type,
                  expected[i].first.empty() ? Value::Type::Null : Value::Type::Text);
        EXPECT_EQ(r.rows[i][0].text, expected[i].first);
        EXPECT_EQ(r.rows[i][1].integer, expected[i].second) << expected[i].first;
    }
    // The kernel and memcpy tables have it too.
    const auto kernels = run("SELECT category, count(*) FROM kernel GROUP BY category");
    ASSERT_EQ(kernels.rows.size(), 1u);
    EXPECT_EQ(kernels.rows[0][0].text, "kernel");
    EXPECT_EQ(kernels.rows[0][1].integer, 7040);
    const auto copies = run("SELECT category, count(*) FROM memcpy GROUP BY category");
    ASSERT_EQ(copies.rows.size(), 1u);
    EXPECT_EQ(copies.rows[0][0].text, "gpu_memcpy");
    EXPECT_EQ(copies.rows[0][1].integer, 640);
}

TEST_F(ProfilerTraceQueryTest, ArgsMatchTheJson) {
    EXPECT_EQ(run("SELECT count(*) FROM args").rows[0][0].integer, 101765);
    const auto external = run("SELECT count(*), sum(value) FROM args WHERE key = 'External id'");
    EXPECT_EQ(external.rows[0][0].integer, 3840);
    EXPECT_EQ(external.rows[0][1].integer, 2459520);
    const auto correlation = run("SELECT count(*), sum(value) FROM args WHERE key = 'correlation'");
    EXPECT_EQ(correlation.rows[0][0].integer, 9922);
    EXPECT_EQ(correlation.rows[0][1].integer, 68404010);
    // SQLite's own JSON reader over slice.args says the same, arg by arg.
    EXPECT_EQ(run("SELECT count(*) FROM slice s, json_each(s.args)").rows[0][0].integer, 101765);
    // (json_each names the types alike; its true, false and null are 1, 0 and NULL).
    const auto same =
        run("SELECT count(*), sum(e.type IS NOT a.type OR (e.type IN ('integer', 'real', 'text') "
            "AND e.value IS NOT a.value)) FROM args a JOIN (SELECT s.id, j.key, j.value, j.type "
            "FROM slice s, json_each(s.args) j) e ON e.id = a.slice_id AND e.key = a.key");
    EXPECT_EQ(same.rows[0][0].integer, 101765);
    EXPECT_EQ(same.rows[0][1].integer, 0);
}

TEST_F(ProfilerTraceQueryTest, ArgsJoinLooksUpEachSlice) {
    const auto expected =
        run("SELECT count(*) FROM slice s, json_each(s.args) WHERE s.kind = 'kernel'");
    const std::uint64_t before = db->slicesVisited();
    const auto joined = run(
        "SELECT count(*) FROM slice s JOIN args a ON a.slice_id = s.id WHERE s.kind = 'kernel'");
    const std::uint64_t visited = db->slicesVisited() - before;
    EXPECT_EQ(joined.rows[0][0].integer, expected.rows[0][0].integer);
    EXPECT_GT(joined.rows[0][0].integer, 7040);
    // The kernels' tracks once, then each kernel's args by its id: no scan of every slice's args
    // for each kernel (7040 times 11,000 slices).
    EXPECT_LT(visited, 2u * trace()->counts().slices);
    // One slice's args by its id look at that slice alone.
    const auto kernel = run("SELECT slice_id FROM kernel LIMIT 1");
    const std::uint64_t mark = db->slicesVisited();
    const auto one = run("SELECT count(*) FROM args WHERE slice_id = " +
                         std::to_string(kernel.rows[0][0].integer));
    EXPECT_EQ(db->slicesVisited() - mark, 1u);
    EXPECT_GT(one.rows[0][0].integer, 5);
}

TEST_F(TraceQueryTest, IdleGapsAreTheAnalysisGaps) {
    const analysis::AnalysisResult a = analysis::analyzeTrace(*torchTrain());
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> byCause;
    std::int64_t withLaunch = 0;
    for (const analysis::IdleGap& g : a.utilization.gaps) {
        auto& c = byCause[analysis::toString(g.cause)];
        ++c.first;
        c.second += g.durationNs;
        withLaunch += g.launch.valid() ? 1 : 0;
    }
    ASSERT_FALSE(byCause.empty());
    const auto r =
        run("SELECT cause, count(*), sum(dur) FROM idle_gap GROUP BY cause ORDER BY cause");
    ASSERT_EQ(r.rows.size(), byCause.size());
    for (const auto& row : r.rows) {
        EXPECT_EQ(row[1].integer, byCause[row[0].text].first) << row[0].text;
        EXPECT_EQ(row[2].integer, byCause[row[0].text].second) << row[0].text;
    }
    EXPECT_EQ(run("SELECT count(launch_slice_id) FROM idle_gap").rows[0][0].integer, withLaunch);
    // The slices around each gap: one ends where it starts, one starts where it ends (or later,
    // past the window).
    const auto around =
        run("SELECT count(*), sum(b.ts + b.dur > g.ts), sum(n.ts < g.ts + g.dur) FROM idle_gap g "
            "JOIN slice b ON b.id = g.before_slice_id JOIN slice n ON n.id = g.after_slice_id");
    EXPECT_GT(around.rows[0][0].integer, 0);
    EXPECT_EQ(around.rows[0][1].integer, 0);
    EXPECT_EQ(around.rows[0][2].integer, 0);
    // The window they were found in.
    const auto w = run("SELECT ts, dur, parts, source, description FROM analysis_window");
    ASSERT_EQ(w.rows.size(), 1u);
    EXPECT_EQ(w.rows[0][0].integer, a.window().startNs());
    EXPECT_EQ(w.rows[0][1].integer, a.window().endNs() - a.window().startNs());
    EXPECT_EQ(w.rows[0][2].integer, static_cast<std::int64_t>(a.window().parts.size()));
    EXPECT_EQ(w.rows[0][3].text, analysis::toString(a.window().source));
    EXPECT_EQ(w.rows[0][4].text, analysis::describeWindow(a.window()));
}

TEST_F(TraceQueryTest, FindingsAreTheAnalysisFindings) {
    const analysis::AnalysisResult a = analysis::analyzeTrace(*torchTrain());
    ASSERT_FALSE(a.diagnostics.empty());
    EXPECT_EQ(run("SELECT count(*) FROM finding").rows[0][0].integer,
              static_cast<std::int64_t>(a.diagnostics.size()));
    const auto first =
        run("SELECT rule, severity, count, message, cost_ns, ts, dur FROM finding ORDER BY id "
            "LIMIT 1");
    ASSERT_EQ(first.rows.size(), 1u);
    const analysis::Diagnostic& d = a.diagnostics.front();
    EXPECT_EQ(first.rows[0][0].text, analysis::toString(d.rule));
    EXPECT_EQ(first.rows[0][1].text,
              d.severity == analysis::Severity::Warning ? "warning" : "info");
    EXPECT_EQ(first.rows[0][2].integer, static_cast<std::int64_t>(d.count));
    EXPECT_EQ(first.rows[0][3].text, d.message);
    EXPECT_EQ(first.rows[0][4].integer, d.costNs);
    EXPECT_EQ(first.rows[0][5].integer, d.startNs);
    EXPECT_EQ(first.rows[0][6].integer, d.endNs - d.startNs);
}

TEST_F(TraceQueryTest, ACancelledAnalysisIsMadeAgainNextTime) {
    // The analysis runs when a query first scans an analysis table; a query cancelled before it
    // starts stops it, and what it had made is not kept as if it were the analysis.
    std::atomic<bool> cancel{true};
    QueryOptions options;
    options.cancel = &cancel;
    EXPECT_EQ(fail("SELECT count(*) FROM finding", options).kind, QueryErrorKind::Cancelled);
    EXPECT_EQ(fail("SELECT count(*) FROM idle_gap", options).kind, QueryErrorKind::Cancelled);
    const analysis::AnalysisResult a = analysis::analyzeTrace(*torchTrain());
    EXPECT_EQ(run("SELECT count(*) FROM finding").rows[0][0].integer,
              static_cast<std::int64_t>(a.diagnostics.size()));
    EXPECT_EQ(run("SELECT count(*) FROM idle_gap").rows[0][0].integer,
              static_cast<std::int64_t>(a.utilization.gaps.size()));
}

std::vector<std::int64_t> ids(const QueryResult& r) {
    std::vector<std::int64_t> out;
    for (const auto& row : r.rows)
        out.push_back(row[0].integer);
    return out;
}

TEST_F(TraceQueryTest, TimeRangeHintGivesTheRowsOfAFullScanAndVisitsFewer) {
    const auto step = run("SELECT ts, dur FROM slice WHERE kind = 'nvtx' AND name = 'step 10'");
    ASSERT_EQ(step.rows.size(), 1u);
    const std::string a = std::to_string(step.rows[0][0].integer);
    const std::string b = std::to_string(step.rows[0][0].integer + step.rows[0][1].integer);
    const std::vector<std::string> ranges = {
        "ts >= " + a + " AND ts < " + b,
        "ts > " + a + " AND ts <= " + b,
        "ts >= " + a,
        "ts < " + b,
        "ts >= " + a + ".5 AND ts <= " + b + ".5",
        "ts > " + a + " - 0.5",
        "ts < " + b + " AND ts < " + b + " - 1000 AND ts >= " + a,
        "ts >= 'text'",
        "ts < 'text' AND ts > " + a + " AND ts < " + a + " - 1",
        "ts <= " + a + " AND ts >= " + a,  // bounds on the step's own start
        "ts > " + a + " - 1 AND ts < " + a + " + 1"};
    for (const std::string& range : ranges) {
        std::string plain = range;
        for (std::size_t at = 0; (at = plain.find("ts ", at)) != std::string::npos; at += 4)
            plain.replace(at, 3, "+ts ");  // `+ts` is no column: SQLite gives the table no hint
        for (const char* table : {"slice", "kernel"}) {
            const std::string id = std::string(table) == "slice" ? "id" : "slice_id";
            const auto hinted =
                run("SELECT " + id + " FROM " + table + " WHERE " + range + " ORDER BY " + id);
            const auto scanned =
                run("SELECT " + id + " FROM " + table + " WHERE " + plain + " ORDER BY " + id);
            EXPECT_EQ(ids(hinted), ids(scanned)) << table << ": " << range;
        }
    }
    std::uint64_t mark = db->slicesVisited();
    const auto hinted = run("SELECT count(*) FROM slice WHERE ts >= " + a + " AND ts < " + b);
    const std::uint64_t hintedVisits = db->slicesVisited() - mark;
    mark = db->slicesVisited();
    const auto scanned = run("SELECT count(*) FROM slice WHERE +ts >= " + a + " AND +ts < " + b);
    const std::uint64_t scanVisits = db->slicesVisited() - mark;
    EXPECT_EQ(hinted.rows[0][0].integer, scanned.rows[0][0].integer);
    EXPECT_GT(hinted.rows[0][0].integer, 100);
    EXPECT_EQ(scanVisits,
              static_cast<std::uint64_t>(run("SELECT count(*) FROM slice").rows[0][0].integer));
    // Only the slices that start in the step: the lanes' binary searches skip the others.
    EXPECT_EQ(hintedVisits, static_cast<std::uint64_t>(hinted.rows[0][0].integer));
    EXPECT_LT(hintedVisits * 10, scanVisits);
}

TEST(ResultFormatTest, TableCsvAndJson) {
    QueryResult r;
    r.names = {"name", "n", "x"};
    Value text{Value::Type::Text, 0, 0.0, "a,\"b\""};
    Value n{Value::Type::Integer, 42, 0.0, ""};
    Value x{Value::Type::Real, 0, 0.5, ""};
    Value null;
    r.rows = {{text, n, x}, {Value{Value::Type::Text, 0, 0.0, "long"}, null, null}};
    std::ostringstream table;
    writeTable(table, r);
    EXPECT_EQ(table.str(),
              "name   n     x\n"
              "-----  ----  ----\n"
              "a,\"b\"    42   0.5\n"
              "long   NULL  NULL\n"
              "(2 rows)\n");
    std::ostringstream csv;
    CsvSink csvSink(csv);
    csvSink.columns(r.names);
    for (const auto& row : r.rows)
        csvSink.row(row);
    EXPECT_EQ(csv.str(), "name,n,x\r\n\"a,\"\"b\"\"\",42,0.5\r\nlong,,\r\n");
    std::ostringstream json;
    JsonSink jsonSink(json);
    jsonSink.columns(r.names);
    for (const auto& row : r.rows)
        jsonSink.row(row);
    jsonSink.finish();
    EXPECT_EQ(json.str(),
              "[\n  {\"name\": \"a,\\\"b\\\"\", \"n\": 42, \"x\": 0.5},\n"
              "  {\"name\": \"long\", \"n\": null, \"x\": null}\n]\n");
    std::ostringstream empty;
    JsonSink emptySink(empty);
    emptySink.columns(r.names);
    emptySink.finish();
    EXPECT_EQ(empty.str(), "[]\n");
    // Long text is cut in the middle in the table.
    QueryResult longText;
    longText.names = {"name"};
    longText.rows = {
        {Value{Value::Type::Text, 0, 0.0, std::string(30, 'a') + std::string(40, 'b')}}};
    std::ostringstream cut;
    writeTable(cut, longText, 11);
    EXPECT_EQ(cut.str(), "name\n-----------\naaaa...bbbb\n(1 row)\n");
}

}  // namespace
}  // namespace wl::query
