#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/TraceFile.h"
#include "model/Trace.h"

// What the import makes of real PyTorch profiler (Kineto) traces, other projects' test files
// (WARPLINE_EXTERNAL_TRACES_DIR, not part of this repository; each test skips when its file is
// absent). The expected numbers were counted in the files with a JSON reader of their own.
namespace wl::io {
namespace {

namespace fs = std::filesystem;

model::TracePtr loadExternal(const std::string& name) {
    const fs::path path = fs::path(WARPLINE_EXTERNAL_TRACES_DIR) / name;
    if (!fs::exists(path))
        return nullptr;
    auto result = loadTrace(path.string());
    EXPECT_TRUE(result.ok()) << name << ": "
                             << (result.ok() ? std::string() : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

#define WL_LOAD_EXTERNAL_OR_SKIP(var, name)              \
    const model::TracePtr var = loadExternal(name);      \
    if (!var)                                            \
        GTEST_SKIP() << name << " is not in the corpus"; \
    static_assert(true)

TEST(KinetoCorpusImport, CpuOpsAreOperators) {
    // 14346 "cpu_op" events; the other host slices are the profiler's span and its two markers.
    WL_LOAD_EXTERNAL_OR_SKIP(trace, "hta_nccl_data.json.gz");
    EXPECT_EQ(trace->counts().cpuOp, 14346u);
    EXPECT_EQ(trace->counts().other, 3u);
}

TEST(KinetoCorpusImport, TheOlderOperatorCategoryIsACpuOpToo) {
    // The PyTorch 1.8 profiler wrote its 42438 operators with the category "Operator".
    WL_LOAD_EXTERNAL_OR_SKIP(trace, "kineto_tb_resnet50_nw0_2021-01.pt.trace.json.gz");
    EXPECT_EQ(trace->counts().cpuOp, 42438u);
}

// Kineto's own pseudo-processes ("Spans", "Traces", and "" for its record-window mark) are one
// group, "PyTorch profiler", each row named for what it holds; none is shown as a process.
TEST(KinetoCorpusImport, TheProfilersSpansAndMarkersAreAGroupOfTheirOwn) {
    WL_LOAD_EXTERNAL_OR_SKIP(trace, "hta_nccl_data.json.gz");
    std::map<std::string, std::vector<std::string>> profilerRows;
    for (const model::Track& t : trace->tracks()) {
        const model::Process& p = trace->processes()[t.process];
        const std::string_view process = trace->str(p.nameId);
        EXPECT_NE(process, "Spans");
        EXPECT_NE(process, "Traces");
        EXPECT_NE(process, "(unnamed process)");
        if (process != "PyTorch profiler")
            continue;
        for (const model::Slice& s : t.slices)
            profilerRows[std::string(trace->str(t.nameId))].emplace_back(trace->str(s.nameId));
    }
    EXPECT_EQ(profilerRows,
              (std::map<std::string, std::vector<std::string>>{
                  {"Profiling spans", {"PyTorch Profiler (0)"}},
                  {"Markers", {"Iteration Start: PyTorch Profiler", "Record Window End"}}}));
}

}  // namespace
}  // namespace wl::io
