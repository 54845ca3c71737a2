// MainWindow's file actions: open (one trace, or a job's per-rank traces; each load carries its
// LoadIntent and gets it back with the result), export (Chrome trace JSON on a worker, the view as
// PNG), Compare With and Compare Samples, with their dialogs. The dialogs never
// start in a pseudo-filesystem, and only a folder that took a file is remembered (dialogFolder,
// AppSettings).
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTabWidget>

#include "app/gui/AppSettings.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "app/gui/StatusLine.h"
#include "io/TraceFile.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

namespace {

// The open dialogs' filter: every format Warpline reads, then each producer's own.
QString traceFileFilter() {
    return QObject::tr(
        "Traces (*.json *.json.gz *.gz *.sqlite *.nsys-rep *.qdrep);;Chrome traces (*.json "
        "*.json.gz *.gz);;Nsight Systems (*.sqlite *.nsys-rep *.qdrep);;All files (*)");
}

}  // namespace

bool MainWindow::exportChromeTrace(const QString& path) {
    const DocumentPtr doc = currentDocument();
    if (!doc) {
        showError(tr("There is no trace to export: open or run one first."));
        return false;
    }
    m_status->setActivity(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
    m_exporter->save(doc->trace, path);  // on a worker: onExported says how it went
    return true;
}

model::Status MainWindow::exportViewPng(const QString& path) {
    if (!currentDocument())
        return model::Error{"there is no view to export", path.toStdString(), -1};
    // What is on screen: the timeline, or Compare's two timelines and charts.
    if (!m_tabs->currentWidget()->grab().save(path, "PNG")) {
        return model::Error{"could not write the image", path.toStdString(), -1};
    }
    return {};
}

void MainWindow::compareSamples(const QString& first, const QString& second) {
    LoadIntent intent{LoadIntent::Source::SamplePair, {first}};
    intent.next = second;  // loaded when the first has opened (onLoaded)
    startLoad(std::move(intent));
}

void MainWindow::compareWith(const QString& path) {
    LoadIntent intent{LoadIntent::Source::CompareWith, {path}, currentDocument()};
    if (!intent.compareWith) {
        showError(tr("Open a trace first: Compare With puts another trace beside it."));
        return;
    }
    startLoad(std::move(intent));
}

void MainWindow::compareWithInteractive() {
    if (!currentDocument()) {
        showError(tr("Open a trace first: Compare With puts another trace beside it."));
        return;
    }
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Compare With"), dir, traceFileFilter());
    if (path.isEmpty())
        return;
    m_settings.setValue("paths/open", QFileInfo(path).absolutePath());
    compareWith(path);
}

void MainWindow::openRankTracesInteractive() {
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open Rank Traces (one per rank)"), dir,
        tr("Traces (*.json *.json.gz *.gz *.sqlite *.nsys-rep *.qdrep);;All files (*)"));
    if (paths.isEmpty())
        return;
    m_settings.setValue("paths/open", QFileInfo(paths.front()).absolutePath());
    openRankJob(paths);
}

void MainWindow::openInteractive() {
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Trace"), dir, traceFileFilter());
    if (path.isEmpty())
        return;
    m_settings.setValue("paths/open", QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::exportChromeTraceInteractive() {
    const DocumentPtr doc = currentDocument();
    if (!doc)
        return;
    // A file's or job's own name; a run's title in file-name characters.
    QString base = doc->exportStem.isEmpty() ? doc->title : doc->exportStem;
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("-"));
    const QString dir = dialogFolder(m_settings.value("paths/export").toString(), true);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chrome Trace"), QDir(dir).filePath(base + QStringLiteral(".json.gz")),
        tr("Compressed Chrome trace (*.json.gz);;Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    exportChromeTrace(path);
}

void MainWindow::onExported(const QString& path, const model::Status& status) {
    if (!status) {
        showError(tr("Export failed: %1").arg(QString::fromStdString(status.error().describe())));
        return;
    }
    // Only a folder that took the file is remembered.
    m_settings.setValue("paths/export", QFileInfo(path).absolutePath());
    showInfo(tr("Exported to %1 (opens in Perfetto and chrome://tracing).").arg(path));
    emit exported(path);
}

void MainWindow::exportViewPngInteractive() {
    const QString dir = dialogFolder(m_settings.value("paths/export").toString(), true);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export View as PNG"), QDir(dir).filePath(QStringLiteral("timeline.png")),
        tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (model::Status s = exportViewPng(path); !s) {
        showError(tr("Export failed: %1").arg(QString::fromStdString(s.error().describe())));
    } else {
        m_settings.setValue("paths/export", QFileInfo(path).absolutePath());
        showInfo(tr("Saved the view to %1.").arg(path));
    }
}

void MainWindow::openFile(const QString& path) {
    startLoad({LoadIntent::Source::Open, {path}});
}

void MainWindow::openRankJob(const QStringList& paths) {
    startLoad({LoadIntent::Source::RankJob, paths});
}

void MainWindow::startLoad(LoadIntent intent) {
    if (intent.paths.isEmpty())
        return;
    // Several files, or a folder: a job's per-rank traces.
    if (intent.paths.size() > 1 || QFileInfo(intent.path()).isDir())
        intent.source = LoadIntent::Source::RankJob;
    if (intent.source == LoadIntent::Source::RankJob) {
        m_status->setActivity(tr("Opening %n rank trace(s)...", nullptr, int(intent.paths.size())));
        m_loader->loadJob(std::move(intent));
        return;
    }
    if (intent.origin() == TraceDocument::Origin::File)
        m_status->setActivity(tr("Opening %1...").arg(QFileInfo(intent.path()).fileName()));
    m_loader->load(std::move(intent));  // onLoaded answers
}

void MainWindow::openBundledSample() {
    const QStringList samples = bundledSamples();
    if (!samples.isEmpty()) {
        m_status->setActivity(tr("Opening the sample trace..."));
        startLoad({LoadIntent::Source::Sample, {samples.front()}});
        return;
    }
    addDocument(TraceDocument::fromFile(syntheticSampleTrace(),
                                        QStringLiteral("synthetic-reduce-async"),
                                        TraceDocument::Origin::Sample));
    if (!m_deviceAvailable) {
        showInfo(
            tr("No GPU here, so this is a small hand-made sample shaped like a reduce run on "
               "4 streams. Open a real trace with Ctrl+O or drop one on the window."));
    }
}

void MainWindow::openTrace(model::TracePtr trace, const QString& title,
                           TraceDocument::Origin origin) {
    addDocument(TraceDocument::fromFile(std::move(trace), title, origin));
}

void MainWindow::onLoaded(const LoadIntent& intent, const model::Result<model::TracePtr>& result) {
    const QString path = intent.path();
    if (!result.ok()) {
        // Nothing to compare with, nor a pair to go on with: the intent ends here.
        showError(tr("Could not open %1: %2")
                      .arg(QFileInfo(path).fileName(),
                           QString::fromStdString(result.error().describe())));
        emit openFinished(false);
        return;
    }
    addDocument(TraceDocument::fromFile(result.value(), path, intent.origin()));
    if (!intent.next.isEmpty()) {
        // A sample pair: its second trace comes next, to be compared with this one.
        m_loader->load({LoadIntent::Source::SamplePair, {intent.next}, currentDocument()});
        return;  // openFinished comes with the second
    }
    if (const DocumentPtr& first = intent.compareWith) {
        showComparison(first, currentDocument(),
                       {QFileInfo(first->title).fileName(), QFileInfo(path).fileName()});
    }
    if (intent.origin() == TraceDocument::Origin::File) {
        m_recent.add(path);
        rebuildRecentMenu();
    }
    showLoadDiagnostics(path, result.value()->diagnostics(), intent.origin());
    emit openFinished(true);
}

void MainWindow::onJobLoaded(const LoadIntent& intent, const model::Result<io::RankJob>& result) {
    const QStringList& paths = intent.paths;
    if (!result.ok()) {
        showError(tr("Could not open the rank traces: %1")
                      .arg(QString::fromStdString(result.error().describe())));
        emit openFinished(false);
        return;
    }
    const io::RankJob& job = result.value();
    QStringList rankPaths;
    for (const auto& rank : job.ranks)
        rankPaths << QString::fromStdString(rank.path);
    addDocument(TraceDocument::fromJob(job.trace, rankPaths.isEmpty() ? paths : rankPaths));
    QString text = tr("Opened %1 ranks, %2.")
                       .arg(job.ranks.size())
                       .arg(QString::fromStdString(job.alignmentText));
    for (const std::string& w : job.warnings)
        text += QLatin1Char(' ') + QString::fromStdString(w);
    m_message->showMessage(
        job.warnings.empty() ? MessageBar::Level::Info : MessageBar::Level::Warning, text);
    emit openFinished(true);
}

void MainWindow::showLoadDiagnostics(const QString& path, const model::Diagnostics& diag,
                                     TraceDocument::Origin origin) {
    if (origin == TraceDocument::Origin::Sample && !m_deviceAvailable) {
        showInfo(tr("No GPU here, so this is %1, a sample recorded on a real GPU (more in File > "
                    "Open Sample). Open your own trace with Ctrl+O or drop it on the window.")
                     .arg(QFileInfo(path).fileName()));
    } else if (diag.lostData()) {
        showError(tr("This trace lost %1 records (tracer buffers were full): gaps may be "
                     "missing work.")
                      .arg(diag.droppedRecords));
    } else if (diag.warningCount > 0 || diag.noteCount > 0) {
        // Warnings in yellow; routine quirks of the producer (flow ends Kineto leaves unmatched,
        // ...) said quietly.
        const bool warn = diag.warningCount > 0;
        const auto& messages = warn ? diag.warnings : diag.notes;
        m_message->showMessage(
            warn ? MessageBar::Level::Warning : MessageBar::Level::Info,
            (warn ? tr("%1 warning(s) while reading %2; first: %3")
                  : tr("%1 note(s) on %2 (routine quirks of the tool that wrote it); first: %3"))
                .arg(warn ? diag.warningCount : diag.noteCount)
                .arg(QFileInfo(path).fileName(),
                     messages.empty() ? QString() : QString::fromStdString(messages.front())));
    } else {
        m_message->clearMessage();
    }
}

}  // namespace wl::app
