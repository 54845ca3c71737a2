#include "model/Trace.h"

#include <algorithm>
#include <limits>

#include "model/Derived.h"

namespace wl::model {

namespace {

template <class T>
const T* detailOf(const std::vector<T>& table, const Slice& s, SliceKind kind) {
    if (s.kind != kind || s.detailIndex == kNoDetail || s.detailIndex >= table.size()) {
        return nullptr;
    }
    return &table[s.detailIndex];
}

template <class T>
std::size_t vectorBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

}  // namespace

const DeviceProperties* Trace::device(std::int32_t id) const {
    for (const auto& d : m_devices) {
        if (d.id == id)
            return &d;
    }
    return nullptr;
}

const KernelDetail* Trace::kernel(const Slice& s) const {
    return detailOf(m_kernels, s, SliceKind::Kernel);
}
const MemcpyDetail* Trace::memcpy(const Slice& s) const {
    return detailOf(m_memcpys, s, SliceKind::Memcpy);
}
const MemsetDetail* Trace::memset(const Slice& s) const {
    return detailOf(m_memsets, s, SliceKind::Memset);
}
const MemoryDetail* Trace::memory(const Slice& s) const {
    return detailOf(m_memories, s, SliceKind::Memory);
}
const SyncDetail* Trace::sync(const Slice& s) const {
    return detailOf(m_syncs, s, SliceKind::Sync);
}
const ApiDetail* Trace::api(const Slice& s) const {
    if (s.kind != SliceKind::RuntimeApi && s.kind != SliceKind::DriverApi)
        return nullptr;
    if (s.detailIndex == kNoDetail || s.detailIndex >= m_apis.size())
        return nullptr;
    return &m_apis[s.detailIndex];
}
const NvtxDetail* Trace::nvtx(const Slice& s) const {
    return detailOf(m_nvtx, s, SliceKind::Nvtx);
}
const UnifiedMemoryDetail* Trace::unifiedMemory(const Slice& s) const {
    return detailOf(m_unifiedMemory, s, SliceKind::UnifiedMemory);
}

const GraphNode* Trace::graphNode(const Slice& s) const {
    if (const auto* k = kernel(s))
        return &k->graph;
    if (const auto* c = memcpy(s))
        return &c->graph;
    if (const auto* m = memset(s))
        return &m->graph;
    return nullptr;
}

const Flow* Trace::flowTo(SliceRef ref) const {
    auto it =
        std::lower_bound(m_flowToIndex.begin(), m_flowToIndex.end(), ref,
                         [&](std::uint32_t i, const SliceRef& r) { return m_flows[i].to < r; });
    if (it != m_flowToIndex.end() && m_flows[*it].to == ref)
        return &m_flows[*it];
    return nullptr;
}

const Flow* Trace::flowFrom(SliceRef ref) const {
    auto it =
        std::lower_bound(m_flowFromIndex.begin(), m_flowFromIndex.end(), ref,
                         [&](std::uint32_t i, const SliceRef& r) { return m_flows[i].from < r; });
    if (it != m_flowFromIndex.end() && m_flows[*it].from == ref)
        return &m_flows[*it];
    return nullptr;
}

std::vector<const Flow*> Trace::flowsFrom(SliceRef ref) const {
    std::vector<const Flow*> out;
    auto it =
        std::lower_bound(m_flowFromIndex.begin(), m_flowFromIndex.end(), ref,
                         [&](std::uint32_t i, const SliceRef& r) { return m_flows[i].from < r; });
    for (; it != m_flowFromIndex.end() && m_flows[*it].from == ref; ++it)
        out.push_back(&m_flows[*it]);
    return out;
}

namespace {

// Both ends carry the flow's id as their correlation id: the builder linked them.
bool linkedByCorrelation(const Trace& trace, const Flow& f) {
    return f.id != 0 && trace.slice(f.from).correlationId == f.id &&
           trace.slice(f.to).correlationId == f.id;
}

}  // namespace

bool isLaunchFlow(const Trace& trace, const Flow& f) {
    const TrackKind from = trace.track(f.from.track).kind;
    return linkedByCorrelation(trace, f) &&
           (from == TrackKind::HostApi || from == TrackKind::Host) &&
           trace.track(f.to.track).kind == TrackKind::GpuStream &&
           isGpuWork(trace.slice(f.to).kind);
}

bool isCorrelationFlow(const Trace& trace, const Flow& f) {
    return isLaunchFlow(trace, f) ||
           (linkedByCorrelation(trace, f) && trace.slice(f.to).kind == SliceKind::Memory &&
            trace.track(f.to.track).kind == TrackKind::Memory);
}

std::span<const Dependency> Trace::dependenciesTo(SliceRef ref) const {
    const auto first =
        std::lower_bound(m_dependencies.begin(), m_dependencies.end(), ref,
                         [](const Dependency& d, const SliceRef& r) { return d.to < r; });
    auto last = first;
    while (last != m_dependencies.end() && last->to == ref)
        ++last;
    return {first, last};
}

std::vector<Dependency> Trace::dependenciesFrom(SliceRef ref) const {
    std::vector<Dependency> out;
    for (const Dependency& d : m_dependencies) {
        if (d.from == ref)
            out.push_back(d);
    }
    return out;
}

std::string Trace::metadataValue(const std::string& key, const std::string& fallback) const {
    auto it = m_metadata.find(key);
    return it == m_metadata.end() ? fallback : it->second;
}

std::string Trace::extraArgs(const Slice& s) const {
    if (s.argsIndex >= m_args.size())
        return {};
    std::string text;
    const auto heads = m_args.read(s.argsIndex, &text);
    text.erase(0, std::min<std::size_t>(heads[kArgsModelBytes], text.size()));
    return text;
}

std::string Trace::producerArgs(const Slice& s) const {
    return s.argsIndex < m_args.size() ? m_args.text(s.argsIndex) : std::string();
}

const SliceOrigin* Trace::origin(const Track& track, const Slice& s) const {
    if (s.argsIndex < m_args.size()) {
        const std::uint32_t origin = m_args.read(s.argsIndex, nullptr)[kArgsOrigin];
        if (origin != 0)
            return &m_origins[origin - 1];
    }
    return track.origin.known ? &track.origin : nullptr;
}

std::string_view Trace::idName(std::int64_t id) const {
    auto it = m_idNames.find(id);
    return it == m_idNames.end() ? std::string_view() : std::string_view(it->second);
}

std::vector<MemoryPart> Trace::memoryParts() const {
    std::size_t slices = 0;
    std::size_t lanes = 0;
    for (const auto& t : m_tracks) {
        slices += vectorBytes(t.slices);
        lanes += vectorBytes(t.laneBegin);
    }
    std::size_t samples = 0;
    for (const auto& c : m_counters)
        samples += vectorBytes(c.samples);
    return {
        {"slices", slices},
        {"lanes", lanes},
        {"strings", m_strings.memoryBytes()},
        {"counter samples", samples},
        {"flows", vectorBytes(m_flows) + vectorBytes(m_flowToIndex) + vectorBytes(m_flowFromIndex)},
        {"dependencies", vectorBytes(m_dependencies)},
        {"kernel details", vectorBytes(m_kernels)},
        {"copy, memset and memory details",
         vectorBytes(m_memcpys) + vectorBytes(m_memsets) + vectorBytes(m_memories)},
        {"sync details", vectorBytes(m_syncs)},
        {"API details", vectorBytes(m_apis)},
        {"NVTX details", vectorBytes(m_nvtx)},
        {"unified memory details", vectorBytes(m_unifiedMemory)},
        {"args", m_args.memoryBytes()},
        {"origins", vectorBytes(m_origins)},
        {"kept events", m_keptEvents.memoryBytes()},
        {"tracks, processes, devices and the rest",
         sizeof(Trace) + vectorBytes(m_processes) + vectorBytes(m_tracks) +
             vectorBytes(m_counters) + vectorBytes(m_devices) + m_distributedInfo.capacity()},
    };
}

std::size_t Trace::memoryBytes() const {
    std::size_t bytes = 0;
    for (const MemoryPart& part : memoryParts())
        bytes += part.bytes;
    return bytes;
}

bool holdsGpuWork(const Trace& trace, ProcessIndex process) {
    for (const Track& track : trace.tracks()) {
        if (track.process != process || track.kind != TrackKind::GpuStream)
            continue;
        for (const Slice& s : track.slices) {
            if (isGpuWork(s.kind))
                return true;
        }
    }
    return false;
}

std::string threadIdText(std::int64_t tid) {
    if (isSyntheticId(tid)) {
        return {};
    }
    if (tid < 0 && tid >= std::numeric_limits<std::int32_t>::min()) {
        return std::to_string(static_cast<std::uint32_t>(tid));
    }
    return std::to_string(tid);
}

}  // namespace wl::model
