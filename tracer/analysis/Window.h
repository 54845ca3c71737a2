#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"
#include "model/Time.h"
#include "model/Trace.h"

namespace wl::analysis {

// Where an analysis window came from.
enum class WindowSource : std::uint8_t {
    Trace,    // first to last GPU op of the whole trace
    Capture,  // the trace's capture range(s): cudaProfilerStart/Stop, record's capture options
    Nvtx,     // one instance, or every instance, of an NVTX range name
    // A training loop's iterations, found by their NVTX ranges ("step 3", "ProfilerStep#551",
    // "iteration 7"): from the first one's start to the last one's end. The default window of a
    // trace without a capture range that has them, so a job's start-up (library loading,
    // communicator set-up, data loading) is not measured with its steps.
    Iterations,
    // The launches of the CUDA graph launched most often (a replay loop), found from the launch
    // calls and their ops (graphLaunchWindow): the default window of a trace that marks neither a
    // capture range nor NVTX iterations and replays a graph, so the eager warm-up, the capture
    // and the lazy module loading before the replays are not measured with them.
    GraphLaunches,
    Time,       // an explicit time range (command line)
    Selection,  // a time range selected in the window
    // The program's repeated GPU work, found from the ops themselves (steadyStateWindow): the
    // default window of a trace that marks neither a capture range nor iterations, so one-off
    // start-up and tear-down are not measured with the loop.
    SteadyState,
};
// "trace", "capture", "nvtx", "iterations", "graph_launches", "time", "selection",
// "steady_state"
const char* toString(WindowSource source);

// A stretch of the trace that a default window leaves out, for the report to say so.
struct LeftOut {
    enum class Kind : std::uint8_t {
        StartUp,   // before the steady state: first GPU op to the steady state's start
        TearDown,  // after it: the steady state's end to the last GPU op's end
        WarmUp,    // a leading iteration far longer than the others
    };
    Kind kind = Kind::StartUp;
    model::TimeRange range;
    // WarmUp: the iteration's name ("ProfilerStep#0", "launch 1 of CUDA graph 2"); StartUp and
    // TearDown: what the window is ("graph launches"; empty: the steady state)
    std::string name;
};
// "start-up", "tear-down", "warm-up"
const char* toString(LeftOut::Kind kind);
// "start-up: 30.1 ms before the steady state, not analysed" (or "before the graph launches"),
// "warm-up: 'ProfilerStep#0' (652.0 ms) left out of the iterations"
std::string describeLeftOut(const LeftOut& leftOut);

// The part of a trace that an analysis describes: one or more disjoint time ranges (every
// instance of an NVTX range, every capture range), sorted. Every figure of an AnalysisResult is
// taken over these parts only, so start-up (imports, JIT, library loading, data generation) is
// never measured by accident. Plain value; times in ns since the trace origin.
struct AnalysisWindow {
    WindowSource source = WindowSource::Trace;
    std::string name;           // the NVTX range name (Nvtx; Iterations: numbers folded, "step #")
    std::int32_t instance = 0;  // the 1-based NVTX instance (0 = every one); Iterations: how many
    std::vector<model::TimeRange> parts;  // sorted, disjoint; empty when there is no GPU work
    // A selection of some rows (a shift-drag over them), sorted; empty: every row. The row summary
    // sums only these rows, and when some of them are GPU streams every GPU figure (busy, idle,
    // statistics, findings) comes from those streams alone (selectsGpuRows), but for the findings
    // about a whole device, which are left out when some of its working streams are not selected
    // (AnalysisResult::partialDevices).
    std::vector<model::TrackIndex> tracks;
    // What a default window (steady state, iterations) leaves out of the trace, in time order.
    std::vector<LeftOut> leftOut;

    model::TimeNs startNs() const { return parts.empty() ? 0 : parts.front().startNs; }
    model::TimeNs endNs() const { return parts.empty() ? 0 : parts.back().endNs; }
    model::TimeNs durationNs() const;       // summed over the parts
    bool contains(model::TimeNs ns) const;  // inside one of the parts (start inclusive)
};

// Does the window select rows among which are GPU streams?
bool selectsGpuRows(const model::Trace& trace, const AnalysisWindow& window);

// The first of sorted, disjoint `parts` that ends after `t` (parts.end() when none): the only one
// that can hold t, and where the parts overlapping a span that starts at t begin.
std::vector<model::TimeRange>::const_iterator firstPartEndingAfter(
    const std::vector<model::TimeRange>& parts, model::TimeNs t);
// Whether [startNs, max(endNs, startNs + 1)) overlaps one of sorted, disjoint `parts`.
bool overlapsParts(const std::vector<model::TimeRange>& parts, model::TimeNs startNs,
                   model::TimeNs endNs);

// What the user asked for; resolveWindow() turns it into parts of a given trace.
struct WindowRequest {
    enum class Kind : std::uint8_t {
        Default,     // the capture range, else the NVTX iterations, else the graph launches,
                     // else the steady state, else the whole trace
        WholeTrace,  // first to last GPU op
        Capture,     // the capture range(s); an error when there are none
        NvtxRange,   // rangeName, instance (0 = every instance)
        Time,        // time
        Selection,   // time, selected in the window
    };
    Kind kind = Kind::Default;
    std::string rangeName;
    std::int32_t instance = 0;
    model::TimeRange time;
    std::vector<model::TrackIndex> tracks;  // Selection: its rows (empty: all); see AnalysisWindow
    // NvtxRange, every instance: rangeName has its numbers folded ("ProfilerStep#") and matches
    // every range whose name folds to it. See everyInstanceOf.
    bool foldedName = false;

    // "NAME" (every instance) or "NAME#K" (the K-th, 1-based, in start order). A name that itself
    // ends in "#digits" can be given as "NAME#digits#K".
    static model::Result<WindowRequest> nvtx(std::string_view spec);
    // "START_MS:END_MS" in trace time, as the ruler shows it (decimals allowed).
    static model::Result<WindowRequest> timeMs(std::string_view spec);
    // Every instance of the range an NVTX slice is one of: the ranges of its name with the numbers
    // folded ("ProfilerStep#4" -> every "ProfilerStep#N", "I/O 3" -> every "I/O N"), since a
    // numbered name is one instance of a repeated range; a name without numbers as it is.
    static WindowRequest everyInstanceOf(std::string_view rangeName);
};

// The capture ranges of a trace: those it carries (record's capture options) or, failing that,
// the spans between cudaProfilerStart and cudaProfilerStop calls (how the notebook and our own
// workloads mark their timed part). Sorted, disjoint; empty when there are none.
std::vector<model::TimeRange> captureRanges(const model::Trace& trace);

// The iterations of a training loop, when the trace marks them with NVTX ranges named like
// "step 3", "Step #3", "ProfilerStep#551", "iteration 7", "iter_7", "batch 2" or "epoch 1" (a
// non-negative number: warm-up steps numbered below 0 are left out), at least 2 of one such name:
// the name with the most instances wins. Leading iterations far longer than the others (a
// warm-up step of seconds before steps of milliseconds: more than kWarmUpFactor times the median
// of the iterations after it) are left out, and named in leftOut, as long as two remain. Nullopt
// when there are none.
std::optional<AnalysisWindow> iterationWindow(const model::Trace& trace);
inline constexpr std::int64_t kWarmUpFactor = 5;
// The family of an iteration range's name: the name with its number folded ("step 3" ->
// "step #", "ProfilerStep#551" -> "ProfilerStep#"), as an Iterations window's name has it; empty
// for a name that marks no iteration (see iterationWindow for the names that do).
std::string iterationFamily(std::string_view rangeName);
// The host's NVTX ranges of one iteration family, of the one host thread that has the most of
// them among `processes` (every process when empty), in start order: the iterations an
// Iterations window spans (its warm-ups included: it leaves them out by its start). Empty when
// there are none.
std::vector<model::SliceRef> iterationRanges(const model::Trace& trace, std::string_view family,
                                             std::span<const model::ProcessIndex> processes = {});
// A default window leaves out start-up or tear-down only when it is at least this share of the GPU
// work's extent, in percent.
inline constexpr double kMinLeftOutPct = 5.0;

// The program's steady state, for a trace that marks neither a capture range nor iterations: the
// span of its repeated GPU work, without the one-off start-up before it and tear-down after it
// (each in leftOut, when at least 5% of the GPU work's extent). Nullopt when the GPU work does not
// repeat, when the steady state would be the whole trace anyway, and for a merged job whose ranks
// were aligned by a range or their starts (no common clock). Linear in the number of GPU ops after
// one sort. The rule is in SteadyState.cpp.
std::optional<AnalysisWindow> steadyStateWindow(const model::Trace& trace);

// The iterations of a CUDA graph replay loop: every launch of the graph launched most often (at
// least 10 times; with any graph launched at least half as often), from the first launch's first
// GPU op to the end of the last launch's GPU work.
// Leading launches far longer than the others are left out as warm-up (leadingWarmUps), and the
// start-up and tear-down outside the window are named in leftOut. Nullopt when no graph is launched
// 3 times, and for a merged job whose ranks share no clock. The rule is in GraphLaunchWindow.cpp.
std::optional<AnalysisWindow> graphLaunchWindow(const model::Trace& trace);

// One launch of a CUDA graph of a replay loop: the launch call and the GPU ops it ran.
struct GraphLaunch {
    model::SliceRef call;             // the cudaGraphLaunch (cuGraphLaunch) call
    model::ProcessIndex process = 0;  // the call's
    model::TimeNs callNs = 0;         // the call's start
    model::TimeNs firstOpNs = 0;      // its first GPU op's start
    model::TimeNs lastOpEndNs = 0;    // its last GPU op's end
    std::uint32_t ops = 0;
    std::uint32_t graphId = 0;  // 0 where the producer records no graph ids (Kineto)
    // Which of the loop's graphs it launched (0-based, in the order of the graphs' keys), and
    // which launch of that graph it is (1-based, in call order, warm-ups included).
    std::uint32_t loopGraph = 0;
    std::uint32_t number = 0;
};
// Every launch of the graphs graphLaunchWindow's loop replays (the graph launched most often,
// and any launched at least half as often), in call order, warm-ups included; empty where
// graphLaunchWindow finds no loop.
std::vector<GraphLaunch> loopGraphLaunches(const model::Trace& trace);

// How many leading iterations of `durationsNs` (in order) are warm-up: each more than
// kWarmUpFactor times the median of those after it, while at least two remain.
std::size_t leadingWarmUps(const std::vector<model::TimeNs>& durationsNs);

// Whether the trace is a merged job whose ranks were aligned by a chosen range or by their starts:
// its axis is no clock, so no window can be found from the order of its ranks' work.
bool ranksShareNoClock(const model::Trace& trace);

// Adds to a default window's leftOut the GPU work before its start (start-up) and after its end
// (tear-down), each when it is at least 5% of the GPU work's extent; `what` names the window in
// their descriptions ("graph launches").
void addStartUpAndTearDown(const model::Trace& trace, AnalysisWindow& window,
                           std::string_view what);

// Resolves a request against a trace. Errors (with the names or counts that exist) for an NVTX
// name that is not in the trace, an instance past the last, an empty time range, or a capture
// range asked of a trace that has none.
model::Result<AnalysisWindow> resolveWindow(const model::Trace& trace,
                                            const WindowRequest& request = {});

// The names of the trace's NVTX ranges, each once, the most frequent first (then by name).
std::vector<std::string> nvtxRangeNames(const model::Trace& trace);

// The 1-based instance number of an NVTX slice among the ranges of its name, in the order
// WindowRequest::nvtx counts them (0 when the slice is not an NVTX range).
std::int32_t nvtxInstanceNumber(const model::Trace& trace, model::SliceRef ref);

// What the window is, for a status bar or a report: "whole trace", "capture range",
// "'Loop' (404.9 ms)", "every 'Step #' (12 ranges, 30.2 ms)", "12.000–30.500 ms".
std::string describeWindow(const AnalysisWindow& window);

}  // namespace wl::analysis
