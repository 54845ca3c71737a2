#include "app/gui/RunCoordinator.h"

#include <QAction>
#include <QSettings>

#include "app/gui/AppSettings.h"
#include "app/gui/DocumentController.h"
#include "app/gui/MessageBar.h"
#include "app/gui/RunPanel.h"
#include "app/gui/StatusLine.h"
#include "app/gui/WindowActions.h"

namespace wl::app {

RunCoordinator::RunCoordinator(RunnerFn runner, DocumentController& documents, const Views& views,
                               QSettings& settings, QObject* parent)
    : QObject(parent), m_documents(documents), m_views(views), m_settings(settings) {
    m_runs = new RunController(this);
    if (runner)
        m_runs->setRunner(std::move(runner));
    connect(m_runs, &RunController::runningChanged, this, [this](bool running) {
        m_views.panel.setBusy(running);
        m_views.actions.run()->setEnabled(m_deviceAvailable && !running);
        m_views.actions.compareRuns()->setEnabled(m_deviceAvailable && !running);
        m_views.actions.cancelRun()->setEnabled(running);
        emit runningChanged();
    });
    connect(m_runs, &RunController::progressChanged, this, &RunCoordinator::progressChanged);
    connect(m_runs, &RunController::finished, this, &RunCoordinator::onRunFinished);
    connect(m_runs, &RunController::deviceProbed, this,
            [this](const model::Result<std::string>& device) {
                showDevice(device);
                emit deviceProbed();
            });
    connect(&m_views.panel, &RunPanel::runRequested, this, &RunCoordinator::startRun);
    connect(&m_views.panel, &RunPanel::compareRequested, this, &RunCoordinator::startCompare);
    connect(&m_views.panel, &RunPanel::cancelRequested, this, &RunCoordinator::cancelRun);
    connect(m_views.actions.run(), &QAction::triggered, this, &RunCoordinator::startRun);
    connect(m_views.actions.compareRuns(), &QAction::triggered, this,
            &RunCoordinator::startCompare);
    connect(m_views.actions.cancelRun(), &QAction::triggered, this, &RunCoordinator::cancelRun);
}

void RunCoordinator::probeDevice(const DeviceProbeFn& probe, bool inBackground) {
    if (!inBackground) {
        showDevice(probe());
        return;
    }
    // Until the answer comes, runs are unavailable and say why; traces open meanwhile.
    m_deviceText = tr("still looking for a CUDA GPU");
    m_views.panel.setDevice(false, m_deviceText);
    m_views.actions.run()->setEnabled(false);
    m_views.actions.compareRuns()->setEnabled(false);
    m_views.status.setDeviceText(tr("GPU: looking..."));
    m_runs->probeDevice(probe);  // deviceProbed answers
}

void RunCoordinator::showDevice(const model::Result<std::string>& device) {
    m_deviceAvailable = device.ok();
    m_deviceText = device.ok() ? QString::fromStdString(device.value())
                               : QString::fromStdString(device.error().message);
    m_views.panel.setDevice(m_deviceAvailable, m_deviceText);
    m_views.actions.run()->setEnabled(m_deviceAvailable);
    m_views.actions.compareRuns()->setEnabled(m_deviceAvailable);
    if (!m_deviceAvailable)
        m_views.status.setRunText(tr("Runs need a CUDA GPU; traces open as usual"));
    m_views.status.setDevice(m_deviceAvailable ? tr("GPU: %1").arg(m_deviceText) : tr("No GPU"),
                             m_deviceText);
    m_documents.setDeviceAvailable(m_deviceAvailable);
    emit deviceChanged();
}

void RunCoordinator::startRun() {
    if (const std::optional<RunRequest> request = requestToRun(tr("Run")))
        startRuns({*request}, tr("Starting %1...").arg(describeRequest(*request)));
}

void RunCoordinator::startCompare() {
    if (const std::optional<RunRequest> request = requestToRun(tr("Compare"))) {
        const auto [first, second] = RunPanel::comparison(*request);
        startRuns({first, second}, second.graph
                                       ? tr("Comparing async without and with CUDA graphs...")
                                       : tr("Comparing baseline and async..."));
    }
}

std::optional<RunRequest> RunCoordinator::requestToRun(const QString& what) {
    if (!m_deviceAvailable) {
        showError(tr("%1 is unavailable: %2").arg(what, m_deviceText));
        emit runFinished(false);
        return std::nullopt;
    }
    if (m_runs->isRunning())
        return std::nullopt;
    const RunRequest request = m_views.panel.request();
    saveRunRequest(m_settings, request);
    return request;
}

void RunCoordinator::startRuns(std::vector<RunRequest> requests, const QString& label) {
    m_views.message.clearMessage();
    m_views.status.setRunProgress(0.0);
    m_views.status.setActivity(label);
    m_runs->start(std::move(requests));
}

void RunCoordinator::cancelRun() {
    if (!m_runs->isRunning())
        return;
    m_runs->cancel();
    m_views.status.setActivity(tr("Cancelling..."));
}

void RunCoordinator::onRunFinished(const RunBatchResult& result) {
    for (std::size_t i = 0; i < result.outcomes.size(); ++i)
        m_documents.addRun(result.requests[i], result.outcomes[i]);
    if (result.outcomes.size() == 2 && result.requests.size() == 2) {
        const DocumentHistory& docs = m_documents.documents();
        m_documents.compare(docs.at(docs.size() - 2), docs.at(docs.size() - 1));
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
        m_views.status.setRunText(tr("Last run failed: %1").arg(what));
    } else if (result.cancelled) {
        showInfo(tr("The run was cancelled."));
        m_views.status.setRunText(tr("Last run cancelled"));
    } else if (const DocumentPtr doc = m_documents.current()) {
        m_views.status.setRunText(lastRunSummary(*doc));
        m_views.status.keepRunTextAsToolTip();
        if (!doc->checkPassed) {
            showError(tr("The result check failed: %1").arg(doc->checkText));
        } else if (result.outcomes.size() == 2) {
            // The speedup itself is told by Compare once both runs are analysed.
            showInfo(tr("Compared baseline and async: both runs are in the Trace box above."));
        }
    }
    const DocumentPtr current = m_documents.current();
    emit runFinished(ok && (!current || current->checkPassed));
}

void RunCoordinator::showError(const QString& text) {
    m_views.message.showMessage(MessageBar::Level::Error, text);
}

void RunCoordinator::showInfo(const QString& text) {
    m_views.message.showMessage(MessageBar::Level::Info, text);
}

}  // namespace wl::app
