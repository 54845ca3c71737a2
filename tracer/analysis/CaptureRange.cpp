#include "analysis/CaptureRange.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "analysis/ApiNames.h"
#include "analysis/Format.h"
#include "analysis/Intervals.h"

namespace wl::analysis {
namespace {

model::Error error(std::string message) {
    return model::Error{std::move(message), {}, -1};
}

// Seconds with decimals ("2", "0.5") to ns; false for anything else or a negative value.
bool parseSeconds(std::string_view text, model::TimeNs& ns) {
    double seconds = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds) ||
        seconds < 0.0 || seconds > 1e9) {
        return false;
    }
    ns = static_cast<model::TimeNs>(std::llround(seconds * 1e9));
    return true;
}

// Each span reaches to the end of the GPU work launched by calls that began inside it: launches
// are asynchronous, so the work a profiled part queued may run after the part's last call.
void reachLaunchedWork(const model::Trace& trace, std::vector<model::TimeRange>& spans) {
    if (spans.empty()) {
        return;
    }
    std::unordered_map<std::uint64_t, model::TimeNs> workEnd;  // correlation id -> GPU end
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::GpuStream) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            if (s.correlationId != 0 && model::isGpuWork(s.kind)) {
                auto [it, fresh] = workEnd.try_emplace(s.correlationId, s.endNs());
                if (!fresh) {
                    it->second = std::max(it->second, s.endNs());
                }
            }
        }
    }
    std::vector<model::TimeNs> reach(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
        reach[i] = spans[i].endNs;
    }
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::HostApi) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            if (s.correlationId == 0) {
                continue;
            }
            const auto work = workEnd.find(s.correlationId);
            if (work == workEnd.end()) {
                continue;
            }
            // Spans are sorted and disjoint: the last one starting at or before the call.
            auto it = std::upper_bound(
                spans.begin(), spans.end(), s.startNs,
                [](model::TimeNs t, const model::TimeRange& r) { return t < r.startNs; });
            if (it == spans.begin()) {
                continue;
            }
            const auto index = static_cast<std::size_t>(it - spans.begin() - 1);
            if (s.startNs <= spans[index].endNs) {
                reach[index] = std::max(reach[index], work->second);
            }
        }
    }
    for (std::size_t i = 0; i < spans.size(); ++i) {
        spans[i].endNs = reach[i];
    }
}

// Every instance of an NVTX range, in start order.
std::vector<model::TimeRange> nvtxSpans(const model::Trace& trace, const CaptureRange& range) {
    std::vector<model::TimeRange> spans;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Nvtx && track.kind != model::TrackKind::NvtxAsync) {
            continue;
        }
        if (!range.nvtxDomain.empty() && trace.str(track.domainId) != range.nvtxDomain) {
            continue;
        }
        for (const model::Slice& s : track.slices) {
            if (s.kind == model::SliceKind::Nvtx && s.durationNs > 0 &&
                trace.str(s.nameId) == range.nvtxName) {
                spans.push_back({s.startNs, s.endNs()});
            }
        }
    }
    std::sort(spans.begin(), spans.end(), [](const model::TimeRange& a, const model::TimeRange& b) {
        return a.startNs < b.startNs;
    });
    return spans;
}

}  // namespace

std::string CaptureRange::describe() const {
    std::string text;
    switch (trigger) {
        case Trigger::None:
            text = "whole run";
            break;
        case Trigger::ProfilerApi:
            text = "cudaProfilerStart/Stop";
            break;
        case Trigger::Nvtx:
            text = "NVTX range '" + nvtxName + "'" +
                   (nvtxDomain.empty() ? std::string() : " of domain '" + nvtxDomain + "'");
            break;
    }
    if (trigger != Trigger::None) {
        text += repeat ? ", every range" : ", first range";
    }
    if (delayNs > 0) {
        text += "; after " + formatDuration(delayNs);
    }
    if (durationNs > 0) {
        text += "; for " + formatDuration(durationNs);
    }
    return text;
}

model::Result<CaptureRange> parseCaptureRange(std::string_view range, std::string_view end,
                                              std::string_view delaySeconds,
                                              std::string_view durationSeconds) {
    CaptureRange c;
    constexpr std::string_view kNvtx = "nvtx:";
    if (range.empty() || range == "none") {
        c.trigger = CaptureRange::Trigger::None;
    } else if (range == "cudaProfilerApi") {
        c.trigger = CaptureRange::Trigger::ProfilerApi;
    } else if (range.substr(0, kNvtx.size()) == kNvtx && range.size() > kNvtx.size()) {
        c.trigger = CaptureRange::Trigger::Nvtx;
        const std::string_view spec = range.substr(kNvtx.size());
        const auto at = spec.rfind('@');
        c.nvtxName = std::string(spec.substr(0, at));
        if (at != std::string_view::npos) {
            c.nvtxDomain = std::string(spec.substr(at + 1));
        }
        if (c.nvtxName.empty()) {
            return error("--capture-range '" + std::string(range) +
                         "': the NVTX range name is empty");
        }
    } else {
        return error("--capture-range '" + std::string(range) +
                     "' is not one of none, cudaProfilerApi, nvtx:NAME[@DOMAIN]");
    }
    if (end.empty() || end == "stop") {
        c.repeat = false;
    } else if (end == "repeat") {
        c.repeat = true;
    } else {
        return error("--capture-range-end '" + std::string(end) + "' is not stop or repeat");
    }
    if (!end.empty() && c.trigger == CaptureRange::Trigger::None) {
        return error("--capture-range-end needs --capture-range cudaProfilerApi or nvtx:NAME");
    }
    if (!delaySeconds.empty() && !parseSeconds(delaySeconds, c.delayNs)) {
        return error("--delay '" + std::string(delaySeconds) +
                     "' is not a number of seconds (e.g. 2 or 0.5)");
    }
    if (!durationSeconds.empty() &&
        (!parseSeconds(durationSeconds, c.durationNs) || c.durationNs == 0)) {
        return error("--duration '" + std::string(durationSeconds) +
                     "' is not a positive number of seconds (e.g. 10 or 0.5)");
    }
    return c;
}

std::vector<model::TimeRange> profilerApiSpans(const model::Trace& trace, model::TimeNs endNs) {
    std::vector<std::pair<model::TimeNs, bool>> marks;  // (time, isStart)
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::HostApi) {
            continue;
        }
        std::map<model::StringId, int> kind;  // 0 other, 1 start, 2 stop
        for (const model::Slice& s : track.slices) {
            auto [it, fresh] = kind.try_emplace(s.nameId, 0);
            if (fresh) {
                const std::string_view base = baseApiName(trace.str(s.nameId));
                it->second = (base == "cudaProfilerStart" || base == "cuProfilerStart") ? 1
                             : (base == "cudaProfilerStop" || base == "cuProfilerStop") ? 2
                                                                                        : 0;
            }
            if (it->second == 1) {
                marks.emplace_back(s.endNs(), true);
            } else if (it->second == 2) {
                marks.emplace_back(s.startNs, false);
            }
        }
    }
    std::sort(marks.begin(), marks.end());
    std::vector<model::TimeRange> spans;
    bool open = false;
    model::TimeNs openedNs = 0;
    for (const auto& [t, isStart] : marks) {
        if (isStart && !open) {
            open = true;
            openedNs = t;
        } else if (!isStart && open) {
            open = false;
            spans.push_back({openedNs, t});
        }
    }
    if (open) {
        spans.push_back({openedNs, std::max(openedNs, endNs)});
    }
    spans = uniteRanges(std::move(spans));
    reachLaunchedWork(trace, spans);
    return uniteRanges(std::move(spans));
}

std::vector<model::TimeRange> captureWindows(const model::Trace& trace, const CaptureRange& range,
                                             model::TimeNs tracingStartNs, model::TimeNs endNs) {
    std::vector<model::TimeRange> spans;
    switch (range.trigger) {
        case CaptureRange::Trigger::None:
            spans.push_back({tracingStartNs, std::max(tracingStartNs, endNs)});
            break;
        case CaptureRange::Trigger::ProfilerApi:
            spans = profilerApiSpans(trace, endNs);
            break;
        case CaptureRange::Trigger::Nvtx:
            spans = uniteRanges(nvtxSpans(trace, range));
            reachLaunchedWork(trace, spans);
            spans = uniteRanges(std::move(spans));
            break;
    }
    if (!range.repeat && spans.size() > 1) {
        spans.resize(1);
    }
    const model::TimeNs from = tracingStartNs + range.delayNs;
    const model::TimeNs to =
        range.durationNs > 0 ? from + range.durationNs : std::numeric_limits<model::TimeNs>::max();
    std::vector<model::TimeRange> windows;
    for (const model::TimeRange& s : spans) {
        const model::TimeRange cut{std::max(s.startNs, from), std::min(s.endNs, to)};
        if (cut.endNs > cut.startNs) {
            windows.push_back(cut);
        }
    }
    return windows;
}

}  // namespace wl::analysis
