#include "analysis/Analysis.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analysis/GpuOps.h"
#include "analysis/KernelNames.h"
#include "analysis/Rules.h"

namespace wl::analysis {

std::vector<const Diagnostic*> AnalysisResult::findings(RuleId rule) const {
    std::vector<const Diagnostic*> out;
    for (const Diagnostic& d : diagnostics) {
        if (d.rule == rule) {
            out.push_back(&d);
        }
    }
    return out;
}

const DeviceLimits& AnalysisResult::limitsFor(std::int32_t deviceId) const {
    static const DeviceLimits kUnknown = [] {
        DeviceLimits l;
        l.source = "unknown";
        return l;
    }();
    auto it = limits.find(deviceId);
    return it == limits.end() ? kUnknown : it->second;
}

namespace {

// An idle-time finding whose idle time is a small share of its GPU's window (a wait of 2% of a
// window the GPU kept 97% busy) is information, not a warning: the rules that find the cause of
// idle time fire on the share of the idle time, which says nothing of what is at stake.
void keepInProportion(const AnalysisResult& result, std::vector<Diagnostic>& found) {
    for (Diagnostic& d : found) {
        const bool idleFinding = d.rule == RuleId::SyncApiInLoop || d.rule == RuleId::GpuGap ||
                                 d.rule == RuleId::HostRangeStallsGpu ||
                                 d.rule == RuleId::HostCodeStallsGpu ||
                                 d.rule == RuleId::DevicesWait;
        if (!idleFinding || d.severity != Severity::Warning || d.costNs <= 0) {
            continue;
        }
        for (const DeviceUtilization& u : result.utilization.devices) {
            if (u.deviceId == d.deviceId && u.windowNs > 0 &&
                100.0 * static_cast<double>(d.costNs) / static_cast<double>(u.windowNs) <
                    result.options.minWarningSharePct) {
                d.severity = Severity::Info;
            }
        }
    }
}

// Warnings first, then by the time at stake (Diagnostic::costNs: what fixing it could win back at
// most), so the finding that costs most leads; but a library kernel's low occupancy comes right
// after the launch-bound finding of its device, which explains it: a framework's elementwise kernel
// launched on a few thousand elements fills little of the GPU because the program's ops are small,
// and only the launch-bound finding says what to change (batch the work, fuse ops, capture a
// graph).
void orderFindings(const model::Trace& trace, std::vector<Diagnostic>& found) {
    // The cost of each device's launch-bound warning (-1: one that names no device).
    std::map<std::int32_t, model::TimeNs> launchBoundNs;
    for (const Diagnostic& d : found) {
        if (d.rule == RuleId::LaunchBound && d.severity == Severity::Warning) {
            launchBoundNs[d.deviceId] = std::max(launchBoundNs[d.deviceId], d.costNs);
        }
    }
    // A library kernel's low occupancy on a launch-bound device follows the launch-bound warning,
    // which explains it (each launch too small to fill the GPU): it sorts by that warning's cost.
    const auto explainerNs = [&](const Diagnostic& d) -> std::optional<model::TimeNs> {
        if (d.rule != RuleId::LowOccupancyKernel || d.evidence.empty() ||
            kernelLibrary(trace.str(trace.slice(d.evidence.front()).nameId)).empty()) {
            return std::nullopt;
        }
        for (const std::int32_t device : {d.deviceId, -1}) {
            if (const auto it = launchBoundNs.find(device); it != launchBoundNs.end())
                return it->second;
        }
        return std::nullopt;
    };
    struct Key {
        Severity severity;
        model::TimeNs costNs;
        bool explained;
        RuleId rule;
    };
    std::vector<std::pair<Key, Diagnostic>> keyed;
    keyed.reserve(found.size());
    for (Diagnostic& d : found) {
        const auto explainer = explainerNs(d);
        keyed.push_back(
            {Key{d.severity, explainer.value_or(d.costNs), explainer.has_value(), d.rule},
             std::move(d)});
    }
    // Warnings first; then what is at stake, most first; the rule's order on a tie.
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        const Key& x = a.first;
        const Key& y = b.first;
        if (x.severity != y.severity)
            return x.severity > y.severity;
        if (x.costNs != y.costNs)
            return x.costNs > y.costNs;
        if (x.explained != y.explained)
            return !x.explained;
        return x.rule < y.rule;
    });
    found.clear();
    for (auto& [key, d] : keyed)
        found.push_back(std::move(d));
}

// The devices of which `window` selects some but not all of the streams that worked in its span
// (see AnalysisResult::partialDevices). Only a window of selected rows can have any.
std::vector<DeviceCoverage> partialDevicesOf(const model::Trace& trace,
                                             const AnalysisWindow& window, const GpuOps& ops) {
    if (!selectsGpuRows(trace, window))
        return {};
    AnalysisWindow everyRow = window;
    everyRow.tracks.clear();
    const GpuOps working(trace, &everyRow);
    std::map<std::int32_t, std::set<model::TrackIndex>> selected;
    std::map<std::int32_t, std::set<model::TrackIndex>> all;
    for (const GpuOp& op : ops.all())
        selected[op.deviceId].insert(op.ref.track);
    for (const GpuOp& op : working.all())
        all[op.deviceId].insert(op.ref.track);
    std::vector<DeviceCoverage> out;
    for (const auto& [device, streams] : selected) {
        const std::size_t workingCount = all[device].size();
        if (streams.size() < workingCount)
            out.push_back({device, streams.size(), workingCount});
    }
    return out;
}

// Leaves out the device-wide findings (Rule::deviceWide) about a device the selection holds only
// in part; a finding that names no device is left out when any device is held in part.
void dropPartialDeviceFindings(const std::vector<DeviceCoverage>& partial,
                               std::vector<Diagnostic>& found) {
    if (partial.empty())
        return;
    std::erase_if(found, [&](const Diagnostic& d) {
        const auto rule = std::find_if(allRules().begin(), allRules().end(),
                                       [&](const Rule& r) { return r.rule == d.rule; });
        if (rule == allRules().end() || !rule->deviceWide)
            return false;
        return d.deviceId < 0 || std::any_of(partial.begin(), partial.end(), [&](const auto& p) {
                   return p.deviceId == d.deviceId;
               });
    });
}

// Whether `message` names GPU `device` ("GPU 1 idled", "drained GPU 1's queue").
bool namesGpu(std::string_view message, std::int32_t device) {
    const std::string gpu = "GPU " + std::to_string(device);
    for (std::size_t at = message.find(gpu); at != std::string_view::npos;
         at = message.find(gpu, at + 1)) {
        const std::size_t after = at + gpu.size();
        if (after == message.size() || !std::isdigit(static_cast<unsigned char>(message[after]))) {
            return true;
        }
    }
    return false;
}

// In a trace of several GPUs, a finding about one of them says which: the same kernel or copy
// pattern on two GPUs would otherwise read as one finding said twice.
void nameTheirGpu(std::vector<Diagnostic>& found) {
    for (Diagnostic& d : found) {
        if (d.deviceId >= 0 && !namesGpu(d.message, d.deviceId)) {
            d.message = "GPU " + std::to_string(d.deviceId) + ": " + d.message;
        }
    }
}

}  // namespace

AnalysisResult analyzeTrace(const model::Trace& trace, const AnalysisOptions& options) {
    const auto window = resolveWindow(trace, WindowRequest{});
    return analyzeTrace(trace, options, window.ok() ? window.value() : AnalysisWindow{});
}

AnalysisResult analyzeTrace(const model::Trace& trace, const AnalysisOptions& options,
                            const AnalysisWindow& window) {
    return *analyzeTrace(trace, options, window, nullptr);
}

std::optional<AnalysisResult> analyzeTrace(const model::Trace& trace,
                                           const AnalysisOptions& options,
                                           const AnalysisWindow& window,
                                           const std::atomic<bool>* cancel) {
    const auto cancelled = [cancel] {
        return cancel != nullptr && cancel->load(std::memory_order_relaxed);
    };
    AnalysisResult result;
    result.options = options;
    const GpuOps ops(trace, &window);
    for (std::int32_t device : ops.deviceIds()) {
        result.limits.emplace(device, deviceLimits(trace, device));
    }
    result.utilization = computeUtilization(trace, ops, window, options, cancel);
    if (cancelled())
        return std::nullopt;  // (the gaps walked so far are not all of them)
    result.overlap = computeOverlap(ops);
    result.statistics = computeStatistics(trace, ops, window, &result.limits);

    const RuleContext ctx{trace, options, ops, result};
    std::vector<Diagnostic> found;
    for (const Rule& rule : allRules()) {
        if (cancelled())
            return std::nullopt;
        if (rule.check != nullptr) {
            rule.check(ctx, found);
        }
    }
    result.partialDevices = partialDevicesOf(trace, window, ops);
    dropPartialDeviceFindings(result.partialDevices, found);
    if (ops.deviceIds().size() > 1) {
        nameTheirGpu(found);
    }
    keepInProportion(result, found);
    orderFindings(trace, found);
    result.diagnostics = std::move(found);
    return result;
}

std::string describeCoverage(const AnalysisResult& result) {
    std::string out;
    for (const DeviceCoverage& c : result.partialDevices) {
        out += (out.empty() ? "The selection holds " : "; ") + std::to_string(c.streamsSelected) +
               " of the " + std::to_string(c.streamsWorking) + " streams that worked on GPU " +
               std::to_string(c.deviceId) + " in its span";
    }
    if (!out.empty()) {
        out +=
            ": findings about the whole device (idle gaps, what kept it waiting, serialised "
            "streams, copy overlap) are left out. Select all of its streams, or none, for them.";
    }
    return out;
}

WarpUse warpUseOf(const model::Trace& trace, const AnalysisResult& result, model::SliceRef kernel) {
    const model::Slice& s = trace.slice(kernel);
    const model::KernelDetail* k = trace.kernel(s);
    if (k == nullptr) {
        return {};
    }
    const model::Track& track = trace.track(kernel.track);
    return computeWarpUse(result.limitsFor(std::max(track.deviceId, 0)), *k);
}

}  // namespace wl::analysis
