#pragma once

#include <string>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::cupti {

// Spill metadata keys the tracer writes for recovery; every other key is the trace's metadata.
inline constexpr const char* kSpillOutputKey = "spill.output";  // where the trace was to go
inline constexpr const char* kSpillStartKey = "spill.tracing start ns";
// The capture options as given on the command line (analysis::parseCaptureRange's spellings).
inline constexpr const char* kSpillCaptureRangeKey = "spill.capture range";
inline constexpr const char* kSpillCaptureEndKey = "spill.capture end";
inline constexpr const char* kSpillDelayKey = "spill.delay";
inline constexpr const char* kSpillDurationKey = "spill.duration";
inline constexpr const char* kSpillProcessNameKey = "spill.process name";

// The trace of a process that ended without writing its own (SIGKILL, the OOM killer): its spill
// file's records, translated, with the process's capture range applied, its metadata, and a
// warning that records CUPTI still held when it died are missing. API names come from the CUPTI
// this build links (cupti/SpillFile.h has the variant tests use).
struct RecoveredTrace {
    model::TracePtr trace;
    std::string outputPath;  // where the process meant to write its trace
};
model::Result<RecoveredTrace> recoverSpilledTrace(const std::string& spillPath);

}  // namespace wl::cupti
