#pragma once

#include <cstdint>
#include <vector>

#include "analysis/Intervals.h"
#include "analysis/Window.h"
#include "model/Details.h"
#include "model/Trace.h"

namespace wl::analysis {

enum class GpuOpKind : std::uint8_t { Kernel, Memcpy, Memset };

// One piece of GPU work (kernel, copy or memset) with the facts the analyses need, copied out of
// the trace so the passes run over one flat array. Times in ns since the trace origin.
struct GpuOp {
    model::SliceRef ref;
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    std::int64_t streamId = -1;
    std::int32_t deviceId = 0;
    GpuOpKind kind = GpuOpKind::Kernel;
    model::CopyKind copyKind = model::CopyKind::Unknown;  // Memcpy only
    // A later piece of an op cut by the gaps between a window's parts: counted once (statistics
    // skip it), busy in each part.
    bool continuation = false;
};

// The GPU ops of an analysis window (clipped to its parts), sorted by (startNs, endNs). The ops
// outside the window stay reachable for the questions that cross its edges (which op ends an idle
// gap at the window's end). Built once per analysis; read-only afterwards.
class GpuOps {
public:
    // Without a window: every op of the trace.
    explicit GpuOps(const model::Trace& trace, const AnalysisWindow* window = nullptr);
    // Only the ops of one rank of a merged job (its GPU processes: Process::rank), so the
    // per-device figures of the rank come from the same computation as a single trace's.
    GpuOps(const model::Trace& trace, const AnalysisWindow* window, std::int32_t rank);

    // The ops inside the window, clipped to it.
    const std::vector<GpuOp>& all() const { return m_ops; }
    // The first op of the device (anywhere in the trace, unclipped) that starts at or after t;
    // nullptr if none.
    const GpuOp* firstStartingAtOrAfter(std::int32_t deviceId, model::TimeNs t) const;
    std::vector<std::int32_t> deviceIds() const;
    // Union of the device's ops (of the given kinds) as an interval set.
    IntervalSet busy(std::int32_t deviceId) const;
    IntervalSet busyOf(std::int32_t deviceId, GpuOpKind kind) const;
    IntervalSet copiesOf(std::int32_t deviceId, model::CopyKind kind) const;

private:
    // rank < 0: every op.
    void gather(const model::Trace& trace, const AnalysisWindow* window, std::int32_t rank);

    std::vector<GpuOp> m_ops;
    // Every op of the trace, unclipped and unsorted, when the window leaves some out (empty
    // when it holds every op whole: m_ops is then all of them).
    std::vector<GpuOp> m_outside;
};

}  // namespace wl::analysis
