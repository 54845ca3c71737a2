#include "app/cli/AnalysisReport.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/LaunchQueue.h"

namespace wl::app {

namespace {

// One warp summary per kernel name (its first launch configuration), as the report lists them.
struct KernelWarps {
    std::string name;
    std::string shortName;
    model::KernelDetail config;
    analysis::WarpUse use;
};

std::vector<KernelWarps> warpsByName(const model::Trace& trace,
                                     const analysis::AnalysisResult& result) {
    std::map<std::string, KernelWarps> byName;
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].kind != model::TrackKind::GpuStream) {
            continue;
        }
        for (std::uint32_t i = 0; i < tracks[t].slices.size(); ++i) {
            const model::Slice& s = tracks[t].slices[i];
            const model::KernelDetail* k = trace.kernel(s);
            if (k == nullptr) {
                continue;
            }
            const std::string name(trace.str(s.nameId));
            if (byName.count(name) == 0) {
                byName.emplace(
                    name, KernelWarps{name, {}, *k, analysis::warpUseOf(trace, result, {t, i})});
            }
        }
    }
    std::vector<KernelWarps> out;
    for (const auto& k : result.statistics.kernels) {  // longest total first
        if (auto it = byName.find(k.name); it != byName.end()) {
            out.push_back(it->second);
            out.back().shortName = k.shortName;
        }
    }
    return out;
}

double finite(double v) {
    return std::isfinite(v) ? v : 0.0;
}

std::string dims(const std::array<std::int32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

// The JSON key of each part of an iteration, in StepPart order.
constexpr const char* kPartKeys[analysis::kStepPartCount] = {
    "kernel", "memcpy", "memset", "cuda_api", "data_loading", "host_compute", "other"};

const char* kindOf(model::SliceKind kind) {
    switch (kind) {
        case model::SliceKind::Kernel:
            return "kernel";
        case model::SliceKind::Memcpy:
            return "memcpy";
        case model::SliceKind::Memset:
            return "memset";
        case model::SliceKind::CpuOp:
            return "cpu_op";
        case model::SliceKind::Nvtx:
            return "nvtx";
        default:
            break;
    }
    return "other";
}

// The Summary's "summary" object (see AnalysisReport.h).
void appendSummaryJson(io::JsonWriter& out, const model::Trace& trace, const analysis::Summary& s) {
    out.key("summary").beginObject();
    out.field("iteration_source", analysis::toString(s.iterationSource));
    out.key("iterations").beginArray();
    for (const analysis::IterationBreakdown& it : s.iterations) {
        out.beginObject();
        out.field("name", it.name);
        out.field("start_ns", static_cast<std::int64_t>(it.range.startNs));
        out.field("end_ns", static_cast<std::int64_t>(it.range.endNs));
        out.field("duration_ns", static_cast<std::int64_t>(it.range.durationNs()));
        out.key("parts_ns").beginObject();
        for (std::size_t p = 0; p < analysis::kStepPartCount; ++p)
            out.field(kPartKeys[p], static_cast<std::int64_t>(it.partNs[p]));
        out.endObject();
        out.endObject();
    }
    out.endArray();

    out.key("operators").beginObject();
    out.field("source", s.operators.nvtxRanges ? "nvtx_ranges" : "cpu_ops");
    out.field("names", static_cast<std::uint64_t>(s.operators.byName.size()));
    out.key("top_by_name").beginArray();  // the 20 longest host totals
    constexpr std::size_t kTopOperators = 20;
    for (std::size_t i = 0; i < s.operators.byName.size() && i < kTopOperators; ++i) {
        const analysis::OperatorStats& o = s.operators.byName[i];
        out.beginObject();
        out.field("name", o.name);
        out.field("calls", static_cast<std::uint64_t>(o.calls));
        out.field("host_total_ns", static_cast<std::int64_t>(o.hostTotalNs));
        out.field("host_self_ns", static_cast<std::int64_t>(o.hostSelfNs));
        out.field("gpu_total_ns", static_cast<std::int64_t>(o.gpuTotalNs));
        out.field("gpu_self_ns", static_cast<std::int64_t>(o.gpuSelfNs));
        out.field("gpu_ops", static_cast<std::uint64_t>(o.gpuOps));
        out.endObject();
    }
    out.endArray();
    out.endObject();

    out.key("memory").beginArray();
    for (const analysis::MemoryTimeline& m : s.memory) {
        out.beginObject();
        out.field("device", m.deviceId);
        out.field("peak_in_use_bytes", finite(m.peakInUseBytes));
        out.field("peak_ns", static_cast<std::int64_t>(m.peakNs));
        out.key("series").beginArray();
        for (const analysis::MemorySeries& series : m.series)
            out.value(series.name);
        out.endArray();
        out.key("running_at_peak").beginArray();
        for (const model::SliceRef ref : m.runningAtPeak) {
            const model::Slice& slice = trace.slice(ref);
            out.beginObject();
            out.field("name", std::string(trace.str(slice.nameId)));
            out.field("kind", kindOf(slice.kind));
            out.field("row", std::string(trace.str(trace.track(ref.track).nameId)));
            out.field("start_ns", static_cast<std::int64_t>(slice.startNs));
            out.field("end_ns", static_cast<std::int64_t>(slice.endNs()));
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }
    out.endArray();

    out.key("ranks").beginArray();
    for (const analysis::RankTimeBreakdown& r : s.ranks) {
        out.beginObject();
        out.field("rank", r.rank);
        out.field("window_ns", static_cast<std::int64_t>(r.windowNs));
        out.field("compute_ns", static_cast<std::int64_t>(r.computeNs));
        out.field("communication_ns", static_cast<std::int64_t>(r.communicationNs));
        out.field("overlap_ns", static_cast<std::int64_t>(r.overlapNs));
        out.field("other_ns", static_cast<std::int64_t>(r.otherNs));
        out.endObject();
    }
    out.endArray();
    out.endObject();
}

// "Iterations (NVTX ranges): 50, 2.49 ms on average" and "of their time: Kernel 19.9%, ..." (the
// parts' shares of the iterations' summed time; parts that took none left out); for a window
// without iterations, its own.
void printIterationsText(std::ostream& out, const analysis::Summary& s) {
    if (s.iterations.empty())
        return;
    std::array<model::TimeNs, analysis::kStepPartCount> parts{};
    model::TimeNs totalNs = 0;
    for (const analysis::IterationBreakdown& it : s.iterations) {
        totalNs += it.range.durationNs();
        for (std::size_t p = 0; p < analysis::kStepPartCount; ++p)
            parts[p] += it.partNs[p];
    }
    const auto count = static_cast<model::TimeNs>(s.iterations.size());
    switch (s.iterationSource) {
        case analysis::IterationSource::Window:
            out << "Iterations: none marked; the window, " << analysis::formatDuration(totalNs)
                << "\n  of its time:";
            break;
        case analysis::IterationSource::NvtxRanges:
        case analysis::IterationSource::GraphLaunches:
        case analysis::IterationSource::Repeats:
            out << "Iterations ("
                << (s.iterationSource == analysis::IterationSource::NvtxRanges ? "NVTX ranges"
                    : s.iterationSource == analysis::IterationSource::GraphLaunches
                        ? "CUDA graph launches"
                        : "repeats of the steady state")
                << "): " << s.iterations.size() << ", " << analysis::formatDuration(totalNs / count)
                << " on average\n  of their time:";
            break;
    }
    bool first = true;
    for (std::size_t p = 0; p < analysis::kStepPartCount; ++p) {
        if (parts[p] == 0 || totalNs == 0)
            continue;
        out << (first ? " " : ", ") << analysis::toString(static_cast<analysis::StepPart>(p)) << " "
            << analysis::formatPercent(100.0 * static_cast<double>(parts[p]) /
                                       static_cast<double>(totalNs));
        first = false;
    }
    out << "\n";
}

}  // namespace

void appendAnalysisJson(io::JsonWriter& out, const model::Trace& trace,
                        const analysis::AnalysisResult& r, const analysis::Summary* summary) {
    const analysis::AnalysisWindow& window = r.window();
    out.key("window").beginObject();
    out.field("start_ns", static_cast<std::int64_t>(window.startNs()));
    out.field("end_ns", static_cast<std::int64_t>(window.endNs()));
    out.field("duration_ns", static_cast<std::int64_t>(window.durationNs()));
    out.field("source", analysis::toString(window.source));
    out.key("name");
    if (window.name.empty()) {
        out.null();
    } else {
        out.value(window.name);
    }
    out.field("instance", window.instance);
    out.field("parts", static_cast<std::uint64_t>(window.parts.size()));
    out.field("description", analysis::describeWindow(window));
    // What the default window leaves out: start-up, tear-down, warm-up iterations.
    out.key("left_out").beginArray();
    for (const analysis::LeftOut& left : window.leftOut) {
        out.beginObject();
        out.field("kind", analysis::toString(left.kind));
        out.key("name");
        if (left.name.empty()) {
            out.null();
        } else {
            out.value(left.name);
        }
        out.field("start_ns", static_cast<std::int64_t>(left.range.startNs));
        out.field("end_ns", static_cast<std::int64_t>(left.range.endNs));
        out.field("duration_ns", static_cast<std::int64_t>(left.range.durationNs()));
        out.field("description", analysis::describeLeftOut(left));
        out.endObject();
    }
    out.endArray();
    out.endObject();
    out.field("gap_threshold_ns", static_cast<std::int64_t>(r.options.gapThresholdNs));
    out.field("gpu_busy_pct", finite(r.gpuBusyPct()));  // the mean over the GPUs
    out.field("any_gpu_busy_pct", finite(r.gpuBusy().anyPct()));

    out.key("idle_attribution").beginArray();
    for (const auto& a : r.utilization.attribution) {
        out.beginObject();
        out.field("device", a.deviceId);
        out.field("idle_ns", static_cast<std::int64_t>(a.idleNs));
        out.field("after_blocking_call_pct", finite(a.pct(analysis::GapCause::AfterBlockingCall)));
        out.field("host_pct", finite(a.pct(analysis::GapCause::Host)));
        out.field("gpu_wait_pct", finite(a.pct(analysis::GapCause::GpuWait)));
        out.endObject();
    }
    out.endArray();

    out.key("idle_by_host_range").beginArray();
    for (const auto& h : r.utilization.idleByHostRange) {
        out.beginObject();
        out.field("name", h.name);
        out.field("idle_ns", static_cast<std::int64_t>(h.idleNs));
        out.field("count", static_cast<std::uint64_t>(h.count));
        out.field("queued_ns", static_cast<std::int64_t>(h.queuedNs));
        out.field("launching_ns", static_cast<std::int64_t>(h.launchingNs));
        out.endObject();
    }
    out.endArray();

    out.key("utilization").beginArray();
    for (const auto& d : r.utilization.devices) {
        out.beginObject();
        out.field("device", d.deviceId);
        out.field("first_ns", static_cast<std::int64_t>(d.firstNs));
        out.field("span_ns", static_cast<std::int64_t>(d.spanNs()));
        out.field("busy_ns", static_cast<std::int64_t>(d.busyNs));
        out.field("busy_pct", finite(d.busyPct()));
        out.field("gaps", static_cast<std::uint64_t>(d.gapCount));
        out.key("streams").beginArray();
        for (const auto& s : d.streams) {
            out.beginObject();
            out.field("stream", s.streamId);
            out.field("ops", static_cast<std::uint64_t>(s.opCount));
            out.field("span_ns", static_cast<std::int64_t>(s.spanNs()));
            out.field("busy_ns", static_cast<std::int64_t>(s.busyNs));
            out.field("busy_pct", finite(s.busyPct()));
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }
    out.endArray();

    out.key("launch_queue").beginArray();
    for (const auto& q : r.statistics.launchQueues) {
        out.beginObject();
        out.field("device", q.deviceId);
        out.field("max_ops", finite(q.maxDepth));
        out.field("mean_ops", finite(q.meanDepth));
        out.field("empty_pct", finite(q.emptyPct));
        out.endObject();
    }
    out.endArray();

    out.key("idle_gaps").beginArray();
    for (const auto& g : r.utilization.gaps) {
        out.beginObject();
        out.field("device", g.deviceId);
        out.key("stream");
        if (g.streamId < 0) {
            out.null();
        } else {
            out.value(g.streamId);
        }
        out.field("start_ns", static_cast<std::int64_t>(g.startNs));
        out.field("dur_ns", static_cast<std::int64_t>(g.durationNs));
        out.field("cause", analysis::toString(g.cause));
        if (g.waitedFor.valid()) {
            const model::Slice& op = trace.slice(g.waitedFor);
            out.key("waited_for").beginObject();
            out.field("name", std::string(trace.str(op.nameId)));
            out.field("stream", trace.track(g.waitedFor.track).streamId);
            out.field("end_ns", static_cast<std::int64_t>(op.endNs()));
            out.endObject();
        }
        out.endObject();
    }
    out.endArray();

    out.key("overlap").beginObject();
    out.field("copy_compute_pct", finite(r.overlap.copyComputePct()));
    out.field("copy_ns", static_cast<std::int64_t>(r.overlap.copyNs));
    out.field("kernel_ns", static_cast<std::int64_t>(r.overlap.kernelNs));
    out.field("copy_under_compute_ns", static_cast<std::int64_t>(r.overlap.copyUnderComputeNs));
    out.field("h2d_d2h_pct", finite(r.overlap.h2dD2hPct()));
    out.field("max_concurrent_kernels", r.overlap.maxConcurrentKernels);
    out.field("mean_concurrent_kernels", finite(r.overlap.meanConcurrentKernels));
    out.endObject();

    out.key("kernels").beginArray();
    for (const auto& k : r.statistics.kernels) {
        out.beginObject();
        out.field("name", k.name);
        out.field("short_name", k.shortName);
        out.field("count", static_cast<std::uint64_t>(k.count));
        out.field("total_ns", static_cast<std::int64_t>(k.totalNs));
        out.field("mean_ns", finite(k.meanNs));
        out.field("min_ns", static_cast<std::int64_t>(k.minNs));
        out.field("max_ns", static_cast<std::int64_t>(k.maxNs));
        out.field("pct", finite(k.pctOfGpuTime));
        out.field("median_ns", finite(k.medianNs));
        out.field("p95_ns", finite(k.p95Ns));
        out.field("std_dev_ns", finite(k.stdDevNs));
        // The launch configuration used most often.
        out.field("grid", dims(k.grid));
        out.field("block", dims(k.block));
        out.field("registers", k.registersPerThread);
        out.key("theoretical_occupancy_pct");
        if (k.theoreticalOccupancyPct >= 0.0) {
            out.value(finite(k.theoreticalOccupancyPct));
        } else {
            out.null();
        }
        out.field("tensor_cores", k.tensorCores);
        out.endObject();
    }
    out.endArray();

    out.key("copies").beginArray();
    for (const auto& c : r.statistics.copies) {
        out.beginObject();
        out.field("kind", model::toString(c.kind));
        out.field("count", static_cast<std::uint64_t>(c.count));
        out.field("bytes", static_cast<std::uint64_t>(c.bytes));
        out.field("total_ns", static_cast<std::int64_t>(c.totalNs));
        out.field("gb_per_s", finite(c.gbPerSecond()));
        out.field("pageable", static_cast<std::uint64_t>(c.pageableCount));
        out.endObject();
    }
    out.endArray();

    const analysis::DeviceConcurrency& together = r.statistics.devicesAtOnce;
    out.key("device_concurrency").beginObject();
    out.field("devices", together.devices);
    out.key("ns_with_busy").beginArray();
    for (model::TimeNs ns : together.nsWithBusy)
        out.value(static_cast<std::int64_t>(ns));
    out.endArray();
    out.field("mean_busy_devices", finite(together.meanBusyDevices()));
    out.endObject();

    out.key("graphs").beginArray();
    for (const auto& g : r.statistics.graphs) {
        out.beginObject();
        out.field("graph_id", static_cast<std::uint64_t>(g.graphId));
        out.field("launches", static_cast<std::uint64_t>(g.launches));
        out.field("nodes", static_cast<std::uint64_t>(g.nodes));
        out.field("gpu_ns", static_cast<std::int64_t>(g.gpuNs));
        out.field("mean_launch_span_ns", finite(g.meanLaunchSpanNs()));
        out.key("nodes_by_time").beginArray();
        for (const auto& n : g.nodeStats) {
            out.beginObject();
            out.field("node_id", static_cast<std::uint64_t>(n.nodeId));
            out.field("name", n.name);
            out.field("runs", static_cast<std::uint64_t>(n.runs));
            out.field("total_ns", static_cast<std::int64_t>(n.totalNs));
            out.field("mean_ns", finite(n.meanNs()));
            out.endObject();
        }
        out.endArray();
        out.endObject();
    }
    out.endArray();

    out.key("memory").beginArray();
    for (const auto& m : r.statistics.memory) {
        out.beginObject();
        out.field("device", m.deviceId);
        out.field("operations_recorded", m.operationsRecorded);
        out.field("allocations", static_cast<std::uint64_t>(m.allocations));
        out.field("releases", static_cast<std::uint64_t>(m.releases));
        out.field("allocated_bytes", static_cast<std::uint64_t>(m.allocatedBytes));
        out.field("released_bytes", static_cast<std::uint64_t>(m.releasedBytes));
        out.field("pool_operations", static_cast<std::uint64_t>(m.poolOperations));
        out.field("in_use_start_bytes", finite(m.inUseAtStartBytes));
        out.field("in_use_end_bytes", finite(m.inUseAtEndBytes));
        out.field("in_use_peak_bytes", finite(m.peakInUseBytes));
        out.endObject();
    }
    out.endArray();

    out.key("warps").beginArray();
    for (const auto& k : warpsByName(trace, r)) {
        out.beginObject();
        out.field("name", k.name);
        out.field("short_name", k.shortName);
        out.field("grid", dims(k.config.grid));
        out.field("block", dims(k.config.block));
        out.field("registers", k.config.registersPerThread);
        out.field("shared_bytes", k.config.sharedBytesPerBlock());
        out.key("theoretical_occupancy_pct");
        if (k.use.occupancy.valid) {
            out.value(finite(k.use.occupancy.theoreticalPct));
        } else {
            out.null();
        }
        out.field("blocks_per_sm", k.use.occupancy.blocksPerSm);
        out.field("limiter", analysis::toString(k.use.occupancy.limiter));
        out.field("lane_use_pct", finite(k.use.laneUsePct));
        out.field("gpu_fill_pct", finite(k.use.gpuFillPct));
        out.field("sms_used", static_cast<std::int64_t>(k.use.smsUsed));
        out.field("sm_count", k.use.smCount);
        out.endObject();
    }
    out.endArray();

    out.key("diagnostics").beginArray();
    for (const auto& d : r.diagnostics) {
        out.beginObject();
        out.field("rule", analysis::toString(d.rule));
        out.field("severity", d.severity == analysis::Severity::Warning ? "warning" : "info");
        out.field("count", static_cast<std::uint64_t>(d.count));
        out.field("message", d.message);
        out.field("fix", d.fix);
        out.field("cost_ns", static_cast<std::int64_t>(d.costNs));
        out.field("start_ns", static_cast<std::int64_t>(d.startNs));
        out.field("end_ns", static_cast<std::int64_t>(d.endNs));
        out.field("evidence", static_cast<std::uint64_t>(d.evidence.size()));
        out.endObject();
    }
    out.endArray();
    if (summary != nullptr)
        appendSummaryJson(out, trace, *summary);
}

void printAnalysisText(std::ostream& out, const model::Trace& trace,
                       const analysis::AnalysisResult& r, const analysis::Summary* summary) {
    using analysis::formatBytes;
    using analysis::formatDuration;
    using analysis::formatPercent;

    // A program that ran nothing on the GPU (a launcher, a kernel that failed before it ran) has
    // no busy time, gaps or overlap to report: say so instead of a window from 0 ns to 0 ns.
    const bool gpuWork = !r.utilization.devices.empty();
    out << "\nWindow: " << analysis::describeWindow(r.window());
    if (gpuWork) {
        out << ", " << formatDuration(r.window().startNs()) << " to "
            << formatDuration(r.window().endNs()) << "\n";
    } else {
        out << ": no GPU work in it (no kernels, copies or memsets)\n";
    }
    for (const analysis::LeftOut& left : r.window().leftOut) {
        out << "  " << analysis::describeLeftOut(left) << "\n";
    }
    if (gpuWork) {
        const analysis::GpuBusy busy = r.gpuBusy();
        out << "GPU utilisation: " << formatPercent(busy.meanPct()) << " busy";
        if (busy.gpus > 1) {
            out << " (" << analysis::meanOverGpusLabel(busy) << "); "
                << analysis::anyGpuBusyLabel(busy) << " " << formatPercent(busy.anyPct())
                << " of the window";
        }
        out << "\n";
    }
    for (const auto& d : r.utilization.devices) {
        out << "  GPU " << d.deviceId << ": busy " << formatDuration(d.busyNs) << " of "
            << formatDuration(d.spanNs()) << " (" << formatPercent(d.busyPct()) << "), "
            << d.gapCount << " idle gaps\n";
        for (const auto& s : d.streams) {
            out << "    stream " << s.streamId << ": " << s.opCount << " ops, busy "
                << formatDuration(s.busyNs) << " (" << formatPercent(s.busyPct()) << ")\n";
        }
    }
    std::map<std::string, std::pair<std::uint64_t, model::TimeNs>> byCause;
    std::uint64_t deviceGaps = 0;
    for (const auto& g : r.utilization.gaps) {
        if (g.streamId < 0) {
            ++deviceGaps;
            auto& c = byCause[analysis::toString(g.cause)];
            ++c.first;
            c.second += g.durationNs;
        }
    }
    if (const analysis::DeviceConcurrency& c = r.statistics.devicesAtOnce; c.devices >= 2) {
        out << "GPUs busy at once:";
        for (std::size_t k = c.nsWithBusy.size(); k-- > 0;)
            out << " " << k << ": " << formatPercent(c.pctWithBusy(k)) << (k > 0 ? "," : "");
        char mean[64];
        std::snprintf(mean, sizeof mean, " of the window (%.2f on average)\n", c.meanBusyDevices());
        out << mean;
    }
    for (const auto& q : r.statistics.launchQueues) {
        char line[160];
        std::snprintf(line, sizeof line,
                      "Launch queue of GPU %d: up to %.0f ops queued, %.1f on average; empty %s "
                      "of the window\n",
                      q.deviceId, q.maxDepth, q.meanDepth, formatPercent(q.emptyPct).c_str());
        out << line;
    }
    for (const auto& a : r.utilization.attribution) {
        out << "Idle time of GPU " << a.deviceId << ": " << formatDuration(a.idleNs) << " = "
            << formatPercent(a.pct(analysis::GapCause::AfterBlockingCall))
            << " after a blocking call, " << formatPercent(a.pct(analysis::GapCause::Host))
            << " host, " << formatPercent(a.pct(analysis::GapCause::GpuWait)) << " GPU wait\n";
    }
    if (!r.utilization.idleByHostRange.empty()) {
        out << "Idle time by the host's NVTX range:\n";
        std::size_t listed = 0;
        for (const auto& h : r.utilization.idleByHostRange) {
            if (listed++ == 8) {
                out << "    (" << r.utilization.idleByHostRange.size() - 8 << " more)\n";
                break;
            }
            out << "    '" << h.name << "': " << formatDuration(h.idleNs) << " in " << h.count
                << (h.count == 1 ? " range\n" : " ranges\n");
        }
    }
    if (gpuWork) {
        out << "Idle gaps >= " << formatDuration(r.options.gapThresholdNs) << ": " << deviceGaps
            << " on devices";
        for (const auto& [cause, c] : byCause) {
            out << ", " << c.first << " " << cause << " (" << formatDuration(c.second) << ")";
        }
        out << "\n";
    }
    std::size_t shown = 0;
    for (const auto& g : r.utilization.gaps) {
        if (g.streamId >= 0 || shown == 10) {
            continue;
        }
        ++shown;
        out << "    at " << formatDuration(g.startNs) << ": " << formatDuration(g.durationNs)
            << " idle, " << analysis::toString(g.cause) << "\n";
    }
    if (deviceGaps > shown) {
        out << "    (" << deviceGaps - shown << " more)\n";
    }

    if (gpuWork) {
        out << "Overlap: " << formatPercent(r.overlap.copyComputePct())
            << " of copy time under kernels, H2D/D2H together "
            << formatPercent(r.overlap.h2dD2hPct()) << ", kernels at once max "
            << r.overlap.maxConcurrentKernels << " mean ";
        char mean[32];
        std::snprintf(mean, sizeof mean, "%.2f", r.overlap.meanConcurrentKernels);
        out << mean << "\n";
    }
    if (summary != nullptr)
        printIterationsText(out, *summary);

    if (!r.statistics.kernels.empty()) {
        out << "\nKernels (by total time):\n";
        char line[512];
        std::snprintf(line, sizeof line, "  %7s %11s %10s %10s %10s %10s %10s %10s %7s  %s\n",
                      "count", "total", "mean", "median", "p95", "std-dev", "min", "max", "%",
                      "name");
        out << line;
        const auto ns = [](double value) {
            return formatDuration(static_cast<model::TimeNs>(std::llround(value)));
        };
        for (const auto& k : r.statistics.kernels) {
            std::snprintf(line, sizeof line,
                          "  %7llu %11s %10s %10s %10s %10s %10s %10s %6.1f%%  %s\n",
                          static_cast<unsigned long long>(k.count),
                          formatDuration(k.totalNs).c_str(), ns(k.meanNs).c_str(),
                          ns(k.medianNs).c_str(), ns(k.p95Ns).c_str(), ns(k.stdDevNs).c_str(),
                          formatDuration(k.minNs).c_str(), formatDuration(k.maxNs).c_str(),
                          k.pctOfGpuTime, k.shortName.substr(0, 120).c_str());
            out << line;
        }
    }
    if (!r.statistics.copies.empty()) {
        out << "\nCopies:\n";
        for (const auto& c : r.statistics.copies) {
            out << "  " << model::toString(c.kind) << ": " << c.count << " copies, "
                << formatBytes(c.bytes) << " in " << formatDuration(c.totalNs) << " = "
                << analysis::formatRate(c.gbPerSecond());
            if (c.pageableCount > 0) {
                out << " (" << c.pageableCount << " pageable)";
            }
            out << "\n";
        }
    }
    if (!r.statistics.graphs.empty()) {
        out << "\nCUDA graphs:\n";
        for (const auto& g : r.statistics.graphs) {
            char nodes[32];
            std::snprintf(nodes, sizeof nodes, "%.3g", g.nodesPerLaunch());
            out << "  graph " << g.graphId << ": " << g.launches << " launches of " << nodes
                << " nodes, each over "
                << formatDuration(static_cast<model::TimeNs>(g.meanLaunchSpanNs()))
                << " on average; " << formatDuration(g.gpuNs) << " of GPU time\n";
            // The nodes that take the time: a graph of hundreds of nodes is read from the top.
            constexpr std::size_t kNodesListed = 3;
            for (std::size_t i = 0; i < g.nodeStats.size() && i < kNodesListed; ++i) {
                const auto& n = g.nodeStats[i];
                out << "    node " << n.nodeId << " " << n.name.substr(0, 60) << ": " << n.runs
                    << " runs, " << formatDuration(n.totalNs) << " ("
                    << formatDuration(static_cast<model::TimeNs>(n.meanNs())) << " each)\n";
            }
            if (g.nodeStats.size() > kNodesListed)
                out << "    (" << g.nodeStats.size() - kNodesListed << " more nodes)\n";
        }
    }
    for (const auto& m : r.statistics.memory) {
        out << (&m == &r.statistics.memory.front() ? "\nDevice memory:\n" : "") << "  GPU "
            << m.deviceId << ": ";
        if (m.operationsRecorded) {
            out << m.allocations << " allocations (" << formatBytes(m.allocatedBytes) << "), "
                << m.releases << " releases (" << formatBytes(m.releasedBytes) << ")";
            if (m.poolOperations > 0)
                out << ", " << m.poolOperations << " through pools";
            out << "; ";
        }
        out << "in use " << formatBytes(static_cast<std::uint64_t>(m.inUseAtStartBytes))
            << " at the start, " << formatBytes(static_cast<std::uint64_t>(m.peakInUseBytes))
            << " at most, " << formatBytes(static_cast<std::uint64_t>(m.inUseAtEndBytes))
            << " at the end\n";
    }
    const auto warps = warpsByName(trace, r);
    if (!warps.empty()) {
        out << "\nWarps (first launch of each kernel):\n";
        for (const auto& k : warps) {
            out << "  " << k.shortName.substr(0, 80) << ": grid " << dims(k.config.grid)
                << ", block " << dims(k.config.block);
            if (!k.use.occupancy.valid) {
                out << ", occupancy unknown (no device properties)\n";
                continue;
            }
            out << ", " << k.config.registersPerThread << " regs, "
                << formatBytes(static_cast<std::uint64_t>(k.config.sharedBytesPerBlock()))
                << " shared: occupancy " << formatPercent(k.use.occupancy.theoreticalPct) << " ("
                << analysis::toString(k.use.occupancy.limiter) << "), lanes "
                << formatPercent(k.use.laneUsePct) << ", " << k.use.smsUsed << " of "
                << k.use.smCount << " SMs, fill " << formatPercent(k.use.gpuFillPct) << "\n";
        }
    }

    out << "\nDiagnostics:" << (r.diagnostics.empty() ? " none" : "") << "\n";
    for (const auto& d : r.diagnostics) {
        out << "  [" << analysis::toString(d.rule) << "] " << d.message << "\n";
        out << "      fix: " << d.fix << "\n";
    }
}

}  // namespace wl::app
