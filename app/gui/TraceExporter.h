#pragma once

#include <QObject>
#include <QString>
#include <QThreadPool>

#include "model/Result.h"
#include "model/Trace.h"
#include "ui/common/JobTracker.h"

namespace wl::app {

// Writes traces (Chrome JSON, gzip-compressed for ".gz") off the UI thread: a large trace takes
// seconds to write, and the window stays responsive meanwhile. The trace is immutable, so the
// writer shares it with the window. Owned by the window; waits for its writer on destruction.
class TraceExporter : public QObject {
    Q_OBJECT

public:
    explicit TraceExporter(QObject* parent = nullptr);
    ~TraceExporter() override;

    void save(model::TracePtr trace, const QString& path);
    bool isSaving() const { return m_jobs.isRunning(); }

signals:
    void savingChanged(bool saving);
    void saved(const QString& path, const wl::model::Status& status);

private:
    QThreadPool m_pool;
    ui::JobTracker m_jobs{this};
};

}  // namespace wl::app
