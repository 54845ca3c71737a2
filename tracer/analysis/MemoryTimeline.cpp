// Device memory over the window: the TensorBoard plugin's Memory view, from the derived "Device
// memory" rows (model/Derived.h), which both the PyTorch profiler's "[memory]" events (the caching
// allocator's "Total Allocated" and "Total Reserved") and our recordings' memory records (what
// cudaMalloc and friends allocated and not yet released) produce.
//
// Per GPU process with such a row, by device then process (a merged job's ranks each have a
// GPU 0): each series' samples inside the window's parts, after its value at the window's start
// (a sample at the start: the value in force there). The peak is the largest "memory in use"
// value among those, and peakNs the first time it was reached (the window's start when the value
// in force there is the peak). What ran then: the GPU ops of that GPU process running at peakNs
// (start <= peakNs < end), and on each host thread of its process (a merged job's rank; the owner
// of the GPU; in a single trace, every process but the producer's pseudo-processes) the innermost
// operator open at peakNs (CPU operators when the trace has any, else NVTX ranges; an allocation
// is made inside the call that asked for it, so a zero-length call at peakNs counts too).
#include "analysis/MemoryTimeline.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/CounterValues.h"
#include "analysis/SummaryScope.h"
#include "model/Derived.h"

namespace wl::analysis {

namespace {

// Whether host process `host` is the one GPU process `gpu` belongs to.
bool ownsGpu(const model::Process& host, const model::Process& gpu) {
    if (gpu.rank >= 0)
        return host.rank == gpu.rank;
    if (gpu.ownerPid >= 0)
        return host.pid == gpu.ownerPid;
    return !model::isSyntheticId(host.pid);
}

// The slice of `track` open at t in its deepest lane (invalid when none).
model::SliceRef innermostAt(const model::Trace& trace, model::TrackIndex t, model::TimeNs at,
                            bool nvtx) {
    const model::Track& track = trace.track(t);
    for (std::uint32_t depth = track.laneCount(); depth-- > 0;) {
        const auto lane = track.lane(depth);
        // Lanes do not overlap: the last slice starting at or before `at` is the only candidate.
        auto it =
            std::upper_bound(lane.begin(), lane.end(), at,
                             [](model::TimeNs v, const model::Slice& s) { return v < s.startNs; });
        while (it != lane.begin()) {
            --it;
            const bool wanted = nvtx ? it->kind == model::SliceKind::Nvtx && it->durationNs > 0
                                     : it->kind == model::SliceKind::CpuOp;
            if (!wanted)
                continue;  // another kind of slice on the lane (a Python frame): look further back
            if (at < it->endNs() || (it->durationNs == 0 && it->startNs == at))
                return {t, static_cast<std::uint32_t>(&*it - track.slices.data())};
            break;
        }
    }
    return {};
}

}  // namespace

std::optional<std::vector<MemoryTimeline>> memoryTimelines(const model::Trace& trace,
                                                           const AnalysisWindow& window,
                                                           const std::atomic<bool>* cancel) {
    std::vector<MemoryTimeline> out;
    if (window.parts.empty())
        return out;
    std::map<std::pair<std::int32_t, model::ProcessIndex>, MemoryTimeline> byDevice;
    for (const model::CounterTrack& c : trace.counters()) {
        if (!c.derived || trace.str(c.nameId) != model::kDeviceMemoryName)
            continue;
        if (cancelled(cancel))
            return std::nullopt;
        MemoryTimeline& m = byDevice[{c.deviceId, c.process}];
        m.deviceId = c.deviceId;
        m.process = c.process;
        MemorySeries series;
        series.name = std::string(trace.str(c.seriesId));
        series.samples.push_back({window.startNs(), counterValueAt(c, window.startNs())});
        for (auto it = firstSampleAfter(c, window.startNs()); it != c.samples.end(); ++it) {
            if (it->timestampNs >= window.endNs())
                break;
            if (window.contains(it->timestampNs))
                series.samples.push_back(*it);
        }
        if (series.name == model::kMemoryInUse) {
            m.peakInUseBytes = series.samples.front().value;
            m.peakNs = series.samples.front().timestampNs;
            for (const model::CounterSample& s : series.samples) {
                if (s.value > m.peakInUseBytes) {
                    m.peakInUseBytes = s.value;
                    m.peakNs = s.timestampNs;
                }
            }
        }
        m.series.push_back(std::move(series));
    }
    const bool nvtx = trace.counts().cpuOp == 0;
    const auto processes = trace.processes();
    const auto tracks = trace.tracks();
    for (auto& [key, m] : byDevice) {
        if (cancelled(cancel))
            return std::nullopt;
        std::sort(m.series.begin(), m.series.end(),
                  [](const MemorySeries& a, const MemorySeries& b) { return a.name < b.name; });
        const model::Process& gpu = processes[m.process];
        const model::TimeNs at = m.peakNs;
        for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
            const model::Track& track = tracks[t];
            if (track.process == m.process && track.kind == model::TrackKind::GpuStream) {
                for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                    const model::Slice& s = track.slices[i];
                    if (model::isGpuWork(s.kind) && s.startNs <= at && at < s.endNs())
                        m.runningAtPeak.push_back({t, i});
                }
                continue;
            }
            const model::Process& host = processes[track.process];
            const bool operatorRow =
                nvtx ? track.kind == model::TrackKind::Nvtx : track.kind == model::TrackKind::Host;
            if (host.deviceId >= 0 || !operatorRow || !ownsGpu(host, gpu))
                continue;
            if (const model::SliceRef ref = innermostAt(trace, t, at, nvtx); ref.valid())
                m.runningAtPeak.push_back(ref);
        }
        out.push_back(std::move(m));
    }
    return out;
}

}  // namespace wl::analysis
