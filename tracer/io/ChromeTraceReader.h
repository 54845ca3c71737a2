#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "io/TraceReader.h"
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
class ChromeTraceReader : public TraceReader {
public:
    // Bytes the parser may read past the end of the text (they are never interpreted).
    static constexpr std::size_t kPadding = 64;

    // A large text is parsed a run of events at a time (io/JsonCutter.h): the parser's index then
    // covers one run instead of the whole file. Same trace, same errors, a fraction of the memory.
    struct Runs {
        std::size_t wholeBelowBytes = std::size_t{16} << 20;  // smaller texts: parsed whole
        std::size_t runBytes = std::size_t{4} << 20;          // about this much per run
        // When set, receives how many runs the last read parsed (0: it parsed the text whole,
        // as it does for small texts and for any text the runs leave to the whole read).
        std::size_t* runsParsed = nullptr;
        // The text is a private mapping of a file (loadTrace): the pages of runs already parsed
        // are given back to the system as the import goes on (a later look at one reads it back
        // from the file), so a large file never sits in memory whole.
        bool textIsFileMapping = false;
    };

    ChromeTraceReader() = default;
    explicit ChromeTraceReader(Runs runs) : m_runs(runs) {}

    // `name` goes into error messages. When `readableBytes` >= json.size() + kPadding (for
    // example a std::string whose capacity was reserved), the text is parsed in place, and must
    // then be writable: reading a large text borrows single bytes in it (the separators around a
    // run serve as its brackets) and puts them back before it returns. Otherwise the text is
    // copied once into a padded buffer. `control`: a cancel flag polled and progress reported
    // every few megabytes of the text, through the finishing passes too; a cancelled read is an
    // Error with message kReadCancelled and keeps nothing it built.
    model::Result<model::TracePtr> read(std::string_view json, const std::string& name,
                                        std::size_t readableBytes = 0,
                                        const ReadControl& control = {}) const;

    // TraceReader: JSON whose root is an array or an object (after white space and a byte
    // order mark); as the reader of last resort it also explains any other text.
    std::string_view formatName() const override { return "Chrome trace JSON"; }
    bool recognizes(std::string_view head) const override;
    model::Result<model::TracePtr> read(std::string_view text, const std::string& name,
                                        std::size_t readableBytes, bool textIsFileMapping,
                                        const ReadControl& control) const override;

private:
    Runs m_runs;
};

}  // namespace wl::io
