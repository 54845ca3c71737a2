#pragma once

#include <cstdint>
#include <vector>

#include "analysis/Intervals.h"
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
};

// All GPU ops of a trace, sorted by (startNs, endNs), with index lists per device and per stream.
// Built once per analysis; read-only afterwards.
class GpuOps {
public:
    explicit GpuOps(const model::Trace& trace);

    const std::vector<GpuOp>& all() const { return m_ops; }
    std::vector<std::int32_t> deviceIds() const;
    // Union of the device's ops (of the given kinds) as an interval set.
    IntervalSet busy(std::int32_t deviceId) const;
    IntervalSet busyOf(std::int32_t deviceId, GpuOpKind kind) const;
    IntervalSet copiesOf(std::int32_t deviceId, model::CopyKind kind) const;

private:
    std::vector<GpuOp> m_ops;
};

}  // namespace wl::analysis
