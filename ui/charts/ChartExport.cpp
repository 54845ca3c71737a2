#include "ui/charts/ChartExport.h"

#include <QBuffer>
#include <QImage>
#include <QPixmap>
#include <QSaveFile>
#include <QWidget>

namespace wl::ui::charts {

namespace {

QString csvCell(const QString& cell) {
    if (!cell.contains(QLatin1Char(',')) && !cell.contains(QLatin1Char('"')) &&
        !cell.contains(QLatin1Char('\n')) && !cell.contains(QLatin1Char('\r'))) {
        return cell;
    }
    QString quoted = cell;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

void appendRow(QString& out, const QStringList& cells) {
    for (qsizetype i = 0; i < cells.size(); ++i) {
        if (i > 0) {
            out += QLatin1Char(',');
        }
        out += csvCell(cells[i]);
    }
    out += QLatin1String("\r\n");
}

bool writeBytes(const QByteArray& bytes, const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error != nullptr) {
            *error = QObject::tr("Could not write %1: %2").arg(path, file.errorString());
        }
        return false;
    }
    return true;
}

}  // namespace

QString csvText(const QStringList& header, const std::vector<QStringList>& rows) {
    QString out;
    appendRow(out, header);
    for (const QStringList& row : rows) {
        appendRow(out, row);
    }
    return out;
}

bool writePng(QWidget* widget, const QString& path, QString* error) {
    const QPixmap pixmap = widget->grab();
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) {
            if (error != nullptr) {
                *error = QObject::tr("Could not draw the chart as a PNG image");
            }
            return false;
        }
    }
    return writeBytes(bytes, path, error);
}

bool writeCsv(const QString& text, const QString& path, QString* error) {
    return writeBytes(text.toUtf8(), path, error);
}

ExportRequests& ExportRequests::instance() {
    static ExportRequests requests;
    return requests;
}

}  // namespace wl::ui::charts
