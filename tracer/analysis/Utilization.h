#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Options.h"
#include "analysis/Window.h"
#include "model/NameFolding.h"
#include "model/Trace.h"

namespace wl::analysis {

// Why the GPU sat idle: every idle ns gets exactly one cause. For an idle interval [a, b), take the
// op X that ends it and the API call L that launched X, on host thread T:
enum class GapCause : std::uint8_t {
    GpuWait,            // L had returned before a: X was queued and waited (an event, another
                        // stream, the device); nothing the host could have done sooner
    AfterBlockingCall,  // at a, T was inside a blocking call (a synchronisation, or a call whose
                        // copy/memset finished before it returned): the host drained the queue
    Host,               // otherwise: the host did not issue work fast enough (launch overhead,
                        // Python, I/O, CPU work)
};
inline constexpr std::size_t kGapCauseCount = 3;
const char* toString(GapCause cause);  // "gpu_wait", "after_blocking_call", "host"
std::optional<GapCause> gapCauseFromString(std::string_view id);  // toString's inverse

// A hole in the GPU's busy time inside the analysis window, on a whole device (streamId -1) or on
// one stream. Times in ns.
struct IdleGap {
    std::int32_t deviceId = 0;
    std::int64_t streamId = -1;
    model::TimeNs startNs = 0;
    model::TimeNs durationNs = 0;
    GapCause cause = GapCause::Host;
    model::SliceRef before;     // the op whose end opens the gap (invalid at a window's start)
    model::SliceRef after;      // the op whose start closes it (may lie past the window's end)
    model::SliceRef launch;     // the API call that launched `after`
    model::SliceRef reason;     // the blocking call (AfterBlockingCall)
    model::SliceRef hostRange;  // the launching thread's innermost NVTX range at the gap's start
    model::SliceRef waitedFor;  // GpuWait through a CUDA event: the op on another stream whose
                                // end `after` waited for (model::Dependency)
    model::TimeNs endNs() const { return startNs + durationNs; }
};

// Busy/idle of one stream: busy = union of its ops inside the window.
struct StreamUtilization {
    std::int32_t deviceId = 0;
    std::int64_t streamId = -1;
    model::TrackIndex track = 0;
    std::uint64_t opCount = 0;
    model::TimeNs firstNs = 0;   // the window's start, or (whole trace) the stream's first op
    model::TimeNs lastNs = 0;    // the window's end, or (whole trace) the stream's last op end
    model::TimeNs windowNs = 0;  // time analysed: the window's duration, or lastNs - firstNs
    model::TimeNs busyNs = 0;
    model::TimeNs spanNs() const { return windowNs; }
    double busyPct() const;
};

// Busy/idle of one device (HTA's temporal breakdown): busy = union of all its GPU ops.
struct DeviceUtilization {
    std::int32_t deviceId = 0;
    std::uint64_t opCount = 0;
    model::TimeNs firstNs = 0;
    model::TimeNs lastNs = 0;
    model::TimeNs windowNs = 0;
    model::TimeNs busyNs = 0;
    std::uint64_t gapCount = 0;  // all holes, also those under the threshold
    std::vector<StreamUtilization> streams;
    model::TimeNs spanNs() const { return windowNs; }
    model::TimeNs idleNs() const { return windowNs - busyNs; }
    double busyPct() const;
};

// How one device's idle time divides among the causes (every idle ns of the window).
struct IdleAttribution {
    std::int32_t deviceId = 0;
    model::TimeNs idleNs = 0;
    std::array<model::TimeNs, kGapCauseCount> nsByCause{};
    // Host idle time in holes shorter than AnalysisOptions::shortGapNs: launch overhead rather
    // than one long host task.
    model::TimeNs hostShortNs = 0;
    model::TimeNs ns(GapCause c) const { return nsByCause[static_cast<std::size_t>(c)]; }
    double pct(GapCause c) const;  // share of idleNs, 0..100
};

// GPU idle time the host is answerable for (causes AfterBlockingCall and Host) spent while the
// launching host thread was inside NVTX ranges of one name (numbers folded: "I/O 45" and "I/O 60"
// are "I/O #"), over every device.
struct HostRangeIdle {
    std::string name;
    model::TimeNs idleNs = 0;
    std::uint64_t count = 0;     // range instances that idle time fell in
    model::TimeNs queuedNs = 0;  // GPU work still running when those instances began, summed
    // Of idleNs, the part in instances that themselves launched the work ending the idle time:
    // the launch path (API overhead), not a host task that held the launches back.
    model::TimeNs launchingNs = 0;
    model::SliceRef example;  // the instance with the most idle time
    model::TimeNs exampleIdleNs = 0;
};

struct UtilizationResult {
    AnalysisWindow window;
    std::vector<DeviceUtilization> devices;  // by device id
    // Gaps at or over the threshold: device gaps (streamId -1) and stream gaps, by start time.
    std::vector<IdleGap> gaps;
    std::vector<IdleAttribution> attribution;    // by device id
    std::vector<HostRangeIdle> idleByHostRange;  // largest idle first
    model::TimeNs busyNs = 0;                    // summed over devices
    model::TimeNs spanNs = 0;                    // summed over devices
    double busyPct() const;                      // busyNs / spanNs, 0 when there is no GPU work
    model::TimeNs idleNs() const { return spanNs - busyNs; }
};

// "I/O 45" -> "I/O #", "ProfilerStep#551" -> "ProfilerStep#" (model/NameFolding.h).
using model::foldDigits;

// Busy time, idle gaps and the attribution of every idle ns, per device and stream, inside the
// window the ops were built for (ops.all()). `cancel` (when not null) is looked at every few
// thousand ops: once it is set the walk stops and the result is incomplete (the caller, who set
// it, drops it).
UtilizationResult computeUtilization(const model::Trace& trace, const GpuOps& ops,
                                     const AnalysisWindow& window, const AnalysisOptions& options,
                                     const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
