#pragma once

#include <QString>
#include <QStringList>

#include "app/gui/TraceDocument.h"

class QSettings;
class QWidget;

namespace wl::app {

// The File menu's dialogs: each asks for a path and answers it (empty when the user cancels).
// They open in the folder last used (never in a pseudo-filesystem: dialogFolder); an open
// dialog remembers the folder of the file chosen, a save dialog's folder is remembered only once
// a file was written there (rememberExportFolder), so a folder that failed is not offered again.
class FileDialogs {
public:
    FileDialogs(QWidget& parent, QSettings& settings) : m_parent(parent), m_settings(settings) {}

    // A trace to open (File > Open: "Open Trace"; Compare With: "Compare With").
    QString traceToOpen(const QString& title);
    // A job's per-rank traces, one per rank.
    QStringList rankTracesToOpen();
    // Where to export `doc` as Chrome trace JSON (named after its file, job or run).
    QString chromeTraceToSave(const TraceDocument& doc);
    // Where to save the view as PNG.
    QString pngToSave();
    // Where to save a chart as PNG, or a chart's or a query's data as CSV (`fileName`: the
    // name offered, "kernels.png").
    QString chartFileToSave(const QString& fileName);
    // A file was written at `path`: its folder is where the next save dialog opens.
    void rememberExportFolder(const QString& path);

private:
    QWidget& m_parent;
    QSettings& m_settings;
};

}  // namespace wl::app
