#include "app/gui/TraceLoader.h"

#include <QFile>

#include "io/TraceFile.h"

namespace wl::app {

TraceLoadFn defaultTraceLoader() {
    return [](const QString& path) -> model::Result<model::TracePtr> {
        if (path.startsWith(QLatin1String(":/"))) {
            // A bundled resource: io reads bytes from memory just as well.
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                return model::Error{"cannot open the bundled trace", path.toStdString(), -1};
            }
            const QByteArray bytes = file.readAll();
            return io::parseTrace(std::string_view(bytes.constData(), bytes.size()),
                                  path.toStdString());
        }
        return io::loadTrace(path.toStdString());
    };
}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), m_load(defaultTraceLoader()) {
    m_pool.setMaxThreadCount(2);
}

TraceLoader::~TraceLoader() {
    m_jobs.abandon();
    m_pool.waitForDone();
}

void TraceLoader::load(const QString& path) {
    const bool wasLoading = isLoading();
    const TraceLoadFn loadFn = m_load;
    m_jobs.start(
        m_pool, [loadFn, path] { return loadFn(path); },
        [this, path](model::Result<model::TracePtr> result) {
            emit loadingChanged(false);
            emit loaded(path, result);
        });
    if (!wasLoading)
        emit loadingChanged(true);
}

void TraceLoader::loadJob(const QStringList& paths) {
    const bool wasLoading = isLoading();
    std::vector<std::string> names;
    for (const QString& p : paths)
        names.push_back(p.toStdString());
    m_jobs.start(
        m_pool,
        [names]() -> model::Result<io::RankJob> {
            auto files = io::rankJobFiles(names);
            if (!files.ok())
                return files.error();
            return io::loadRankJob(files.value());  // one reader per file, all cores
        },
        [this, paths](model::Result<io::RankJob> result) {
            emit loadingChanged(false);
            emit jobLoaded(paths, result);
        });
    if (!wasLoading)
        emit loadingChanged(true);
}

}  // namespace wl::app
