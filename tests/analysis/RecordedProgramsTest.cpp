// The analysis of real programs recorded with `warpline record` on an H200 (tests/data/recorded:
// the CuPy power-iteration notebook's baseline and async versions, a PyTorch training loop, the
// Numba reduce article's v3 with 8 streams, a PyTorch CUDA-graph replay loop, also as
// torch.profiler wrote it; programs in tests/programs), checked against an
// independent computation from the exported JSON itself: simdjson's DOM instead of our reader,
// and a plain interval union instead of the analysis's sweep. Also checks that the analysis tells
// each program's story in its own words.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
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
    std::vector<Span> graphLaunchOps;  // the GPU ops launched by cudaGraphLaunch calls

    static JsonFacts read(const std::string& path) {
        JsonFacts f;
        const std::string json = gunzip(path);
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
        simdjson::dom::array events;
        EXPECT_EQ(root["traceEvents"].get_array().get(events), simdjson::SUCCESS);
        std::set<std::int64_t> graphLaunches;                // their correlation ids
        std::vector<std::pair<std::int64_t, Span>> opsById;  // GPU ops by correlation id
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
            std::int64_t correlation = -1;
            if (e["args"]["correlation"].get(correlation) != simdjson::SUCCESS) {
                correlation = -1;  // no launch to match
            }
            if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
                f.gpuOps.push_back({ts, ts + dur});
                opsById.emplace_back(correlation, Span{ts, ts + dur});
            } else if (cat == "cuda_runtime" && name.rfind("cudaGraphLaunch", 0) == 0) {
                graphLaunches.insert(correlation);
            } else if (cat == "cuda_runtime" && name.rfind("cudaProfilerStart", 0) == 0) {
                f.profilerStartEndUs = ts + dur;
            } else if (cat == "cuda_runtime" && name.rfind("cudaProfilerStop", 0) == 0) {
                f.profilerStopUs = ts;
            } else if (cat == "user_annotation") {
                f.ranges.emplace_back(std::string(name), Span{ts, ts + dur});
            }
        }
        for (const auto& [id, op] : opsById) {
            if (graphLaunches.count(id) != 0) {
                f.graphLaunchOps.push_back(op);
            }
        }
        return f;
    }

    // First to last op of the graph launches.
    Span graphLaunchSpan() const {
        Span s{1e300, -1e300};
        for (const Span& op : graphLaunchOps) {
            s.startUs = std::min(s.startUs, op.startUs);
            s.endUs = std::max(s.endUs, op.endUs);
        }
        return s;
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

TEST(RecordedPrograms, AGraphReplayLoopIsMeasuredOverItsReplays) {
    // torch_graph_replay.py --small: three eager warm-up steps, a capture, seconds of lazy module
    // loading, then 320 replays of the captured step (about 90 us each), recorded by `record` and
    // by torch.profiler (whose trace has only the replays and no graph ids). The steady state of
    // the ops alone spanned warm-up, capture and loading: 249.5 ms at 9.6% busy, upside down.
    for (const char* name : {"torch_graph_replay.json.gz", "torch_graph_replay.pt.trace.json.gz"}) {
        SCOPED_TRACE(name);
        const Recorded rec = load(name);
        ASSERT_NE(rec.trace, nullptr);
        const AnalysisResult r = analyzeTrace(*rec.trace);
        ASSERT_EQ(r.window().source, WindowSource::GraphLaunches);
        EXPECT_EQ(r.window().instance, 320);
        ASSERT_EQ(rec.json.graphLaunchOps.size(), 320u * 20u);
        const Span replays = rec.json.graphLaunchSpan();
        EXPECT_NEAR(static_cast<double>(r.window().durationNs()) / kNsPerUsD,
                    replays.endUs - replays.startUs, 0.002);
        const double busyUs = JsonFacts::total(rec.json.busyIn(replays));
        EXPECT_NEAR(static_cast<double>(r.utilization.busyNs) / kNsPerUsD, busyUs, 0.5);
        // GPU-bound: 81% busy (23.6 of 29.0 ms).
        EXPECT_NEAR(r.utilization.busyPct(), 100.0 * busyUs / (replays.endUs - replays.startUs),
                    0.01);
        EXPECT_GT(r.utilization.busyPct(), 75.0);
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

// The GPU ops and CUDA calls of a recording, read with simdjson, for an independent computation of
// the steady state and of the idle split: plain loops over the JSON's own events.
struct JsonOps {
    struct Op {
        double startUs;
        double endUs;
        std::string name;
        std::int64_t correlation;
        bool copyOrSet;  // a copy or memset (not device-to-device): a call can wait for it
    };
    struct Call {
        double startUs;
        double endUs;
        std::string name;  // without CUPTI's suffixes
        std::int64_t tid;
    };
    std::vector<Op> ops;                 // by (start, end)
    std::map<std::int64_t, Call> calls;  // by correlation id

    static std::string baseName(std::string_view name) {
        std::string n(name);
        for (;;) {
            const auto pos = n.rfind('_');
            if (pos == std::string::npos || pos == 0) {
                return n;
            }
            const std::string suffix = n.substr(pos + 1);
            const bool version = suffix.size() >= 2 && suffix[0] == 'v' &&
                                 std::all_of(suffix.begin() + 1, suffix.end(), ::isdigit);
            if (!version && suffix != "ptsz" && suffix != "ptds") {
                return n;
            }
            n.resize(pos);
        }
    }

    static JsonOps read(const std::string& path) {
        JsonOps f;
        const std::string json = gunzip(path);
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
        for (simdjson::dom::element e : root["traceEvents"].get_array()) {
            std::string_view ph;
            std::string_view cat;
            std::string_view name;
            double ts = 0;
            double dur = 0;
            std::int64_t correlation = 0;
            if (e["ph"].get(ph) || ph != "X" || e["cat"].get(cat) || e["name"].get(name) ||
                e["ts"].get(ts) || e["dur"].get(dur) || e["args"]["correlation"].get(correlation)) {
                continue;
            }
            if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
                std::string_view kind;
                const bool deviceToDevice = !e["args"]["copy kind"].get(kind) && kind == "DtoD";
                f.ops.push_back({ts, ts + dur, std::string(name), correlation,
                                 cat != "kernel" && !deviceToDevice});
            } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
                std::int64_t tid = 0;
                EXPECT_FALSE(e["tid"].get(tid));
                f.calls[correlation] = {ts, ts + dur, baseName(name), tid};
            }
        }
        std::sort(f.ops.begin(), f.ops.end(), [](const Op& a, const Op& b) {
            return a.startUs != b.startUs ? a.startUs < b.startUs : a.endUs < b.endUs;
        });
        return f;
    }

    // The steady-state rule as the README states it, written plainly: names that occur 3 times
    // or more; their first to last op; then, at most 4 times, the longest idle gap (10x the
    // median gap, 5% of the span) cuts off a side with fewer ops than the other and fewer than
    // half of the names the other side repeats. Indexes of the first and last op kept.
    std::pair<std::size_t, std::size_t> steadyState() const {
        std::map<std::string, int> count;
        for (const Op& op : ops) {
            ++count[op.name];
        }
        std::size_t lo = 0;
        std::size_t hi = ops.size() - 1;
        while (count[ops[lo].name] < 3) {
            ++lo;
        }
        while (count[ops[hi].name] < 3) {
            --hi;
        }
        const auto oneOff = [&](std::size_t from, std::size_t to, std::size_t otherFrom,
                                std::size_t otherTo) {
            std::map<std::string, int> other;
            for (std::size_t i = otherFrom; i < otherTo; ++i) {
                ++other[ops[i].name];
            }
            std::set<std::string> repeatedThere;
            for (const auto& [name, n] : other) {
                if (n >= 3) {
                    repeatedThere.insert(name);
                }
            }
            std::set<std::string> shared;
            for (std::size_t i = from; i < to; ++i) {
                if (repeatedThere.count(ops[i].name) != 0) {
                    shared.insert(ops[i].name);
                }
            }
            return to - from < otherTo - otherFrom && 2 * shared.size() < repeatedThere.size();
        };
        for (int cut = 0; cut < 4 && lo < hi; ++cut) {
            std::vector<double> gaps;
            double longest = 0;
            std::size_t at = 0;
            double reach = ops[lo].endUs;
            for (std::size_t i = lo + 1; i <= hi; ++i) {
                if (ops[i].startUs > reach) {
                    gaps.push_back(ops[i].startUs - reach);
                    if (gaps.back() > longest) {
                        longest = gaps.back();
                        at = i;
                    }
                }
                reach = std::max(reach, ops[i].endUs);
            }
            if (gaps.size() < 2) {
                break;
            }
            std::sort(gaps.begin(), gaps.end());
            if (longest < 10 * gaps[gaps.size() / 2] ||
                longest < 0.05 * (reach - ops[lo].startUs)) {
                break;
            }
            std::map<std::string, int> inSpan;
            for (std::size_t i = lo; i <= hi; ++i) {
                ++inSpan[ops[i].name];
            }
            if (oneOff(lo, at, at, hi + 1)) {
                for (lo = at; lo < hi && inSpan[ops[lo].name] < 3; ++lo) {
                }
            } else if (oneOff(at, hi + 1, lo, at)) {
                for (hi = at - 1; hi > lo && inSpan[ops[hi].name] < 3; --hi) {
                }
            } else {
                break;
            }
        }
        return {lo, hi};
    }

    // Idle time of [startUs, endUs] by cause, from the launching call of the op that ends each
    // hole: GPU wait when the call had returned, after a blocking call when its thread was then
    // inside a synchronisation, a blocking copy or free, or a call whose copy or memset had
    // finished (never a launch), else host.
    std::map<std::string, double> idleByCause(double startUs, double endUs) const {
        static const std::set<std::string> kSyncs = {"cudaDeviceSynchronize",
                                                     "cudaStreamSynchronize",
                                                     "cudaEventSynchronize",
                                                     "cudaThreadSynchronize",
                                                     "cuCtxSynchronize",
                                                     "cuStreamSynchronize",
                                                     "cuEventSynchronize",
                                                     "cudaFree",
                                                     "cudaFreeHost",
                                                     "cudaFreeArray",
                                                     "cuMemFree",
                                                     "cuMemFreeHost"};
        std::map<std::int64_t, const Op*> opOf;
        for (const Op& op : ops) {
            opOf.emplace(op.correlation, &op);
        }
        const auto isLaunch = [](const std::string& n) {
            return n.rfind("cudaLaunch", 0) == 0 || n.rfind("cuLaunch", 0) == 0 ||
                   n == "cudaGraphLaunch" || n == "cuGraphLaunch";
        };
        std::map<std::int64_t, std::vector<const Call*>> blocking;  // by thread
        for (const auto& [correlation, c] : calls) {
            if (isLaunch(c.name)) {
                continue;
            }
            const bool copy =
                (c.name.rfind("cudaMemcpy", 0) == 0 || c.name.rfind("cuMemcpy", 0) == 0) &&
                c.name.find("Async") == std::string::npos;
            const auto op = opOf.find(correlation);
            const bool waited =
                op != opOf.end() && op->second->copyOrSet && op->second->endUs <= c.endUs;
            if (kSyncs.count(c.name) != 0 || copy || waited) {
                blocking[c.tid].push_back(&c);
            }
        }
        const auto blockingAt = [&](std::int64_t tid, double t) {
            for (const Call* c : blocking[tid]) {
                if (c->startUs <= t && t < c->endUs) {
                    return true;
                }
            }
            return false;
        };
        std::map<std::string, double> out;
        double reach = startUs;
        for (const Op& op : ops) {
            if (op.endUs <= startUs || op.startUs >= endUs) {
                continue;
            }
            if (op.startUs > reach) {
                const auto call = calls.find(op.correlation);
                std::string cause = "host";
                if (call != calls.end() && call->second.endUs <= reach) {
                    cause = "gpu_wait";
                } else if (call != calls.end() && blockingAt(call->second.tid, reach)) {
                    cause = "after_blocking_call";
                }
                out[cause] += op.startUs - reach;
            }
            reach = std::max(reach, op.endUs);
        }
        return out;
    }
};

TEST(RecordedPrograms, TorchTrainingLoopsSteadyStateAndIdleSplitFromTheJson) {
    // The PyTorch loop's trace marks its steps, so its default window is the iterations; the
    // steady state found from its ops alone is checked here against the JSON.
    const std::string path = test::dataPath("recorded/torch_train.json.gz");
    auto loaded = io::loadTrace(path);
    ASSERT_TRUE(loaded.ok());
    const model::Trace& trace = *loaded.value();
    const JsonOps json = JsonOps::read(path);
    ASSERT_FALSE(json.ops.empty());

    const auto steady = steadyStateWindow(trace);
    ASSERT_TRUE(steady.has_value());
    ASSERT_EQ(steady->parts.size(), 1u);
    const auto [lo, hi] = json.steadyState();
    double endUs = json.ops[lo].endUs;
    for (std::size_t i = lo; i <= hi; ++i) {
        endUs = std::max(endUs, json.ops[i].endUs);
    }
    const double firstUs = json.ops.front().startUs;
    double lastUs = 0;
    for (const JsonOps::Op& op : json.ops) {
        lastUs = std::max(lastUs, op.endUs);
    }
    // Times relative to the first GPU op: the trace's origin is not the JSON's.
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const model::TimeNs firstNs = resolveWindow(trace, whole)->startNs();
    EXPECT_NEAR((steady->startNs() - firstNs) / kNsPerUsD, json.ops[lo].startUs - firstUs, 0.002);
    EXPECT_NEAR((steady->endNs() - firstNs) / kNsPerUsD, endUs - firstUs, 0.002);
    // Seconds of start-up (imports, cuDNN and cuBLAS set-up, the first copies) are left out: 3.7 s
    // in this recording (H200), 7.4 s in the H100 one before it.
    ASSERT_FALSE(steady->leftOut.empty());
    EXPECT_EQ(steady->leftOut.front().kind, LeftOut::Kind::StartUp);
    EXPECT_GT(steady->leftOut.front().range.durationNs(), 2 * model::kNsPerSecond);
    EXPECT_LT(steady->durationNs(), (lastUs - firstUs) * kNsPerUsD / 5);

    const AnalysisResult r = analyzeTrace(trace, {}, *steady);
    ASSERT_EQ(r.utilization.attribution.size(), 1u);
    const IdleAttribution& a = r.utilization.attribution[0];
    const auto split = json.idleByCause(json.ops[lo].startUs, endUs);
    double idleUs = 0;
    for (const auto& [cause, us] : split) {
        idleUs += us;
    }
    EXPECT_NEAR(a.idleNs / kNsPerUsD, idleUs, 1.0);
    for (const GapCause cause : {GapCause::AfterBlockingCall, GapCause::Host, GapCause::GpuWait}) {
        const auto it = split.find(toString(cause));
        const double us = it == split.end() ? 0.0 : it->second;
        EXPECT_NEAR(a.ns(cause) / kNsPerUsD, us, 0.01 * idleUs) << toString(cause);
    }
    // A launch-bound loop: most of its idle time is the host's.
    EXPECT_GT(a.pct(GapCause::Host), 50.0);
}

}  // namespace
}  // namespace wl::analysis
