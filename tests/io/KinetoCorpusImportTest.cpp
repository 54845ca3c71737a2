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

// The PyTorch profiler's launch arrows of CUDA calls with no GPU work in the trace are ignored,
// counted by reason, and the first of them listed: each with its id, time, the call it sits on.
struct IgnoredFlows {
    const char* file;
    const char* summary;  // the first note
    std::size_t listed;   // the notes after it
};

class KinetoIgnoredFlows : public ::testing::TestWithParam<IgnoredFlows> {};

TEST_P(KinetoIgnoredFlows, AreCountedByReasonAndListed) {
    WL_LOAD_EXTERNAL_OR_SKIP(trace, GetParam().file);
    const model::Diagnostics& d = trace->diagnostics();
    ASSERT_EQ(d.notes.size(), 1 + GetParam().listed);
    EXPECT_EQ(d.notes[0], GetParam().summary);
    for (std::size_t i = 1; i <= GetParam().listed; ++i) {
        const std::string& note = d.notes[i];
        EXPECT_EQ(note.rfind("ignored launch flow \"", 0), 0u) << note;
        EXPECT_NE(note.find(" ms (ts "), std::string::npos) << note;
        // Each sits on a slice: a CUDA call ("cudaStreamIsCapturing") or a sync record.
        EXPECT_NE(note.find(") on "), std::string::npos) << note;
        EXPECT_NE(note.find("; no GPU op has this correlation id"), std::string::npos) << note;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, KinetoIgnoredFlows,
    ::testing::Values(
        IgnoredFlows{"hta_nccl_data.json.gz",
                     "4966 launch flow event(s) were ignored (arrows of CUDA calls with no GPU "
                     "work in the trace): 4878 with no start (\"s\"), 88 with no end (\"f\"); the "
                     "first 10 follow",
                     10},
        IgnoredFlows{"hta_alexnet_critical_path.json.gz",
                     "222 launch flow event(s) were ignored (arrows of CUDA calls with no GPU "
                     "work in the trace): 206 with no start (\"s\"), 16 with no end (\"f\"); the "
                     "first 10 follow",
                     10},
        IgnoredFlows{"hta_event_sync_multi_stream.json.gz",
                     "34 launch flow event(s) were ignored (arrows of CUDA calls with no GPU work "
                     "in the trace): 34 with no start (\"s\"); the first 10 follow",
                     10},
        IgnoredFlows{"hta_amd_mi250_rocm.json.gz",
                     "5 launch flow event(s) were ignored (arrows of CUDA calls with no GPU work "
                     "in the trace): 5 with no start (\"s\"); all 5 follow",
                     5}));

}  // namespace
}  // namespace wl::io
