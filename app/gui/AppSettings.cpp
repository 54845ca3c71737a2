#include "app/gui/AppSettings.h"

#include <QDir>
#include <QFileInfo>

#include "workloads/catalog/RunCatalog.h"

namespace wl::app {

RunRequest loadRunRequest(const QSettings& s) {
    RunRequest r;
    // Names and limits from the run catalog; anything else saved falls back to the defaults.
    const std::string workload = s.value("run/workload").toString().toStdString();
    if (workloads::findWorkload(workload) != nullptr)
        r.workload = workload;
    const std::string mode = s.value("run/mode").toString().toStdString();
    if (workloads::parseMode(mode).ok())
        r.mode = mode;
    r.streams = std::clamp(s.value("run/streams", 1).toInt(), workloads::kMinStreams,
                           workloads::kMaxStreams);
    r.pinned = s.value("run/pinned", false).toBool();
    r.size = std::max<qlonglong>(0, s.value("run/size", 0).toLongLong());
    r.repeat = std::max(0, s.value("run/repeat", 0).toInt());
    r.steps = std::max(0, s.value("run/steps", 0).toInt());
    r.sharedStreamBug = s.value("run/sharedStreamBug", false).toBool();
    r.graph = s.value("run/graph", false).toBool();
    r.devices = std::clamp(s.value("run/devices", 1).toInt(), 1, workloads::kMaxReduceDevices);
    r.gpuMetrics = s.value("run/gpuMetrics", false).toBool();
    return r;
}

void saveRunRequest(QSettings& s, const RunRequest& r) {
    s.setValue("run/workload", QString::fromStdString(r.workload));
    s.setValue("run/mode", QString::fromStdString(r.mode));
    s.setValue("run/streams", r.streams);
    s.setValue("run/pinned", r.pinned);
    s.setValue("run/size", static_cast<qlonglong>(r.size));
    s.setValue("run/repeat", r.repeat);
    s.setValue("run/steps", r.steps);
    s.setValue("run/sharedStreamBug", r.sharedStreamBug);
    s.setValue("run/graph", r.graph);
    s.setValue("run/devices", r.devices);
    s.setValue("run/gpuMetrics", r.gpuMetrics);
}

bool loadFullKernelNames(const QSettings& s) {
    return s.value("view/fullKernelNames", false).toBool();
}

void saveFullKernelNames(QSettings& s, bool full) {
    s.setValue("view/fullKernelNames", full);
}

// Off unless asked for: on a busy trace every wait in view buries the rows under arrows, and the
// selected op's own are drawn anyway (as Perfetto and Nsight Systems draw the selection's flows).
// A new key, so the old default (on) stored by earlier versions does not carry over.
bool loadShowDependencies(const QSettings& s) {
    return s.value("view/allDependencies", false).toBool();
}

void saveShowDependencies(QSettings& s, bool show) {
    s.setValue("view/allDependencies", show);
}

QString dialogFolder(const QString& remembered, bool forWriting) {
    const QFileInfo info(remembered);
    const QString path = info.canonicalFilePath();  // links resolved: /proc reached by a link too
    const bool pseudo = path == QLatin1String("/proc") || path == QLatin1String("/sys") ||
                        path == QLatin1String("/dev") || path.startsWith(QLatin1String("/proc/")) ||
                        path.startsWith(QLatin1String("/sys/")) ||
                        path.startsWith(QLatin1String("/dev/"));
    const bool usable = !remembered.isEmpty() && info.isDir() && info.isReadable() &&
                        (!forWriting || info.isWritable()) && !pseudo;
    return usable ? path : QDir::homePath();
}

}  // namespace wl::app
