#include "analysis/Window.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "analysis/ApiNames.h"
#include "analysis/CaptureRange.h"
#include "analysis/Format.h"
#include "analysis/Intervals.h"
#include "model/NameFolding.h"

namespace wl::analysis {

const char* toString(WindowSource source) {
    switch (source) {
        case WindowSource::Trace:
            return "trace";
        case WindowSource::Capture:
            return "capture";
        case WindowSource::Nvtx:
            return "nvtx";
        case WindowSource::Iterations:
            return "iterations";
        case WindowSource::GraphLaunches:
            return "graph_launches";
        case WindowSource::Time:
            return "time";
        case WindowSource::Selection:
            return "selection";
        case WindowSource::SteadyState:
            return "steady_state";
    }
    return "trace";
}

const char* toString(LeftOut::Kind kind) {
    switch (kind) {
        case LeftOut::Kind::StartUp:
            return "start-up";
        case LeftOut::Kind::TearDown:
            return "tear-down";
        case LeftOut::Kind::WarmUp:
            break;
    }
    return "warm-up";
}

std::string describeLeftOut(const LeftOut& leftOut) {
    const std::string duration = formatDuration(leftOut.range.durationNs());
    const std::string what = leftOut.name.empty() ? "steady state" : leftOut.name;
    switch (leftOut.kind) {
        case LeftOut::Kind::StartUp:
            return "start-up: " + duration + " before the " + what + ", not analysed";
        case LeftOut::Kind::TearDown:
            return "tear-down: " + duration + " after the " + what + ", not analysed";
        case LeftOut::Kind::WarmUp:
            break;
    }
    return "warm-up: '" + leftOut.name + "' (" + duration + ") left out of the iterations";
}

std::vector<model::TimeRange>::const_iterator firstPartEndingAfter(
    const std::vector<model::TimeRange>& parts, model::TimeNs t) {
    return std::upper_bound(parts.begin(), parts.end(), t,
                            [](model::TimeNs v, const model::TimeRange& r) { return v < r.endNs; });
}

bool overlapsParts(const std::vector<model::TimeRange>& parts, model::TimeNs startNs,
                   model::TimeNs endNs) {
    const auto part = firstPartEndingAfter(parts, startNs);
    return part != parts.end() && part->startNs < std::max(endNs, startNs + 1);
}

bool AnalysisWindow::contains(model::TimeNs ns) const {
    const auto part = firstPartEndingAfter(parts, ns);  // the parts are sorted and disjoint
    return part != parts.end() && part->startNs <= ns;
}

model::TimeNs AnalysisWindow::durationNs() const {
    model::TimeNs total = 0;
    for (const model::TimeRange& p : parts) {
        total += p.durationNs();
    }
    return total;
}

namespace {

model::Error error(std::string message) {
    return model::Error{std::move(message), {}, -1};
}

// Milliseconds with decimals to integer ns, exactly for up to six decimals.
bool parseMs(std::string_view text, model::TimeNs& ns) {
    if (text.empty()) {
        return false;
    }
    bool negative = false;
    if (text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    std::string_view frac =
        dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
    if (whole.empty() && frac.empty()) {
        return false;
    }
    std::int64_t ms = 0;
    if (!whole.empty()) {
        auto [p, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), ms);
        if (ec != std::errc{} || p != whole.data() + whole.size() || ms > 9'000'000'000'000) {
            return false;
        }
    }
    std::int64_t fracNs = 0;
    std::int64_t scale = model::kNsPerMs;
    for (char c : frac) {
        if (c < '0' || c > '9') {
            return false;
        }
        scale /= 10;
        fracNs += (c - '0') * scale;  // digits past the sixth add nothing (scale reaches 0)
    }
    ns = ms * model::kNsPerMs + fracNs;
    if (negative) {
        ns = -ns;
    }
    return true;
}

// First GPU op start to last GPU op end, over every device; empty without GPU work.
model::TimeRange gpuExtent(const model::Trace& trace) {
    model::TimeNs first = std::numeric_limits<model::TimeNs>::max();
    model::TimeNs last = std::numeric_limits<model::TimeNs>::min();
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::GpuStream) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            if (!model::isGpuWork(s.kind)) {
                continue;
            }
            first = std::min(first, s.startNs);
            last = std::max(last, s.endNs());
        }
    }
    if (first > last) {
        return {};
    }
    return {first, last};
}

bool isNvtxTrack(const model::Track& track) {
    return track.kind == model::TrackKind::Nvtx || track.kind == model::TrackKind::NvtxAsync;
}

model::Result<AnalysisWindow> nvtxWindow(const model::Trace& trace, const WindowRequest& request) {
    std::vector<model::TimeRange> instances;
    std::unordered_map<model::StringId, bool> matches;  // each name compared once
    for (const model::Track& track : trace.tracks()) {
        if (!isNvtxTrack(track)) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            auto [it, fresh] = matches.try_emplace(s.nameId, false);
            if (fresh) {
                const std::string_view name = trace.str(s.nameId);
                it->second = request.foldedName ? model::foldDigits(name) == request.rangeName
                                                : name == request.rangeName;
            }
            if (it->second) {
                instances.push_back({s.startNs, s.endNs()});
            }
        }
    }
    if (instances.empty()) {
        // Name the most frequent ranges: a user who typed "loop" for "Loop" sees it at once.
        const std::vector<std::string> names = nvtxRangeNames(trace);
        std::string known;
        for (std::size_t i = 0; i < names.size() && i < 8; ++i) {
            known += (i == 0 ? "" : ", ") + std::string("'") + names[i] + "'";
        }
        return error("no NVTX range named '" + request.rangeName + "' in the trace" +
                     (known.empty() ? std::string(" (it has no NVTX ranges)")
                                    : " (ranges it has: " + known + ")"));
    }
    std::sort(instances.begin(), instances.end(),
              [](const model::TimeRange& a, const model::TimeRange& b) {
                  return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs < b.endNs;
              });
    AnalysisWindow w;
    w.source = WindowSource::Nvtx;
    w.name = request.rangeName;
    w.instance = request.instance;
    if (request.instance > 0) {
        if (static_cast<std::size_t>(request.instance) > instances.size()) {
            return error("'" + request.rangeName + "' has " + std::to_string(instances.size()) +
                         " instance" + (instances.size() == 1 ? "" : "s") + "; #" +
                         std::to_string(request.instance) + " does not exist");
        }
        w.parts = {instances[static_cast<std::size_t>(request.instance) - 1]};
    } else {
        w.parts = uniteRanges(std::move(instances));
    }
    if (w.durationNs() <= 0) {
        return error("NVTX range '" + request.rangeName + "' has no duration");
    }
    return w;
}

}  // namespace

model::Result<WindowRequest> WindowRequest::nvtx(std::string_view spec) {
    WindowRequest r;
    r.kind = Kind::NvtxRange;
    const auto hash = spec.rfind('#');
    if (hash != std::string_view::npos && hash + 1 < spec.size()) {
        const std::string_view digits = spec.substr(hash + 1);
        std::int32_t k = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
        if (ec == std::errc{} && p == digits.data() + digits.size()) {
            if (k < 1) {
                return error("--range " + std::string(spec) + ": instances count from 1");
            }
            r.instance = k;
            spec = spec.substr(0, hash);
        }
    }
    if (spec.empty()) {
        return error("--range needs an NVTX range name (NAME or NAME#K)");
    }
    r.rangeName = std::string(spec);
    return r;
}

WindowRequest WindowRequest::everyInstanceOf(std::string_view rangeName) {
    WindowRequest r;
    r.kind = Kind::NvtxRange;
    r.rangeName = model::foldDigits(rangeName);
    r.foldedName = r.rangeName != rangeName;
    return r;
}

model::Result<WindowRequest> WindowRequest::timeMs(std::string_view spec) {
    const auto colon = spec.find(':');
    WindowRequest r;
    r.kind = Kind::Time;
    if (colon == std::string_view::npos || !parseMs(spec.substr(0, colon), r.time.startNs) ||
        !parseMs(spec.substr(colon + 1), r.time.endNs)) {
        return error("--window '" + std::string(spec) +
                     "' is not START_MS:END_MS (milliseconds of trace time, e.g. 120.5:410)");
    }
    if (r.time.endNs <= r.time.startNs) {
        return error("--window '" + std::string(spec) + "': the end must be after the start");
    }
    return r;
}

std::vector<model::TimeRange> captureRanges(const model::Trace& trace) {
    if (!trace.captureWindows().empty()) {
        return {trace.captureWindows().begin(), trace.captureWindows().end()};
    }
    return profilerApiSpans(trace, trace.spanNs());
}

model::Result<AnalysisWindow> resolveWindow(const model::Trace& trace,
                                            const WindowRequest& request) {
    using Kind = WindowRequest::Kind;
    AnalysisWindow w;
    switch (request.kind) {
        case Kind::Default:
        case Kind::Capture: {
            auto ranges = captureRanges(trace);
            if (!ranges.empty()) {
                w.source = WindowSource::Capture;
                w.parts = std::move(ranges);
                return w;
            }
            if (request.kind == Kind::Capture) {
                return error(
                    "the trace has no capture range (no cudaProfilerStart/Stop, no "
                    "--capture-range)");
            }
            if (auto iterations = iterationWindow(trace)) {
                return *iterations;
            }
            if (auto replays = graphLaunchWindow(trace)) {
                return *replays;
            }
            if (auto steady = steadyStateWindow(trace)) {
                return *steady;
            }
            [[fallthrough]];
        }
        case Kind::WholeTrace: {
            w.source = WindowSource::Trace;
            if (const model::TimeRange extent = gpuExtent(trace); !extent.empty()) {
                w.parts = {extent};
            }
            return w;
        }
        case Kind::NvtxRange:
            return nvtxWindow(trace, request);
        case Kind::Time:
        case Kind::Selection: {
            w.source = request.kind == Kind::Time ? WindowSource::Time : WindowSource::Selection;
            const model::TimeRange r{std::max<model::TimeNs>(request.time.startNs, 0),
                                     std::min(request.time.endNs, trace.spanNs())};
            if (r.empty()) {
                return error("the time range " + formatDuration(request.time.startNs) + " to " +
                             formatDuration(request.time.endNs) + " holds nothing of the trace (" +
                             formatDuration(trace.spanNs()) + " long)");
            }
            w.parts = {r};
            if (request.kind == Kind::Selection) {
                for (const model::TrackIndex t : request.tracks) {
                    if (t < trace.tracks().size())
                        w.tracks.push_back(t);
                }
                std::sort(w.tracks.begin(), w.tracks.end());
                w.tracks.erase(std::unique(w.tracks.begin(), w.tracks.end()), w.tracks.end());
            }
            return w;
        }
    }
    return w;
}

std::string iterationFamily(std::string_view name) {
    // "step 3", "Step #3", "ProfilerStep#551", "iteration_7", "iter 7", "batch 2", "epoch 1":
    // a loop word, a separator or none, a non-negative number, nothing after it. The family is
    // the name with its number folded ("step #", "step#", "ProfilerStep#"; foldDigits leaves the
    // digits of "step12", part of a word, alone); "" for a name that is no iteration.
    std::size_t end = name.size();
    while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    if (end == name.size() || end == 0)
        return {};
    std::size_t wordEnd = end;
    while (wordEnd > 0 && (name[wordEnd - 1] == ' ' || name[wordEnd - 1] == '#' ||
                           name[wordEnd - 1] == '_' || name[wordEnd - 1] == ':'))
        --wordEnd;
    std::string word(name.substr(0, wordEnd));
    for (char& c : word)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static constexpr std::string_view kWords[] = {"step", "profilerstep", "iteration",
                                                  "iter", "batch",        "epoch"};
    if (std::none_of(std::begin(kWords), std::end(kWords),
                     [&word](std::string_view w) { return word == w; }))
        return {};
    const std::string prefix(name.substr(0, end));
    return prefix.back() == '#' ? prefix : prefix + "#";
}

std::vector<model::SliceRef> iterationRanges(const model::Trace& trace, std::string_view family,
                                             std::span<const model::ProcessIndex> processes) {
    if (family.empty())
        return {};
    // As iterationWindow counts them: the host's ranges (a GPU's annotations repeat them), on
    // the thread with the most (a job's ranks each run the loop; a helper thread may name a
    // stray one).
    const auto all = trace.processes();
    std::unordered_map<model::StringId, bool> ofFamily;  // each name classified once
    std::map<model::TrackIndex, std::vector<model::SliceRef>> perThread;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (!isNvtxTrack(track) || all[track.process].deviceId >= 0 ||
            (!processes.empty() &&
             std::find(processes.begin(), processes.end(), track.process) == processes.end()))
            continue;
        for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
            const model::Slice& s = track.slices[i];
            auto [it, fresh] = ofFamily.try_emplace(s.nameId, false);
            if (fresh)
                it->second = iterationFamily(trace.str(s.nameId)) == family;
            if (it->second)
                perThread[t].push_back({t, i});
        }
    }
    std::vector<model::SliceRef>* best = nullptr;
    for (auto& [track, refs] : perThread) {
        if (best == nullptr || refs.size() > best->size())
            best = &refs;
    }
    if (best == nullptr)
        return {};
    std::vector<model::SliceRef> out = std::move(*best);
    std::sort(out.begin(), out.end(), [&trace](model::SliceRef a, model::SliceRef b) {
        const model::Slice& sa = trace.slice(a);
        const model::Slice& sb = trace.slice(b);
        return sa.startNs != sb.startNs ? sa.startNs < sb.startNs : sa.endNs() < sb.endNs();
    });
    return out;
}

std::optional<AnalysisWindow> iterationWindow(const model::Trace& trace) {
    struct Instance {
        model::TimeRange range;
        model::StringId nameId;
    };
    struct Family {
        std::size_t count = 0;  // on the thread with the most (a job's ranks each run the loop)
        const model::Track* countingThread = nullptr;
        std::map<const model::Track*, std::vector<Instance>> perThread;
        model::TimeNs firstNs = 0;
        model::TimeNs lastNs = 0;
    };
    std::map<std::string, Family> families;  // by folded name
    // Each name classified once: its family's entry (null: no iteration, or on the GPU side a
    // family the host never ran).
    std::unordered_map<model::StringId, Family*> familyOfName;
    // The host's ranges count the iterations; their GPU side (projections: the work launched
    // inside them, which runs later; a profiler's GPU annotations) extends the window to the end
    // of the last iteration's GPU work.
    const auto processes = trace.processes();
    for (const bool gpuSide : {false, true}) {
        for (const model::Track& track : trace.tracks()) {
            const bool onGpu = processes[track.process].deviceId >= 0;
            const bool wanted = gpuSide ? track.kind == model::TrackKind::NvtxProjection ||
                                              (isNvtxTrack(track) && onGpu)
                                        : isNvtxTrack(track) && !onGpu;
            if (!wanted)
                continue;
            for (const model::Slice& s : track.slices) {
                auto [it, inserted] = familyOfName.try_emplace(s.nameId, nullptr);
                if (inserted) {
                    const std::string family = iterationFamily(trace.str(s.nameId));
                    if (!family.empty() && !gpuSide) {
                        it->second = &families[family];
                    } else if (!family.empty()) {
                        const auto known = families.find(family);
                        it->second = known == families.end() ? nullptr : &known->second;
                    }
                }
                Family* f = it->second;
                if (f == nullptr)
                    continue;
                if (gpuSide) {
                    f->lastNs = std::max(f->lastNs, s.endNs());
                    continue;
                }
                auto& onThread = f->perThread[&track];
                onThread.push_back({{s.startNs, s.endNs()}, s.nameId});
                if (f->count == 0) {
                    f->firstNs = s.startNs;
                    f->lastNs = s.endNs();
                }
                if (onThread.size() > f->count) {
                    f->count = onThread.size();
                    f->countingThread = &track;
                }
                f->firstNs = std::min(f->firstNs, s.startNs);
                f->lastNs = std::max(f->lastNs, s.endNs());
            }
        }
    }
    const Family* best = nullptr;
    const std::string* bestName = nullptr;
    for (const auto& [name, f] : families) {
        if (f.count >= 2 && f.lastNs > f.firstNs && (best == nullptr || f.count > best->count)) {
            best = &f;
            bestName = &name;
        }
    }
    if (best == nullptr)
        return std::nullopt;
    AnalysisWindow w;
    w.source = WindowSource::Iterations;
    w.name = *bestName;
    w.instance = static_cast<std::int32_t>(best->count);
    w.parts = {{best->firstNs, best->lastNs}};

    // Warm-up: leading iterations of the counting thread far longer than the median of those
    // after them (a first step that compiles, autotunes or allocates for seconds before steps of
    // milliseconds) would be most of what the window measures. Two iterations always remain.
    std::vector<Instance> steps = best->perThread.at(best->countingThread);
    std::sort(steps.begin(), steps.end(), [](const Instance& a, const Instance& b) {
        return a.range.startNs < b.range.startNs;
    });
    std::vector<model::TimeNs> durationsNs;
    for (const Instance& step : steps) {
        durationsNs.push_back(step.range.durationNs());
    }
    const std::size_t warmUps = leadingWarmUps(durationsNs);
    if (warmUps == 0) {
        return w;
    }
    // Every thread's instances of the left-out names go (a job's ranks each ran step 0); the
    // window starts with the first iteration kept on any thread.
    std::vector<model::StringId> leftOutNames;
    for (std::size_t i = 0; i < warmUps; ++i) {
        leftOutNames.push_back(steps[i].nameId);
        w.leftOut.push_back(
            {LeftOut::Kind::WarmUp, steps[i].range, std::string(trace.str(steps[i].nameId))});
    }
    model::TimeNs startNs = best->lastNs;
    for (const auto& [thread, instances] : best->perThread) {
        for (const Instance& instance : instances) {
            if (std::find(leftOutNames.begin(), leftOutNames.end(), instance.nameId) ==
                leftOutNames.end()) {
                startNs = std::min(startNs, instance.range.startNs);
            }
        }
    }
    w.instance -= static_cast<std::int32_t>(warmUps);
    w.parts = {{startNs, best->lastNs}};
    return w;
}

std::size_t leadingWarmUps(const std::vector<model::TimeNs>& durationsNs) {
    // A first step that compiles, autotunes or allocates for seconds before steps of
    // milliseconds would be most of what the window measures.
    std::size_t warmUps = 0;
    while (durationsNs.size() - warmUps > 2) {
        std::vector<model::TimeNs> rest(
            durationsNs.begin() + static_cast<std::ptrdiff_t>(warmUps + 1), durationsNs.end());
        std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(rest.size() / 2),
                         rest.end());
        if (durationsNs[warmUps] <= kWarmUpFactor * rest[rest.size() / 2]) {
            break;
        }
        ++warmUps;
    }
    return warmUps;
}

void addStartUpAndTearDown(const model::Trace& trace, AnalysisWindow& window,
                           std::string_view what) {
    const model::TimeRange extent = gpuExtent(trace);
    if (extent.empty() || window.parts.empty()) {
        return;
    }
    // Leaving out a sliver (a 10 ns upload before a loop) would change the window's name and
    // nothing of what it measures.
    const auto counts = [&extent](model::TimeNs ns) {
        return 100.0 * static_cast<double>(ns) >=
               kMinLeftOutPct * static_cast<double>(extent.durationNs());
    };
    if (window.startNs() > extent.startNs && counts(window.startNs() - extent.startNs)) {
        window.leftOut.insert(
            window.leftOut.begin(),
            {LeftOut::Kind::StartUp, {extent.startNs, window.startNs()}, std::string(what)});
    }
    if (window.endNs() < extent.endNs && counts(extent.endNs - window.endNs())) {
        window.leftOut.push_back(
            {LeftOut::Kind::TearDown, {window.endNs(), extent.endNs}, std::string(what)});
    }
}

std::vector<std::string> nvtxRangeNames(const model::Trace& trace) {
    std::map<model::StringId, std::size_t> counts;
    for (const model::Track& track : trace.tracks()) {
        if (isNvtxTrack(track)) {
            for (const model::Slice& s : track.slices)
                ++counts[s.nameId];
        }
    }
    std::vector<std::pair<std::size_t, std::string>> byCount;
    for (const auto& [id, count] : counts)
        byCount.emplace_back(count, std::string(trace.str(id)));
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::string> names;
    for (auto& [count, name] : byCount) {
        if (!name.empty())
            names.push_back(std::move(name));
    }
    return names;
}

std::int32_t nvtxInstanceNumber(const model::Trace& trace, model::SliceRef ref) {
    if (!ref.valid() || !isNvtxTrack(trace.track(ref.track))) {
        return 0;
    }
    const model::Slice& target = trace.slice(ref);
    std::int32_t before = 0;
    for (const model::Track& track : trace.tracks()) {
        if (!isNvtxTrack(track)) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            if (s.nameId == target.nameId &&
                (s.startNs < target.startNs ||
                 (s.startNs == target.startNs && s.endNs() < target.endNs()))) {
                ++before;
            }
        }
    }
    return before + 1;
}

std::string describeWindow(const AnalysisWindow& window) {
    switch (window.source) {
        case WindowSource::Trace:
            return "whole trace";
        case WindowSource::Capture:
            return window.parts.size() <= 1
                       ? "capture range (" + formatDuration(window.durationNs()) + ")"
                       : std::to_string(window.parts.size()) + " capture ranges (" +
                             formatDuration(window.durationNs()) + ")";
        case WindowSource::Nvtx:
            if (window.instance > 0) {
                return "'" + window.name + "' #" + std::to_string(window.instance) + " (" +
                       formatDuration(window.durationNs()) + ")";
            }
            if (window.parts.size() == 1) {
                return "'" + window.name + "' (" + formatDuration(window.durationNs()) + ")";
            }
            return "every '" + window.name + "' (" + std::to_string(window.parts.size()) +
                   " spans, " + formatDuration(window.durationNs()) + ")";
        case WindowSource::Iterations:
            return std::to_string(window.instance) + " iterations '" + window.name + "' (" +
                   formatDuration(window.durationNs()) + ")";
        case WindowSource::GraphLaunches:
            return std::to_string(window.instance) + " launches of " + window.name + " (" +
                   formatDuration(window.durationNs()) + ")";
        case WindowSource::SteadyState:
            return "steady state (" + formatDuration(window.durationNs()) + ")";
        case WindowSource::Time:
        case WindowSource::Selection:
            return std::string(window.source == WindowSource::Selection ? "selection " : "") +
                   formatDuration(window.startNs()) + " to " + formatDuration(window.endNs()) +
                   " (" + formatDuration(window.durationNs()) + ")" +
                   (window.tracks.empty() ? ""
                                          : ", " + std::to_string(window.tracks.size()) +
                                                (window.tracks.size() == 1 ? " row" : " rows"));
    }
    return "whole trace";
}

bool selectsGpuRows(const model::Trace& trace, const AnalysisWindow& window) {
    for (const model::TrackIndex t : window.tracks) {
        if (t < trace.tracks().size() && trace.track(t).kind == model::TrackKind::GpuStream) {
            return true;
        }
    }
    return false;
}

}  // namespace wl::analysis
