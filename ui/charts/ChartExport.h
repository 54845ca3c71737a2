#pragma once

#include <QString>
#include <QStringList>
#include <functional>
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

// Gives `chart` a context menu with "Save Chart as PNG…" and "Save Data as CSV…": each asks for a
// file (named from `baseName`, asked for then), writes it, and says in a message box why when it
// cannot. `csv` gives the data when asked.
void addExportMenu(QWidget* chart, std::function<QString()> baseName, std::function<QString()> csv);

}  // namespace wl::ui::charts
