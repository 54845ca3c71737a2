#pragma once

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "app/RunSession.h"
#include "ui/common/JobTracker.h"

namespace wl::app {

// Runs one request, blocking (the default is validateRun + runTraced). Injectable so tests can use
// a fake long run.
using RunnerFn = std::function<model::Result<RunOutcome>(const RunRequest&, const ProgressFn&,
                                                         const std::atomic<bool>*)>;
RunnerFn defaultRunner();

// Names the CUDA device runs go to, or says why there is none (the default asks runDevice()).
using DeviceProbeFn = std::function<model::Result<std::string>()>;

// What a batch of runs (one Run, or the two runs of Compare) gave back.
struct RunBatchResult {
    std::vector<RunRequest> requests;
    std::vector<RunOutcome> outcomes;   // one per finished request, in order
    std::optional<model::Error> error;  // the first failure; later requests did not run
    bool cancelled = false;
};

// Executes runs on a worker thread (one at a time: a GPU run wants the device to itself) and
// reports progress and the result on the main thread. The device probe runs on the same thread
// (the first CUDA call, which may take seconds, happens where the runs make theirs). Owned by the
// window; its destructor cancels the run and waits for the worker.
class RunController : public QObject {
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    void setRunner(RunnerFn runner) { m_runner = std::move(runner); }
    bool isRunning() const { return m_runs.isRunning(); }
    bool isProbingDevice() const { return m_probe.isRunning(); }

    // Starts the requests in order on the worker; false (and nothing happens) when one runs.
    bool start(std::vector<RunRequest> requests);
    // Asks the running batch to stop at its next check point.
    void cancel();
    // Asks `probe` on the worker; deviceProbed() answers.
    void probeDevice(DeviceProbeFn probe);

signals:
    void runningChanged(bool running);
    void progressChanged(double fraction, const QString& label);
    void finished(const wl::app::RunBatchResult& result);
    void deviceProbed(const wl::model::Result<std::string>& device);

private:
    RunnerFn m_runner;
    QThreadPool m_pool;
    ui::JobTracker m_runs{this};
    ui::JobTracker m_probe{this};
};

}  // namespace wl::app
