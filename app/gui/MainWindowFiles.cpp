// MainWindow's file actions: open (one trace, or a job's per-rank traces), export (Chrome trace
// JSON on a worker, the view as PNG) and Compare With, with their dialogs. The dialogs never
// start in a pseudo-filesystem, and only a folder that took a file is remembered (dialogFolder,
// AppSettings).
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QRegularExpression>
#include <QTabWidget>

#include "app/gui/AppSettings.h"
#include "app/gui/MainWindow.h"
#include "io/TraceFile.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

bool MainWindow::exportChromeTrace(const QString& path) {
    const DocumentPtr doc = currentDocument();
    if (!doc) {
        showError(tr("There is no trace to export: open or run one first."));
        return false;
    }
    m_progressLabel->setText(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
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
    m_compareFirst.reset();
    m_compareNext = second;
    m_loadingOrigin = TraceDocument::Origin::Sample;
    m_loader->load(first);
}

void MainWindow::compareWith(const QString& path) {
    m_compareFirst = currentDocument();
    if (!m_compareFirst) {
        showError(tr("Open a trace first: Compare With puts another trace beside it."));
        return;
    }
    openFile(path);
}

void MainWindow::compareWithInteractive() {
    if (!currentDocument()) {
        showError(tr("Open a trace first: Compare With puts another trace beside it."));
        return;
    }
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare With"), dir, tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
    if (path.isEmpty())
        return;
    m_settings.setValue("paths/open", QFileInfo(path).absolutePath());
    compareWith(path);
}

void MainWindow::openRankTracesInteractive() {
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open Rank Traces (one per rank)"), dir,
                                      tr("Traces (*.json *.json.gz *.gz);;All files (*)"));
    if (paths.isEmpty())
        return;
    m_settings.setValue("paths/open", QFileInfo(paths.front()).absolutePath());
    openRankJob(paths);
}

void MainWindow::openInteractive() {
    const QString dir = dialogFolder(m_settings.value("paths/open").toString(), false);
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Trace"), dir, tr("Chrome traces (*.json *.json.gz *.gz);;All files (*)"));
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

void MainWindow::openRankJob(const QStringList& paths) {
    if (paths.isEmpty())
        return;
    m_loadingOrigin = TraceDocument::Origin::File;
    m_progressLabel->setText(tr("Opening %n rank trace(s)...", nullptr, int(paths.size())));
    m_loader->loadJob(paths);
}

void MainWindow::onJobLoaded(const QStringList& paths, const model::Result<io::RankJob>& result) {
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

}  // namespace wl::app
