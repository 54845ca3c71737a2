// MainWindow's file actions and their dialogs: open (one trace, or a job's per-rank traces; the
// DocumentController loads them), export (Chrome trace JSON on a worker, the view as PNG),
// Compare With and Compare Samples. The dialogs never
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
    return m_documents->exportCurrent(path);  // on a worker: onExported says how it went
}

model::Status MainWindow::exportViewPng(const QString& path) {
    if (!currentDocument())
        return model::Error{"there is no view to export", path.toStdString(), -1};
    // What is on screen: the timeline, or Compare's two timelines and charts.
    if (!tabs()->currentWidget()->grab().save(path, "PNG")) {
        return model::Error{"could not write the image", path.toStdString(), -1};
    }
    return {};
}

void MainWindow::compareSamples(const QString& first, const QString& second) {
    LoadIntent intent{LoadIntent::Source::SamplePair, {first}};
    intent.next = second;  // loaded when the first has opened (onLoaded)
    m_documents->load(std::move(intent));
}

void MainWindow::compareWith(const QString& path) {
    LoadIntent intent{LoadIntent::Source::CompareWith, {path}, currentDocument()};
    if (!intent.compareWith) {
        showError(tr("Open a trace first: Compare With puts another trace beside it."));
        return;
    }
    m_documents->load(std::move(intent));
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
    m_documents->load({LoadIntent::Source::Open, {path}});
}

void MainWindow::openRankJob(const QStringList& paths) {
    m_documents->load({LoadIntent::Source::RankJob, paths});
}

void MainWindow::openBundledSample() {
    const QStringList samples = bundledSamples();
    if (!samples.isEmpty()) {
        m_status->setActivity(tr("Opening the sample trace..."));
        m_documents->load({LoadIntent::Source::Sample, {samples.front()}});
        return;
    }
    openTrace(syntheticSampleTrace(), QStringLiteral("synthetic-reduce-async"),
              TraceDocument::Origin::Sample);
    if (!m_deviceAvailable) {
        showInfo(
            tr("No GPU here, so this is a small hand-made sample shaped like a reduce run on "
               "4 streams. Open a real trace with Ctrl+O or drop one on the window."));
    }
}

void MainWindow::openTrace(model::TracePtr trace, const QString& title,
                           TraceDocument::Origin origin) {
    m_documents->add(TraceDocument::fromFile(std::move(trace), title, origin));
}

}  // namespace wl::app
