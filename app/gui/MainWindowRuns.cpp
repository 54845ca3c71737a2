// MainWindow's runs: the run controller's signals, the device probe's answer, Run and Compare (on
// the run controller's worker), Cancel, and what a finished batch shows.
#include <QAction>
#include <optional>

#include "app/gui/AppSettings.h"
#include "app/gui/MainWindow.h"
#include "app/gui/RunPanel.h"
#include "app/gui/StatusLine.h"
#include "app/gui/WindowActions.h"

namespace wl::app {

void MainWindow::connectRuns() {
    connect(m_runs, &RunController::runningChanged, this, [this](bool running) {
        runPanel()->setBusy(running);
        m_actions->run()->setEnabled(m_deviceAvailable && !running);
        m_actions->compareRuns()->setEnabled(m_deviceAvailable && !running);
        m_actions->cancelRun()->setEnabled(running);
        onBusyChanged();
    });
    connect(m_runs, &RunController::progressChanged, this, &MainWindow::showProgress);
    connect(m_runs, &RunController::finished, this, &MainWindow::onRunFinished);
    connect(m_runs, &RunController::deviceProbed, this,
            [this](const model::Result<std::string>& device) {
                showDevice(device);
                emit deviceProbed();
            });
    connect(runPanel(), &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(runPanel(), &RunPanel::compareRequested, this, &MainWindow::startCompare);
    connect(runPanel(), &RunPanel::cancelRequested, this, &MainWindow::cancelRun);
}

void MainWindow::probeDevice(const DeviceProbeFn& probe, bool inBackground) {
    if (!inBackground) {
        showDevice(probe());
        return;
    }
    // Until the answer comes, runs are unavailable and say why; traces open meanwhile.
    m_deviceText = tr("still looking for a CUDA GPU");
    runPanel()->setDevice(false, m_deviceText);
    m_actions->run()->setEnabled(false);
    m_actions->compareRuns()->setEnabled(false);
    m_status->setDeviceText(tr("GPU: looking..."));
    m_runs->probeDevice(probe);  // deviceProbed answers
}

void MainWindow::showDevice(const model::Result<std::string>& device) {
    m_deviceAvailable = device.ok();
    m_deviceText = device.ok() ? QString::fromStdString(device.value())
                               : QString::fromStdString(device.error().message);
    const QString text = device.ok() ? QString::fromStdString(device.value())
                                     : QString::fromStdString(device.error().message);
    runPanel()->setDevice(m_deviceAvailable, text);
    m_actions->run()->setEnabled(m_deviceAvailable);
    m_actions->compareRuns()->setEnabled(m_deviceAvailable);
    if (!m_deviceAvailable)
        m_status->setRunText(tr("Runs need a CUDA GPU; traces open as usual"));
    m_status->setDevice(m_deviceAvailable ? tr("GPU: %1").arg(text) : tr("No GPU"), text);
    m_documents->setDeviceAvailable(m_deviceAvailable);
    updateRunDock();
}

void MainWindow::startRun() {
    if (const std::optional<RunRequest> request = requestToRun(tr("Run")))
        startRuns({*request}, tr("Starting %1...").arg(describeRequest(*request)));
}

void MainWindow::startCompare() {
    if (const std::optional<RunRequest> request = requestToRun(tr("Compare"))) {
        const auto [first, second] = RunPanel::comparison(*request);
        startRuns({first, second}, second.graph
                                       ? tr("Comparing async without and with CUDA graphs...")
                                       : tr("Comparing baseline and async..."));
    }
}

std::optional<RunRequest> MainWindow::requestToRun(const QString& what) {
    if (!m_deviceAvailable) {
        showError(tr("%1 is unavailable: %2").arg(what, m_deviceText));
        emit runFinished(false);
        return std::nullopt;
    }
    if (m_runs->isRunning())
        return std::nullopt;
    const RunRequest request = runPanel()->request();
    saveRunRequest(m_settings, request);
    return request;
}

void MainWindow::startRuns(std::vector<RunRequest> requests, const QString& label) {
    m_views->message()->clearMessage();
    m_status->setRunProgress(0.0);
    m_status->setActivity(label);
    m_runs->start(std::move(requests));
}

void MainWindow::cancelRun() {
    if (!m_runs->isRunning())
        return;
    m_runs->cancel();
    m_status->setActivity(tr("Cancelling..."));
}

void MainWindow::onRunFinished(const RunBatchResult& result) {
    for (std::size_t i = 0; i < result.outcomes.size(); ++i)
        m_documents->addRun(result.requests[i], result.outcomes[i]);
    if (result.outcomes.size() == 2 && result.requests.size() == 2) {
        const DocumentHistory& docs = m_documents->documents();
        m_documents->compare(docs.at(docs.size() - 2), docs.at(docs.size() - 1));
    }
    const bool ok = !result.error && !result.cancelled;
    if (result.error) {
        const QString what = QString::fromStdString(result.error->describe());
        const QString which =
            result.requests.size() > 1
                ? tr("The %1 run failed: ")
                      .arg(QString::fromStdString(result.requests[result.outcomes.size()].mode))
                : tr("The run failed: ");
        showError(which + what);
        m_status->setRunText(tr("Last run failed: %1").arg(what));
    } else if (result.cancelled) {
        showInfo(tr("The run was cancelled."));
        m_status->setRunText(tr("Last run cancelled"));
    } else if (const DocumentPtr doc = currentDocument()) {
        m_status->setRunText(lastRunSummary(*doc));
        m_status->keepRunTextAsToolTip();
        if (!doc->checkPassed) {
            showError(tr("The result check failed: %1").arg(doc->checkText));
        } else if (result.outcomes.size() == 2) {
            // The speedup itself is told by Compare once both runs are analysed.
            showInfo(tr("Compared baseline and async: both runs are in the Trace box above."));
        }
    }
    emit runFinished(ok && (!currentDocument() || currentDocument()->checkPassed));
}

QString MainWindow::lastRunText() const {
    return m_status->runText();
}

void MainWindow::setRunRequest(const RunRequest& request) {
    runPanel()->setRequest(request);
}

RunRequest MainWindow::runRequest() const {
    return runPanel()->request();
}

}  // namespace wl::app
