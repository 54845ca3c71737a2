#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/KernelNames.h"
#include "analysis/Options.h"
#include "analysis/Utilization.h"
#include "analysis/Window.h"
#include "io/ChromeTraceWriter.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

// Holistic Trace Analysis reads a recorded trace's export and computes its temporal breakdown per
// rank: idle, compute and non-compute GPU time. Computed here from the exported JSON as HTA defines
// them (nothing of HTA's code; its definitions, read from its source), the figures equal
// Warpline's own: GPU idle time over the trace, and busy time divided into compute kernels and the
// rest (copies, memsets, communication).
namespace wl::analysis {
namespace {

using model::TimeNs;

// HTA's GPU events are those with a stream (args.stream other than -1), whatever their category.
struct HtaEvent {
    std::string name;
    std::string cat;
    TimeNs startNs = 0;
    TimeNs endNs = 0;
};

// HTA's kernel types, by name: communication (NCCL, RCCL, HCCL), memory (copies, memsets, DMA),
// and compute, which is neither of those nor a synchronisation or launch call recorded on a GPU
// row.
bool htaCommunication(std::string_view n) {
    return n.starts_with("nccl") || n.starts_with("hip") || n.starts_with("hccl") ||
           n.find("ncclKernel") != std::string_view::npos;
}
bool htaMemory(std::string_view n) {
    for (std::string_view p : {"Memcpy", "Memset", "hipMemcpy", "hipMemset", "dma"}) {
        if (n.starts_with(p))
            return true;
    }
    return false;
}
bool htaCompute(std::string_view n) {
    if (htaCommunication(n) || htaMemory(n))
        return false;
    for (std::string_view part : {"Memcpy", "Memset", "dma", "Sync"}) {
        if (n.find(part) != std::string_view::npos)
            return false;
    }
    for (std::string_view p : {"Stream Wait Event", "runFunction", "job_exe", "packet", "pe_exe",
                               "cpum_exe_subgraph", "collective_subgraph_execution"}) {
        if (n.starts_with(p))
            return false;
    }
    // A launch call: "cuda...LaunchKernel".
    return !(n.starts_with("cuda") && n.find("LaunchKernel", 4) != std::string_view::npos);
}

// The length of the union of intervals.
TimeNs unionNs(std::vector<std::pair<TimeNs, TimeNs>> v) {
    std::sort(v.begin(), v.end());
    TimeNs total = 0;
    TimeNs start = 0;
    TimeNs end = -1;
    bool open = false;
    for (const auto& [s, e] : v) {
        if (!open || s > end) {
            if (open)
                total += end - start;
            start = s;
            end = e;
            open = true;
        } else {
            end = std::max(end, e);
        }
    }
    return open ? total + (end - start) : total;
}

struct Breakdown {
    TimeNs idleNs = 0;
    TimeNs computeNs = 0;
    TimeNs nonComputeNs = 0;
    TimeNs kernelTimeNs =
        0;  // HTA's "kernel time": from the first GPU event's start to the last end
};

Breakdown htaBreakdown(const std::vector<HtaEvent>& events) {
    std::vector<std::pair<TimeNs, TimeNs>> all, compute;
    TimeNs first = std::numeric_limits<TimeNs>::max();
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const auto& e : events) {
        all.emplace_back(e.startNs, e.endNs);
        first = std::min(first, e.startNs);
        last = std::max(last, e.endNs);
        if (htaCompute(e.name))
            compute.emplace_back(e.startNs, e.endNs);
    }
    Breakdown b;
    if (all.empty())
        return b;
    b.kernelTimeNs = last - first;
    const TimeNs busy = unionNs(all);
    b.idleNs = b.kernelTimeNs - busy;
    b.computeNs = unionNs(compute);
    b.nonComputeNs = busy - b.computeNs;
    return b;
}

// The exported JSON as HTA reads it: the file's rank (the pattern HTA matches) and its GPU events.
struct HtaView {
    std::string rank;
    std::vector<HtaEvent> events;
};

HtaView readAsHta(const std::string& json) {
    HtaView view;
    static const std::regex rank(R"re("rank":\s+(\d+))re");
    std::smatch m;
    if (std::regex_search(json, m, rank))
        view.rank = m[1].str();
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
    for (auto e : root["traceEvents"].get_array()) {
        std::string_view ph;
        if (e["ph"].get_string().get(ph) != simdjson::SUCCESS || ph != "X")
            continue;
        std::int64_t stream = -1;
        if (e["args"]["stream"].get_int64().get(stream) != simdjson::SUCCESS || stream == -1)
            continue;
        HtaEvent h;
        h.name = std::string(e["name"].get_string().value());
        h.cat = std::string(e["cat"].get_string().value());
        // Rebased times of our own recordings are small: the double is exact to the ns.
        h.startNs = std::llround(e["ts"].get_double().value() * 1000.0);
        h.endNs = h.startNs + std::llround(e["dur"].get_double().value() * 1000.0);
        view.events.push_back(std::move(h));
    }
    return view;
}

// Warpline's figures over the whole trace: idle and busy time of the GPU (analysis's utilization),
// compute = the kernels other than collective communication.
Breakdown warplineBreakdown(const model::Trace& trace) {
    WindowRequest request;
    request.kind = WindowRequest::Kind::WholeTrace;
    const auto window = resolveWindow(trace, request);
    EXPECT_TRUE(window.ok());
    const GpuOps ops(trace, &window.value());
    const UtilizationResult u = computeUtilization(trace, ops, window.value(), AnalysisOptions{});
    std::vector<Interval> compute;
    for (const GpuOp& op : ops.all()) {
        if (op.kind == GpuOpKind::Kernel &&
            kernelLibrary(trace.str(trace.slice(op.ref).nameId)) != "NCCL")
            compute.push_back({op.startNs, op.endNs});
    }
    Breakdown b;
    b.kernelTimeNs = u.spanNs;
    b.idleNs = u.idleNs();
    b.computeNs = IntervalSet(std::move(compute)).totalNs();
    b.nonComputeNs = u.busyNs - b.computeNs;
    return b;
}

TEST(HtaBreakdown, RecordedTracesExportTheBreakdownWarplineComputes) {
    for (const char* name : {"recorded/run_v3_s8.json.gz", "recorded/power_async.json.gz",
                             "recorded/power_baseline.json.gz", "recorded/torch_train.json.gz"}) {
        SCOPED_TRACE(name);
        const auto trace = io::loadTrace(test::dataPath(name));
        ASSERT_TRUE(trace.ok()) << trace.error().describe();
        const model::Trace& t = *trace.value();
        ASSERT_EQ(GpuOps(t).deviceIds().size(), 1u) << "HTA's figures are per rank, ours per GPU";
        const HtaView hta = readAsHta(io::ChromeTraceWriter(t).toString());
        EXPECT_EQ(hta.rank, t.metadataValue("rank", "0"));
        const Breakdown ours = warplineBreakdown(t);

        // HTA's temporal breakdown counts every event with a stream. Besides the GPU's work that
        // includes the stream synchronisations CUPTI reports on a stream (as Kineto writes them
        // too), which are host waits and no GPU time of ours: compared on the GPU's work alone,
        // the figures are equal; with them, HTA finds at most that much less idle time.
        std::vector<HtaEvent> work;
        std::vector<std::pair<TimeNs, TimeNs>> syncs;
        for (const auto& e : hta.events) {
            if (e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "gpu_memset")
                work.push_back(e);
            else
                syncs.emplace_back(e.startNs, e.endNs);
        }
        const Breakdown gpu = htaBreakdown(work);
        EXPECT_EQ(work.size(), GpuOps(t).all().size());
        EXPECT_EQ(gpu.kernelTimeNs, ours.kernelTimeNs);
        EXPECT_EQ(gpu.idleNs, ours.idleNs);
        EXPECT_EQ(gpu.computeNs, ours.computeNs);
        EXPECT_EQ(gpu.nonComputeNs, ours.nonComputeNs);
        EXPECT_GT(ours.computeNs, 0);

        const Breakdown all = htaBreakdown(hta.events);
        if (syncs.empty()) {
            EXPECT_EQ(all.idleNs, ours.idleNs);
            EXPECT_EQ(all.computeNs, ours.computeNs);
            EXPECT_EQ(all.nonComputeNs, ours.nonComputeNs);
        } else {
            EXPECT_EQ(all.computeNs, ours.computeNs);  // a synchronisation is never compute
            // What HTA counts busy beyond our busy time is time the synchronisations covered.
            const TimeNs syncCoveredNs =
                ours.idleNs - all.idleNs + (all.kernelTimeNs - ours.kernelTimeNs);
            EXPECT_GE(syncCoveredNs, 0);
            EXPECT_LE(syncCoveredNs, unionNs(syncs));
        }
    }
}

}  // namespace
}  // namespace wl::analysis
