#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::io {

// Writes a Trace as Chrome trace JSON in the PyTorch profiler's (Kineto's) shape, following
// docs/ARCHITECTURE.md, "Chrome/Kineto JSON": ts/dur in microseconds printed exactly from integer
// ns, pid = process (GPU pid = device ordinal), tid = stream or thread, strictly nested X events
// per tid (lanes that do not nest go to extra tids), ac2g launch flows, Kineto categories and args,
// metadata events, deviceProperties/distributedInfo, C counter events, and a "warpline" block that
// lets ChromeTraceReader rebuild the same model (so export -> import -> export is byte-identical).
// Holds a reference to the trace; one write at a time; the trace may be shared across threads.
class ChromeTraceWriter {
public:
    // Receives the output in chunks of about a megabyte; returns false to abort the write.
    using Sink = std::function<bool(std::string_view chunk)>;

    explicit ChromeTraceWriter(const model::Trace& trace) : m_trace(trace) {}

    model::Status write(const Sink& sink) const;
    std::string toString() const;

private:
    const model::Trace& m_trace;
};

}  // namespace wl::io
