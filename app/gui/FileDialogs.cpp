#include "app/gui/FileDialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

#include "app/gui/AppSettings.h"

namespace wl::app {
namespace {

constexpr const char* kOpenFolderKey = "paths/open";
constexpr const char* kExportFolderKey = "paths/export";

// The open dialogs' filter: every format Warpline reads, then each producer's own.
QString traceFileFilter() {
    return QObject::tr(
        "Traces (*.json *.json.gz *.gz *.sqlite *.nsys-rep *.qdrep);;Chrome traces (*.json "
        "*.json.gz *.gz);;Nsight Systems (*.sqlite *.nsys-rep *.qdrep);;All files (*)");
}

}  // namespace

QString FileDialogs::traceToOpen(const QString& title) {
    const QString dir = dialogFolder(m_settings.value(kOpenFolderKey).toString(), false);
    const QString path = QFileDialog::getOpenFileName(&m_parent, title, dir, traceFileFilter());
    if (!path.isEmpty())
        m_settings.setValue(kOpenFolderKey, QFileInfo(path).absolutePath());
    return path;
}

QStringList FileDialogs::rankTracesToOpen() {
    const QString dir = dialogFolder(m_settings.value(kOpenFolderKey).toString(), false);
    const QStringList paths = QFileDialog::getOpenFileNames(
        &m_parent, QObject::tr("Open Rank Traces (one per rank)"), dir, traceFileFilter());
    if (!paths.isEmpty())
        m_settings.setValue(kOpenFolderKey, QFileInfo(paths.front()).absolutePath());
    return paths;
}

QString FileDialogs::chromeTraceToSave(const TraceDocument& doc) {
    // A file's or job's own name; a run's title in file-name characters.
    QString base = doc.exportStem.isEmpty() ? doc.title : doc.exportStem;
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("-"));
    const QString dir = dialogFolder(m_settings.value(kExportFolderKey).toString(), true);
    return QFileDialog::getSaveFileName(
        &m_parent, QObject::tr("Export Chrome Trace"),
        QDir(dir).filePath(base + QStringLiteral(".json.gz")),
        QObject::tr("Compressed Chrome trace (*.json.gz);;Chrome trace (*.json)"));
}

QString FileDialogs::pngToSave() {
    const QString dir = dialogFolder(m_settings.value(kExportFolderKey).toString(), true);
    return QFileDialog::getSaveFileName(&m_parent, QObject::tr("Export View as PNG"),
                                        QDir(dir).filePath(QStringLiteral("timeline.png")),
                                        QObject::tr("PNG image (*.png)"));
}

QString FileDialogs::chartFileToSave(const QString& fileName) {
    const QString dir = dialogFolder(m_settings.value(kExportFolderKey).toString(), true);
    const bool png = fileName.endsWith(QLatin1String(".png"));
    return QFileDialog::getSaveFileName(
        &m_parent, png ? QObject::tr("Save Chart as PNG") : QObject::tr("Save Data as CSV"),
        QDir(dir).filePath(fileName),
        png ? QObject::tr("PNG image (*.png)") : QObject::tr("CSV file (*.csv)"));
}

void FileDialogs::rememberExportFolder(const QString& path) {
    m_settings.setValue(kExportFolderKey, QFileInfo(path).absolutePath());
}

}  // namespace wl::app
