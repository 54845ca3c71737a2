#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/Result.h"
#include "model/Time.h"
#include "model/Trace.h"

namespace wl::io {

// How the ranks of a job were put on one time axis.
enum class RankAlignment : std::uint8_t {
    WallClock,  // every trace says when it ran by the host's wall clock
    Range,     // each rank's first instance of a chosen NVTX / user-annotation range starts at once
    Start,     // each trace's first event starts at once
    OneClock,  // recorded together on one host's clock (`record` of a torchrun job): no shift
};
// "wall_clock", "range", "start", "one_clock"
const char* toString(RankAlignment alignment);

// Reports progress: a fraction in 0..1 and what is being done ("reading 3 of 8 traces").
using RankJobProgressFn = std::function<void(double fraction, const std::string& label)>;

struct RankJobOptions {
    enum class Align : std::uint8_t {
        // Wall clock when every trace has it, else `alignRange` when it is set and every rank has
        // such a range, else the traces' starts; the result says which and why.
        Auto,
        WallClock,  // an Error naming the first file without a wall clock
        Range,      // an Error naming the first file without `alignRange` (which must be set)
        Start,
    };
    Align align = Align::Auto;
    // A range matches when its name is this one, or is this one with other numbers
    // ("ProfilerStep#0" matches "ProfilerStep#551"; analysis::foldDigits).
    std::string alignRange;
    // Files read at once; 0: one per hardware thread.
    unsigned threads = 0;
    // Called from the reading threads, one call at a time: as the files' bytes are read (0..0.9
    // of the whole) and as the merge goes.
    RankJobProgressFn progress;
    // Polled between files and inside each file's read (ReadControl): once set, the reads stop
    // and loading ends with an Error.
    const std::atomic<bool>* cancel = nullptr;
};

// One rank of a loaded job: where it came from and how it was placed.
struct RankSource {
    std::int32_t rank = -1;
    std::string path;
    bool rankFromTrace = false;  // the trace named its rank; false: given by the file order
    std::string host;            // the trace's "host" metadata; empty when it has none
    std::int64_t pid = -1;       // the traced process; -1 when unknown
    std::string label;           // "rank 3 · node7 · pid 4242": names its rows
    // Added to the trace's own times to put them on the job's time axis (MergeInput).
    model::TimeNs clockOffsetNs = 0;
};

// A distributed job (torchrun, mpirun, Slurm: one trace per rank) loaded as one trace. The trace
// is all the viewer and the analysis need: each process carries its rank (Process::rank), and the
// metadata says how the ranks were aligned ("rank alignment", "rank alignment mode": wall_clock /
// range / start), where each came from ("rank R.file") and how it was moved ("rank R.clock offset
// ns"), besides each rank's own facts ("rank R.label", "rank R.host", ...; mergeTraces).
struct RankJob {
    model::TracePtr trace;
    RankAlignment alignment = RankAlignment::Start;
    // A sentence for the window and the command line: "aligned by host wall clock", "aligned at
    // each rank's first 'ProfilerStep#'", "aligned at each trace's start: rank 1 (b.json) has no
    // clock anchor".
    std::string alignmentText;
    std::vector<RankSource> ranks;  // by rank
    // What the user should know but that did not stop the load (world sizes that differ, ranks
    // numbered by the file order, ...).
    std::vector<std::string> warnings;
};

// The trace files that `paths` name: files as they are, folders by their *.json and *.json.gz
// files (*.pt.trace.json included; hidden files left out), in natural order ("rank-2" before
// "rank-10"). An Error for a path that does not exist, a folder without trace files, or a file
// named twice.
model::Result<std::vector<std::string>> rankJobFiles(const std::vector<std::string>& paths);

// The ranks that the traces of one recorded run name (warpline record's "rank", from the
// launcher's variables), in their order, when every trace names one and no two the same: the
// ranks of a torchrun or mpirun job. Else all -1: a program and the helpers it started, or
// workers that inherited their parent's RANK, are processes of one program, not ranks.
std::vector<std::int32_t> distinctRanksOf(const std::vector<model::TracePtr>& traces);
// How a trace of rank `rank` names its rows in a merged job, as loadRankJob names them:
// "rank 3 · node7 · pid 4242" (host and pid when the trace says them).
std::string rankLabelOf(const model::Trace& trace, std::int32_t rank);

// Loads the traces (in parallel, one reader per file) and merges them into one trace with a
// process group per rank. A rank is what the trace says (warpline record's "rank", the PyTorch
// profiler's distributedInfo.rank), else the lowest number no other file takes, in file order; two
// files of one rank are an Error naming both, and so is a job's merged trace among them. Any file
// that fails to load is an Error that names it: nothing is merged without it.
model::Result<RankJob> loadRankJob(const std::vector<std::string>& files,
                                   const RankJobOptions& options = {});

// The merge of loadRankJob, for traces already loaded: `paths` name them (one per trace). Traces
// moved in are released as they are merged (mergeTraces).
model::Result<RankJob> mergeRankJob(std::vector<model::TracePtr> traces,
                                    const std::vector<std::string>& paths,
                                    const RankJobOptions& options = {});

}  // namespace wl::io
