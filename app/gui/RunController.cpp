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
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

bool RunController::start(std::vector<RunRequest> requests) {
    if (isRunning() || requests.empty())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    const RunnerFn runner = m_runner;
    const quint64 job = m_jobs.currentJob() + 1;  // the id start() below assigns
    const double count = static_cast<double>(requests.size());

    // Progress comes from the worker; it is posted to this object and dropped once stale.
    auto post = [this, job](double fraction, std::string label) {
        QMetaObject::invokeMethod(
            this,
            [this, job, fraction, label = QString::fromStdString(label)] {
                if (job == m_jobs.currentJob() && m_jobs.isRunning()) {
                    emit progressChanged(fraction, label);
                }
            },
            Qt::QueuedConnection);
    };

    auto work = [runner, cancel, requests, count, post]() {
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
            model::Result<RunOutcome> outcome = runner(requests[i], progress, cancel.get());
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

    m_jobs.start(m_pool, std::move(work), [this](RunBatchResult result) {
        emit runningChanged(false);
        emit finished(result);
    });
    emit runningChanged(true);
    return true;
}

void RunController::cancel() {
    if (m_cancel)
        m_cancel->store(true);
}

}  // namespace wl::app
