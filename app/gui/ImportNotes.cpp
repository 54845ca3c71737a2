#include "app/gui/ImportNotes.h"

#include <QObject>
#include <QStringList>

namespace wl::app {

namespace {

void appendList(QStringList& out, const QString& heading, const std::vector<std::string>& messages,
                std::uint64_t total) {
    if (total == 0)
        return;
    if (!out.isEmpty())
        out << QString();
    out << heading.arg(total);
    for (const std::string& m : messages)
        out << QStringLiteral("• ") + QString::fromStdString(m);
    if (total > messages.size())
        out << QObject::tr("(%1 more not kept)").arg(total - messages.size());
}

}  // namespace

QString importNotesListing(const model::Diagnostics& d) {
    QStringList lines;
    appendList(lines, QObject::tr("Warnings (%1)"), d.warnings, d.warningCount);
    appendList(lines, QObject::tr("Notes (%1): routine quirks of the tool that wrote the trace"),
               d.notes, d.noteCount);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace wl::app
