#include "app/gui/RunController.h"

namespace wl::app {

RunnerFn defaultRunner() {
    return [](const RunRequest& request, const ProgressFn& progress,
              const std::atomic<bool>* cancel) -> model::Result<RunOutcome> {
        return runTraced(request, progress, cancel);  // validates the request first
    };
}

RunController::RunController(QObject* parent) : QObject(parent), m_runner(defaultRunner()) {
    m_pool.setMaxThreadCount(1);
    // CUDA contexts and CUPTI subscribers are per process; a long-lived thread keeps things simple.
    m_pool.setExpiryTimeout(-1);
}

RunController::~RunController() {
    m_runs.requestStop();  // a GPU run ends at its next check point, not with the process
    m_pool.waitForDone();
}

bool RunController::start(std::vector<RunRequest> requests) {
    if (isRunning() || requests.empty())
        return false;
    const RunnerFn runner = m_runner;
    const double count = static_cast<double>(requests.size());

    auto work = [this, runner, requests, count](const ui::JobToken& job) {
        // Progress comes from the worker; it reaches this object while the batch is current.
        auto post = [this, &job](double fraction, const std::string& label) {
            job.post([this, fraction, label = QString::fromStdString(label)] {
                emit progressChanged(fraction, label);
            });
        };
        const std::atomic<bool>* cancel = job.flag();
        RunBatchResult batch;
        batch.requests = requests;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            if (cancel->load()) {
                batch.cancelled = true;
                break;
            }
            const QString prefix = requests.size() > 1
                                       ? QStringLiteral("%1 %2/%3: ")
                                             .arg(QString::fromStdString(requests[i].mode))
                                             .arg(i + 1)
                                             .arg(requests.size())
                                       : QString();
            ProgressFn progress = [&, i](double f, const std::string& label) {
                post((static_cast<double>(i) + std::clamp(f, 0.0, 1.0)) / count,
                     prefix.toStdString() + label);
            };
            progress(0.0, "starting");
            model::Result<RunOutcome> outcome = runner(requests[i], progress, cancel);
            if (!outcome) {
                // A run stopped by Cancel is not a failure to report.
                if (cancel->load()) {
                    batch.cancelled = true;
                } else {
                    batch.error = outcome.error();
                }
                break;
            }
            batch.outcomes.push_back(std::move(outcome.value()));
        }
        if (cancel->load() && batch.outcomes.size() < requests.size() && !batch.error) {
            batch.cancelled = true;
        }
        return batch;
    };

    m_runs.startJob(m_pool, std::move(work), [this](const RunBatchResult& result) {
        emit runningChanged(false);
        emit finished(result);
    });
    emit runningChanged(true);
    return true;
}

void RunController::cancel() {
    m_runs.requestStop();  // the batch still reports, as cancelled
}

void RunController::probeDevice(DeviceProbeFn probe) {
    m_probe.startJob(m_pool, std::move(probe), [this](const model::Result<std::string>& device) {
        emit deviceProbed(device);
    });
}

}  // namespace wl::app
