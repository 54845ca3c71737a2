// The lessons of the seeds, found by the analysis on the bundled traces recorded on a real GPU
// (resources/samples). A sample that is not there yet is skipped with a message.
#include <gtest/gtest.h>

#include <filesystem>
#include <initializer_list>
#include <string>

#include "analysis/Analysis.h"
#include "io/TraceFile.h"

namespace wl::analysis {
namespace {

// The sample whose file name contains every word (and none of the excluded ones).
std::string findSample(std::initializer_list<const char*> words,
                       std::initializer_list<const char*> without = {}) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir(WARPLINE_SAMPLES_DIR);
    if (!fs::is_directory(dir, ec)) {
        return {};
    }
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
        if (name.find(".json") == std::string::npos) {
            continue;
        }
        bool match = true;
        for (const char* w : words) {
            match = match && name.find(w) != std::string::npos;
        }
        for (const char* w : without) {
            match = match && name.find(w) == std::string::npos;
        }
        if (match) {
            return (dir / name).string();
        }
    }
    return {};
}

struct Loaded {
    model::TracePtr trace;
    AnalysisResult result;
};

Loaded load(const std::string& path) {
    auto trace = io::loadTrace(path);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().describe());
    if (!trace.ok()) {
        return {};
    }
    Loaded l{trace.value(), {}};
    l.result = analyzeTrace(*l.trace);
    return l;
}

// The power samples over their timed part: the capture range (cudaProfilerStart/Stop around the
// loop) when the sample has one, else the loop's NVTX range.
Loaded loadTimedPart(const std::string& path) {
    Loaded l = load(path);
    if (l.trace && l.result.window().source == WindowSource::Trace) {
        l.result = analyzeTrace(
            *l.trace, {}, resolveWindow(*l.trace, WindowRequest::nvtx("Loop").value()).value());
    }
    return l;
}

std::string describe(const AnalysisResult& r) {
    std::string s;
    for (const Diagnostic& d : r.diagnostics) {
        s += std::string("  ") + toString(d.rule) + ": " + d.message + "\n";
    }
    return s;
}

// The samples ship with Warpline (File > Compare Samples, the app without a GPU): one missing is
// a packaging defect, so its test fails.
#define REQUIRE_SAMPLE(var, ...)                     \
    const std::string var = findSample(__VA_ARGS__); \
    ASSERT_FALSE(var.empty()) << "no bundled sample in " WARPLINE_SAMPLES_DIR " matches"

TEST(Samples, PageableBaselineHasPageableCopies) {
    REQUIRE_SAMPLE(path, {"reduce", "baseline", "pageable"});
    const Loaded l = load(path);
    ASSERT_TRUE(l.trace);
    EXPECT_TRUE(l.result.fired(RuleId::PageableMemcpy)) << describe(l.result);
}

TEST(Samples, PinnedBaselineHasNoPageableCopies) {
    REQUIRE_SAMPLE(path, {"reduce", "baseline", "pinned"});
    const Loaded l = load(path);
    ASSERT_TRUE(l.trace);
    EXPECT_FALSE(l.result.fired(RuleId::PageableMemcpy)) << describe(l.result);
}

TEST(Samples, SharedStreamBugIsSerialized) {
    std::string path = findSample({"reduce", "bug"});
    if (path.empty()) {
        path = findSample({"reduce", "shared"});
    }
    ASSERT_FALSE(path.empty()) << "no shared-stream sample in " WARPLINE_SAMPLES_DIR;
    const Loaded l = load(path);
    ASSERT_TRUE(l.trace);
    EXPECT_TRUE(l.result.fired(RuleId::StreamsSerialized)) << describe(l.result);
}

TEST(Samples, AsyncReduceIsNotSerialized) {
    REQUIRE_SAMPLE(path, {"reduce", "async"}, {"bug", "shared"});
    const Loaded l = load(path);
    ASSERT_TRUE(l.trace);
    EXPECT_FALSE(l.result.fired(RuleId::StreamsSerialized)) << describe(l.result);
    EXPECT_GT(l.result.overlap.copyComputePct(), 0.0);
}

TEST(Samples, SingleThreadSumIsLowOccupancy) {
    REQUIRE_SAMPLE(path, {"reduce", "baseline"});
    const Loaded l = load(path);
    ASSERT_TRUE(l.trace);
    bool found = false;
    for (const Diagnostic* d : l.result.findings(RuleId::LowOccupancyKernel)) {
        if (d->message.find("single_thread_sum") != std::string::npos) {
            found = true;
            EXPECT_NE(d->message.find("1 warp using 1 of 32 lanes"), std::string::npos)
                << d->message;
        }
    }
    EXPECT_TRUE(found) << describe(l.result);
}

TEST(Samples, PowerBaselineSyncsInTheLoopAndAsyncDoesNot) {
    REQUIRE_SAMPLE(basePath, {"power", "baseline"});
    REQUIRE_SAMPLE(asyncPath, {"power", "async"});
    const Loaded base = loadTimedPart(basePath);
    const Loaded async = loadTimedPart(asyncPath);
    ASSERT_TRUE(base.trace && async.trace);

    const auto loops = base.result.findings(RuleId::SyncApiInLoop);
    ASSERT_FALSE(loops.empty()) << describe(base.result);
    EXPECT_GE(loops.front()->count, 3u);

    // A gap after each check in the baseline, the host blocked in its copy; in the async run the
    // next batch is already queued, so the checks leave no gaps and the rule does not fire.
    const auto gapsOf = [](const AnalysisResult& r, GapCause cause) {
        std::uint64_t n = 0;
        for (const IdleGap& g : r.utilization.gaps) {
            n += g.streamId == -1 && g.cause == cause ? 1 : 0;
        }
        return n;
    };
    std::uint64_t checks = 0;
    for (const KernelStats& k : base.result.statistics.kernels) {
        if (k.name.find("checkStep") != std::string::npos) {
            checks = k.count;
        }
    }
    const std::uint64_t baseSyncGaps = gapsOf(base.result, GapCause::AfterBlockingCall);
    EXPECT_GE(baseSyncGaps + 1, std::max<std::uint64_t>(checks, 3)) << describe(base.result);
    std::uint64_t asyncGaps = 0;
    for (const IdleGap& g : async.result.utilization.gaps) {
        asyncGaps += g.streamId == -1 ? 1 : 0;
    }
    EXPECT_LT(asyncGaps * 4, baseSyncGaps) << describe(async.result);
    EXPECT_GT(async.result.gpuBusyPct(), base.result.gpuBusyPct());
    EXPECT_FALSE(async.result.fired(RuleId::SyncApiInLoop)) << describe(async.result);
}

// Every sample is analysed over its timed part (the workloads mark it with cudaProfilerStart/Stop),
// not over start-up, and there the correct async reduce is busier than the shared-stream bug.
TEST(Samples, DefaultWindowIsTheTimedPartAndAsyncBeatsTheBug) {
    REQUIRE_SAMPLE(asyncPath, {"reduce", "async"}, {"shared-stream"});
    REQUIRE_SAMPLE(bugPath, {"reduce", "shared-stream"});
    const Loaded async = load(asyncPath);
    const Loaded bug = load(bugPath);
    ASSERT_TRUE(async.trace && bug.trace);
    for (const Loaded* l : {&async, &bug}) {
        EXPECT_EQ(l->result.window().source, WindowSource::Capture);
        // The window is a small part of the trace: compilation, allocation and the warm-up are
        // outside it.
        EXPECT_LT(l->result.window().durationNs() * 5, l->trace->spanNs());
    }
    EXPECT_GT(async.result.gpuBusyPct(), 90.0) << describe(async.result);
    EXPECT_GT(async.result.gpuBusyPct(), bug.result.gpuBusyPct());
    // The bug's timed part is longer: nothing overlaps.
    EXPECT_GT(bug.result.window().durationNs(), async.result.window().durationNs());
}

}  // namespace
}  // namespace wl::analysis
