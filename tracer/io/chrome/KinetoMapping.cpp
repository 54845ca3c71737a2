// The PyTorch profiler (Kineto) mapping: categories of every vintage to kernels, copies,
// memsets, syncs, API calls and annotations; devices, streams, GPU and host processes, tracks.
#include "io/chrome/Importer.h"

namespace wl::io::chrome {

namespace {

// The CUDA graph node that ran a GPU op ("graph id", "graph node id"; 0 when not from a graph).
model::GraphNode graphNodeOf(const EventArgs& a) {
    model::GraphNode g;
    g.graphId = static_cast<std::uint32_t>(a.graphId);
    g.nodeId = a.graphNodeId;
    return g;
}

}  // namespace

Cat classify(std::string_view cat) {
    switch (keyHash(cat)) {
        case keyHash(format::kCatKernel):
            if (cat == format::kCatKernel)
                return Cat::Kernel;
            break;
        case keyHash(format::kCatMemcpy):
            if (cat == format::kCatMemcpy)
                return Cat::Memcpy;
            break;
        case keyHash(format::kCatMemset):
            if (cat == format::kCatMemset)
                return Cat::Memset;
            break;
        case keyHash(format::kCatMemory):
            if (cat == format::kCatMemory)
                return Cat::Memory;
            break;
        case keyHash(format::kCatSync):
            if (cat == format::kCatSync)
                return Cat::Sync;
            break;
        case keyHash(format::kCatUnifiedMemory):
            if (cat == format::kCatUnifiedMemory)
                return Cat::UnifiedMemory;
            break;
        case keyHash(format::kCatRuntime):
            if (cat == format::kCatRuntime)
                return Cat::Runtime;
            break;
        case keyHash(format::kCatDriver):
            if (cat == format::kCatDriver)
                return Cat::Driver;
            break;
        case keyHash(format::kCatUserAnnotation):
            if (cat == format::kCatUserAnnotation)
                return Cat::Annotation;
            break;
        case keyHash(format::kCatGpuUserAnnotation):
            if (cat == format::kCatGpuUserAnnotation)
                return Cat::GpuAnnotation;
            break;
        case keyHash(format::kCatOverhead):
            if (cat == format::kCatOverhead)
                return Cat::Overhead;
            break;
        case keyHash(format::kCatKernelLegacy):
            if (cat == format::kCatKernelLegacy)
                return Cat::Kernel;
            break;
        case keyHash(format::kCatMemcpyLegacy):
            if (cat == format::kCatMemcpyLegacy)
                return Cat::Memcpy;
            break;
        case keyHash(format::kCatMemsetLegacy):
            if (cat == format::kCatMemsetLegacy)
                return Cat::Memset;
            break;
        case keyHash(format::kCatRuntimeLegacy):
            if (cat == format::kCatRuntimeLegacy)
                return Cat::Runtime;
            break;
        case keyHash(format::kCatCpuOp):
            if (cat == format::kCatCpuOp)
                return Cat::CpuOp;
            break;
        case keyHash(format::kCatCpuOpLegacy):
            if (cat == format::kCatCpuOpLegacy)
                return Cat::CpuOp;
            break;
        default:
            break;
    }
    return Cat::Other;
}

void Importer::keepEvent(const RawEvent& e) {
    if (m_warpline)
        return;
    m_builder.addKeptEvent(objectTextAt(e.at));
}

std::string_view Importer::objectTextAt(const char* at) const {
    const char* end = m_base + m_size;
    int depth = 0;
    bool inString = false;
    for (const char* p = at; p < end; ++p) {
        const char c = *p;
        if (inString) {
            if (c == '\\')
                ++p;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}' && --depth == 0) {
            return std::string_view(at, static_cast<std::size_t>(p + 1 - at));
        }
    }
    return {};
}

std::int32_t Importer::deviceForPid(std::int64_t pid) const {
    if (auto it = m_pidDevices.find(pid); it != m_pidDevices.end())
        return it->second;
    // Kineto: the GPU process's pid is the device ordinal.
    if (pid >= 0 && pid <= std::numeric_limits<std::int32_t>::max()) {
        return static_cast<std::int32_t>(pid);
    }
    return 0;
}

ProcessIndex Importer::hostProcess(std::int64_t pid) {
    if (auto it = m_pidProcesses.find(pid); it != m_pidProcesses.end())
        return it->second;
    auto [it, inserted] = m_hostProcesses.try_emplace(pid, 0);
    if (inserted) {
        auto named = m_stringIdNames.find(pid);
        it->second = m_builder.hostProcess(pid, named != m_stringIdNames.end()
                                                    ? std::string_view(named->second)
                                                    : std::string_view());
    }
    return it->second;
}

std::int64_t Importer::streamOf(const RawEvent& e) const {
    if (e.args.has & kArgStream)
        return e.args.stream;
    // The PyTorch 1.8 profiler names GPU rows by tid strings: "stream 7".
    if (auto it = m_stringIdNames.find(e.tid); it != m_stringIdNames.end()) {
        std::string_view text = it->second;
        if (text.starts_with("stream ")) {
            text.remove_prefix(7);
            std::int64_t stream = 0;
            const auto r = std::from_chars(text.data(), text.data() + text.size(), stream);
            if (r.ec == std::errc() && r.ptr == text.data() + text.size())
                return stream;
        }
    }
    return e.tid;
}

ProcessIndex Importer::gpuProcessFor(const RawEvent& e) {
    return m_activities.gpuProcess(placeOf(e).deviceId);
}

model::ActivityPlace Importer::placeOf(const RawEvent& e) {
    const std::int64_t device =
        e.args.has & kArgDevice ? e.args.device : static_cast<std::int64_t>(deviceForPid(e.pid));
    if (device < 0 || device > std::numeric_limits<std::int32_t>::max()) {
        fail("device must be a CUDA device ordinal", e.at);
    }
    model::ActivityPlace place;
    place.deviceId = static_cast<std::int32_t>(device);
    place.streamId = streamOf(e);
    return place;
}

TrackIndex Importer::sharedRowTrack(const std::vector<TrackIndex>& tracks, const RawEvent& e,
                                    Cat cat) {
    const model::Trace& pending = m_builder.pending();
    model::TrackKind want = model::TrackKind::Host;
    switch (cat) {
        case Cat::Runtime:
        case Cat::Driver:
            want = model::TrackKind::HostApi;
            break;
        case Cat::Annotation:
        case Cat::GpuAnnotation:
            want = model::TrackKind::Nvtx;
            break;
        case Cat::Kernel:
        case Cat::Memcpy:
        case Cat::Memset:
            want = model::TrackKind::GpuStream;
            break;
        default:
            return tracks.front();
    }
    // An NVTX range goes to its domain's track; one that names none (a range a track of a
    // domain holds without one) to the row's first NVTX track.
    const StringId domain = e.args.has & kArgDomain ? m_builder.intern(e.args.domain) : 0;
    std::optional<TrackIndex> ofKind;
    for (TrackIndex t : tracks) {
        const model::Track& track = pending.track(t);
        if (track.kind != want)
            continue;
        if (want != model::TrackKind::Nvtx || track.domainId == domain)
            return t;
        if (!ofKind)
            ofKind = t;
    }
    return ofKind.value_or(tracks.front());
}

TrackIndex Importer::trackFor(const RawEvent& e, Cat cat) {
    if (m_warpline) {
        if (!m_sharedRows.empty()) {
            if (auto it = m_sharedRows.find({e.pid, e.tid}); it != m_sharedRows.end())
                return sharedRowTrack(it->second, e, cat);
        }
        if (auto it = m_tidTracks.find({e.pid, e.tid}); it != m_tidTracks.end())
            return it->second;
    } else if (e.pid < 0 || model::isSyntheticId(e.pid)) {
        const auto named = m_stringIdNames.find(e.pid);
        const ProfilerRows::Row row = ProfilerRows::rowOf(
            e, named != m_stringIdNames.end() ? &named->second : nullptr, cat == Cat::Overhead);
        if (row != ProfilerRows::Row::None)
            return m_profilerRows.track(row);
    }
    TrackKey key{cat, e.pid, e.tid, 0};
    switch (cat) {
        case Cat::Kernel:
        case Cat::Memcpy:
        case Cat::Memset:
            key.cat = Cat::Kernel;
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = streamOf(e);
            break;
        case Cat::GpuAnnotation:
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = streamOf(e);
            break;
        case Cat::Sync:
        case Cat::Memory:
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = 0;
            break;
        case Cat::UnifiedMemory:
            // A GPU's row of one kind of event, or its host process's (no device: -1).
            key.a = e.args.has & kArgDevice ? e.args.device : -1;
            key.b = static_cast<std::int64_t>(model::unifiedMemoryKindFromString(e.args.umKind));
            break;
        case Cat::Runtime:
        case Cat::Driver:
            key.cat = Cat::Runtime;
            break;
        case Cat::Annotation:
            if (e.args.has & kArgDomain)
                key.domain = m_builder.intern(e.args.domain);
            break;
        default:
            key.cat = Cat::Other;
            break;
    }
    if (key == m_lastKey)
        return m_lastTrack;
    auto [it, inserted] = m_tracks.try_emplace(key, 0);
    if (inserted) {
        TrackIndex track = 0;
        switch (key.cat) {
            case Cat::Kernel:
                track = m_activities.streamRow(placeOf(e));
                break;
            case Cat::GpuAnnotation:
                track = m_builder.nvtxTrack(gpuProcessFor(e), key.b);
                break;
            case Cat::Sync:
                track = m_activities.syncRow(placeOf(e));
                break;
            case Cat::Memory:
                track = m_activities.memoryRow(placeOf(e));
                break;
            case Cat::UnifiedMemory: {
                const auto kind = static_cast<model::UnifiedMemoryKind>(key.b);
                track = key.a >= 0 ? m_activities.unifiedMemoryRow(placeOf(e), kind)
                                   : m_builder.unifiedMemoryTrack(hostProcess(e.pid), kind);
                break;
            }
            case Cat::Runtime:
                track = m_activities.apiRow(hostProcess(e.pid), e.tid);
                m_phases.noteApiTrack(track);
                break;
            case Cat::Annotation:
                track = m_builder.nvtxTrack(hostProcess(e.pid), e.tid, e.args.domain);
                break;
            default:
                track = m_builder.hostTrack(hostProcess(e.pid), e.tid);
                m_hostTracks.push_back({{e.pid, e.tid}, track});
                break;
        }
        it->second = track;
    }
    m_lastKey = key;
    m_lastTrack = it->second;
    return it->second;
}

void Importer::addSlice(const RawEvent& e, TimeNs start, TimeNs end) {
    Cat cat = m_lastCatClass;
    if (e.cat != m_lastCat) {
        cat = classify(e.cat);
        m_lastCat = e.cat;
        m_lastCatClass = cat;
    }
    if (onGpu(cat) || cat == Cat::Runtime || cat == Cat::Driver)
        m_foreignGpuData = true;
    const TrackIndex track = trackFor(e, cat);
    StringId name = m_lastNameId;
    if (e.name != m_lastName) {
        name = m_builder.intern(e.name);
        m_lastName = e.name;
        m_lastNameId = name;
    }
    const EventArgs& a = e.args;
    const std::uint64_t correlation = (a.has & kArgCorrelation) && a.correlation > 0
                                          ? static_cast<std::uint64_t>(a.correlation)
                                          : 0;
    SliceKind kind = SliceKind::Other;
    std::uint32_t detail = model::kNoDetail;
    switch (cat) {
        case Cat::Kernel: {
            kind = SliceKind::Kernel;
            if (a.hasAny(kArgGrid | kArgBlock | kArgGraphId | kArgGraphNodeId)) {
                model::KernelDetail k;
                k.grid = a.grid;
                k.block = a.block;
                k.registersPerThread = static_cast<std::int32_t>(a.registers);
                if (a.has & kArgSharedStatic) {
                    k.staticSharedBytes = static_cast<std::int32_t>(a.sharedStatic);
                    k.dynamicSharedBytes = static_cast<std::int32_t>(a.sharedDynamic);
                } else {
                    k.staticSharedBytes = static_cast<std::int32_t>(a.sharedTotal);
                }
                k.warpsPerSm = a.warps;
                k.estimatedOccupancyPct = a.occupancy;
                k.graph = graphNodeOf(a);
                detail = m_activities.detailOf(k);
            }
            break;
        }
        case Cat::Memcpy: {
            kind = SliceKind::Memcpy;
            if (a.hasAny(kArgBytes | kArgGraphId | kArgGraphNodeId)) {
                model::MemcpyDetail m;
                m.bytes = a.bytes;
                // Kineto names the direction and memory kinds: "Memcpy HtoD (Pageable -> Device)"
                // (model::copyActivityName); newer ones write them as args too.
                const model::CopyNameParts named = model::parseCopyName(e.name);
                m.copyKind =
                    model::copyKindFromString(a.has & kArgCopyKind ? a.copyKind : named.direction);
                m.srcKind =
                    model::memoryKindFromString(a.has & kArgSrcKind ? a.srcKind : named.src);
                m.dstKind =
                    model::memoryKindFromString(a.has & kArgDstKind ? a.dstKind : named.dst);
                m.srcDevice = static_cast<std::int32_t>(a.srcDevice);
                m.dstDevice = static_cast<std::int32_t>(a.dstDevice);
                m.graph = graphNodeOf(a);
                detail = m_activities.detailOf(m);
            }
            break;
        }
        case Cat::Memset: {
            kind = SliceKind::Memset;
            if (a.hasAny(kArgBytes | kArgGraphId | kArgGraphNodeId)) {
                model::MemsetDetail m;
                m.bytes = a.bytes;
                m.value = static_cast<std::uint32_t>(a.value);
                // Kineto: "Memset (Device)" (model::memsetActivityName).
                m.memoryKind = model::memoryKindFromString(
                    a.has & kArgMemoryKind ? a.memoryKind : model::parseMemsetName(e.name));
                m.graph = graphNodeOf(a);
                detail = m_activities.detailOf(m);
            }
            break;
        }
        case Cat::Memory: {
            kind = SliceKind::Memory;
            if (a.has & kArgMemoryOp) {
                model::MemoryDetail m;
                const auto op = model::memoryOpFromString(a.memoryOp);
                if (!op)
                    fail("\"memory op\" must be \"allocation\" or \"release\"", e.at);
                m.op = *op;
                m.memoryKind = model::memoryKindFromString(a.memoryKind);
                m.address = a.address;
                m.bytes = a.bytes;
                m.streamId = a.has & kArgStream ? a.stream : -1;
                m.fromPool = (a.has & kArgPoolAddress) != 0;
                m.poolAddress = a.poolAddress;
                m.poolReservedBytes = a.poolReserve;
                detail = m_activities.detailOf(m);
            }
            break;
        }
        case Cat::Sync: {
            kind = SliceKind::Sync;
            if (a.has & kArgSyncKind) {
                model::SyncDetail s;
                s.syncKind = model::syncKindFromString(a.syncKind);
                s.streamId = a.has & kArgStream ? a.stream : -1;
                if (s.streamId == -1 && (a.has & kArgWaitOnStream) && a.waitOnStream != -1) {
                    s.streamId = a.waitOnStream;
                    s.streamFromRecord = true;
                }
                s.eventId = a.eventId > 0 ? static_cast<std::uint64_t>(a.eventId) : 0;
                // The awaited record (Kineto writes -1 when there is none): the op waited for.
                s.recordStreamId = a.waitOnStream >= 0 ? a.waitOnStream : -1;
                s.recordCorrelationId =
                    a.waitOnRecord > 0 ? static_cast<std::uint64_t>(a.waitOnRecord) : 0;
                detail = m_activities.detailOf(s);
            }
            break;
        }
        case Cat::Runtime:
        case Cat::Driver: {
            kind = cat == Cat::Runtime ? SliceKind::RuntimeApi : SliceKind::DriverApi;
            if (a.has & kArgCbid) {
                model::ApiDetail api;
                api.apiKind =
                    cat == Cat::Runtime ? model::ApiKind::Runtime : model::ApiKind::Driver;
                api.callbackId = static_cast<std::uint32_t>(a.cbid);
                api.returnCode = static_cast<std::int32_t>(a.returnCode);
                detail = m_activities.detailOf(api);
            }
            break;
        }
        case Cat::Annotation:
        case Cat::GpuAnnotation: {
            kind = SliceKind::Nvtx;
            model::NvtxDetail n;
            n.colorArgb = a.color;
            n.domainId = a.has & kArgDomain ? m_builder.intern(a.domain) : 0;
            n.category = static_cast<std::int32_t>(a.category);
            n.categoryNameId = a.has & kArgCategoryName ? m_builder.intern(a.categoryName) : 0;
            n.hasPayload = (a.has & kArgPayload) != 0;
            n.payload = a.payload;
            detail = m_builder.addNvtxDetail(n);
            break;
        }
        case Cat::Overhead:
            kind = SliceKind::Overhead;
            break;
        case Cat::UnifiedMemory:
            kind = SliceKind::UnifiedMemory;
            if (a.has & kArgUmKind)
                detail = m_activities.detailOf(unifiedMemoryDetailOf(a));
            break;
        case Cat::CpuOp:
            kind = SliceKind::CpuOp;
            break;
        case Cat::Other:
            break;
    }
    if (correlation != 0 &&
        (kind == SliceKind::Kernel || kind == SliceKind::Memcpy || kind == SliceKind::Memset)) {
        if (!m_warpline)
            m_phases.noteGpuCorrelation(correlation);
    }
    m_builder.addSliceId(track, start, end, name, kind, correlation, detail);
    keepProducerFields(e, track, kind, true, detail != model::kNoDetail && end > start);
    m_earliestNs = std::min(m_earliestNs, start);
    // Where flow ends bind on a row (enclosingTrack): another producer's rows, and ours that
    // several tracks share.
    if (!m_warpline || (!m_sharedRows.empty() && m_sharedRows.count({e.pid, e.tid})))
        m_phases.noteSlice(e.pid, e.tid, start, end, track, name);
    if (e.hasBindId && (e.flowIn || e.flowOut))
        m_phases.noteBoundFlow(e, start);
}

void Importer::handleMetadataEvent(const RawEvent& e) {
    if (m_warpline)
        return;  // names and order come from the "warpline" block
    // Another producer's names and order of its rows: written back as they were.
    keepEvent(e);
    const std::string_view what = e.name;
    if (what == "process_name" && (e.args.has & kArgName)) {
        m_processNames[e.pid] = std::string(e.args.name);
    } else if (what == "thread_name" && (e.args.has & kArgName)) {
        m_threadNames[{e.pid, e.tid}] = std::string(e.args.name);
    }
}

void Importer::parseDevices(od::value& v) {
    if (typeOf(v) != od::json_type::array)
        fail("\"deviceProperties\" must be an array", locate(v));
    od::array arr = v.get_array();
    for (auto element : arr) {
        od::value dv = element.value();
        if (typeOf(dv) != od::json_type::object)
            fail("a device must be an object", locate(dv));
        model::DeviceProperties d;
        bool haveWarps = false;
        od::object obj = dv.get_object();
        for (auto field : obj) {
            const std::string_view key = keyText(field);
            od::value value = field.value();
            // A property of an unexpected type (vintages differ) is left out, not the file.
            try {
                switch (keyHash(key)) {
#define WL_DEV(text, member, type)                \
    case keyHash(text):                           \
        if (key == text) {                        \
            d.member = getInt<type>(value, text); \
            continue;                             \
        }                                         \
        break;
                    WL_DEV("id", id, std::int32_t)
                    WL_DEV("totalGlobalMem", totalMemoryBytes, std::int64_t)
                    WL_DEV("computeMajor", computeMajor, std::int32_t)
                    WL_DEV("computeMinor", computeMinor, std::int32_t)
                    WL_DEV("maxThreadsPerBlock", maxThreadsPerBlock, std::int32_t)
                    WL_DEV("maxThreadsPerMultiprocessor", maxThreadsPerSm, std::int32_t)
                    WL_DEV("regsPerBlock", registersPerBlock, std::int32_t)
                    WL_DEV("warpSize", warpSize, std::int32_t)
                    WL_DEV("sharedMemPerBlock", sharedMemoryPerBlockBytes, std::int64_t)
                    WL_DEV("numSms", smCount, std::int32_t)
                    WL_DEV("regsPerMultiprocessor", registersPerSm, std::int32_t)
                    WL_DEV("sharedMemPerBlockOptin", sharedMemoryPerBlockOptinBytes, std::int64_t)
                    WL_DEV("sharedMemPerMultiprocessor", sharedMemoryPerSmBytes, std::int64_t)
                    WL_DEV("maxBlocksPerMultiprocessor", maxBlocksPerSm, std::int32_t)
                    WL_DEV("l2CacheSize", l2CacheBytes, std::int64_t)
                    WL_DEV("clockRate", clockRateKHz, std::int32_t)
                    WL_DEV("memoryClockRate", memoryClockRateKHz, std::int32_t)
                    WL_DEV("memoryBusWidth", memoryBusWidthBits, std::int32_t)
                    WL_DEV("pcieGeneration", pcieGeneration, std::int32_t)
                    WL_DEV("pcieLinkWidth", pcieLinkWidth, std::int32_t)
#undef WL_DEV
                    case keyHash("maxWarpsPerMultiprocessor"):
                        if (key == "maxWarpsPerMultiprocessor") {
                            d.maxWarpsPerSm = getInt<std::int32_t>(value, key);
                            haveWarps = true;
                            continue;
                        }
                        break;
                    case keyHash("name"):
                        if (key == "name") {
                            d.name = std::string(getString(value, "name"));
                            continue;
                        }
                        break;
                    case keyHash("uuid"):
                        if (key == "uuid") {
                            d.uuid = std::string(getString(value, "uuid"));
                            continue;
                        }
                        break;
                    case keyHash("pciBusId"):
                        if (key == "pciBusId") {
                            d.pciBusId = std::string(getString(value, "pciBusId"));
                            continue;
                        }
                        break;
                    case keyHash("memoryBandwidthGBps"):
                        if (key == "memoryBandwidthGBps") {
                            d.memoryBandwidthGBps = getFloat<double>(value, key);
                            continue;
                        }
                        break;
                    default:
                        break;
                }
                skipValue(value, 2);
            } catch (const FieldProblem& p) {
                ++m_ignoredArgs;
                if (!m_firstIgnoredArg) {
                    m_firstIgnoredArg = FieldProblem{
                        "deviceProperties." + std::string(key) + ": " + p.message, p.at};
                }
                if (!p.consumed)
                    skipValue(value, 2);
            }
        }
        // Kineto does not write warps per SM; analysis needs it.
        if (!haveWarps && d.warpSize > 0)
            d.maxWarpsPerSm = d.maxThreadsPerSm / d.warpSize;
        m_builder.addDevice(d);
    }
}

}  // namespace wl::io::chrome
