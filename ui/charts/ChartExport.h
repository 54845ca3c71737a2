#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <vector>

class QWidget;

namespace wl::ui::charts {

// A chart's data as CSV (RFC 4180: a cell with a comma, a quote or a line break is quoted, its
// quotes doubled), the header first.
QString csvText(const QStringList& header, const std::vector<QStringList>& rows);

// Writes the widget as drawn (at the screen's pixel ratio) to a PNG file, or the CSV text to a
// file, whole or not at all (QSaveFile). False with the reason in `error` when it cannot.
bool writePng(QWidget* widget, const QString& path, QString* error);
bool writeCsv(const QString& text, const QString& path, QString* error);

// Where the charts' "Save Chart as PNG…" and "Save Data as CSV…" (and the Query panel's Save
// CSV…) are answered: the window asks for a file and writes it with writePng or writeCsv (the
// dialogs are app/'s), so no dialog opens inside ui/. One per process, on the GUI thread.
class ExportRequests : public QObject {
    Q_OBJECT
public:
    static ExportRequests& instance();

signals:
    // `widget` as drawn, as a PNG named from `baseName` ("kernels" -> "kernels.png").
    void pngRequested(QWidget* widget, const QString& baseName);
    // `csv` as a file named from `baseName`.
    void csvRequested(const QString& csv, const QString& baseName);
};

}  // namespace wl::ui::charts
