#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <functional>

#include "app/gui/TraceDocument.h"
#include "io/RankJob.h"
#include "io/ReadControl.h"
#include "model/Result.h"
#include "model/Trace.h"
#include "ui/common/JobTracker.h"

namespace wl::app {

// Reads and parses a trace file (or a ":/..." resource); blocking. `control`: the load's cancel
// flag and progress, for the reader to poll and report. Injectable for tests.
using TraceLoadFn = std::function<model::Result<model::TracePtr>(const QString& path,
                                                                 const io::ReadControl& control)>;
TraceLoadFn defaultTraceLoader();

// Why a trace is being loaded and what follows it. It travels with the load and comes back with
// the result, so the window keeps nothing of it meanwhile: a load that a newer one supersedes
// takes its intent with it (a File > Open made while a sample pair loads is a plain open).
struct LoadIntent {
    enum class Source {
        Open,         // File > Open, the command line, openFile()
        Drop,         // a file dropped on the window
        Recent,       // File > Open Recent
        Sample,       // File > Open Sample, the first start's sample
        SamplePair,   // File > Compare Samples: either trace of the pair
        CompareWith,  // File > Compare With
        RankJob,      // a distributed job's per-rank traces, opened as one
    };

    Source source = Source::Open;
    QStringList paths;        // the trace (one path), or a job's per-rank traces (files, folders)
    DocumentPtr compareWith;  // shown first in Compare, beside the loaded trace (null: no compare)
    QString next;             // a sample pair's second trace, loaded (and compared) after this one

    QString path() const { return paths.value(0); }
    // A sample's document says it is one; every other is a file (Open Recent remembers it).
    TraceDocument::Origin origin() const {
        return source == Source::Sample || source == Source::SamplePair
                   ? TraceDocument::Origin::Sample
                   : TraceDocument::Origin::File;
    }
};

// Loads traces off the UI thread. Only the latest request counts: opening another file while one
// loads stops the older read (its token's flag reaches the reader) and drops its result and
// intent. Owned by the window; on destruction the load in flight is stopped, then waited for.
class TraceLoader : public QObject {
    Q_OBJECT

public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void setLoadFunction(TraceLoadFn load) { m_load = std::move(load); }
    // Loads `intent.path()`; loaded() answers with the intent.
    void load(LoadIntent intent);
    // Opens the per-rank traces of a distributed job (`intent.paths`: files, or folders of them)
    // as one trace (io::loadRankJob: read in parallel, aligned, one process group per rank);
    // jobLoaded() answers.
    void loadJob(LoadIntent intent);
    bool isLoading() const { return m_jobs.isRunning(); }
    // Stops the load in flight: its reader stops at its next check, and loaded() (or
    // jobLoaded()) answers with an Error whose message is io::kReadCancelled.
    void stop() { m_jobs.requestStop(); }

signals:
    void loadingChanged(bool loading);
    // How far the newest load is, as its reader reports it: a fraction in 0..1 and what it is
    // doing ("read 120 of 2,048 MB", "read 3 of 8 traces").
    void progressChanged(double fraction, const QString& label);
    void loaded(const wl::app::LoadIntent& intent,
                const wl::model::Result<wl::model::TracePtr>& result);
    void jobLoaded(const wl::app::LoadIntent& intent,
                   const wl::model::Result<wl::io::RankJob>& result);

private:
    // Runs `work` on the pool; `deliver(intent, result)` emits its answer if it is still the
    // newest.
    template <class Work, class Deliver>
    void start(LoadIntent intent, Work work, Deliver deliver);

    TraceLoadFn m_load;
    QThreadPool m_pool;
    ui::JobTracker m_jobs{this};
};

}  // namespace wl::app
