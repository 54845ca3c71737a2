#include "ui/common/TrackTitles.h"

namespace wl::ui {

namespace {

QString qstr(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A GPU's group title, and what it is when it holds no work of its own (only allocations or a
// context): so it does not read as an idle GPU.
QString gpuTitle(const model::Trace& trace, model::ProcessIndex index, QString title) {
    if (!model::holdsGpuWork(trace, index))
        title += QStringLiteral(" · no GPU work");
    return title;
}

}  // namespace

QString trackTitle(const model::Trace& trace, const model::Track& track) {
    const std::string_view name = trace.str(track.nameId);
    if (!name.empty()) {
        return qstr(name);
    }
    const QString domain =
        track.domainId ? QStringLiteral(" · ") + qstr(trace.str(track.domainId)) : QString();
    switch (track.kind) {
        case model::TrackKind::HostApi:
            return QStringLiteral("CUDA API (tid %1)")
                .arg(QString::fromStdString(model::threadIdText(track.threadId)));
        case model::TrackKind::Nvtx:
            return QStringLiteral("NVTX (tid %1)")
                       .arg(QString::fromStdString(model::threadIdText(track.threadId))) +
                   domain;
        case model::TrackKind::NvtxAsync:
            return QStringLiteral("NVTX async") + domain;
        case model::TrackKind::GpuStream:
            return QStringLiteral("Stream %1").arg(track.streamId);
        case model::TrackKind::Sync:
            return QStringLiteral("Synchronization");
        case model::TrackKind::Memory:
            return QStringLiteral("Memory allocations");
        case model::TrackKind::NvtxProjection:
            return QStringLiteral("NVTX on the GPU") + domain;
        case model::TrackKind::GraphLaunches:
            return QStringLiteral("Graph launches (stream %1)").arg(track.streamId);
        case model::TrackKind::UnifiedMemory:
            return QString::fromUtf8(model::unifiedMemoryTrackName(track.unifiedMemoryKind));
        case model::TrackKind::Host:
            return QStringLiteral("Thread %1")
                .arg(QString::fromStdString(model::threadIdText(track.threadId)))
                .trimmed();
    }
    return QStringLiteral("Track");
}

QString processTitle(const model::Trace& trace, model::ProcessIndex index) {
    const model::Process& p = trace.processes()[index];
    const std::string_view name = trace.str(p.nameId);
    if (p.deviceId >= 0 && p.ownerPid >= 0 && !name.empty()) {
        // One of several processes' groups on this GPU (a merged recording): its own name says
        // whose work it shows.
        return gpuTitle(trace, index, qstr(name));
    }
    if (p.deviceId >= 0) {
        QString title = QStringLiteral("GPU %1").arg(p.deviceId);
        if (const model::DeviceProperties* dev = trace.device(p.deviceId);
            dev && !dev->name.empty()) {
            title += QStringLiteral(": ") + QString::fromStdString(dev->name);
        } else if (!name.empty()) {
            title += QStringLiteral(": ") + qstr(name);
        }
        return gpuTitle(trace, index, title);
    }
    if (model::isSyntheticId(p.pid)) {
        // A pid written as a name ("Spans"): the name is all there is to say.
        return name.empty() ? QStringLiteral("(unnamed process)") : qstr(name);
    }
    if (!name.empty()) {
        // Producers that already name the pid (record: "python3 (pid 4242)") keep their name.
        const QString title = qstr(name);
        const QString pidText = QStringLiteral("(pid %1)").arg(p.pid);
        return title.endsWith(pidText) ? title : title + QLatin1Char(' ') + pidText;
    }
    return QStringLiteral("Process %1").arg(p.pid);
}

}  // namespace wl::ui
