#pragma once

#include <ostream>

#include "analysis/Analysis.h"
#include "io/JsonWriter.h"
#include "model/Trace.h"

namespace wl::app {

// The analysis part of `warpline analyze`, after the import summary. The JSON form appends keys
// to the one object the command prints (the writer is inside that object, after its last key);
// the text form prints a readable report. Both describe the result's window.
void appendAnalysisJson(io::JsonWriter& out, const model::Trace& trace,
                        const analysis::AnalysisResult& result);
void printAnalysisText(std::ostream& out, const model::Trace& trace,
                       const analysis::AnalysisResult& result);

}  // namespace wl::app
