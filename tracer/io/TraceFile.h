#pragma once

#include <string>
#include <string_view>

#include "io/ReadControl.h"
#include "model/Result.h"
#include "model/Trace.h"

namespace wl::io {

// Loading and saving traces by path: sniffs the format (Chrome trace JSON, array or object form,
// plain or gzip-compressed) and picks the reader/writer. Never returns a partial trace: any
// problem is an Error with the file and the byte offset.
model::Result<model::TracePtr> loadTrace(const std::string& path, const ReadControl& control = {});

// Same, from bytes already in memory (plain or gzip); `name` is used in error messages.
model::Result<model::TracePtr> parseTrace(std::string_view bytes, const std::string& name,
                                          const ReadControl& control = {});

// Writes Chrome trace JSON; gzip-compressed when the path ends in ".gz". Writes to a temporary file
// in the same folder and renames it, so a failed export leaves no half-written file.
model::Status saveTrace(const model::Trace& trace, const std::string& path);

}  // namespace wl::io
