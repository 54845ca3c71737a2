#pragma once

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include "app/RunSession.h"
#include "model/Trace.h"

namespace wl::app {

// One trace open in the window: a loaded file, the result of a run, or a bundled sample, with
// what the user needs to know about where it came from. Immutable once made and shared
// (std::shared_ptr<const TraceDocument>) between the window's parts; the Trace inside is shared
// read-only with worker threads.
struct TraceDocument {
    enum class Origin { File, Run, Sample };

    Origin origin = Origin::File;
    model::TracePtr trace;
    QString title;  // short: "reduce async ×8 pinned #3", "trace.json.gz"
    QString path;   // file or resource path (empty for runs and rank jobs)
    // The name Export offers, without extension: "trace", "hta_sampled.merged" for a job.
    QString exportStem;
    // Runs, and traces `warpline run` wrote (their parameters, from the metadata): what the run
    // panel shows while the document is current.
    std::optional<RunRequest> request;
    bool checkPassed = true;   // runs only: the workload's result check
    QString checkText;         // runs only
    QString summaryText;       // runs only
    double wallTimeMs = 0.0;   // runs only
    double timedPartMs = 0.0;  // runs only: copies + kernels (reduce) or the loop (power)

    static std::shared_ptr<const TraceDocument> fromFile(model::TracePtr trace, const QString& path,
                                                         Origin origin = Origin::File);
    // A job's per-rank traces merged into one (io::loadRankJob): "2 ranks: a.json.gz and more".
    static std::shared_ptr<const TraceDocument> fromJob(model::TracePtr trace,
                                                        const QStringList& rankPaths);
    static std::shared_ptr<const TraceDocument> fromRun(const RunRequest& request,
                                                        const RunOutcome& outcome, int runNumber);
};

using DocumentPtr = std::shared_ptr<const TraceDocument>;

// A file name without its trace extension (.json, .json.gz, .pt.trace.json.gz, .gz).
QString traceFileStem(const QString& path);
// The merged trace's name for ranks' files: what their stems share, without the rank number and
// the separators before it, and ".merged" (hta_sampled_rank-0/-1 -> "hta_sampled.merged", as
// `record` names a merged trace); "ranks.merged" when the names share nothing.
QString jobExportStem(const QStringList& rankPaths);

// "reduce async, 8 streams, pinned" — the parameters of a request in words.
QString describeRequest(const RunRequest& request);

// The status bar's line on a run: its title, its result check and its wall time.
QString lastRunSummary(const TraceDocument& doc);

}  // namespace wl::app
