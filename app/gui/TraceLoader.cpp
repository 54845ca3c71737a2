#include "app/gui/TraceLoader.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <memory>

#include "io/TraceFile.h"

namespace wl::app {

TraceLoadFn defaultTraceLoader() {
    return
        [](const QString& path, const io::ReadControl& control) -> model::Result<model::TracePtr> {
            if (path.startsWith(QLatin1String(":/"))) {
                // A bundled resource: io reads bytes from memory just as well.
                QFile file(path);
                if (!file.open(QIODevice::ReadOnly)) {
                    return model::Error{"cannot open the bundled trace", path.toStdString(), -1};
                }
                const QByteArray bytes = file.readAll();
                return io::parseTrace(std::string_view(bytes.constData(), bytes.size()),
                                      path.toStdString(), control);
            }
            return io::loadTrace(path.toStdString(), control);
        };
}

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), m_load(defaultTraceLoader()) {
    m_pool.setMaxThreadCount(2);
}

TraceLoader::~TraceLoader() {
    m_jobs.abandon();
    m_pool.waitForDone();
}

template <class Work, class Deliver>
void TraceLoader::start(LoadIntent intent, Work work, Deliver deliver) {
    const bool wasLoading = isLoading();
    m_jobs.startJob(m_pool, std::move(work),
                    [this, intent = std::move(intent), deliver](auto result) {
                        emit loadingChanged(false);
                        deliver(intent, result);
                    });
    if (!wasLoading)
        emit loadingChanged(true);
}

void TraceLoader::load(LoadIntent intent) {
    const QString path = intent.path();
    start(
        std::move(intent),
        [this, loadFn = m_load, path](const ui::JobToken& job) {
            io::ReadControl control;
            control.cancel = job.flag();
            // (Both are called on the reading thread, the slices first.)
            auto slices = std::make_shared<std::uint64_t>(0);
            control.slicesMade = [slices](std::uint64_t made) { *slices = made; };
            control.progress = [this, job, path, slices](std::uint64_t doneBytes,
                                                         std::uint64_t totalBytes) {
                if (totalBytes == 0)
                    return;
                const double fraction =
                    static_cast<double>(doneBytes) / static_cast<double>(totalBytes);
                QString label = tr("Opening %1: %2 of %3 MB read")
                                    .arg(QFileInfo(path).fileName())
                                    .arg(QLocale().toString(doneBytes >> 20))
                                    .arg(QLocale().toString(totalBytes >> 20));
                if (*slices > 0)
                    label += tr(", %1 slices").arg(QLocale().toString(*slices));
                // (Runs only while this job is the newest, so `this` is alive then.)
                job.post([this, fraction, label] { emit progressChanged(fraction, label); });
            };
            return loadFn(path, control);
        },
        [this](const LoadIntent& done, const model::Result<model::TracePtr>& result) {
            emit loaded(done, result);
        });
}

void TraceLoader::loadJob(LoadIntent intent) {
    std::vector<std::string> names;
    for (const QString& p : intent.paths)
        names.push_back(p.toStdString());
    start(
        std::move(intent),
        [this, names](const ui::JobToken& job) -> model::Result<io::RankJob> {
            auto files = io::rankJobFiles(names);
            if (!files.ok())
                return files.error();
            if (job.isCancelled())  // superseded while the folders were listed
                return model::Error{io::kReadCancelled, {}, -1};
            io::RankJobOptions options;
            options.cancel = job.flag();  // reaches every file's read
            options.progress = [this, job](double fraction, const std::string& label) {
                job.post([this, fraction, label = QString::fromStdString(label)] {
                    emit progressChanged(fraction, label);
                });
            };
            return io::loadRankJob(files.value(), options);  // one reader per file, all cores
        },
        [this](const LoadIntent& done, const model::Result<io::RankJob>& result) {
            emit jobLoaded(done, result);
        });
}

}  // namespace wl::app
