#pragma once

#include <QString>
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
    QString path;   // file or resource path (empty for runs)
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
    static std::shared_ptr<const TraceDocument> fromRun(const RunRequest& request,
                                                        const RunOutcome& outcome, int runNumber);
};

using DocumentPtr = std::shared_ptr<const TraceDocument>;

// "reduce async, 8 streams, pinned" — the parameters of a request in words.
QString describeRequest(const RunRequest& request);

// The status bar's line on a run: its title, its result check and its wall time.
QString lastRunSummary(const TraceDocument& doc);

// The parameters of the run that wrote `trace` when `warpline run` did (producer "warpline run";
// the metadata names workload, mode, streams, pinned, size, repeat, shared_stream, and graph and
// devices since they came); nullopt for any other trace.
std::optional<RunRequest> runRequestOf(const model::Trace& trace);

}  // namespace wl::app
