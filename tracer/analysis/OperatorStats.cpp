// The operator table: the TensorBoard plugin's Operator view, for any trace Warpline reads.
//
// Operators: the framework's CPU operators (SliceKind::CpuOp: the PyTorch profiler's cpu_op,
// aten::mm, ...) when the trace has any; else the NVTX ranges of the host threads with a duration
// (our recordings, Nsight Systems reports: what the program itself marks). NVTX start/end
// ranges (NvtxAsync) belong to no thread and are left out. Every process of the trace counts (a
// merged job's ranks' calls are summed). Ranges named like iterations ("ProfilerStep#3", which
// the PyTorch profiler before 1.9 wrote as a CPU operator; "step 3": iterationFamily) are left
// out: each is one call of its own name, the iteration breakdown's, and a table by name would
// list every step.
//
// Host times. A call's total is its duration; its self time is that less the time of the calls
// nested in it on its thread (its children: the innermost call that holds a call's start is its
// parent; a child that outlasts its parent counts up to the parent's end; self never below 0).
// A name nested in itself (a recursive call) counts each call: its total by name then counts the
// inner call's time twice, as the plugin's does.
//
// GPU times. The kernels, copies and memsets reached by launch flows (model::isLaunchFlow) from the
// calls of the same host thread (same process, same thread id) that start inside an operator's
// call: their durations summed (whole, wherever they ran). Total: from anywhere inside the call;
// self: from the call itself, not from inside an operator nested in it.
//
// Input shapes: the PyTorch profiler's "Input Dims" arg ("Input dims" before PyTorch 1.9) as the
// model keeps it with the slice (model::Trace::extraArgs; an imported file's white space dropped:
// "[[32,3,224,224],[]]"). The table by name and shapes is empty when no call in the window has
// one.
//
// Cost: one pass over the operator and API tracks, a sort of each thread's calls in the window,
// and a walk that costs each launch the depth of the calls open around it.
#include "analysis/OperatorStats.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/KeptArgs.h"
#include "analysis/LaunchedWork.h"
#include "analysis/SummaryScope.h"

namespace wl::analysis {

namespace {

// The PyTorch profiler's input shapes: "Input Dims" since 1.9, "Input dims" before.
constexpr std::string_view kInputDims[] = {"Input Dims", "Input dims"};
constexpr std::string_view kInputDimsMembers[] = {R"("Input Dims":)", R"("Input dims":)"};

// The value of the array member that starts at members[at] (a '['), as written; empty when it is
// not well formed.
std::string_view arrayAt(std::string_view members, std::size_t at) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = at; i < members.size(); ++i) {
        const char c = members[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[') {
            ++depth;
        } else if (c == ']' && --depth == 0) {
            return members.substr(at, i + 1 - at);
        }
    }
    return {};
}

// A call's input shapes as kept with it (a view into the trace's args, or into `owned` when they
// had to be read by keptArg); empty when it has none. The importer keeps an imported file's
// members without white space, so the member is found as written; anything else (white space
// after the colon, a value that is no array) is read by keptArg.
// Views of `args` are kept in `owned` once each (the args are decoded per call; see
// Trace::extraArgs), so that a view returned stays valid as long as `owned`.
std::string_view inputShapes(std::string_view args, std::unordered_set<std::string>& owned) {
    for (std::size_t k = 0; k < std::size(kInputDims); ++k) {
        const std::string_view member = kInputDimsMembers[k];
        for (std::size_t at = args.find(member); at != std::string_view::npos;
             at = args.find(member, at + 1)) {
            if (at > 0 && args[at - 1] != ',' && args[at - 1] != '{')
                continue;  // inside another member's value
            const std::size_t value = at + member.size();
            if (value < args.size() && args[value] == '[') {
                if (const std::string_view dims = arrayAt(args, value); !dims.empty())
                    return *owned.emplace(dims).first;
            }
            break;
        }
        if (args.find(kInputDims[k]) != std::string_view::npos) {
            if (auto dims = keptArg(args, kInputDims[k]))
                return *owned.insert(std::move(*dims)).first;
        }
    }
    return {};
}

// A row of the table by name and shapes.
struct ShapesKey {
    model::StringId nameId = 0;
    std::string_view shapes;
    bool operator==(const ShapesKey&) const = default;
};
struct ShapesKeyHash {
    std::size_t operator()(const ShapesKey& k) const {
        return std::hash<std::string_view>()(k.shapes) * 31 + k.nameId;
    }
};

struct Call {
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    const model::Slice* slice = nullptr;
    model::TimeNs childNs = 0;
    model::TimeNs gpuTotalNs = 0;
    model::TimeNs gpuSelfNs = 0;
    std::uint64_t gpuOps = 0;
};

struct Launch {
    model::TimeNs startNs = 0;
    model::TimeNs gpuNs = 0;
    std::uint32_t ops = 0;
};

struct Thread {
    std::vector<Call> calls;
    std::vector<Launch> launches;
};

using ThreadKey = std::pair<model::ProcessIndex, std::int64_t>;

// Nesting and GPU time of one thread's calls (see the rules above).
void walk(Thread& thread) {
    auto& calls = thread.calls;
    auto& launches = thread.launches;
    // Outer calls first; of two with one span, the one the model nested outside (lower lane).
    std::sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) {
        if (a.startNs != b.startNs)
            return a.startNs < b.startNs;
        return a.endNs != b.endNs ? a.endNs > b.endNs : a.slice->depth < b.slice->depth;
    });
    std::sort(launches.begin(), launches.end(),
              [](const Launch& a, const Launch& b) { return a.startNs < b.startNs; });
    std::vector<std::size_t> open;  // indexes into calls, outermost first
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < calls.size() || j < launches.size()) {
        // A call that starts with a launch holds it: calls first on a tie.
        const bool call =
            i < calls.size() && (j == launches.size() || calls[i].startNs <= launches[j].startNs);
        const model::TimeNs t = call ? calls[i].startNs : launches[j].startNs;
        while (!open.empty() && calls[open.back()].endNs <= t)
            open.pop_back();
        if (call) {
            if (!open.empty()) {
                Call& parent = calls[open.back()];
                parent.childNs += std::min(calls[i].endNs, parent.endNs) - calls[i].startNs;
            }
            open.push_back(i++);
            continue;
        }
        const Launch& l = launches[j++];
        for (const std::size_t c : open) {
            calls[c].gpuTotalNs += l.gpuNs;
            calls[c].gpuOps += l.ops;
        }
        if (!open.empty())
            calls[open.back()].gpuSelfNs += l.gpuNs;
    }
}

void add(OperatorStats& s, const Call& c) {
    const model::TimeNs totalNs = c.endNs - c.startNs;
    ++s.calls;
    s.hostTotalNs += totalNs;
    s.hostSelfNs += std::max<model::TimeNs>(0, totalNs - c.childNs);
    s.gpuTotalNs += c.gpuTotalNs;
    s.gpuSelfNs += c.gpuSelfNs;
    s.gpuOps += c.gpuOps;
}

bool longerFirst(const OperatorStats& a, const OperatorStats& b) {
    return std::tie(b.hostTotalNs, a.name, a.inputShapes) <
           std::tie(a.hostTotalNs, b.name, b.inputShapes);
}

}  // namespace

std::optional<OperatorTable> operatorTable(const model::Trace& trace, const AnalysisWindow& window,
                                           const std::atomic<bool>* cancel) {
    OperatorTable out;
    out.nvtxRanges = trace.counts().cpuOp == 0;
    if (window.parts.empty())
        return out;
    const model::TimeNs fromNs = window.startNs();
    const model::TimeNs toNs = window.endNs();
    const auto processes = trace.processes();
    std::map<ThreadKey, Thread> threads;
    std::unordered_map<model::StringId, bool> iterationName;  // each name read once
    std::size_t walked = 0;
    for (const model::Track& track : trace.tracks()) {
        if (processes[track.process].deviceId >= 0)
            continue;  // a GPU's annotations repeat the host's ranges
        const bool wanted = out.nvtxRanges ? track.kind == model::TrackKind::Nvtx
                                           : track.kind != model::TrackKind::NvtxAsync;
        if (!wanted)
            continue;
        Thread* thread = nullptr;
        for (const model::Slice& s : track.slices) {
            if (++walked % kCancelStride == 0 && cancelled(cancel))
                return std::nullopt;
            const bool isOperator = out.nvtxRanges
                                        ? s.kind == model::SliceKind::Nvtx && s.durationNs > 0
                                        : s.kind == model::SliceKind::CpuOp;
            // Those that overlap the window's span: the calls in it and the calls around them.
            if (!isOperator || s.startNs >= toNs || (s.endNs() <= fromNs && s.startNs < fromNs))
                continue;
            auto [named, fresh] = iterationName.try_emplace(s.nameId, false);
            if (fresh)
                named->second = !iterationFamily(trace.str(s.nameId)).empty();
            if (named->second)
                continue;
            if (thread == nullptr)
                thread = &threads[{track.process, track.threadId}];
            thread->calls.push_back({s.startNs, s.endNs(), &s});
        }
    }
    if (threads.empty())
        return out;
    for (const LaunchedWork& w : launchedWork(trace)) {
        const model::Track& track = trace.track(w.call.track);
        const model::TimeNs startNs = trace.slice(w.call).startNs;
        if (startNs < fromNs || startNs >= toNs)
            continue;
        const auto thread = threads.find({track.process, track.threadId});
        if (thread != threads.end())
            thread->second.launches.push_back({startNs, w.opNs, w.ops});
    }
    if (cancelled(cancel))
        return std::nullopt;

    std::unordered_map<model::StringId, OperatorStats> byName;
    std::unordered_map<ShapesKey, OperatorStats, ShapesKeyHash> byShapes;
    std::unordered_set<std::string> ownedShapes;  // each input shape once
    bool anyShapes = false;
    for (auto& [key, thread] : threads) {
        walk(thread);
        if (cancelled(cancel))
            return std::nullopt;
        for (const Call& c : thread.calls) {
            if (!window.contains(c.startNs))
                continue;
            add(byName[c.slice->nameId], c);
            if (out.nvtxRanges)
                continue;
            const std::string args = trace.extraArgs(*c.slice);
            const std::string_view shapes = inputShapes(args, ownedShapes);
            anyShapes = anyShapes || !shapes.empty();
            add(byShapes[{c.slice->nameId, shapes}], c);
        }
    }
    for (auto& [nameId, s] : byName) {
        s.name = std::string(trace.str(nameId));
        out.byName.push_back(std::move(s));
    }
    std::sort(out.byName.begin(), out.byName.end(), longerFirst);
    if (anyShapes) {
        for (auto& [key, s] : byShapes) {
            s.name = std::string(trace.str(key.nameId));
            s.inputShapes = std::string(key.shapes);
            out.byNameAndShapes.push_back(std::move(s));
        }
        std::sort(out.byNameAndShapes.begin(), out.byNameAndShapes.end(), longerFirst);
    }
    return out;
}

}  // namespace wl::analysis
