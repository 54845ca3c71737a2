#include "io/chrome/PhaseAssembler.h"

#include <algorithm>
#include <optional>

namespace wl::io::chrome {

void PhaseAssembler::noteThreadTime(const RawEvent& e, TimeNs endNs) {
    auto [it, inserted] = m_threadEndNs.try_emplace({e.pid, e.tid}, endNs);
    if (!inserted && endNs > it->second)
        it->second = endNs;
}

void PhaseAssembler::reserve(std::size_t events) {
    m_sliceStarts.reserve(events);
    m_flows.reserve(events);
    m_gpuCorrelations.reserve(events / 2);
}

void PhaseAssembler::add(RawEvent& e) {
    if (!e.phaseKnown) {
        ++m_sink.diagnostics().unknownPhases;
        return;
    }
    if (e.ph != 'M' && !e.hasTs) {
        m_sink.skipEvent(e.at, "event without \"ts\"");
        return;
    }
    switch (e.ph) {
        case 'X': {
            if (e.dur > 0 && e.ts > kMaxAbsTimeNs - e.dur) {
                m_sink.skipEvent(e.at, "ts + dur is out of range");
                return;
            }
            noteThreadTime(e, e.ts + std::max<TimeNs>(e.dur, 0));
            m_sink.addSlice(e, e.ts, e.ts + e.dur);
            return;
        }
        case 'B': {
            noteThreadTime(e, e.ts);
            if (m_begins.size() >= kNoBegin) {
                m_sink.skipEvent(e.at, "too many \"B\" events");
                return;
            }
            m_beginEnds[{e.pid, e.tid}].push_back(
                {e.ts, static_cast<std::uint32_t>(m_begins.size())});
            m_begins.push_back(e);
            m_sink.keepUntilEnd(m_begins.back());
            return;
        }
        case 'E':
            noteThreadTime(e, e.ts);
            m_beginEnds[{e.pid, e.tid}].push_back({e.ts, kNoBegin});
            return;
        case 'b':
        case 'e':
        case 'n':
            addAsync(e);
            return;
        case 'i':
        case 'I':
            noteThreadTime(e, e.ts);
            m_sink.addInstant(e);
            return;
        case 'C':
            m_sink.addCounter(e);
            return;
        case 'M':
            m_sink.addMetadata(e);
            return;
        case 's':
        case 't':
        case 'f':
            addFlowEvent(e);
            return;
        default:
            ++m_sink.diagnostics().unknownPhases;
            return;
    }
}

void PhaseAssembler::addAsync(RawEvent& e) {
    if (!e.hasId) {
        m_sink.skipEvent(e.at, "async event without \"id\"");
        return;
    }
    const std::int64_t scope = e.globalId ? kGlobalScope : e.pid;
    const auto key = std::make_tuple(scope, m_sink.intern(e.cat), e.id);
    if (e.ph == 'b') {
        auto& stack = m_openAsync[key];
        stack.push_back(e);
        m_sink.keepUntilEnd(stack.back());
        return;
    }
    if (e.ph == 'n') {
        m_sink.addAsync(e, e.ts, SliceKind::Instant);
        return;
    }
    auto it = m_openAsync.find(key);
    if (it == m_openAsync.end() || it->second.empty()) {
        ++m_sink.diagnostics().unmatchedEnds;
        return;
    }
    const RawEvent begin = it->second.back();
    it->second.pop_back();
    m_sink.addAsync(begin, e.ts, SliceKind::Other);  // the "b"'s args and row ("e" adds none)
}

void PhaseAssembler::addFlowEvent(const RawEvent& e) {
    const bool launch = isLaunchFlowCat(e.cat);
    // Rebuilt from the cuda_sync events' args (whoever wrote the file, that is us), and in our
    // own files from correlation ids.
    if (e.cat == format::kCatDependency || (launch && m_sink.ownExport()))
        return;
    if (!e.hasId) {
        m_sink.skipEvent(e.at, "flow event without \"id\"");
        return;
    }
    m_sink.keepFlowEvent(e);  // a producer's flow events are written back as they were
    const bool bindNext = e.ph == 'f' && e.bindPoint != "e";
    m_flows.push_back(
        FlowEvent{e.at, e.ph, launch, bindNext, m_sink.intern(e.cat), e.id, e.pid, e.tid, e.ts});
}

std::uint64_t PhaseAssembler::unendedAsync() const {
    std::uint64_t unended = 0;
    for (const auto& [key, stack] : m_openAsync)
        unended += stack.size();
    return unended;
}

void PhaseAssembler::sortSliceStarts() {
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
bool PhaseAssembler::enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                                    TrackIndex& track, StringId* name) {
    if (m_sink.ownRowTrack(pid, tid, track)) {
        if (name)
            *name = 0;
        return true;
    }
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0, 0};
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
    StringId found = it->name;
    // Several slices start at that time: a launch arrow leaves from the API call.
    if (launchStart) {
        for (auto k = it;; --k) {
            if (k->pid != pid || k->tid != tid || k->startNs != it->startNs)
                break;
            if (m_apiTracks.count(k->track) && k->endNs >= ts) {
                track = k->track;
                found = k->name;
                break;
            }
            if (k == m_sliceStarts.begin())
                break;
        }
    }
    if (name)
        *name = found;
    return true;
}

// Flow v1 "f" without "bp":"e" (the Trace Event Format, and Perfetto): the arrow ends at the
// next slice that begins on the thread.
bool PhaseAssembler::nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts,
                                    TrackIndex& track, StringId* name) {
    if (m_sink.ownExport())
        return enclosingTrack(pid, tid, ts, false, track, name);
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0, 0};
    auto it = std::lower_bound(m_sliceStarts.begin(), m_sliceStarts.end(), probe,
                               [](const SliceStart& a, const SliceStart& b) {
                                   return std::tie(a.pid, a.tid, a.startNs) <
                                          std::tie(b.pid, b.tid, b.startNs);
                               });
    if (it == m_sliceStarts.end() || it->pid != pid || it->tid != tid)
        return false;
    ts = it->startNs;
    track = it->track;
    if (name)
        *name = it->name;
    return true;
}

void PhaseAssembler::dropFlow(const FlowEvent& f, LooseFlows::Reason why, StringId on) {
    (f.launch ? m_looseLaunch : m_looseOther).add({why, f.ph, f.cat, f.id, f.pid, f.tid, f.ts, on});
}

void PhaseAssembler::resolveFlows() {
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
        // The start that nothing has continued yet (and the slice it sits on), and whether the
        // last start had no slice to sit on.
        const FlowEvent* unusedStart = nullptr;
        StringId unusedStartOn = 0;
        bool startOnNoSlice = false;
        using Reason = LooseFlows::Reason;
        for (const FlowEvent* f : order) {
            End here{0, f->ts};
            StringId on = 0;
            const bool ok = f->bindNext
                                ? nextSliceTrack(f->pid, f->tid, here.ts, here.track, &on)
                                : enclosingTrack(f->pid, f->tid, f->ts, f->launch && f->ph == 's',
                                                 here.track, &on);
            if (f->ph == 's') {
                if (unusedStart)
                    dropFlow(*unusedStart, Reason::Restarted, unusedStartOn);
                if (!ok)
                    dropFlow(*f, Reason::NoSlice, 0);
                open = ok ? std::optional<End>(here) : std::nullopt;
                unusedStart = ok ? f : nullptr;
                unusedStartOn = on;
                startOnNoSlice = !ok;
                continue;
            }
            if (!ok) {
                dropFlow(*f, Reason::NoSlice, 0);
                continue;
            }
            if (!open) {
                dropFlow(*f, startOnNoSlice ? Reason::StartNoSlice : Reason::NoStart, on);
                continue;
            }
            m_sink.addFlow(first.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                           here.ts);
            unusedStart = nullptr;
            // An "f" leaves the flow open (several ends may share one start, as in Perfetto); a
            // reused id's next "s" starts a new flow.
            if (f->ph == 't')
                open = here;
        }
        if (unusedStart)
            dropFlow(*unusedStart, Reason::NoEnd, unusedStartOn);
        i = j;
    }
}

// Flow v2 (Perfetto): slices carry "bind_id" with "flow_out" (a flow leaves), "flow_in" (one
// arrives) or both (it passes through); the ends of one id are taken in time order.
void PhaseAssembler::resolveBoundFlows() {
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
        StringId on = 0;
        const auto drop = [&](LooseFlows::Reason why) {
            m_looseOther.add({why, 0, 0, b.id, b.pid, b.tid, b.startNs, on});
        };
        if (!enclosingTrack(b.pid, b.tid, b.startNs, false, here.track, &on)) {
            drop(LooseFlows::Reason::NoSlice);
            continue;
        }
        if (b.in) {
            if (open) {
                m_sink.addFlow(b.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                               here.ts);
            } else if (!b.out) {
                drop(LooseFlows::Reason::NoStart);
            }
        }
        if (b.out)
            open = here;
    }
}

void PhaseAssembler::pairBeginsAndEnds() {
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
            m_sink.addSlice(begin, begin.ts, item.ts);
        }
        // Still open when the recording stopped: it lasted at least until the thread's last
        // event, and its name says that it did not end.
        const TimeNs threadEndNs = m_threadEndNs[thread];
        for (std::uint32_t index : stack) {
            RawEvent begin = m_begins[index];
            m_ownedNames.push_back(std::string(begin.name) + std::string(kUnclosedSuffix));
            begin.name = m_ownedNames.back();
            m_sink.addSlice(begin, begin.ts, std::max(begin.ts, threadEndNs));
            ++unclosed;
        }
    }
    auto& d = m_sink.diagnostics();
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
