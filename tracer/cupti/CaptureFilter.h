#pragma once

#include "analysis/CaptureRange.h"
#include "model/TraceBuilder.h"

namespace wl::cupti {

// Applies a capture range to what a translator has built (before finalize): keeps what its
// windows hold (TraceBuilder::keepWithin), records the windows in the trace, and says in the
// metadata ("capture range", "capture windows", "capture removed") what was chosen and how much
// was left out. A range that never began leaves an empty trace and a warning that says why.
// `tracingStartNs`: when tracing began, in the records' clock (for --delay and --duration).
void keepCaptured(model::TraceBuilder& builder, const analysis::CaptureRange& range,
                  model::TimeNs tracingStartNs);

}  // namespace wl::cupti
