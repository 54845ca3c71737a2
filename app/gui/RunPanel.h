#pragma once

#include <QString>
#include <QWidget>
#include <utility>

#include "app/RunSession.h"
#include "workloads/catalog/RunCatalog.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace wl::app {

// The run panel: workload parameters, Run, Compare (baseline then async with the same
// parameters) and Cancel. Knows nothing about threads; the window tells it whether a device is
// available and whether a run is in progress, and it enables its buttons accordingly.
class RunPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunPanel(QWidget* parent = nullptr);

    RunRequest request() const;
    void setRequest(const RunRequest& request);
    // The two runs Compare makes of `request`: baseline then async with the same parameters, or,
    // with CUDA graphs asked for, async without then with graphs (a graph needs the async loop).
    static std::pair<RunRequest, RunRequest> comparison(const RunRequest& request);

    // `text` is the device name when available, otherwise why runs are unavailable.
    void setDevice(bool available, const QString& text);
    void setBusy(bool busy);

    bool deviceAvailable() const { return m_deviceAvailable; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* cancelButton() const { return m_cancel; }

signals:
    void runRequested();
    void compareRequested();
    void cancelRequested();
    void requestChanged();

private:
    void updateState();
    // Whether the chosen workload takes the option (its field shows).
    bool takes(workloads::RunOption id) const;

    QComboBox* m_workload = nullptr;
    QRadioButton* m_baseline = nullptr;
    QRadioButton* m_async = nullptr;
    QButtonGroup* m_modeGroup = nullptr;
    QSpinBox* m_streams = nullptr;
    QCheckBox* m_pinned = nullptr;
    QSpinBox* m_size = nullptr;
    QSpinBox* m_repeat = nullptr;
    QSpinBox* m_steps = nullptr;
    QSpinBox* m_devices = nullptr;
    QFormLayout* m_form = nullptr;
    QCheckBox* m_sharedStream = nullptr;
    QCheckBox* m_graph = nullptr;
    QCheckBox* m_gpuMetrics = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_compare = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_deviceLabel = nullptr;
    bool m_deviceAvailable = false;
    QString m_deviceText;
    bool m_busy = false;
};

}  // namespace wl::app
