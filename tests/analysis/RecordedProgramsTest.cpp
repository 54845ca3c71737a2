// The analysis of real programs recorded with `warpline record` on an H100 (tests/data/recorded:
// the CuPy power-iteration notebook's baseline and async versions, a PyTorch training loop, the
// Numba reduce article's v3 with 8 streams; programs in tests/programs), checked against an
// independent computation from the exported JSON itself: simdjson's DOM instead of our reader,
// and a plain interval union instead of the analysis's sweep. Also checks that the analysis tells
// each program's story in its own words.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/Analysis.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::analysis {
namespace {

struct Span {
    double startUs;
    double endUs;
};

std::string gunzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    EXPECT_NE(f, nullptr) << path;
    std::string out;
    if (f == nullptr) {
        return out;
    }
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0) {
        out.append(buf, static_cast<std::size_t>(n));
    }
    gzclose(f);
    return out;
}

// What the JSON says, read without Warpline's reader: GPU ops, capture marks, NVTX ranges.
struct JsonFacts {
    std::vector<Span> gpuOps;
    double profilerStartEndUs = -1;  // cudaProfilerStart's return
    double profilerStopUs = -1;      // cudaProfilerStop's call
    std::vector<std::pair<std::string, Span>> ranges;

    static JsonFacts read(const std::string& path) {
        JsonFacts f;
        const std::string json = gunzip(path);
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
        simdjson::dom::array events;
        EXPECT_EQ(root["traceEvents"].get_array().get(events), simdjson::SUCCESS);
        for (simdjson::dom::element e : events) {
            std::string_view ph;
            std::string_view cat;
            std::string_view name;
            double ts = 0;
            double dur = 0;
            if (e["ph"].get(ph) || ph != "X" || e["cat"].get(cat) || e["name"].get(name) ||
                e["ts"].get(ts) || e["dur"].get(dur)) {
                continue;
            }
            if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
                f.gpuOps.push_back({ts, ts + dur});
            } else if (cat == "cuda_runtime" && name.rfind("cudaProfilerStart", 0) == 0) {
                f.profilerStartEndUs = ts + dur;
            } else if (cat == "cuda_runtime" && name.rfind("cudaProfilerStop", 0) == 0) {
                f.profilerStopUs = ts;
            } else if (cat == "user_annotation") {
                f.ranges.emplace_back(std::string(name), Span{ts, ts + dur});
            }
        }
        return f;
    }

    Span capture() const { return {profilerStartEndUs, profilerStopUs}; }
    Span range(const std::string& name) const {
        for (const auto& [n, s] : ranges) {
            if (n == name) {
                return s;
            }
        }
        ADD_FAILURE() << "no range " << name;
        return {};
    }

    // The union of the GPU ops inside the window, as sorted disjoint spans.
    std::vector<Span> busyIn(Span w) const {
        std::vector<Span> clipped;
        for (const Span& op : gpuOps) {
            const Span c{std::max(op.startUs, w.startUs), std::min(op.endUs, w.endUs)};
            if (c.endUs > c.startUs) {
                clipped.push_back(c);
            }
        }
        std::sort(clipped.begin(), clipped.end(),
                  [](const Span& a, const Span& b) { return a.startUs < b.startUs; });
        std::vector<Span> merged;
        for (const Span& c : clipped) {
            if (!merged.empty() && c.startUs <= merged.back().endUs) {
                merged.back().endUs = std::max(merged.back().endUs, c.endUs);
            } else {
                merged.push_back(c);
            }
        }
        return merged;
    }

    static double total(const std::vector<Span>& spans) {
        double t = 0;
        for (const Span& s : spans) {
            t += s.endUs - s.startUs;
        }
        return t;
    }

    // Idle time of the window that falls inside ranges whose name starts with `prefix`.
    double idleInRanges(Span w, const std::string& prefix) const {
        const std::vector<Span> busy = busyIn(w);
        double idle = 0;
        for (const auto& [name, r] : ranges) {
            if (name.rfind(prefix, 0) != 0) {
                continue;
            }
            const Span part{std::max(r.startUs, w.startUs), std::min(r.endUs, w.endUs)};
            if (part.endUs <= part.startUs) {
                continue;
            }
            double covered = 0;
            for (const Span& b : busy) {
                covered += std::max(
                    0.0, std::min(b.endUs, part.endUs) - std::max(b.startUs, part.startUs));
            }
            idle += part.endUs - part.startUs - covered;
        }
        return idle;
    }
};

struct Recorded {
    model::TracePtr trace;
    JsonFacts json;
};

Recorded load(const std::string& name) {
    const std::string path = test::dataPath("recorded/" + name);
    auto trace = io::loadTrace(path);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().describe());
    return {trace.ok() ? trace.value() : nullptr, JsonFacts::read(path)};
}

const HostRangeIdle* idleOf(const AnalysisResult& r, const std::string& name) {
    for (const HostRangeIdle& h : r.utilization.idleByHostRange) {
        if (h.name == name) {
            return &h;
        }
    }
    return nullptr;
}

std::string describe(const AnalysisResult& r) {
    std::string s;
    for (const Diagnostic& d : r.diagnostics) {
        s += std::string("  ") + toString(d.rule) + ": " + d.message + "\n";
    }
    return s;
}

constexpr double kNsPerUsD = 1000.0;

TEST(RecordedPrograms, NotebookBaselineIdlesAfterItsBlockingCopyAndThroughItsIo) {
    const Recorded rec = load("power_baseline.json.gz");
    ASSERT_NE(rec.trace, nullptr);
    // cupyx.profiler.profile() marks the solver: the capture range is the default window.
    const AnalysisResult r = analyzeTrace(*rec.trace);
    ASSERT_EQ(r.window().source, WindowSource::Capture);
    const Span w = rec.json.capture();
    ASSERT_GT(w.endUs, w.startUs);
    EXPECT_NEAR(r.window().durationNs() / kNsPerUsD, w.endUs - w.startUs, 0.01);
    const double busyUs = JsonFacts::total(rec.json.busyIn(w));
    ASSERT_EQ(r.utilization.devices.size(), 1u);
    EXPECT_NEAR(r.utilization.devices[0].busyNs / kNsPerUsD, busyUs, 0.5);
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * busyUs / (w.endUs - w.startUs), 0.01);
    EXPECT_LT(r.gpuBusyPct(), 20.0);

    // Almost all idle time begins inside the blocking copy and lasts through "I/O i", where the
    // GPU had nothing queued.
    ASSERT_EQ(r.utilization.attribution.size(), 1u);
    EXPECT_GT(r.utilization.attribution[0].pct(GapCause::AfterBlockingCall), 80.0);
    const HostRangeIdle* io = idleOf(r, "I/O #");
    ASSERT_NE(io, nullptr);
    EXPECT_NEAR(io->idleNs / kNsPerUsD, rec.json.idleInRanges(w, "I/O "), 1.0);
    EXPECT_EQ(io->queuedNs, 0);
    EXPECT_TRUE(r.fired(RuleId::SyncApiInLoop)) << describe(r);
    const auto stalls = r.findings(RuleId::HostRangeStallsGpu);
    ASSERT_FALSE(stalls.empty()) << describe(r);
    EXPECT_NE(stalls.front()->message.find("'I/O #'"), std::string::npos);
}

TEST(RecordedPrograms, NotebookAsyncNoLongerBlocksButStillIdlesInItsIo) {
    const Recorded rec = load("power_async.json.gz");
    ASSERT_NE(rec.trace, nullptr);
    const AnalysisResult r = analyzeTrace(*rec.trace);
    ASSERT_EQ(r.window().source, WindowSource::Capture);
    const Span w = rec.json.capture();
    const double busyUs = JsonFacts::total(rec.json.busyIn(w));
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * busyUs / (w.endUs - w.startUs), 0.01);
    ASSERT_EQ(r.utilization.attribution.size(), 1u);
    EXPECT_LT(r.utilization.attribution[0].pct(GapCause::AfterBlockingCall), 10.0);
    EXPECT_GT(r.utilization.attribution[0].pct(GapCause::Host), 80.0);
    EXPECT_FALSE(r.fired(RuleId::SyncApiInLoop)) << describe(r);
    // Idle time in "I/O i" less the part where queued work waited on the GPU (not the host's
    // doing, so not charged to a host range): between the JSON's figure and that less every
    // GPU-wait ns of the window.
    const HostRangeIdle* io = idleOf(r, "I/O #");
    ASSERT_NE(io, nullptr);
    const double ioIdleUs = rec.json.idleInRanges(w, "I/O ");
    EXPECT_LE(io->idleNs / kNsPerUsD, ioIdleUs + 1.0);
    EXPECT_GE(io->idleNs / kNsPerUsD,
              ioIdleUs - r.utilization.attribution[0].ns(GapCause::GpuWait) / kNsPerUsD - 1.0);
    EXPECT_GT(io->queuedNs, 0);  // work was queued when the I/O began, just not enough
    const auto stalls = r.findings(RuleId::HostRangeStallsGpu);
    ASSERT_FALSE(stalls.empty()) << describe(r);
    EXPECT_NE(stalls.front()->message.find("'I/O #'"), std::string::npos);
}

TEST(RecordedPrograms, TorchTrainingLoopIsLaunchBoundInItsTrainRange) {
    const Recorded rec = load("torch_train.json.gz");
    ASSERT_NE(rec.trace, nullptr);
    const AnalysisResult r = analyzeTrace(
        *rec.trace, {}, resolveWindow(*rec.trace, WindowRequest::nvtx("train").value()).value());
    const Span w = rec.json.range("train");
    EXPECT_NEAR(r.window().durationNs() / kNsPerUsD, w.endUs - w.startUs, 0.01);
    const double busyUs = JsonFacts::total(rec.json.busyIn(w));
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * busyUs / (w.endUs - w.startUs), 0.01);
    EXPECT_TRUE(r.fired(RuleId::LaunchBound)) << describe(r);
    // Python start-up is outside the window: no claim that syncs drained the GPU for seconds.
    EXPECT_FALSE(r.fired(RuleId::SyncApiInLoop)) << describe(r);
    // cuDNN, cuBLAS and PyTorch's own kernels are one informational line, not ~20 warnings.
    EXPECT_EQ(r.findings(RuleId::LibraryKernels).size(), 1u) << describe(r);
    for (const Diagnostic* d : r.findings(RuleId::LowOccupancyKernel)) {
        ADD_FAILURE() << "a library kernel reported as user code: " << d->message;
    }
}

TEST(RecordedPrograms, NumbaReduceNamesAreShortAndTheWholeTraceIsFirstToLastGpuOp) {
    const Recorded rec = load("run_v3_s8.json.gz");
    ASSERT_NE(rec.trace, nullptr);
    const AnalysisResult r = analyzeTrace(*rec.trace);
    ASSERT_EQ(r.window().source, WindowSource::Trace);
    double first = 1e300;
    double last = -1e300;
    for (const Span& op : rec.json.gpuOps) {
        first = std::min(first, op.startUs);
        last = std::max(last, op.endUs);
    }
    const double busyUs = JsonFacts::total(rec.json.busyIn({first, last}));
    EXPECT_NEAR(r.gpuBusyPct(), 100.0 * busyUs / (last - first), 0.01);
    std::vector<std::string> shortNames;
    for (const KernelStats& k : r.statistics.kernels) {
        shortNames.push_back(k.shortName);
        EXPECT_NE(k.name.find("[abi:"), std::string::npos) << k.name;  // Numba's full name kept
    }
    std::sort(shortNames.begin(), shortNames.end());
    EXPECT_EQ(shortNames,
              (std::vector<std::string>{"divide_by", "partial_reduce", "single_thread_sum"}));
}

}  // namespace
}  // namespace wl::analysis
