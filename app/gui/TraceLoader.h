#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <functional>

#include "app/gui/JobTracker.h"
#include "io/RankJob.h"
#include "model/Result.h"
#include "model/Trace.h"

namespace wl::app {

// Reads and parses a trace file (or a ":/..." resource); blocking. Injectable for tests.
using TraceLoadFn = std::function<model::Result<model::TracePtr>(const QString& path)>;
TraceLoadFn defaultTraceLoader();

// Loads traces off the UI thread. Only the latest request counts: opening another file while one
// loads drops the older result when it arrives. Owned by the window; waits for its workers on
// destruction.
class TraceLoader : public QObject {
    Q_OBJECT

public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void setLoadFunction(TraceLoadFn load) { m_load = std::move(load); }
    void load(const QString& path);
    // Opens the per-rank traces of a distributed job (files, or folders of them) as one trace
    // (io::loadRankJob: read in parallel, aligned, one process group per rank).
    void loadJob(const QStringList& paths);
    bool isLoading() const { return m_jobs.isRunning(); }

signals:
    void loadingChanged(bool loading);
    void loaded(const QString& path, const wl::model::Result<wl::model::TracePtr>& result);
    void jobLoaded(const QStringList& paths, const wl::model::Result<wl::io::RankJob>& result);

private:
    TraceLoadFn m_load;
    QThreadPool m_pool;
    JobTracker m_jobs{this};
};

}  // namespace wl::app
