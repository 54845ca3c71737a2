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
// content, never by the file name. A new format is one new TraceReader and one line in
// TraceReaders.cpp. A format read from its file rather than from bytes in memory (an SQLite
// database, an Nsight Systems report) says so with readsFiles() and reads in readFile().
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

    // Whether the format is read from its file by path (readFile) instead of from its bytes:
    // loadTrace then never maps the file, and parseTrace (bytes in memory) says to open the file.
    virtual bool readsFiles() const { return false; }
    // Reads the file at `path` (readsFiles() readers). `control` as in read().
    virtual model::Result<model::TracePtr> readFile(const std::string& path,
                                                    const ReadControl& control) const {
        (void)control;
        return model::Error{"this format is not read from files", path, -1};
    }
};

// A format read from its file by path (an SQLite database, an Nsight Systems report): its bytes
// in memory are not enough, and reading them says to open the file itself.
class FileTraceReader : public TraceReader {
public:
    model::Result<model::TracePtr> read(std::string_view, const std::string& name, std::size_t,
                                        bool, const ReadControl&) const final {
        return model::Error{"a file in this format (" + std::string(formatName()) +
                                ") is read from the file, not from memory: open the file itself",
                            name, -1};
    }
    bool readsFiles() const final { return true; }
    model::Result<model::TracePtr> readFile(const std::string& path,
                                            const ReadControl& control) const override = 0;
};

// The reader for this content: the one that recognizes it, else the text reader of last resort
// (Chrome trace JSON, whose errors explain what is wrong with a JSON text). Content in a format
// Warpline knows of but does not read (a zip archive, a protobuf trace) is an Error that names
// that format and the formats Warpline reads.
model::Result<const TraceReader*> readerFor(std::string_view head);

}  // namespace wl::io
