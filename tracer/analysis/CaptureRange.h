#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/Result.h"
#include "model/Time.h"
#include "model/Trace.h"

namespace wl::analysis {

// Which part of a recorded program's run is kept (Nsight Systems' --capture-range options):
// everything, the spans between cudaProfilerStart and cudaProfilerStop, or an NVTX range; the
// first such span only, or every one; optionally only after a delay and for a duration.
struct CaptureRange {
    enum class Trigger : std::uint8_t { None, ProfilerApi, Nvtx };
    Trigger trigger = Trigger::None;
    std::string nvtxName;          // Nvtx: the range whose instances are the windows
    std::string nvtxDomain;        // Nvtx: its domain when given as NAME@DOMAIN ("" = any domain)
    bool repeat = false;           // every span is a window; otherwise the first one only
    model::TimeNs delayNs = 0;     // nothing before start of tracing + delay
    model::TimeNs durationNs = 0;  // nothing after start + delay + duration (0: no limit)

    bool active() const { return trigger != Trigger::None || delayNs > 0 || durationNs > 0; }
    // "cudaProfilerApi, every range", "NVTX 'solve', first range; from 2 s for 5 s", ...
    std::string describe() const;
};

// Reads the command-line spellings: range "none" | "cudaProfilerApi" | "nvtx:NAME[@DOMAIN]",
// end "stop" | "repeat" (empty: stop), delay and duration in seconds (empty: none; decimals
// allowed). Errors name the option and the accepted values.
model::Result<CaptureRange> parseCaptureRange(std::string_view range, std::string_view end,
                                              std::string_view delaySeconds,
                                              std::string_view durationSeconds);

// The spans between cudaProfilerStart and cudaProfilerStop calls (runtime or driver), in time
// order over every host thread: a start opens a span when it returns, the next stop closes it
// when it is called; a span still open at the end closes at `endNs`. Each span then reaches to the
// end of the GPU work launched inside it (cudaProfilerStop does not wait for the GPU), so the
// profiled part's last kernels belong to it. Works on a finished trace and on a builder's pending
// one alike (any clock).
std::vector<model::TimeRange> profilerApiSpans(const model::Trace& trace, model::TimeNs endNs);

// The windows a capture range keeps in `trace` (any clock): the trigger's spans (first or every),
// cut to [tracingStartNs + delay, + duration]. Empty when the trigger never fired. Sorted.
std::vector<model::TimeRange> captureWindows(const model::Trace& trace, const CaptureRange& range,
                                             model::TimeNs tracingStartNs, model::TimeNs endNs);

}  // namespace wl::analysis
