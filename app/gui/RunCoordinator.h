#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/RunController.h"
#include "model/Result.h"

class QSettings;

namespace wl::app {

class DocumentController;
class MessageBar;
class RunPanel;
class StatusLine;
class WindowActions;

// The window's runs: the device probe and what it found (runs need a CUDA GPU; traces open
// without one), Run and Compare from the run panel or the Run menu on the RunController's worker,
// Cancel, and what a finished batch shows: its documents go to the DocumentController (a pair is
// compared), its outcome to the status line and the message bar. The actions and the run panel
// are enabled while a run can start. Owns the RunController. GUI thread.
class RunCoordinator : public QObject {
    Q_OBJECT

public:
    struct Views {
        RunPanel& panel;
        WindowActions& actions;
        StatusLine& status;
        MessageBar& message;
    };
    // `runner`: empty for validateRun + runTraced.
    RunCoordinator(RunnerFn runner, DocumentController& documents, const Views& views,
                   QSettings& settings, QObject* parent);

    bool isRunning() const { return m_runs->isRunning(); }
    bool isProbingDevice() const { return m_runs->isProbingDevice(); }

    // Asks `probe` for the device; `inBackground`: on the run controller's worker (deviceProbed
    // answers), else now.
    void probeDevice(const DeviceProbeFn& probe, bool inBackground);
    // False until the probe has answered; the device's name, or why runs are unavailable.
    bool deviceAvailable() const { return m_deviceAvailable; }
    QString deviceText() const { return m_deviceText; }

    // The run panel's request: one run, or the pair it compares (baseline and async, or async
    // without and with graphs). Nothing without a device (the message bar says why) or while a
    // run is going.
    void startRun();
    void startCompare();
    void cancelRun();

signals:
    // The background probe answered (after deviceChanged).
    void deviceProbed();
    // deviceAvailable() and deviceText() were set (by either probe) and the views show them.
    void deviceChanged();
    // A run started or ended (isRunning()).
    void runningChanged();
    // How far the batch is: a fraction in 0..1 and what is being done.
    void progressChanged(double fraction, const QString& label);
    // A batch ended: `ok` when every run finished and its result check passed.
    void runFinished(bool ok);

private:
    void showDevice(const model::Result<std::string>& device);
    // The panel's request, saved, when a run can start now (see startRun).
    std::optional<RunRequest> requestToRun(const QString& what);
    void startRuns(std::vector<RunRequest> requests, const QString& label);
    void onRunFinished(const RunBatchResult& result);
    void showError(const QString& text);
    void showInfo(const QString& text);

    RunController* m_runs = nullptr;  // its worker: runs and the probe
    DocumentController& m_documents;
    Views m_views;
    QSettings& m_settings;
    bool m_deviceAvailable = false;
    QString m_deviceText;
};

}  // namespace wl::app
