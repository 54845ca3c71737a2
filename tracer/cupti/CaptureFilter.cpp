#include "cupti/CaptureFilter.h"

#include <algorithm>
#include <string>

namespace wl::cupti {

void keepCaptured(model::TraceBuilder& builder, const analysis::CaptureRange& range,
                  model::TimeNs tracingStartNs) {
    if (!range.active()) {
        return;
    }
    const model::Trace& pending = builder.pending();
    model::TimeNs endNs = tracingStartNs;
    for (const model::Track& track : pending.tracks()) {
        for (const model::Slice& s : track.slices) {
            endNs = std::max(endNs, s.endNs());
        }
    }
    const auto windows = analysis::captureWindows(pending, range, tracingStartNs, endNs);
    const std::uint64_t removed = builder.keepWithin(windows);
    for (const model::TimeRange& w : windows) {
        builder.addCaptureWindow(w.startNs, w.endNs);
    }
    builder.setMetadata(kCaptureRangeKey, range.describe());
    builder.setMetadata(kCaptureWindowsKey, std::to_string(windows.size()));
    builder.setMetadata(kCaptureRemovedKey, std::to_string(removed));
    if (windows.empty()) {
        std::string why;
        switch (range.trigger) {
            case analysis::CaptureRange::Trigger::ProfilerApi:
                why = "the program never called cudaProfilerStart (or stopped before starting)";
                break;
            case analysis::CaptureRange::Trigger::Nvtx:
                why = "the program never opened the NVTX range '" + range.nvtxName + "'";
                break;
            case analysis::CaptureRange::Trigger::None:
                why = "the program ended before the delay was over";
                break;
        }
        builder.diagnostics().warn("capture range (" + range.describe() +
                                   "): nothing captured: " + why + "; " + std::to_string(removed) +
                                   " events outside it were not kept");
    }
}

}  // namespace wl::cupti
