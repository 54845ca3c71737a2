// Phase assembly without JSON: decoded events (chrome::RawEvent) fed to chrome::PhaseAssembler
// directly, and what it hands its sink recorded.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "io/chrome/PhaseAssembler.h"

namespace wl::io::chrome {
namespace {

// Records what the assembler makes. A slice's track is its tid, so where a flow end binds is
// the tid of the slice it binds to.
class Recorder : public PhaseAssembler::Sink {
public:
    struct Made {
        std::string name;
        TimeNs start;
        TimeNs end;
        bool operator==(const Made&) const = default;
    };
    struct Flow {
        std::uint64_t id;
        TrackIndex from;
        TimeNs fromNs;
        TrackIndex to;
        TimeNs toNs;
        bool operator==(const Flow&) const = default;
    };

    PhaseAssembler phases{*this};
    std::vector<Made> slices, instants, asyncRanges, asyncInstants;
    std::vector<std::string> counters, metadata, keptFlowEvents, skipped;
    std::vector<Flow> flows;
    model::Diagnostics diags;
    bool own = false;
    int keptUntilEnd = 0;

    // The end of a document: as the importer does it.
    void finish() {
        phases.pairBeginsAndEnds();
        phases.resolveFlows();
        phases.resolveBoundFlows();
    }

    void addSlice(const RawEvent& e, TimeNs start, TimeNs end) override {
        slices.push_back({std::string(e.name), start, end});
        phases.noteSlice(e.pid, e.tid, start, end, static_cast<TrackIndex>(e.tid), intern(e.name));
        if (e.hasBindId && (e.flowIn || e.flowOut))
            phases.noteBoundFlow(e, start);
    }
    void addInstant(const RawEvent& e) override {
        instants.push_back({std::string(e.name), e.ts, e.ts});
    }
    void addAsync(const RawEvent& e, TimeNs endNs, SliceKind kind) override {
        (kind == SliceKind::Instant ? asyncInstants : asyncRanges)
            .push_back({std::string(e.name), e.ts, endNs});
    }
    void addCounter(const RawEvent& e) override { counters.emplace_back(e.name); }
    void addMetadata(const RawEvent& e) override { metadata.emplace_back(e.name); }
    void keepFlowEvent(const RawEvent& e) override { keptFlowEvents.emplace_back(1, e.ph); }
    void keepUntilEnd(RawEvent&) override { ++keptUntilEnd; }
    void skipEvent(const char*, std::string why) override { skipped.push_back(std::move(why)); }
    StringId intern(std::string_view text) override {
        return m_ids.try_emplace(std::string(text), static_cast<StringId>(m_ids.size() + 1))
            .first->second;
    }
    void addFlow(std::uint64_t id, TrackIndex from, TimeNs fromNs, TrackIndex to,
                 TimeNs toNs) override {
        flows.push_back({id, from, fromNs, to, toNs});
    }
    model::Diagnostics& diagnostics() override { return diags; }
    bool ownExport() const override { return own; }
    bool ownRowTrack(std::int64_t, std::int64_t, TrackIndex&) override { return false; }

private:
    std::map<std::string, StringId> m_ids;
};

RawEvent event(char ph, std::string_view name, std::int64_t tid, TimeNs ts, TimeNs dur = 0) {
    RawEvent e;
    e.ph = ph;
    e.phaseKnown = true;
    e.hasTs = true;
    e.name = name;
    e.pid = 1;
    e.tid = tid;
    e.ts = ts;
    e.dur = dur;
    return e;
}

RawEvent withId(RawEvent e, std::string_view cat, std::uint64_t id) {
    e.cat = cat;
    e.hasCat = true;
    e.id = id;
    e.hasId = true;
    return e;
}

void add(Recorder& r, RawEvent e) {
    r.phases.add(e);
}

TEST(PhaseAssembly, CompleteEventsAreSlicesAtOnce) {
    Recorder r;
    add(r, event('X', "x", 1, 100, 50));
    ASSERT_EQ(r.slices.size(), 1u);
    EXPECT_EQ(r.slices[0], (Recorder::Made{"x", 100, 150}));
}

TEST(PhaseAssembly, BeginsAndEndsPairInTimeOrderNotFileOrder) {
    Recorder r;
    add(r, event('B', "outer", 1, 0));
    add(r, event('E', "", 1, 50));
    add(r, event('B', "inner", 1, 10));
    add(r, event('E', "", 1, 20));
    EXPECT_TRUE(r.slices.empty());  // paired at the end of the document
    EXPECT_EQ(r.keptUntilEnd, 2);   // each "B" outlives its run of events
    r.finish();
    ASSERT_EQ(r.slices.size(), 2u);
    EXPECT_EQ(r.slices[0], (Recorder::Made{"inner", 10, 20}));
    EXPECT_EQ(r.slices[1], (Recorder::Made{"outer", 0, 50}));
    EXPECT_EQ(r.diags.unmatchedEnds, 0u);
}

TEST(PhaseAssembly, AStrayEndIsCountedAndAnUnclosedBeginEndsWithItsThread) {
    Recorder r;
    add(r, event('E', "", 2, 5));
    add(r, event('B', "open", 3, 3));
    add(r, event('X', "last", 3, 10, 5));
    add(r, event('X', "elsewhere", 4, 10, 500));
    r.finish();
    ASSERT_EQ(r.slices.size(), 3u);
    EXPECT_EQ(r.slices[2], (Recorder::Made{"open (unclosed)", 3, 15}));
    EXPECT_EQ(r.diags.unmatchedEnds, 2u);
    EXPECT_EQ(r.diags.notes.size(), 2u);
}

TEST(PhaseAssembly, AsyncEventsPairByScopeCategoryAndId) {
    Recorder r;
    add(r, withId(event('b', "first", 1, 0), "c", 1));
    add(r, withId(event('b', "other cat", 1, 1), "d", 1));
    add(r, withId(event('e', "", 1, 5), "c", 1));
    add(r, withId(event('e', "", 1, 6), "c", 9));  // no "b" with that id
    add(r, withId(event('n', "mark", 1, 7), "c", 1));
    // A global id pairs across processes.
    RawEvent begin = withId(event('b', "global", 1, 2), "g", 3);
    begin.globalId = true;
    RawEvent end = withId(event('e', "", 1, 8), "g", 3);
    end.globalId = true;
    end.pid = 2;
    add(r, begin);
    add(r, end);
    add(r, event('b', "no id", 1, 3));
    EXPECT_EQ(r.asyncRanges, (std::vector<Recorder::Made>{{"first", 0, 5}, {"global", 2, 8}}));
    EXPECT_EQ(r.asyncInstants, (std::vector<Recorder::Made>{{"mark", 7, 7}}));
    EXPECT_EQ(r.diags.unmatchedEnds, 1u);
    EXPECT_EQ(r.phases.unendedAsync(), 1u);  // "other cat"
    EXPECT_EQ(r.skipped, (std::vector<std::string>{"async event without \"id\""}));
}

TEST(PhaseAssembly, FlowEndsBindToTheEnclosingOrTheNextSlice) {
    Recorder r;
    add(r, event('X', "a", 1, 0, 10));
    add(r, event('X', "b", 2, 20, 10));
    // "f" written before its "s" (Kineto does): grouped by id, taken in time order.
    RawEvent f = withId(event('f', "", 2, 25), "flow", 7);
    f.bindPoint = "e";
    add(r, f);
    add(r, withId(event('s', "", 1, 5), "flow", 7));
    // An "f" without "bp":"e" binds to the next slice that begins on its thread.
    add(r, withId(event('s', "", 1, 6), "flow", 8));
    add(r, withId(event('f', "", 2, 15), "flow", 8));
    // A start without an end: left out and counted.
    add(r, withId(event('s', "", 1, 7), "flow", 9));
    r.finish();
    EXPECT_EQ(r.flows, (std::vector<Recorder::Flow>{{7, 1, 5, 2, 25}, {8, 1, 6, 2, 20}}));
    EXPECT_EQ(r.phases.looseFlowEvents(), 1u);
    EXPECT_EQ(r.keptFlowEvents.size(), 5u);  // a producer's flow events are written back
}

TEST(PhaseAssembly, LaunchArrowsToGpuWorkAreTheModelsOwnLink) {
    Recorder r;
    add(r, event('X', "cudaLaunchKernel", 1, 0, 10));
    add(r, event('X', "kernel", 7, 20, 10));
    r.phases.noteGpuCorrelation(42);
    add(r, withId(event('s', "", 1, 5), "ac2g", 42));
    add(r, withId(event('f', "", 7, 25), "ac2g", 42));
    // A launch arrow whose GPU work the trace does not have is bound like any other.
    add(r, withId(event('s', "", 1, 6), "ac2g", 43));
    r.finish();
    EXPECT_TRUE(r.flows.empty());
    EXPECT_EQ(r.phases.looseLaunchEvents(), 1u);
    EXPECT_EQ(r.phases.looseFlowEvents(), 0u);

    // Our own export: launch arrows are rebuilt from correlation ids, never read.
    Recorder own;
    own.own = true;
    add(own, withId(event('s', "", 1, 5), "ac2g", 42));
    add(own, withId(event('s', "", 1, 5), "cuda_dependency", 43));
    own.finish();
    EXPECT_TRUE(own.keptFlowEvents.empty());
    EXPECT_EQ(own.phases.looseLaunchEvents(), 0u);
}

// Every flow event left out is counted under the reason it was, and the earliest are kept with
// the slice each sits on, for the import notes.
TEST(PhaseAssembly, EachFlowEventLeftOutSaysWhy) {
    using Reason = LooseFlows::Reason;
    Recorder r;
    add(r, event('X', "call", 1, 0, 10));
    add(r, event('X', "later call", 1, 100, 10));
    add(r, event('X', "target", 2, 20, 10));
    auto flow = [](char ph, std::int64_t tid, TimeNs ts, std::uint64_t id) {
        RawEvent e = withId(event(ph, "", tid, ts), "flow", id);
        e.bindPoint = "e";
        return e;
    };
    add(r, flow('f', 2, 25, 1));  // no start
    add(r, flow('s', 1, 5, 2));   // no end
    add(r, flow('s', 1, 5, 3));   // started again before an end: the first is left out
    add(r, flow('s', 1, 6, 3));
    add(r, flow('f', 2, 26, 3));
    add(r, flow('s', 1, 50, 4));  // on no slice; so its end has no start to join
    add(r, flow('f', 2, 27, 4));
    add(r, flow('f', 2, 60, 5));  // on no slice
    r.finish();
    EXPECT_EQ(r.flows, (std::vector<Recorder::Flow>{{3, 1, 6, 2, 26}}));
    const LooseFlows& loose = r.phases.looseFlows();
    EXPECT_EQ(loose.count(), 6u);
    EXPECT_EQ(loose.count(Reason::NoStart), 1u);
    EXPECT_EQ(loose.count(Reason::NoEnd), 1u);
    EXPECT_EQ(loose.count(Reason::Restarted), 1u);
    EXPECT_EQ(loose.count(Reason::NoSlice), 2u);
    EXPECT_EQ(loose.count(Reason::StartNoSlice), 1u);
    EXPECT_EQ(r.phases.looseLaunchFlows().count(), 0u);

    const auto listed = loose.examples(10);
    ASSERT_EQ(listed.size(), 6u);
    std::vector<std::tuple<std::uint64_t, char, TimeNs, Reason, StringId>> got;
    for (const auto& e : listed)
        got.emplace_back(e.id, e.ph, e.ts, e.reason, e.on);
    const StringId call = r.intern("call");
    const StringId target = r.intern("target");
    EXPECT_EQ(got, (std::vector<std::tuple<std::uint64_t, char, TimeNs, Reason, StringId>>{
                       {2, 's', 5, Reason::NoEnd, call},
                       {3, 's', 5, Reason::Restarted, call},
                       {1, 'f', 25, Reason::NoStart, target},
                       {4, 'f', 27, Reason::StartNoSlice, target},
                       {4, 's', 50, Reason::NoSlice, 0},
                       {5, 'f', 60, Reason::NoSlice, 0}}));
}

TEST(LooseFlows, KeepsTheEarliestOfEachReasonWhateverTheirNumber) {
    using Reason = LooseFlows::Reason;
    LooseFlows loose;
    for (TimeNs ts = 1000; ts > 0; --ts)  // latest first
        loose.add({Reason::NoStart, 'f', 0, static_cast<std::uint64_t>(ts), 1, 1, ts, 0});
    loose.add({Reason::NoEnd, 's', 0, 7, 1, 1, 5'000, 0});
    EXPECT_EQ(loose.count(), 1001u);
    EXPECT_EQ(loose.count(Reason::NoStart), 1000u);
    const auto listed = loose.examples(4);
    std::vector<TimeNs> times;
    for (const auto& e : listed)
        times.push_back(e.ts);
    // Every reason has an example, then the earliest of the rest; in time order.
    EXPECT_EQ(times, (std::vector<TimeNs>{1, 2, 3, 5'000}));
}

TEST(PhaseAssembly, BoundFlowsJoinSlicesThatCarryTheirId) {
    Recorder r;
    RawEvent out = event('X', "producer", 1, 0, 10);
    out.bindId = 5;
    out.hasBindId = true;
    out.flowOut = true;
    RawEvent in = event('X', "consumer", 2, 20, 10);
    in.bindId = 5;
    in.hasBindId = true;
    in.flowIn = true;
    add(r, in);  // file order does not matter: ends are taken in time order
    add(r, out);
    r.finish();
    EXPECT_EQ(r.flows, (std::vector<Recorder::Flow>{{5, 1, 0, 2, 20}}));
}

TEST(PhaseAssembly, EachPhaseGoesWhereItBelongs) {
    Recorder r;
    add(r, event('i', "instant", 1, 3));
    add(r, event('I', "old instant", 1, 4));
    add(r, event('C', "counter", 1, 5));
    RawEvent meta = event('M', "thread_name", 1, 0);
    meta.hasTs = false;  // metadata needs no time
    add(r, meta);
    add(r, event('Z', "unknown", 1, 6));
    RawEvent longPhase = event('X', "long phase", 1, 6);
    longPhase.phaseKnown = false;  // "XX"
    add(r, longPhase);
    RawEvent noTs = event('X', "no ts", 1, 0, 1);
    noTs.hasTs = false;
    add(r, noTs);
    add(r, event('X', "too long", 1, TimeNs{1} << 61, 10));
    add(r, event('t', "", 1, 1));  // a flow step without an id
    EXPECT_EQ(r.instants.size(), 2u);
    EXPECT_EQ(r.counters, (std::vector<std::string>{"counter"}));
    EXPECT_EQ(r.metadata, (std::vector<std::string>{"thread_name"}));
    EXPECT_EQ(r.diags.unknownPhases, 2u);
    EXPECT_EQ(r.skipped,
              (std::vector<std::string>{"event without \"ts\"", "ts + dur is out of range",
                                        "flow event without \"id\""}));
    EXPECT_TRUE(r.slices.empty());
}

}  // namespace
}  // namespace wl::io::chrome
