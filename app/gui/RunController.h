#pragma once

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "app/RunSession.h"
#include "app/gui/JobTracker.h"

namespace wl::app {

// Runs one request, blocking (the default is validateRun + runTraced). Injectable so tests can use
// a fake long run.
using RunnerFn = std::function<model::Result<RunOutcome>(const RunRequest&, const ProgressFn&,
                                                         const std::atomic<bool>*)>;
RunnerFn defaultRunner();

// What a batch of runs (one Run, or the two runs of Compare) gave back.
struct RunBatchResult {
    std::vector<RunRequest> requests;
    std::vector<RunOutcome> outcomes;   // one per finished request, in order
    std::optional<model::Error> error;  // the first failure; later requests did not run
    bool cancelled = false;
};

// Executes runs on a worker thread (one at a time: a GPU run wants the device to itself) and
// reports progress and the result on the main thread. Owned by the window; its destructor
// cancels the run and waits for the worker.
class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    void setRunner(RunnerFn runner) { m_runner = std::move(runner); }
    bool isRunning() const { return m_jobs.isRunning(); }

    // Starts the requests in order on the worker; false (and nothing happens) when one runs.
    bool start(std::vector<RunRequest> requests);
    // Asks the running batch to stop at its next check point.
    void cancel();

signals:
    void runningChanged(bool running);
    void progressChanged(double fraction, const QString& label);
    void finished(const wl::app::RunBatchResult& result);

private:
    RunnerFn m_runner;
    QThreadPool m_pool;
    JobTracker m_jobs{this};
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace wl::app
