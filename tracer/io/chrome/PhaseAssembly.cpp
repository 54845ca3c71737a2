// Phase assembly: decoded events into slices, instants and counters, and flows of every
// Trace Event Format version into arrows (B/E pairs in time order, b/e stacks, s/t/f steps
// with binding points, bind_id flow_in/flow_out, reused ids bound in order).
#include "io/chrome/Importer.h"
#include "model/Derived.h"

namespace wl::io::chrome {

void Importer::noteThreadTime(const RawEvent& e, TimeNs endNs) {
    auto [it, inserted] = m_threadEndNs.try_emplace({e.pid, e.tid}, endNs);
    if (!inserted && endNs > it->second)
        it->second = endNs;
}

void Importer::handleEvent(RawEvent& e) {
    if (!e.phaseKnown) {
        ++m_builder.diagnostics().unknownPhases;
        return;
    }
    if (e.ph != 'M' && !e.hasTs) {
        skipEvent({"event without \"ts\"", e.at});
        return;
    }
    switch (e.ph) {
        case 'X': {
            if (e.dur > 0 && e.ts > kMaxAbsTimeNs - e.dur) {
                skipEvent({"ts + dur is out of range", e.at});
                return;
            }
            noteThreadTime(e, e.ts + std::max<TimeNs>(e.dur, 0));
            addSlice(e, e.ts, e.ts + e.dur);
            return;
        }
        case 'B': {
            noteThreadTime(e, e.ts);
            if (m_begins.size() >= kNoBegin) {
                skipEvent({"too many \"B\" events", e.at});
                return;
            }
            m_beginEnds[{e.pid, e.tid}].push_back(
                {e.ts, static_cast<std::uint32_t>(m_begins.size())});
            m_begins.push_back(e);
            pinStrings(m_begins.back());
            m_keptMembers = m_members.size();
            return;
        }
        case 'E':
            noteThreadTime(e, e.ts);
            m_beginEnds[{e.pid, e.tid}].push_back({e.ts, kNoBegin});
            return;
        case 'b':
        case 'e':
        case 'n': {
            if (!e.hasId) {
                skipEvent({"async event without \"id\"", e.at});
                return;
            }
            const std::int64_t scope = e.globalId ? kGlobalScope : e.pid;
            const auto key = std::make_tuple(scope, m_builder.intern(e.cat), e.id);
            if (e.ph == 'b') {
                m_openAsync[key].push_back(e);
                pinStrings(m_openAsync[key].back());
                m_keptMembers = m_members.size();
                return;
            }
            if (e.ph == 'n') {
                const TrackIndex track = m_builder.nvtxAsyncTrack(hostProcess(e.pid), e.cat);
                m_builder.setTrackName(track,
                                       e.cat.empty() ? std::string_view("Async events") : e.cat);
                m_builder.addSliceId(track, e.ts, e.ts, m_builder.intern(e.name),
                                     SliceKind::Instant, 0, model::kNoDetail);
                keepExtraArgs(e, track, SliceKind::Instant);
                m_earliestNs = std::min(m_earliestNs, e.ts);
                return;
            }
            auto it = m_openAsync.find(key);
            if (it == m_openAsync.end() || it->second.empty()) {
                ++m_builder.diagnostics().unmatchedEnds;
                return;
            }
            const RawEvent begin = it->second.back();
            it->second.pop_back();
            // On the row of the process that began it (a global id may end elsewhere).
            const TrackIndex track = m_builder.nvtxAsyncTrack(hostProcess(begin.pid), begin.cat);
            m_builder.setTrackName(
                track, begin.cat.empty() ? std::string_view("Async events") : begin.cat);
            m_builder.addSliceId(track, begin.ts, e.ts, m_builder.intern(begin.name),
                                 SliceKind::Other, 0, model::kNoDetail);
            keepExtraArgs(begin, track, SliceKind::Other);  // the "b"'s args ("e" adds none)
            m_earliestNs = std::min(m_earliestNs, begin.ts);
            return;
        }
        case 'i':
        case 'I':
            noteThreadTime(e, e.ts);
            addInstant(e);
            return;
        case 'C':
            addCounter(e);
            return;
        case 'M':
            handleMetadataEvent(e);
            return;
        case 's':
        case 't':
        case 'f': {
            const bool launch = isLaunchFlowCat(e.cat);
            // Rebuilt from the cuda_sync events' args (whoever wrote the file, that is us), and
            // in our own files from correlation ids.
            if (e.cat == format::kCatDependency || (launch && m_warpline))
                return;
            if (!e.hasId) {
                skipEvent({"flow event without \"id\"", e.at});
                return;
            }
            keepEvent(e);  // a producer's flow events are written back as they were
            const bool bindNext = e.ph == 'f' && e.bindPoint != "e";
            m_flows.push_back(FlowEvent{e.at, e.ph, launch, bindNext, m_builder.intern(e.cat), e.id,
                                        e.pid, e.tid, e.ts});
            return;
        }
        default:
            ++m_builder.diagnostics().unknownPhases;
            return;
    }
}

void Importer::addInstant(const RawEvent& e) {
    const TrackIndex track = trackFor(e, Cat::Other);
    const std::uint64_t correlation = (e.args.has & kArgCorrelation) && e.args.correlation > 0
                                          ? static_cast<std::uint64_t>(e.args.correlation)
                                          : 0;
    m_builder.addSliceId(track, e.ts, e.ts, m_builder.intern(e.name), SliceKind::Instant,
                         correlation, model::kNoDetail);
    keepExtraArgs(e, track, SliceKind::Instant);
    keepOrigin(e, track);
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

void Importer::sortSliceStarts() {
    if (m_startsSorted)
        return;
    std::sort(m_sliceStarts.begin(), m_sliceStarts.end(),
              [](const SliceStart& a, const SliceStart& b) {
                  return std::tie(a.pid, a.tid, a.startNs) < std::tie(b.pid, b.tid, b.startNs);
              });
    m_coverEndNs.resize(m_sliceStarts.size());
    for (std::size_t i = 0; i < m_sliceStarts.size(); ++i) {
        const SliceStart& s = m_sliceStarts[i];
        const bool sameThread =
            i > 0 && m_sliceStarts[i - 1].pid == s.pid && m_sliceStarts[i - 1].tid == s.tid;
        m_coverEndNs[i] = sameThread ? std::max(m_coverEndNs[i - 1], s.endNs) : s.endNs;
    }
    m_startsSorted = true;
}

// Several tracks can share a (pid, tid) (Kineto puts CPU ops and runtime calls on one thread,
// stream syncs on the stream's tid): a flow end binds to the track of the slice that starts
// last at or before its time on that thread.
bool Importer::enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                              TrackIndex& track) {
    if (m_warpline && !m_sharedRows.count({pid, tid})) {
        if (auto it = m_tidTracks.find({pid, tid}); it != m_tidTracks.end()) {
            track = it->second;
            return true;
        }
    }
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0};
    auto it = std::upper_bound(m_sliceStarts.begin(), m_sliceStarts.end(), probe,
                               [](const SliceStart& a, const SliceStart& b) {
                                   return std::tie(a.pid, a.tid, a.startNs) <
                                          std::tie(b.pid, b.tid, b.startNs);
                               });
    if (it == m_sliceStarts.begin())
        return false;
    --it;
    if (it->pid != pid || it->tid != tid)
        return false;
    // No slice of the thread runs at that time: the end binds nowhere (Perfetto counts these as
    // flows without an enclosing slice).
    auto index = static_cast<std::size_t>(it - m_sliceStarts.begin());
    if (m_coverEndNs[index] < ts)
        return false;
    // The innermost slice over `ts` is the last one to start that still runs then; walk back
    // over siblings that ended before it (bounded: a long tail of them keeps the nearest track).
    for (std::size_t k = index, steps = 0; steps < 4096; --k, ++steps) {
        if (m_sliceStarts[k].endNs >= ts) {
            it = m_sliceStarts.begin() + static_cast<std::ptrdiff_t>(k);
            break;
        }
        if (k == 0 || m_coverEndNs[k - 1] < ts || m_sliceStarts[k - 1].pid != pid ||
            m_sliceStarts[k - 1].tid != tid)
            break;
    }
    track = it->track;
    // Several slices start at that time: a launch arrow leaves from the API call.
    if (launchStart) {
        for (auto k = it;; --k) {
            if (k->pid != pid || k->tid != tid || k->startNs != it->startNs)
                break;
            if (m_apiTracks.count(k->track) && k->endNs >= ts) {
                track = k->track;
                break;
            }
            if (k == m_sliceStarts.begin())
                break;
        }
    }
    return true;
}

// Flow v1 "f" without "bp":"e" (the Trace Event Format, and Perfetto): the arrow ends at the
// next slice that begins on the thread.
bool Importer::nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts, TrackIndex& track) {
    if (m_warpline)
        return enclosingTrack(pid, tid, ts, false, track);
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0};
    auto it = std::lower_bound(m_sliceStarts.begin(), m_sliceStarts.end(), probe,
                               [](const SliceStart& a, const SliceStart& b) {
                                   return std::tie(a.pid, a.tid, a.startNs) <
                                          std::tie(b.pid, b.tid, b.startNs);
                               });
    if (it == m_sliceStarts.end() || it->pid != pid || it->tid != tid)
        return false;
    ts = it->startNs;
    track = it->track;
    return true;
}

void Importer::resolveFlows() {
    if (m_flows.empty())
        return;
    std::sort(m_gpuCorrelations.begin(), m_gpuCorrelations.end());
    // Producers write flow events in any order (Kineto often puts "f" first): group by (cat, id).
    std::stable_sort(m_flows.begin(), m_flows.end(), [&](const FlowEvent& a, const FlowEvent& b) {
        if (a.cat != b.cat)
            return a.cat < b.cat;
        return a.id < b.id;
    });
    auto rank = [](char ph) { return ph == 's' ? 0 : ph == 't' ? 1 : 2; };
    struct End {
        TrackIndex track = 0;
        TimeNs ts = 0;
    };
    std::vector<const FlowEvent*> order;
    for (std::size_t i = 0; i < m_flows.size();) {
        std::size_t j = i;
        while (j < m_flows.size() && m_flows[j].cat == m_flows[i].cat &&
               m_flows[j].id == m_flows[i].id)
            ++j;
        const FlowEvent& first = m_flows[i];
        if (first.launch &&
            std::binary_search(m_gpuCorrelations.begin(), m_gpuCorrelations.end(), first.id)) {
            i = j;  // the model links launches by correlation id
            continue;
        }
        const auto starts = std::count_if(m_flows.begin() + static_cast<std::ptrdiff_t>(i),
                                          m_flows.begin() + static_cast<std::ptrdiff_t>(j),
                                          [](const FlowEvent& f) { return f.ph == 's'; });
        // One start: s -> t... -> f, steps in time order, whatever the start's time says (a GPU
        // clock may run a little behind the host's). Several starts (Fuchsia reuses ids): each
        // opens the next flow, all in time order.
        order.clear();
        for (std::size_t k = i; k < j; ++k)
            order.push_back(&m_flows[k]);
        std::stable_sort(order.begin(), order.end(), [&](const FlowEvent* a, const FlowEvent* b) {
            if (starts <= 1 && (a->ph == 's') != (b->ph == 's'))
                return a->ph == 's';
            return a->ts != b->ts ? a->ts < b->ts : rank(a->ph) < rank(b->ph);
        });
        std::optional<End> open;  // where the flow stands: its start or its last step
        bool unusedStart = false;
        std::uint64_t dropped = 0;
        for (const FlowEvent* f : order) {
            End here{0, f->ts};
            const bool ok = f->bindNext ? nextSliceTrack(f->pid, f->tid, here.ts, here.track)
                                        : enclosingTrack(f->pid, f->tid, f->ts,
                                                         f->launch && f->ph == 's', here.track);
            if (f->ph == 's') {
                dropped += unusedStart || !ok ? 1 : 0;
                open = ok ? std::optional<End>(here) : std::nullopt;
                unusedStart = ok;
                continue;
            }
            if (!open || !ok) {
                ++dropped;
                continue;
            }
            m_builder.addFlow(first.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                              here.ts);
            unusedStart = false;
            // An "f" leaves the flow open (several ends may share one start, as in Perfetto); a
            // reused id's next "s" starts a new flow.
            if (f->ph == 't')
                open = here;
        }
        dropped += unusedStart ? 1 : 0;
        (first.launch ? m_looseLaunchEvents : m_looseFlowEvents) += dropped;
        i = j;
    }
}

// Flow v2 (Perfetto): slices carry "bind_id" with "flow_out" (a flow leaves), "flow_in" (one
// arrives) or both (it passes through); the ends of one id are taken in time order.
void Importer::resolveBoundFlows() {
    if (m_boundFlows.empty())
        return;
    std::stable_sort(m_boundFlows.begin(), m_boundFlows.end(),
                     [](const BoundFlowEnd& a, const BoundFlowEnd& b) {
                         return a.id != b.id ? a.id < b.id : a.startNs < b.startNs;
                     });
    struct End {
        TrackIndex track = 0;
        TimeNs ts = 0;
    };
    std::optional<End> open;
    for (std::size_t i = 0; i < m_boundFlows.size(); ++i) {
        const BoundFlowEnd& b = m_boundFlows[i];
        if (i == 0 || m_boundFlows[i - 1].id != b.id)
            open.reset();
        End here{0, b.startNs};
        if (!enclosingTrack(b.pid, b.tid, b.startNs, false, here.track)) {
            ++m_looseFlowEvents;
            continue;
        }
        if (b.in) {
            if (open) {
                m_builder.addFlow(b.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                                  here.ts);
            } else if (!b.out) {
                ++m_looseFlowEvents;
            }
        }
        if (b.out)
            open = here;
    }
}

void Importer::pairBeginsAndEnds() {
    // Thread by thread in a fixed order, so equal input gives an equal trace.
    std::vector<std::pair<std::int64_t, std::int64_t>> threads;
    threads.reserve(m_beginEnds.size());
    for (const auto& [thread, list] : m_beginEnds)
        threads.push_back(thread);
    std::sort(threads.begin(), threads.end());
    std::uint64_t unclosed = 0;
    std::vector<std::uint32_t> stack;
    for (const auto& thread : threads) {
        auto& list = m_beginEnds[thread];
        // Pairs form in time order (producers may write a thread's events out of order); file
        // order breaks ties, so a zero-length B/E pair stays a pair.
        auto byTime = [](const BeginEnd& a, const BeginEnd& b) { return a.ts < b.ts; };
        if (!std::is_sorted(list.begin(), list.end(), byTime))
            std::stable_sort(list.begin(), list.end(), byTime);
        stack.clear();
        for (const BeginEnd& item : list) {
            if (item.begin != kNoBegin) {
                stack.push_back(item.begin);
                continue;
            }
            if (stack.empty()) {
                ++m_strayEnds;
                continue;
            }
            const RawEvent& begin = m_begins[stack.back()];
            stack.pop_back();
            addSlice(begin, begin.ts, item.ts);
        }
        // Still open when the recording stopped: it lasted at least until the thread's last
        // event, and its name says that it did not end.
        const TimeNs threadEndNs = m_threadEndNs[thread];
        for (std::uint32_t index : stack) {
            RawEvent begin = m_begins[index];
            m_ownedNames.push_back(std::string(begin.name) + std::string(kUnclosedSuffix));
            begin.name = m_ownedNames.back();
            addSlice(begin, begin.ts, std::max(begin.ts, threadEndNs));
            ++unclosed;
        }
    }
    auto& d = m_builder.diagnostics();
    d.unmatchedEnds += m_strayEnds + unclosed;
    if (m_strayEnds > 0) {
        d.note(std::to_string(m_strayEnds) +
               " \"E\" event(s) without a matching \"B\" on their thread were ignored");
    }
    if (unclosed > 0) {
        d.note(std::to_string(unclosed) +
               " \"B\" event(s) never ended: each ends with its thread's last event, marked \"" +
               std::string(kUnclosedSuffix.substr(1)) + "\"");
    }
}

}  // namespace wl::io::chrome
