#include "app/gui/TraceExporter.h"

#include "io/TraceFile.h"

namespace wl::app {

TraceExporter::TraceExporter(QObject* parent) : QObject(parent) {
    m_pool.setMaxThreadCount(1);
}

TraceExporter::~TraceExporter() {
    // A write in progress finishes (saveTrace never leaves a half-written file behind), but
    // nobody hears of it.
    m_jobs.abandon();
    m_pool.waitForDone();
}

void TraceExporter::save(model::TracePtr trace, const QString& path) {
    const bool wasSaving = isSaving();
    m_jobs.startJob(
        m_pool,
        [trace = std::move(trace), file = path.toStdString()] {
            return io::saveTrace(*trace, file);
        },
        [this, path](model::Status status) {
            emit savingChanged(false);
            emit saved(path, status);
        });
    if (!wasSaving)
        emit savingChanged(true);
}

}  // namespace wl::app
