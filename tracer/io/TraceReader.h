#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "io/ReadControl.h"
#include "model/Result.h"
#include "model/Trace.h"

namespace wl::io {

// The seam between trace formats and the rest of Warpline: a reader says whether some content
// is in its format and reads it into a Trace. loadTrace/parseTrace pick the reader by the
// content, never by the file name. A new format (an Nsight Systems SQLite export, say) is one
// new TraceReader and one line in TraceReaders.cpp.
class TraceReader {
public:
    virtual ~TraceReader() = default;

    // What users call the format ("Chrome trace JSON").
    virtual std::string_view formatName() const = 0;

    // Whether the content, given by its first bytes (decompressed), is in this format.
    virtual bool recognizes(std::string_view head) const = 0;

    // Reads the whole content. `readableBytes` and in-place reading as ChromeTraceReader::read
    // says; `textIsFileMapping`: the text is a private mapping of a file, whose pages the reader
    // may give back as it goes (they read back from the file). `control`: cancellation and
    // progress (io/ReadControl.h).
    virtual model::Result<model::TracePtr> read(std::string_view text, const std::string& name,
                                                std::size_t readableBytes, bool textIsFileMapping,
                                                const ReadControl& control) const = 0;
};

// The reader for this content: the one that recognizes it, else the text reader of last resort
// (Chrome trace JSON, whose errors explain what is wrong with a JSON text). Content in a format
// Warpline knows of but does not read (an SQLite database, a protobuf trace) is an Error that
// names that format and the formats Warpline reads.
model::Result<const TraceReader*> readerFor(std::string_view head);

}  // namespace wl::io
