// The iteration breakdown: the PyTorch profiler's TensorBoard plugin's step-time breakdown, for
// any trace Warpline reads.
//
// Which iterations. The window's own: an Iterations window's NVTX ranges (iterationRanges of its
// family that overlap it, so the warm-ups it leaves out stay out), a GraphLaunches window's
// launches of its loop's graphs (loopGraphLaunches whose first op is inside it). Any other window
// (the whole trace, capture ranges, an NVTX range, a time range, a selection, the steady state):
// the NVTX iteration ranges that overlap it when the trace has any (iterationWindow's family),
// else, for the steady state, its repeats (repeatMarks), else the window as one bar, from its
// first part's start to its last part's end. For a merged job, the first rank's ranges and
// launches only (SummaryScope): every rank runs the same steps, and the ranks' breakdown
// compares the ranks.
//
// Each iteration's span. Consecutive iterations tile time: iteration k ends where k + 1 starts,
// so no ns is in two of them and none falls between. Iteration k starts at its host mark's start
// (the NVTX range; the graph launch call) or, when the GPU work iteration k - 1 launched ran past
// that, at that work's end (never before iteration k - 1's start): the GPU work launched in an
// iteration is counted in it even while the GPU runs behind the host, as the plugin extends a step
// to the end of its kernels. The last iteration ends at its host mark's end or its GPU work's
// end, the later. An iteration's GPU work: the ops reached by launch flows from the calls of the
// scope's host threads that start inside its host range (any thread: PyTorch's backward pass
// launches from autograd's own thread); a graph launch's nodes.
//
// What the span's time went to: every ns to the first part (StepPart order) that holds it:
//  - Kernel, Memcpy, Memset: the union of the scope's GPU ops of that kind, on any stream of any
//    of its GPUs;
//  - CudaApi: a runtime or driver API call on a host thread of the scope;
//  - DataLoading: a host range (CPU operator, NVTX range, Python frame) whose name says
//    "DataLoader", in any case (PyTorch's "enumerate(DataLoader)#_SingleProcessDataLoaderIter.
//    __next__", Lightning's "train_dataloader_next");
//  - HostCompute: any other host range of the scope (CPU operators, NVTX ranges, Python frames,
//    other imported host slices), but the loop's own: a range that holds a whole iteration mark
//    (the iteration's range itself, a "train" range around every step) says which loop runs, not
//    what the host did, and would leave nothing to Other. The mark an iteration is held to: its
//    NVTX range; for graph launches, from one launch call to the next (the last: to the end of
//    its work), so the host's own wrapper of each call (CUDAGraph::replay) is host compute; for
//    one bar, the window;
//  - Other: the rest (the host outside any range and every GPU idle).
// Each part is the covered time of a cumulative union minus the one before it, so the parts sum
// exactly to the span.
//
// Cost: a pass over the scope's slices in the iterations' extent, one sort per part and linear
// merges; O(log n) per iteration and part.
#include "analysis/IterationBreakdown.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <limits>
#include <string>
#include <unordered_map>

#include "analysis/GpuOps.h"
#include "analysis/Intervals.h"
#include "analysis/LaunchedWork.h"
#include "analysis/SummaryScope.h"
#include "model/Derived.h"
#include "model/GpuActivity.h"

namespace wl::analysis {

const char* toString(StepPart part) {
    switch (part) {
        case StepPart::Kernel:
            return "Kernel";
        case StepPart::Memcpy:
            return "Memcpy";
        case StepPart::Memset:
            return "Memset";
        case StepPart::CudaApi:
            return "CUDA API";
        case StepPart::DataLoading:
            return "Data loading";
        case StepPart::HostCompute:
            return "Host compute";
        case StepPart::Other:
            break;
    }
    return "Other";
}

const char* toString(IterationSource source) {
    switch (source) {
        case IterationSource::NvtxRanges:
            return "nvtx_ranges";
        case IterationSource::GraphLaunches:
            return "graph_launches";
        case IterationSource::Repeats:
            return "repeats";
        case IterationSource::Window:
            break;
    }
    return "window";
}

namespace {

// An iteration before it is split: its name, its host mark and the end of its GPU work.
struct Mark {
    std::string name;
    model::TimeRange host;
    // What a range must hold whole to be the loop's own (see HostCompute above).
    model::TimeRange loopTest;
    model::TimeNs gpuEndNs = std::numeric_limits<model::TimeNs>::min();
};

bool saysDataLoader(std::string_view name) {
    constexpr std::string_view kWord = "dataloader";
    if (name.size() < kWord.size())
        return false;
    for (std::size_t at = 0; at + kWord.size() <= name.size(); ++at) {
        std::size_t i = 0;
        while (i < kWord.size() &&
               std::tolower(static_cast<unsigned char>(name[at + i])) == kWord[i])
            ++i;
        if (i == kWord.size())
            return true;
    }
    return false;
}

// The NVTX iteration ranges of `family` in the scope that overlap the window.
std::vector<Mark> nvtxMarks(const model::Trace& trace, const AnalysisWindow& window,
                            const SummaryScope& scope, std::string_view family) {
    std::vector<model::ProcessIndex> processes;
    for (model::ProcessIndex p = 0; p < scope.byProcess.size(); ++p) {
        if (scope.byProcess[p])
            processes.push_back(p);
    }
    std::vector<Mark> marks;
    for (const model::SliceRef ref : iterationRanges(trace, family, processes)) {
        const model::Slice& s = trace.slice(ref);
        if (!overlapsParts(window.parts, s.startNs, s.endNs()))
            continue;
        const model::TimeRange host{s.startNs, s.endNs()};
        marks.push_back({std::string(trace.str(s.nameId)), host, host});
    }
    return marks;
}

// The launches of the loop's graphs in the scope whose first op is inside the window.
std::vector<Mark> graphMarks(const model::Trace& trace, const AnalysisWindow& window,
                             const SummaryScope& scope) {
    const std::vector<GraphLaunch> launches = loopGraphLaunches(trace);
    std::uint32_t graphs = 0;
    for (const GraphLaunch& l : launches)
        graphs = std::max(graphs, l.loopGraph + 1);
    std::vector<Mark> marks;
    for (const GraphLaunch& l : launches) {
        if (!scope.contains(l.process) || !window.contains(l.firstOpNs))
            continue;
        std::string graph = l.graphId != 0 ? model::graphLaunchName(l.graphId)
                            : graphs == 1  ? std::string("CUDA graph")
                                           : "CUDA graph #" + std::to_string(l.loopGraph + 1);
        const model::Slice& call = trace.slice(l.call);
        Mark m{"launch " + std::to_string(l.number) + " of " + graph,
               {call.startNs, call.endNs()},
               {call.startNs, call.endNs()},
               l.lastOpEndNs};
        if (!marks.empty())
            marks.back().loopTest.endNs = std::max(marks.back().loopTest.endNs, call.startNs);
        marks.push_back(std::move(m));
    }
    if (!marks.empty())  // the last launch: from its call to the end of its work
        marks.back().loopTest.endNs = std::max(marks.back().loopTest.endNs, marks.back().gpuEndNs);
    return marks;
}

// The steady state cut into its repeats: the loop's body runs each of its ops' names once or a
// few times per iteration, so the fewest times any repeated name runs in the window (at least
// kMinRepeatCount) is the number of iterations, and the earliest op of such a name (the anchor)
// starts each one. Each iteration runs from the start of an anchor op on the GPU to the start of
// the next (the last: to the window's end, but no longer than the longest other one). On the
// GPU's time, not the host's: a program whose host runs ahead (an async loop launching every
// chunk at once) has no host rhythm to cut it by. Nothing when the counts do not fit a loop: fewer
// than half of the repeated names run a multiple of that many times (a program whose ops repeat at
// unrelated rates has no one period), or when the anchors are not evenly spaced (evenlySpaced).
// Tried on the steady state, a capture range and the whole trace, when they hold no NVTX
// iterations.
constexpr std::uint32_t kMinRepeatCount = 3;

// Whether the anchors start a loop's iterations: every one longer than nothing, and at most a
// tenth of them more than 5 times longer or shorter than the median (a warm-up, a checkpoint). A
// benchmark running phases of different sizes (NVIDIA's UnifiedMemoryPerf) or a loop over streams
// whose chunks are launched at once has no such rhythm, and stays one bar.
bool evenlySpaced(const std::vector<model::TimeNs>& starts) {
    if (starts.size() < kMinRepeatCount)
        return false;
    std::vector<model::TimeNs> gaps;
    for (std::size_t k = 1; k < starts.size(); ++k)
        gaps.push_back(starts[k] - starts[k - 1]);
    if (*std::min_element(gaps.begin(), gaps.end()) <= 0)
        return false;
    std::vector<model::TimeNs> sorted = gaps;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2),
                     sorted.end());
    const model::TimeNs median = sorted[sorted.size() / 2];
    const auto odd = std::count_if(gaps.begin(), gaps.end(), [&](model::TimeNs g) {
        return g > kWarmUpFactor * median || g * kWarmUpFactor < median;
    });
    return odd * 10 <= std::ptrdiff_t(gaps.size());
}

std::vector<Mark> repeatMarks(const model::Trace& trace, const AnalysisWindow& window,
                              const SummaryScope& scope) {
    const GpuOps ops(trace, &window);
    std::unordered_map<model::StringId, std::uint32_t> counts;
    for (const GpuOp& op : ops.all()) {
        if (!op.continuation && scope.contains(trace.track(op.ref.track).process))
            ++counts[trace.slice(op.ref).nameId];
    }
    std::uint32_t fewest = std::numeric_limits<std::uint32_t>::max();
    std::size_t repeated = 0;
    for (const auto& [name, n] : counts) {
        if (n >= kMinRepeatCount) {
            fewest = std::min(fewest, n);
            ++repeated;
        }
    }
    if (repeated == 0)
        return {};
    std::size_t multiples = 0;
    for (const auto& [name, n] : counts)
        multiples += n >= kMinRepeatCount && n % fewest == 0 ? 1 : 0;
    if (2 * multiples < repeated)
        return {};
    // The anchor: the name of that count whose first op starts first (ops are sorted by start).
    model::StringId anchor = 0;
    bool found = false;
    std::vector<model::TimeNs> starts;
    for (const GpuOp& op : ops.all()) {
        if (op.continuation || !scope.contains(trace.track(op.ref.track).process))
            continue;
        const model::StringId name = trace.slice(op.ref).nameId;
        if (!found && counts[name] == fewest) {
            anchor = name;
            found = true;
        }
        if (found && name == anchor)
            starts.push_back(op.startNs);
    }
    std::sort(starts.begin(), starts.end());
    // The loop is most of the window, or these are not its iterations (the chunks of one step
    // spread over streams, launched together).
    if (!evenlySpaced(starts) || 2 * (starts.back() - starts.front()) < window.durationNs())
        return {};
    // The last runs to the window's end, but no longer than the longest of the others: what
    // follows the loop's last iteration is not one.
    model::TimeNs longest = 0;
    for (std::size_t k = 1; k < starts.size(); ++k)
        longest = std::max(longest, starts[k] - starts[k - 1]);
    std::vector<Mark> marks;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const model::TimeNs end =
            k + 1 < starts.size() ? starts[k + 1] : std::min(window.endNs(), starts[k] + longest);
        const model::TimeRange host{starts[k], std::max(end, starts[k] + 1)};
        marks.push_back({"repeat " + std::to_string(k + 1), host, host});
    }
    return marks;
}

// The end of the GPU work each NVTX mark's host range launched (marks sorted by start).
void addGpuEnds(const model::Trace& trace, const SummaryScope& scope, std::vector<Mark>& marks) {
    for (const LaunchedWork& w : launchedWork(trace)) {
        if (!scope.contains(trace.track(w.call.track).process))
            continue;
        const model::TimeNs t = trace.slice(w.call).startNs;
        auto after =
            std::upper_bound(marks.begin(), marks.end(), t,
                             [](model::TimeNs v, const Mark& m) { return v < m.host.startNs; });
        if (after == marks.begin())
            continue;
        Mark& m = *std::prev(after);
        if (t < m.host.endNs || t == m.host.startNs)
            m.gpuEndNs = std::max(m.gpuEndNs, w.lastEndNs);
    }
}

// The spans of the marks (see "Each iteration's span" above).
std::vector<model::TimeRange> spansOf(const std::vector<Mark>& marks) {
    std::vector<model::TimeNs> starts(marks.size());
    for (std::size_t k = 0; k < marks.size(); ++k) {
        starts[k] = marks[k].host.startNs;
        if (k > 0)
            starts[k] = std::max({starts[k], starts[k - 1], marks[k - 1].gpuEndNs});
    }
    std::vector<model::TimeRange> spans(marks.size());
    for (std::size_t k = 0; k < marks.size(); ++k) {
        const model::TimeNs end =
            k + 1 < marks.size() ? starts[k + 1]
                                 : std::max({starts[k], marks[k].host.endNs, marks[k].gpuEndNs});
        spans[k] = {starts[k], end};
    }
    return spans;
}

// The union of `base` and `more`, by one merge (both sorted by start).
IntervalSet uniteSorted(const IntervalSet& base, std::vector<Interval> more) {
    const auto byStart = [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; };
    std::sort(more.begin(), more.end(), byStart);
    std::vector<Interval> all;
    all.reserve(base.intervals().size() + more.size());
    std::merge(base.intervals().begin(), base.intervals().end(), more.begin(), more.end(),
               std::back_inserter(all), byStart);
    return IntervalSet(std::move(all));
}

// Whether [startNs, endNs) holds one of the marks' loop tests whole (tests sorted by start and
// disjoint, so their ends ascend too: the first one starting at or after startNs ends first).
bool holdsAMark(const std::vector<model::TimeRange>& tests, model::TimeNs startNs,
                model::TimeNs endNs) {
    const auto it =
        std::lower_bound(tests.begin(), tests.end(), startNs,
                         [](const model::TimeRange& r, model::TimeNs v) { return r.startNs < v; });
    return it != tests.end() && it->endNs <= endNs;
}

}  // namespace

std::optional<Iterations> computeIterations(const model::Trace& trace, const AnalysisWindow& window,
                                            const std::atomic<bool>* cancel) {
    Iterations out;
    if (window.parts.empty())
        return out;
    const SummaryScope scope = summaryScope(trace);
    std::vector<Mark> marks;
    if (window.source == WindowSource::GraphLaunches) {
        marks = graphMarks(trace, window, scope);
        out.source = IterationSource::GraphLaunches;
    }
    if (marks.empty()) {
        std::string family;
        if (window.source == WindowSource::Iterations) {
            family = window.name;
        } else if (const auto iterations = iterationWindow(trace)) {
            family = iterations->name;
        }
        marks = nvtxMarks(trace, window, scope, family);
        out.source = IterationSource::NvtxRanges;
        if (!marks.empty())
            addGpuEnds(trace, scope, marks);
    }
    if (marks.empty() &&
        (window.source == WindowSource::SteadyState || window.source == WindowSource::Capture ||
         window.source == WindowSource::Trace)) {
        // Marks on the GPU's time: each iteration holds what ran between two anchors.
        marks = repeatMarks(trace, window, scope);
        out.source = IterationSource::Repeats;
    }
    if (marks.empty()) {
        const model::TimeRange all{window.startNs(), window.endNs()};
        marks.push_back({"window", all, all});
        out.source = IterationSource::Window;
    }
    if (cancelled(cancel))
        return std::nullopt;
    std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
        return a.host.startNs != b.host.startNs ? a.host.startNs < b.host.startNs
                                                : a.host.endNs < b.host.endNs;
    });
    const std::vector<model::TimeRange> spans = spansOf(marks);
    std::vector<model::TimeRange> loopTests;
    for (const Mark& m : marks)
        loopTests.push_back(m.loopTest);
    std::sort(
        loopTests.begin(), loopTests.end(),
        [](const model::TimeRange& a, const model::TimeRange& b) { return a.startNs < b.startNs; });
    const model::TimeNs fromNs = spans.front().startNs;
    const model::TimeNs toNs = spans.back().endNs;

    // The scope's slices in the iterations' extent, by part.
    std::array<std::vector<Interval>, kStepPartCount> byPart;
    std::unordered_map<model::StringId, bool> dataLoader;  // each name read once
    const auto processes = trace.processes();
    std::size_t walked = 0;
    for (const model::Track& track : trace.tracks()) {
        if (!scope.contains(track.process))
            continue;
        const bool gpu = processes[track.process].deviceId >= 0;
        if (gpu != (track.kind == model::TrackKind::GpuStream))
            continue;  // a GPU's annotations and syncs repeat the host's; a GPU's work only
        for (const model::Slice& s : track.slices) {
            if (++walked % kCancelStride == 0 && cancelled(cancel))
                return std::nullopt;
            const model::TimeNs endNs = s.endNs();
            if (s.durationNs <= 0 || endNs <= fromNs || s.startNs >= toNs)
                continue;
            const Interval interval{s.startNs, endNs};
            switch (s.kind) {
                case model::SliceKind::Kernel:
                    byPart[static_cast<std::size_t>(StepPart::Kernel)].push_back(interval);
                    break;
                case model::SliceKind::Memcpy:
                    byPart[static_cast<std::size_t>(StepPart::Memcpy)].push_back(interval);
                    break;
                case model::SliceKind::Memset:
                    byPart[static_cast<std::size_t>(StepPart::Memset)].push_back(interval);
                    break;
                case model::SliceKind::RuntimeApi:
                case model::SliceKind::DriverApi:
                    byPart[static_cast<std::size_t>(StepPart::CudaApi)].push_back(interval);
                    break;
                case model::SliceKind::CpuOp:
                case model::SliceKind::Nvtx:
                case model::SliceKind::Other: {
                    auto [it, fresh] = dataLoader.try_emplace(s.nameId, false);
                    if (fresh)
                        it->second = saysDataLoader(trace.str(s.nameId));
                    if (it->second) {
                        byPart[static_cast<std::size_t>(StepPart::DataLoading)].push_back(interval);
                    } else if (!holdsAMark(loopTests, s.startNs, endNs)) {
                        byPart[static_cast<std::size_t>(StepPart::HostCompute)].push_back(interval);
                    }
                    break;
                }
                default:
                    break;  // memory operations, syncs, overhead, instants, unified memory
            }
        }
    }
    if (cancelled(cancel))
        return std::nullopt;
    // covered[p]: the union of parts 0..p; part p's time is covered[p] - covered[p - 1].
    std::vector<IntervalSet> covered;
    covered.reserve(kStepPartCount - 1);
    for (std::size_t p = 0; p + 1 < kStepPartCount; ++p) {
        covered.push_back(p == 0 ? IntervalSet(std::move(byPart[p]))
                                 : uniteSorted(covered.back(), std::move(byPart[p])));
        if (cancelled(cancel))
            return std::nullopt;
    }
    out.iterations.reserve(marks.size());
    for (std::size_t k = 0; k < marks.size(); ++k) {
        IterationBreakdown b;
        b.name = std::move(marks[k].name);
        b.range = spans[k];
        model::TimeNs before = 0;
        for (std::size_t p = 0; p + 1 < kStepPartCount; ++p) {
            const model::TimeNs upTo = covered[p].coveredNs(b.range.startNs, b.range.endNs);
            b.partNs[p] = upTo - before;
            before = upTo;
        }
        b.partNs[kStepPartCount - 1] = b.range.durationNs() - before;
        out.iterations.push_back(std::move(b));
    }
    return out;
}

}  // namespace wl::analysis
