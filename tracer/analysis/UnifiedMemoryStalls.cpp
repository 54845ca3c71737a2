#include "analysis/UnifiedMemoryStalls.h"

#include <algorithm>
#include <map>

#include "analysis/Intervals.h"

namespace wl::analysis {
namespace {

// A GPU's unified-memory events that can hold a kernel up, and their union.
struct DeviceTraffic {
    struct Event {
        model::TimeNs startNs = 0;
        model::TimeNs endNs = 0;
        model::SliceRef ref;
        const model::UnifiedMemoryDetail* detail = nullptr;
    };
    std::vector<Event> events;  // by start
    model::TimeNs longestNs = 0;
    IntervalSet busy;
};

bool stalls(const model::UnifiedMemoryDetail& d) {
    if (model::isMigration(d.kind))
        return d.cause != model::UnifiedMemoryCause::User;
    return d.kind == model::UnifiedMemoryKind::GpuPageFault ||
           d.kind == model::UnifiedMemoryKind::Throttling;
}

// By GPU process: a kernel is held up by its own process's GPU's events.
std::map<model::ProcessIndex, DeviceTraffic> trafficByProcess(const model::Trace& trace) {
    std::map<model::ProcessIndex, DeviceTraffic> out;
    for (std::uint32_t ti = 0; ti < trace.tracks().size(); ++ti) {
        const model::Track& track = trace.track(ti);
        if (track.kind != model::TrackKind::UnifiedMemory || track.deviceId < 0)
            continue;
        DeviceTraffic& traffic = out[track.process];
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const model::Slice& s = track.slices[si];
            const model::UnifiedMemoryDetail* d = trace.unifiedMemory(s);
            if (d == nullptr || !stalls(*d))
                continue;
            traffic.events.push_back({s.startNs, s.endNs(), {ti, si}, d});
            traffic.longestNs = std::max(traffic.longestNs, s.durationNs);
        }
    }
    for (auto& [process, traffic] : out) {
        std::sort(traffic.events.begin(), traffic.events.end(),
                  [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
        std::vector<Interval> spans;
        spans.reserve(traffic.events.size());
        for (const auto& e : traffic.events)
            spans.push_back({e.startNs, e.endNs});
        traffic.busy = IntervalSet(std::move(spans));
    }
    return out;
}

}  // namespace

std::vector<KernelUnifiedMemory> kernelsUnderUnifiedMemory(const model::Trace& trace,
                                                           const GpuOps& ops) {
    std::vector<KernelUnifiedMemory> out;
    const auto traffic = trafficByProcess(trace);
    if (traffic.empty())
        return out;
    std::map<model::SliceRef, std::size_t> index;  // pieces of one kernel (window parts) add up
    for (const GpuOp& op : ops.all()) {
        if (op.kind != GpuOpKind::Kernel || op.endNs <= op.startNs)
            continue;
        const auto it = traffic.find(trace.track(op.ref.track).process);
        if (it == traffic.end())
            continue;
        const DeviceTraffic& t = it->second;
        const model::TimeNs covered = t.busy.coveredNs(op.startNs, op.endNs);
        if (covered <= 0)
            continue;
        auto [at, fresh] = index.try_emplace(op.ref, out.size());
        if (fresh) {
            out.emplace_back();
            out.back().kernel = op.ref;
        }
        KernelUnifiedMemory& k = out[at->second];
        k.kernelNs += op.endNs - op.startNs;
        k.coveredNs += covered;
        // The events that overlap it: none starts more than the longest one before it.
        auto e = std::lower_bound(
            t.events.begin(), t.events.end(), op.startNs - t.longestNs,
            [](const DeviceTraffic::Event& ev, model::TimeNs ns) { return ev.startNs < ns; });
        for (; e != t.events.end() && e->startNs < op.endNs; ++e) {
            if (e->endNs <= op.startNs)
                continue;
            if (!fresh && std::find(k.events.begin(), k.events.end(), e->ref) != k.events.end())
                continue;  // counted with an earlier piece of the kernel
            k.events.push_back(e->ref);
            const model::UnifiedMemoryDetail& d = *e->detail;
            if (d.kind == model::UnifiedMemoryKind::GpuPageFault)
                k.faults += d.faultCount;
            if (model::isMigration(d.kind)) {
                k.migratedBytes += d.bytes;
                if (d.kind != model::UnifiedMemoryKind::MigrationDtoH)
                    k.toGpuBytes += d.bytes;
            }
        }
    }
    return out;
}

}  // namespace wl::analysis
