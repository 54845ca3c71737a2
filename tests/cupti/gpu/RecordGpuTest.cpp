// `warpline record` end to end on a real GPU, with the CuPy programs of tests/programs: a capture
// range keeps only the profiled part; a program with two GPU-using children leaves three traces
// and a merged one; SIGTERM, abort(), a segmentation fault and SIGKILL each leave a trace of the
// kernels that ran; GPU metrics are sampled from the program's first context without harming
// its exit; a PyTorch training loop records as before. Skips without a device, or
// without CuPy/PyTorch for the programs that need them.
//
// WARPLINE_RECORD_COMMAND overrides how warpline is started (a launcher script on a machine
// where the build folder is not at its build-time path).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <string>

#include <cuda_runtime_api.h>

#include "GpuTestSupport.h"

#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl {
namespace {

using test::haveGpu;
using test::warpline;

bool pythonHas(const std::string& module) {
    const std::string command = "python3 -c 'import " + module + "' >/dev/null 2>&1";
    return std::system(command.c_str()) == 0;
}

struct Recorded {
    int exitCode = -1;
    std::string log;  // warpline's and the program's stderr and stdout
};

class RecordGpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!haveGpu()) {
            GTEST_SKIP() << "no CUDA device";
        }
        if (!pythonHas("cupy")) {
            GTEST_SKIP() << "python3 has no CuPy";
        }
        m_dir = test::makeTempDir("warpline-record-gpu");
    }
    void TearDown() override {
        if (!m_dir.empty()) {
            std::filesystem::remove_all(m_dir);
        }
    }

    // Runs `warpline record OPTIONS -- python3 PROGRAM ARGS` in the temporary folder.
    Recorded record(const std::string& options, const std::string& program,
                    const std::string& args) {
        const std::string logPath = m_dir + "/record.log";
        const std::string command = "cd '" + m_dir + "' && " + warpline() + " record " + options +
                                    " -- python3 '" + std::string(WARPLINE_TEST_PROGRAMS_DIR) +
                                    "/" + program + "' " + args + " > '" + logPath + "' 2>&1";
        const int status = std::system(command.c_str());
        Recorded r;
        r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.log = test::readFile(logPath);
        return r;
    }

    model::TracePtr load(const std::string& name) {
        auto trace = io::loadTrace(m_dir + "/" + name);
        EXPECT_TRUE(trace.ok()) << name << ": " << (trace.ok() ? "" : trace.error().describe());
        return trace.ok() ? trace.value() : nullptr;
    }

    std::set<std::string> traceFiles() {
        std::set<std::string> names;
        for (const auto& entry : std::filesystem::directory_iterator(m_dir)) {
            const std::string name = entry.path().filename().string();
            if (name.find(".json") != std::string::npos) {
                names.insert(name);
            }
        }
        return names;
    }

    std::string m_dir;
};

TEST_F(RecordGpuTest, CudaProfilerApiCaptureKeepsOnlyTheProfiledPart) {
    const Recorded r = record("-o capture.json.gz --capture-range=cudaProfilerApi",
                              "record_resilience.py", "capture");
    ASSERT_EQ(r.exitCode, 0) << r.log;
    const auto trace = load("capture.json.gz");
    ASSERT_TRUE(trace);
    // 30 kernels before cupyx.profiler.profile(), 10 inside, 20 after.
    EXPECT_EQ(trace->counts().kernel, 10u) << r.log;
    EXPECT_EQ(trace->captureWindows().size(), 1u);
    EXPECT_EQ(trace->metadataValue("capture windows"), "1");
    EXPECT_NE(r.log.find("events outside them were not kept"), std::string::npos) << r.log;

    // Without a capture range the whole run is there.
    const Recorded whole = record("-o whole.json.gz", "record_resilience.py", "capture");
    ASSERT_EQ(whole.exitCode, 0) << whole.log;
    const auto all = load("whole.json.gz");
    ASSERT_TRUE(all);
    EXPECT_GE(all->counts().kernel, 60u);
}

// The GPU metrics rows of a recorded trace: samples per series, and how many of them lie within
// the span of the trace's kernels (the PM clock and the activity clock agree).
struct MetricRows {
    std::map<std::string, std::size_t> samples;  // series -> samples
    std::size_t withinKernels = 0;
};

MetricRows metricRows(const model::Trace& trace) {
    model::TimeNs first = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs last = std::numeric_limits<model::TimeNs>::min();
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::GpuStream) {
            continue;
        }
        for (const model::Slice& slice : track.slices) {
            first = std::min(first, slice.startNs);
            last = std::max(last, slice.endNs());
        }
    }
    MetricRows rows;
    for (const model::CounterTrack& c : trace.counters()) {
        if (trace.str(c.nameId) != "GPU metrics") {
            continue;
        }
        rows.samples[std::string(trace.str(c.seriesId))] += c.samples.size();
        for (const model::CounterSample& sample : c.samples) {
            rows.withinKernels += sample.timestampNs >= first && sample.timestampNs <= last;
        }
    }
    return rows;
}

// PM sampling starts with the program's first context and is decoded when it exits. CuPy
// programs once died at exit with a corrupted heap under it: the trace was written after CUPTI's
// profiler host library had torn itself down. Each program must exit cleanly with both rows.
TEST_F(RecordGpuTest, GpuMetricsOfCuPyProgramsAreSampledAndTheyExitCleanly) {
    const char* programs[][2] = {{"record_resilience.py", "capture"}, {"power_async.py", ""}};
    for (const auto& [program, args] : programs) {
        SCOPED_TRACE(program);
        const std::string name = std::string(program) + ".json.gz";
        const Recorded r = record("-o " + name + " --gpu-metrics", program, args);
        ASSERT_EQ(r.exitCode, 0) << r.log;
        EXPECT_EQ(r.log.find("corrupt"), std::string::npos) << r.log;
        EXPECT_EQ(r.log.find("free()"), std::string::npos) << r.log;
        const auto trace = load(name);
        ASSERT_TRUE(trace);
        EXPECT_TRUE(trace->metadataValue("ended").empty()) << trace->metadataValue("ended");
        MetricRows rows = metricRows(*trace);
        EXPECT_GT(rows.samples["warp occupancy %"], 10u) << r.log;
        EXPECT_GT(rows.samples["SM active %"], 10u) << r.log;
        EXPECT_GT(rows.withinKernels, 10u) << r.log;
        for (const std::string& warning : trace->diagnostics().warnings) {
            EXPECT_EQ(warning.find("GPU metrics"), std::string::npos) << warning;
        }
    }
}

// A program that aborts still leaves its GPU metrics: the signal's writer stops sampling too.
TEST_F(RecordGpuTest, GpuMetricsSurviveAnAbort) {
    const Recorded r = record("-o abort.json.gz --gpu-metrics", "record_resilience.py", "abort");
    EXPECT_GT(r.exitCode, 128) << r.log;
    const auto trace = load("abort.json.gz");
    ASSERT_TRUE(trace) << r.log;
    EXPECT_GE(trace->counts().kernel, 400u) << r.log;
    MetricRows rows = metricRows(*trace);
    EXPECT_GT(rows.samples["SM active %"], 10u) << r.log;
    EXPECT_FALSE(trace->metadataValue("ended").empty());
}

TEST_F(RecordGpuTest, ChildrenWriteTheirOwnTracesAndOneMergedTrace) {
    const Recorded r = record("-o mp.json.gz", "record_resilience.py", "children");
    ASSERT_EQ(r.exitCode, 0) << r.log;
    const auto files = traceFiles();
    ASSERT_EQ(files.size(), 4u) << r.log;  // the program, two children, the merged trace
    ASSERT_TRUE(files.count("mp.json.gz")) << r.log;
    ASSERT_TRUE(files.count("mp.merged.json.gz")) << r.log;
    std::uint64_t kernels = 0;
    for (const std::string& name : files) {
        if (name == "mp.merged.json.gz") {
            continue;
        }
        const auto trace = load(name);
        ASSERT_TRUE(trace);
        EXPECT_GE(trace->counts().kernel, 40u) << name;  // 20 x (multiply, add)
        kernels += trace->counts().kernel;
    }
    const auto merged = load("mp.merged.json.gz");
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->counts().kernel, kernels);
    std::set<std::int64_t> hostPids;
    for (const model::Process& p : merged->processes()) {
        if (p.deviceId < 0) {
            hostPids.insert(p.pid);
        }
    }
    EXPECT_EQ(hostPids.size(), 3u);
    // Launch arrows stay within a process: each joins a call and the GPU work of the same pid.
    for (const model::Flow& f : merged->flows()) {
        const auto& from = merged->processes()[merged->track(f.from.track).process];
        const auto& to = merged->processes()[merged->track(f.to.track).process];
        EXPECT_TRUE(from.deviceId < 0 && to.deviceId >= 0);
        EXPECT_EQ(to.ownerPid, from.pid);
    }
}

class RecordEndingTest : public RecordGpuTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(RecordEndingTest, AProgramThatEndsBadlyLeavesTheKernelsItRan) {
    const std::string mode = GetParam();
    const Recorded r = record("-o " + mode + ".json.gz", "record_resilience.py", mode);
    EXPECT_GT(r.exitCode, 128) << r.log;  // ended by the signal; its number passed through
    const auto trace = load(mode + ".json.gz");
    ASSERT_TRUE(trace) << r.log;
    EXPECT_GE(trace->counts().kernel, 400u) << r.log;  // 200 x (multiply, add)
    if (mode == "sigkill") {
        EXPECT_NE(r.log.find("recovered to"), std::string::npos) << r.log;
    }
    // No half-written or leftover files.
    for (const std::string& name : traceFiles()) {
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
    }
}

INSTANTIATE_TEST_SUITE_P(Endings, RecordEndingTest,
                         ::testing::Values("sigterm", "abort", "segv", "sigkill"));

TEST_F(RecordGpuTest, APyTorchTrainingLoopRecordsAsBefore) {
    if (!pythonHas("torch")) {
        GTEST_SKIP() << "python3 has no PyTorch";
    }
    const Recorded r = record("-o torch.json.gz", "torch_train.py", "");
    ASSERT_EQ(r.exitCode, 0) << r.log;
    const auto trace = load("torch.json.gz");
    ASSERT_TRUE(trace);
    EXPECT_GT(trace->counts().kernel, 100u);
    EXPECT_GT(trace->counts().nvtx, 0u);
    EXPECT_EQ(trace->diagnostics().droppedRecords, 0u);
    EXPECT_GT(trace->counts().flows, 100u);
}

}  // namespace
}  // namespace wl
