// MainWindow's file actions: open (one trace, or a job's per-rank traces; the DocumentController
// loads them), export (Chrome trace JSON on a worker, the view as PNG), Compare With and Compare
// Samples; their dialogs are FileDialogs'.
#include <QTabWidget>

#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "app/gui/StatusLine.h"
#include "io/TraceFile.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {

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
    if (const QString path = m_dialogs.traceToOpen(tr("Compare With")); !path.isEmpty())
        compareWith(path);
}

void MainWindow::openRankTracesInteractive() {
    if (const QStringList paths = m_dialogs.rankTracesToOpen(); !paths.isEmpty())
        openRankJob(paths);
}

void MainWindow::openInteractive() {
    if (const QString path = m_dialogs.traceToOpen(tr("Open Trace")); !path.isEmpty())
        openFile(path);
}

void MainWindow::exportChromeTraceInteractive() {
    const DocumentPtr doc = currentDocument();
    if (!doc)
        return;
    if (const QString path = m_dialogs.chromeTraceToSave(*doc); !path.isEmpty())
        exportChromeTrace(path);
}

void MainWindow::onExported(const QString& path, const model::Status& status) {
    if (!status) {
        showError(tr("Export failed: %1").arg(QString::fromStdString(status.error().describe())));
        return;
    }
    m_dialogs.rememberExportFolder(path);
    showInfo(tr("Exported to %1 (opens in Perfetto and chrome://tracing).").arg(path));
    emit exported(path);
}

void MainWindow::exportViewPngInteractive() {
    const QString path = m_dialogs.pngToSave();
    if (path.isEmpty())
        return;
    if (model::Status s = exportViewPng(path); !s) {
        showError(tr("Export failed: %1").arg(QString::fromStdString(s.error().describe())));
    } else {
        m_dialogs.rememberExportFolder(path);
        showInfo(tr("Saved the view to %1.").arg(path));
    }
}

void MainWindow::saveChartFile(const QString& fileName,
                               const std::function<bool(const QString&, QString*)>& write) {
    const QString path = m_dialogs.chartFileToSave(fileName);
    if (path.isEmpty())
        return;
    QString error;
    if (!write(path, &error)) {
        showError(error);
    } else {
        m_dialogs.rememberExportFolder(path);
        showInfo(tr("Saved %1.").arg(path));
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
    if (!m_runs->deviceAvailable()) {
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
