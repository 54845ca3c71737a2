#pragma once

// Phase assembly: decoded events (RawEvent) into slices, instants, counters and flows, by the
// Trace Event Format's phases: X, B/E pairs in time order (an unclosed B ends with its thread's
// last event), b/e stacks per (scope, cat, id) and n instants, s/t/f steps with binding points,
// bind_id flow_in/flow_out, reused ids bound in order. What each thing becomes in the model (its
// track, details, kept args) is the Sink's: the importer, or a test's recorder. No JSON here.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/chrome/LooseFlows.h"
#include "io/chrome/RawEvent.h"
#include "model/Diagnostics.h"

namespace wl::io::chrome {

class PhaseAssembler {
public:
    // Where assembled events go, and the few facts of the import the assembly needs.
    class Sink {
    public:
        virtual ~Sink() = default;
        // A slice from `start` to `end`: an X, or a B with its E (an unclosed B's name ends in
        // kUnclosedSuffix). The sink calls noteSlice for it if flows may bind there.
        virtual void addSlice(const RawEvent& e, TimeNs start, TimeNs end) = 0;
        virtual void addInstant(const RawEvent& e) = 0;  // "i", "I"
        // An async range: a "b" (its args and row) with the time of its "e"; an "n" is an
        // instant (endNs == e.ts, kind Instant).
        virtual void addAsync(const RawEvent& e, TimeNs endNs, SliceKind kind) = 0;
        virtual void addCounter(const RawEvent& e) = 0;   // "C"
        virtual void addMetadata(const RawEvent& e) = 0;  // "M"
        // A producer's own flow event ("s", "t", "f"), to write back as it was.
        virtual void keepFlowEvent(const RawEvent& e) = 0;
        // `e` (a copy the assembler holds) is kept past this run of events: its strings and
        // args must stay valid until the end of the document.
        virtual void keepUntilEnd(RawEvent& e) = 0;
        // An event left out, and why.
        virtual void skipEvent(const char* at, std::string why) = 0;
        virtual StringId intern(std::string_view text) = 0;
        virtual void addFlow(std::uint64_t id, TrackIndex from, TimeNs fromNs, TrackIndex to,
                             TimeNs toNs) = 0;
        virtual model::Diagnostics& diagnostics() = 0;
        // Our own export: launch arrows are rebuilt from correlation ids, not read.
        virtual bool ownExport() const = 0;
        // Our own export: the one track written on this row (flow ends bind to it without a
        // search); false for a row several tracks share, and for other producers' files.
        virtual bool ownRowTrack(std::int64_t pid, std::int64_t tid, TrackIndex& track) = 0;
    };

    explicit PhaseAssembler(Sink& sink) : m_sink(sink) {}

    // Bookkeeping sized for about this many events (other producers' files).
    void reserve(std::size_t events);

    // One decoded event, in file order.
    void add(RawEvent& e);

    // What the sink's slice placement tells the assembly, for binding flow ends: a slice named
    // `name` on the row (pid, tid) of `track`; a track of CUDA API calls (launch arrows leave
    // from them); the correlation id of GPU work (a launch arrow to it is the model's own link).
    void noteSlice(std::int64_t pid, std::int64_t tid, TimeNs start, TimeNs end, TrackIndex track,
                   StringId name) {
        m_sliceStarts.push_back({pid, tid, start, track, name, std::max(start, end)});
    }
    void noteBoundFlow(const RawEvent& e, TimeNs start) {
        m_boundFlows.push_back({e.bindId, e.flowIn, e.flowOut, e.pid, e.tid, start});
    }
    void noteApiTrack(TrackIndex track) { m_apiTracks.insert(track); }
    void noteGpuCorrelation(std::uint64_t correlation) { m_gpuCorrelations.push_back(correlation); }

    // At the end of the document, in this order: B/E into slices (with their diagnostics), the
    // async ranges never ended (counted), then the flows.
    void pairBeginsAndEnds();
    std::uint64_t unendedAsync() const;
    void resolveFlows();
    void resolveBoundFlows();
    // Flow events left out (no start, no end, or no slice to bind to), and why: launch arrows
    // (the PyTorch profiler's, by correlation id) and the others.
    const LooseFlows& looseLaunchFlows() const { return m_looseLaunch; }
    const LooseFlows& looseFlows() const { return m_looseOther; }
    std::uint64_t looseFlowEvents() const { return m_looseOther.count(); }
    std::uint64_t looseLaunchEvents() const { return m_looseLaunch.count(); }

private:
    struct FlowEvent {
        const char* at;
        char ph;
        bool launch;  // a launch arrow of the PyTorch profiler (correlation id)
        bool
            bindNext;  // an "f" without "bp":"e": binds to the next slice that begins on its thread
        StringId cat;
        std::uint64_t id;
        std::int64_t pid;
        std::int64_t tid;
        TimeNs ts;
    };
    // A slice that carries a flow v2 endpoint ("bind_id" with "flow_in"/"flow_out").
    struct BoundFlowEnd {
        std::uint64_t id;
        bool in;
        bool out;
        std::int64_t pid;
        std::int64_t tid;
        TimeNs startNs;
    };
    // A "B" or "E" of one thread, kept until the end: they pair in time order, not file order.
    struct BeginEnd {
        TimeNs ts;
        std::uint32_t begin;  // index into m_begins; kNoBegin for an "E"
    };
    static constexpr std::uint32_t kNoBegin = std::numeric_limits<std::uint32_t>::max();
    // Where each slice started, to bind flow ends (see resolveFlows).
    struct SliceStart {
        std::int64_t pid;
        std::int64_t tid;
        TimeNs startNs;
        TrackIndex track;
        StringId name;  // in what was padding
        TimeNs endNs;
    };

    void noteThreadTime(const RawEvent& e, TimeNs endNs);
    void addAsync(RawEvent& e);
    void addFlowEvent(const RawEvent& e);
    // Where a flow end binds on its thread: the track of the slice that encloses `ts`, or of the
    // next slice that begins at or after it (whose start replaces `ts`); `name` (when not null)
    // is set to that slice's name (0 when the row's one track is known without a slice).
    void sortSliceStarts();
    bool enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                        TrackIndex& track, StringId* name = nullptr);
    bool nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts, TrackIndex& track,
                        StringId* name = nullptr);
    // A flow event left out, for the notes.
    void dropFlow(const FlowEvent& f, LooseFlows::Reason why, StringId on);

    Sink& m_sink;

    // B/E per (pid, tid), paired at the end; b/e stacks per (pid, cat, id) (pid kGlobalScope
    // for "id2" global ids).
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::vector<BeginEnd>, PairHash>
        m_beginEnds;
    std::vector<RawEvent> m_begins;
    // End of the last event seen on each thread: where a "B" that never ends is closed.
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, TimeNs, PairHash> m_threadEndNs;
    std::deque<std::string> m_ownedNames;  // names made here (unclosed slices); stable storage
    std::map<std::tuple<std::int64_t, StringId, std::uint64_t>, std::vector<RawEvent>> m_openAsync;
    std::vector<FlowEvent> m_flows;
    std::vector<BoundFlowEnd> m_boundFlows;
    std::uint64_t m_strayEnds = 0;
    std::vector<std::uint64_t> m_gpuCorrelations;
    std::vector<SliceStart> m_sliceStarts;
    bool m_startsSorted = false;
    // After sorting: the latest end of the thread's slices up to each entry, so whether any of
    // them still runs at a time is one comparison.
    std::vector<TimeNs> m_coverEndNs;
    std::unordered_set<TrackIndex> m_apiTracks;
    LooseFlows m_looseOther;
    LooseFlows m_looseLaunch;
};

}  // namespace wl::io::chrome
