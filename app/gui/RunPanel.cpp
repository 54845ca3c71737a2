#include "app/gui/RunPanel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "workloads/catalog/RunCatalog.h"

namespace wl::app {
namespace {

using workloads::RunOption;

QString hintFor(const QString& workload, bool async, bool graph) {
    if (workload == QLatin1String(workloads::kPower)) {
        if (async && graph)
            return QObject::tr(
                "Async with CUDA graphs: each batch of steps is captured once and replayed "
                "with one cudaGraphLaunch, instead of two launches per step.");
        return async ? QObject::tr(
                           "Async: residual and x copied with cudaMemcpyAsync and an "
                           "event; the next batch is queued at once, the host does its "
                           "I/O while the GPU computes.")
                     : QObject::tr(
                           "Baseline: blocking copies at every check; the GPU idles while "
                           "the host prints and writes its checkpoint.");
    }
    return async ? QObject::tr(
                       "Async: the array is split into chunks on N non-blocking streams, "
                       "so copies of one chunk overlap kernels of another.")
                 : QObject::tr(
                       "Baseline: one stream, synchronous copies. Pageable memory makes "
                       "every copy go through a staging buffer.");
}

// A spin box over the option's widest range in the catalog (capped at what a QSpinBox holds), with
// 0 below it where 0 means the workload's default. Named after the option ("--size") for tests.
QSpinBox* optionSpinBox(RunOption id, QWidget* parent) {
    const workloads::OptionSpec& option = workloads::runOption(id);
    const workloads::ParamRange range = option.widest();
    auto* spin = new QSpinBox(parent);
    spin->setObjectName(QString::fromUtf8(option.name));
    const auto cap = static_cast<std::int64_t>(std::numeric_limits<int>::max());
    spin->setRange(option.zeroMeansDefault ? 0 : static_cast<int>(std::min(range.min, cap)),
                   static_cast<int>(std::min(range.max, cap)));
    return spin;
}

// "default (100,000,000)", "default (8192)": the workload's default as the special text of a
// field's 0.
QString defaultText(RunOption id, const QString& workload) {
    const workloads::ParamRange* range = workloads::runOption(id).rangeFor(workload.toStdString());
    if (range == nullptr)
        return {};
    // Four digits read best without a separator ("8192"), longer numbers with ("100,000,000").
    const qlonglong value = range->defaultValue;
    const QString number =
        value < 10'000 ? QString::number(value) : QLocale(QLocale::English).toString(value);
    return QObject::tr("default (%1)").arg(number);
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout();
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_workload = new QComboBox(this);
    for (const workloads::WorkloadSpec& workload : workloads::workloadSpecs()) {
        m_workload->addItem(QString::fromUtf8(workload.title), QString::fromUtf8(workload.name));
    }
    form->addRow(tr("&Workload"), m_workload);

    auto* modeRow = new QHBoxLayout();
    m_baseline = new QRadioButton(tr("&Baseline"), this);
    m_async = new QRadioButton(tr("&Async"), this);
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->addButton(m_baseline);
    m_modeGroup->addButton(m_async);
    m_baseline->setChecked(true);
    modeRow->addWidget(m_baseline);
    modeRow->addWidget(m_async);
    modeRow->addStretch(1);
    form->addRow(tr("Mode"), modeRow);

    m_streams = optionSpinBox(RunOption::Streams, this);
    m_streams->setToolTip(tr("Number of CUDA streams the async version uses (%1-%2)")
                              .arg(m_streams->minimum())
                              .arg(m_streams->maximum()));
    form->addRow(tr("&Streams"), m_streams);

    m_size = optionSpinBox(RunOption::Size, this);
    m_size->setSingleStep(1'000'000);
    m_size->setGroupSeparatorShown(true);
    m_size->setToolTip(tr("Elements (reduce) or matrix dimension (power); 0 = the default"));
    form->addRow(tr("Si&ze"), m_size);

    m_repeat = optionSpinBox(RunOption::Repeat, this);
    m_repeat->setToolTip(
        tr("Reductions per chunk (the seed uses 50 to make compute visible); "
           "0 = the default"));
    form->addRow(tr("&Repeat"), m_repeat);

    m_steps = optionSpinBox(RunOption::Steps, this);
    m_steps->setToolTip(
        tr("Most power-iteration steps (the loop stops earlier once the residual "
           "is small enough); 0 = the default"));
    form->addRow(tr("S&teps"), m_steps);

    m_devices = optionSpinBox(RunOption::Devices, this);
    m_devices->setToolTip(
        tr("Reduce: split the array over GPUs 0..N-1. Baseline uses them one after another; "
           "async all at once, the sums combined on GPU 0 with peer copies"));
    form->addRow(tr("&Devices (GPUs)"), m_devices);
    m_form = form;
    layout->addLayout(form);

    m_pinned = new QCheckBox(tr("&Pinned host memory"), this);
    m_pinned->setToolTip(
        tr("Page-locked host buffers: copies can run asynchronously and at full "
           "PCIe speed"));
    m_sharedStream = new QCheckBox(tr("Shared-stream &bug ([stream] * n)"), this);
    m_sharedStream->setToolTip(
        tr("Reduce async: every chunk on the same stream, the classic "
           "mistake: N streams asked for, one used"));
    m_gpuMetrics = new QCheckBox(tr("&GPU metrics (PM sampling)"), this);
    m_gpuMetrics->setToolTip(
        tr("Sample SM activity and warp occupancy during the run (locks GPU "
           "clocks while active)"));
    m_graph = new QCheckBox(tr("CUDA grap&hs (power async)"), this);
    m_graph->setToolTip(
        tr("Power iteration, async: capture each batch of steps once as a CUDA graph and "
           "replay it, the usual cure for a loop bound by kernel launches. Compare then runs "
           "async without and with graphs."));
    layout->addWidget(m_pinned);
    layout->addWidget(m_sharedStream);
    layout->addWidget(m_graph);
    layout->addWidget(m_gpuMetrics);

    auto* buttons = new QHBoxLayout();
    m_run = new QPushButton(tr("Run"), this);
    m_run->setDefault(true);
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setToolTip(tr("Run the baseline, then the async version with the same parameters"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setVisible(false);
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_compare, 1);
    buttons->addWidget(m_cancel);
    layout->addLayout(buttons);

    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_hint);
    m_deviceLabel = new QLabel(this);
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_deviceLabel);
    layout->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_compare, &QPushButton::clicked, this, &RunPanel::compareRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancelRequested);
    auto changed = [this] {
        updateState();
        emit requestChanged();
    };
    connect(m_workload, &QComboBox::currentIndexChanged, this, changed);
    connect(m_modeGroup, &QButtonGroup::buttonToggled, this, changed);
    for (QSpinBox* spin : {m_streams, m_size, m_repeat, m_steps, m_devices}) {
        connect(spin, &QSpinBox::valueChanged, this, changed);
    }
    for (QCheckBox* box : {m_pinned, m_sharedStream, m_graph, m_gpuMetrics}) {
        connect(box, &QCheckBox::toggled, this, changed);
    }
    setDevice(false, tr("Looking for a CUDA device..."));
}

RunRequest RunPanel::request() const {
    RunRequest r;
    r.workload = m_workload->currentData().toString().toStdString();
    r.mode = m_async->isChecked() ? workloads::kAsync : workloads::kBaseline;
    r.streams = m_streams->value();
    r.pinned = m_pinned->isChecked();
    r.size = m_size->value();
    r.repeat = m_repeat->value();
    r.steps = m_steps->value();
    r.devices = takes(RunOption::Devices) ? m_devices->value() : 1;
    r.sharedStreamBug = m_sharedStream->isChecked();
    r.graph = m_graph->isChecked() && m_graph->isEnabled();
    r.gpuMetrics = m_gpuMetrics->isChecked();
    return r;
}

void RunPanel::setRequest(const RunRequest& r) {
    const int index = m_workload->findData(QString::fromStdString(r.workload));
    m_workload->setCurrentIndex(index >= 0 ? index : 0);
    (r.mode == workloads::kAsync ? m_async : m_baseline)->setChecked(true);
    m_streams->setValue(r.streams);
    m_pinned->setChecked(r.pinned);
    m_size->setValue(
        static_cast<int>(std::clamp<std::int64_t>(r.size, 0, std::numeric_limits<int>::max())));
    m_repeat->setValue(r.repeat);
    m_steps->setValue(r.steps);
    m_devices->setValue(r.devices);
    m_sharedStream->setChecked(r.sharedStreamBug);
    m_graph->setChecked(r.graph);
    m_gpuMetrics->setChecked(r.gpuMetrics);
    updateState();
}

std::pair<RunRequest, RunRequest> RunPanel::comparison(const RunRequest& request) {
    RunRequest first = request;
    RunRequest second = request;
    if (request.graph && request.workload == workloads::kPower) {
        first.mode = second.mode = workloads::kAsync;
        first.graph = false;
        return {first, second};
    }
    first.mode = workloads::kBaseline;
    second.mode = workloads::kAsync;
    first.graph = second.graph = false;
    return {first, second};
}

bool RunPanel::takes(RunOption id) const {
    const std::string workload = m_workload->currentData().toString().toStdString();
    return workloads::runOption(id).rangeFor(workload) != nullptr;
}

void RunPanel::setDevice(bool available, const QString& text) {
    m_deviceAvailable = available;
    m_deviceText = text;
    updateState();
}

void RunPanel::setBusy(bool busy) {
    m_busy = busy;
    updateState();
}

void RunPanel::updateState() {
    const QString workload = m_workload->currentData().toString();
    const bool reduce = workload == QLatin1String(workloads::kReduce);
    const bool async = m_async->isChecked();
    m_sharedStream->setEnabled(reduce && async);
    m_graph->setEnabled(!reduce && async);
    // A field shows where the workload takes its option (repeat: reduce; steps: power iteration),
    // its 0 the workload's default.
    const std::pair<QSpinBox*, RunOption> fields[] = {{m_size, RunOption::Size},
                                                      {m_repeat, RunOption::Repeat},
                                                      {m_steps, RunOption::Steps},
                                                      {m_devices, RunOption::Devices}};
    for (const auto& [spin, id] : fields) {
        m_form->setRowVisible(spin, takes(id));
        if (workloads::runOption(id).zeroMeansDefault)
            spin->setSpecialValueText(defaultText(id, workload));
    }
    m_streams->setEnabled(async);
    m_hint->setText(hintFor(m_workload->currentData().toString(), async, m_graph->isChecked()));

    const bool canRun = m_deviceAvailable && !m_busy;
    m_run->setEnabled(canRun);
    m_compare->setEnabled(canRun);
    m_cancel->setVisible(m_busy);
    QString why;
    if (!m_deviceAvailable) {
        why = tr("Run is unavailable: %1").arg(m_deviceText);
    } else if (m_busy) {
        why = tr("A run is in progress");
    }
    m_run->setToolTip(why.isEmpty() ? tr("Run the workload under the tracer (Ctrl+R)") : why);
    m_compare->setToolTip(why.isEmpty()
                              ? tr("Run the baseline, then the async version with the same "
                                   "parameters (Ctrl+Shift+R)")
                              : why);
    if (m_deviceAvailable) {
        m_deviceLabel->setText(tr("Device: <b>%1</b>").arg(m_deviceText.toHtmlEscaped()));
        m_deviceLabel->setStyleSheet(QString());
    } else {
        m_deviceLabel->setText(tr("Run is unavailable: %1").arg(m_deviceText.toHtmlEscaped()));
        m_deviceLabel->setStyleSheet(QStringLiteral("color: #9a3b00;"));
    }
}

}  // namespace wl::app
