#pragma once

#include <ostream>

#include "analysis/Analysis.h"
#include "analysis/Summary.h"
#include "io/JsonWriter.h"
#include "model/Trace.h"

namespace wl::app {

// The analysis part of `warpline analyze`, after the import summary. The JSON form appends keys
// to the one object the command prints (the writer is inside that object, after its last key);
// the text form prints a readable report. Both describe the result's window. With `summary`
// (analysis::computeSummary of the same result), the JSON gains a "summary" object (the
// iterations and their parts, the operators' top 20 by name, the memory peaks and what ran then,
// the ranks' computation and communication) and the text an "Iterations" block.
void appendAnalysisJson(io::JsonWriter& out, const model::Trace& trace,
                        const analysis::AnalysisResult& result,
                        const analysis::Summary* summary = nullptr);
void printAnalysisText(std::ostream& out, const model::Trace& trace,
                       const analysis::AnalysisResult& result,
                       const analysis::Summary* summary = nullptr);

}  // namespace wl::app
