#pragma once

#include <cstdint>
#include <vector>

#include "analysis/GpuOps.h"
#include "analysis/Options.h"
#include "model/Trace.h"

namespace wl::analysis {

// Why the GPU sat idle.
enum class GapCause : std::uint8_t {
    HostSync,    // the host was blocked in a synchronising call overlapping the gap
    HostLaunch,  // the call that launched the next op started only after the previous op ended
    Other,
};
const char* toString(GapCause cause);  // "host_sync", "host_launch", "other"

// A hole in the GPU's busy time, on a whole device (streamId -1) or on one stream. Times in ns.
struct IdleGap {
    std::int32_t deviceId = 0;
    std::int64_t streamId = -1;
    model::TimeNs startNs = 0;
    model::TimeNs durationNs = 0;
    GapCause cause = GapCause::Other;
    model::SliceRef before;  // the op whose end opens the gap
    model::SliceRef after;   // the op whose start closes it
    model::SliceRef reason;  // the blocking call (host_sync) or the late launch call (host_launch)
    model::TimeNs endNs() const { return startNs + durationNs; }
};

// Busy/idle of one stream: busy = union of its ops; span = first op start to last op end.
struct StreamUtilization {
    std::int32_t deviceId = 0;
    std::int64_t streamId = -1;
    model::TrackIndex track = 0;
    std::uint64_t opCount = 0;
    model::TimeNs firstNs = 0;
    model::TimeNs lastNs = 0;
    model::TimeNs busyNs = 0;
    model::TimeNs spanNs() const { return lastNs - firstNs; }
    double busyPct() const;
};

// Busy/idle of one device (HTA's temporal breakdown): busy = union of all its GPU ops.
struct DeviceUtilization {
    std::int32_t deviceId = 0;
    std::uint64_t opCount = 0;
    model::TimeNs firstNs = 0;
    model::TimeNs lastNs = 0;
    model::TimeNs busyNs = 0;
    std::uint64_t gapCount = 0;  // all holes, also those under the threshold
    std::vector<StreamUtilization> streams;
    model::TimeNs spanNs() const { return lastNs - firstNs; }
    model::TimeNs idleNs() const { return spanNs() - busyNs; }
    double busyPct() const;
};

struct UtilizationResult {
    std::vector<DeviceUtilization> devices;  // by device id
    // Gaps at or over the threshold: device gaps (streamId -1) and stream gaps, by start time.
    std::vector<IdleGap> gaps;
    model::TimeNs busyNs = 0;  // summed over devices
    model::TimeNs spanNs = 0;  // summed over devices
    double busyPct() const;    // busyNs / spanNs, 0 when there is no GPU work
};

// Busy time, spans and idle gaps (with their causes) of every device and stream.
UtilizationResult computeUtilization(const model::Trace& trace, const GpuOps& ops,
                                     const AnalysisOptions& options);

}  // namespace wl::analysis
