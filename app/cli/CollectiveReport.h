#pragma once

#include <ostream>

#include "analysis/Ranks.h"
#include "io/JsonWriter.h"

namespace wl::app {

// The collectives part of `warpline analyze` on a job (RankStats::collectives): how they were
// matched, each rank's count of last arrivals, lateness and waits, the rank most often last, the
// costliest late collectives and what could not be matched. The JSON form writes the
// "collectives" key into the "ranks" object (README.md lists its keys).
void appendCollectiveJson(io::JsonWriter& out, const analysis::RankStats& stats);
void printCollectiveText(std::ostream& out, const analysis::RankStats& stats);

}  // namespace wl::app
