#pragma once

#include "analysis/CaptureRange.h"
#include "model/TraceBuilder.h"

namespace wl::cupti {

// The metadata keys keepCaptured writes (record's status line reads them back).
inline constexpr const char* kCaptureRangeKey = "capture range";
inline constexpr const char* kCaptureWindowsKey = "capture windows";
inline constexpr const char* kCaptureRemovedKey = "capture removed";

// Applies a capture range to what a translator has built (before finalize): keeps what its
// windows hold (TraceBuilder::keepWithin), records the windows in the trace, and says in the
// metadata ("capture range", "capture windows", "capture removed") what was chosen and how much
// was left out. A range that never began leaves an empty trace and a warning that says why.
// `tracingStartNs`: when tracing began, in the records' clock (for --delay and --duration).
void keepCaptured(model::TraceBuilder& builder, const analysis::CaptureRange& range,
                  model::TimeNs tracingStartNs);

}  // namespace wl::cupti
