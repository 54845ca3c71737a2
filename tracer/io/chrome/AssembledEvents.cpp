// Assembled events into the model (the importer as PhaseAssembler's sink): instants and the
// PyTorch profiler's memory samples, counters, async ranges, and our own rows for flow ends.
// Slices go through the Kineto mapping (KinetoMapping.cpp).
#include "io/chrome/Importer.h"
#include "model/Derived.h"

namespace wl::io::chrome {

void Importer::addAsync(const RawEvent& e, TimeNs endNs, SliceKind kind) {
    // On the row of the process that began it (a global id may end elsewhere).
    const TrackIndex track = m_builder.nvtxAsyncTrack(hostProcess(e.pid), e.cat);
    m_builder.setTrackName(track, e.cat.empty() ? std::string_view("Async events") : e.cat);
    m_builder.addSliceId(track, e.ts, endNs, m_builder.intern(e.name), kind, 0, model::kNoDetail);
    keepProducerFields(e, track, kind, false);
    m_earliestNs = std::min(m_earliestNs, e.ts);
}

bool Importer::ownRowTrack(std::int64_t pid, std::int64_t tid, TrackIndex& track) {
    if (!m_warpline || m_sharedRows.count({pid, tid}))
        return false;
    const auto it = m_tidTracks.find({pid, tid});
    if (it == m_tidTracks.end())
        return false;
    track = it->second;
    return true;
}

void Importer::addInstant(const RawEvent& e) {
    const TrackIndex track = trackFor(e, Cat::Other);
    const std::uint64_t correlation = (e.args.has & kArgCorrelation) && e.args.correlation > 0
                                          ? static_cast<std::uint64_t>(e.args.correlation)
                                          : 0;
    m_builder.addSliceId(track, e.ts, e.ts, m_builder.intern(e.name), SliceKind::Instant,
                         correlation, model::kNoDetail);
    keepProducerFields(e, track, SliceKind::Instant, true);
    m_earliestNs = std::min(m_earliestNs, e.ts);
    if (e.name == "[memory]")
        addMemorySample(e);
}

void Importer::addMemorySample(const RawEvent& e) {
    constexpr std::int64_t kCudaDeviceType = 1;  // c10::DeviceType::CUDA
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    const EventArgs& a = e.args;
    if (!a.hasAll(kArgDeviceType | kArgDeviceId | kArgTotalAllocated) ||
        a.deviceType != kCudaDeviceType || a.deviceId < 0 ||
        a.deviceId > std::numeric_limits<std::int32_t>::max())
        return;
    // The device's counters, made on first use: a "reserved" row only where the events give it.
    auto counter = [&](std::uint32_t& index, std::string_view series, std::string_view about) {
        if (index == kNone) {
            const ProcessIndex gpu = m_builder.gpuProcess(static_cast<std::int32_t>(a.deviceId));
            index = m_builder.counterTrack(gpu, model::kDeviceMemoryName, series, "B");
            m_builder.setCounterDerived(index, about);
        }
        return index;
    };
    auto& [inUse, reserved] = m_memoryCounters.try_emplace(a.deviceId, kNone, kNone).first->second;
    m_builder.addCounterSample(
        counter(inUse, model::kMemoryInUse,
                "Device memory the PyTorch caching allocator has handed out (its \"Total "
                "Allocated\"), from the profiler's memory events. Before the first of them the "
                "row shows 0: what the allocator held earlier is not known."),
        e.ts, static_cast<double>(a.totalAllocated));
    if (a.has & kArgTotalReserved) {
        m_builder.addCounterSample(
            counter(reserved, model::kMemoryReserved,
                    "Device memory the PyTorch caching allocator holds from CUDA (its \"Total "
                    "Reserved\"): freed tensors' memory stays reserved for reuse."),
            e.ts, static_cast<double>(a.totalReserved));
    }
}

void Importer::addCounter(const RawEvent& e) {
    ProcessIndex process = 0;
    if (auto it = m_pidProcesses.find(e.pid); it != m_pidProcesses.end()) {
        process = it->second;
    } else {
        process = hostProcess(e.pid);
    }
    for (const auto& [series, value] : m_series) {
        const auto counter = m_builder.counterTrack(process, e.name, series);
        m_builder.addCounterSample(counter, e.ts, value);
        m_earliestNs = std::min(m_earliestNs, e.ts);
    }
}

}  // namespace wl::io::chrome
