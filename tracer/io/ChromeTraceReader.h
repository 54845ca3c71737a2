#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::io {

// Reads Chrome trace JSON (array or object form) into a model Trace: phases X/B/E/b/e/n/i/I/C/M/
// s/t/f, integer, decimal or string timestamps converted to ns exactly, unsorted events, PyTorch
// profiler (Kineto) categories mapped to kernels, copies, memsets, API calls, syncs and
// annotations on their devices and streams, and the "warpline" block of our own exports for an
// exact round trip. Tolerant per event, as Perfetto's importer is: an event with a field of the
// wrong type or value, an unknown phase, a stray "E" or a "B" that never ends is counted in the
// diagnostics and the rest loads. Text that is not JSON, a truncated file, or one without any
// readable event gives an Error with the byte offset (in the JSON text), never a partial trace.
// Stateless: one reader may be used from several threads.
class ChromeTraceReader {
public:
    // Bytes the parser may read past the end of the text (they are never interpreted).
    static constexpr std::size_t kPadding = 64;

    // `name` goes into error messages. When `readableBytes` >= json.size() + kPadding (for
    // example a std::string whose capacity was reserved), the text is parsed in place; otherwise
    // it is copied once into a padded buffer.
    model::Result<model::TracePtr> read(std::string_view json, const std::string& name,
                                        std::size_t readableBytes = 0) const;
};

}  // namespace wl::io
