#pragma once

#include <ostream>

#include "analysis/Ranks.h"
#include "io/JsonWriter.h"
#include "io/RankJob.h"
#include "model/Trace.h"

namespace wl::app {

// The rank part of `warpline analyze` on a job's traces, after the usual analysis of the merged
// trace: how the ranks were aligned, a table of the ranks (busy, idle, kernel and NCCL time), the
// stragglers of the ranges every rank repeats, the rank × time overview and the collectives
// matched across the ranks (CollectiveReport.h). The JSON form writes
// the "ranks" key into the one object the command prints (README.md lists its keys). What the
// merged trace says is all it needs (a job's trace opened again); `job`, when the traces were
// just merged, adds its warnings and whether each trace named its rank.
void appendRankJson(io::JsonWriter& out, const model::Trace& trace,
                    const analysis::RankStats& stats, const io::RankJob* job = nullptr);
void printRankText(std::ostream& out, const model::Trace& trace, const analysis::RankStats& stats,
                   const io::RankJob* job = nullptr);

}  // namespace wl::app
