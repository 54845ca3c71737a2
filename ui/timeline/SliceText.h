#pragma once

#include <cstdint>

#include <QString>

#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::ui {

// Text about slices for tooltips and details: name, kind, times and the facts of each kind
// (grid/block/registers for kernels, bytes and GB/s for copies, the launching API call and its
// latency). Pure functions of the trace.
QString sliceKindName(const model::Trace& trace, const model::Slice& slice);
QString formatBytes(std::uint64_t bytes);
// Rich-text (HTML) tooltip; `badge` adds the warp annotation when there is one.
QString sliceTooltip(const model::Trace& trace, model::SliceRef ref, const KernelBadge* badge);
QString gapTooltip(const GapOverlay& gap, const QString& details);
inline QString gapTooltip(const GapOverlay& gap) {
    return gapTooltip(gap, gap.tooltip);
}

}  // namespace wl::ui
