#include "app/gui/RecentFiles.h"

#include <QFileInfo>

namespace wl::app {
namespace {
constexpr auto kKey = "recentFiles";
}

QStringList RecentFiles::list() const {
    return m_settings.value(kKey).toStringList();
}

void RecentFiles::add(const QString& path) {
    const QString absolute =
        path.startsWith(QLatin1String(":/")) ? path : QFileInfo(path).absoluteFilePath();
    QStringList files = list();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxEntries)
        files.removeLast();
    m_settings.setValue(kKey, files);
}

void RecentFiles::remove(const QString& path) {
    QStringList files = list();
    files.removeAll(path);
    m_settings.setValue(kKey, files);
}

void RecentFiles::clear() {
    m_settings.remove(kKey);
}

}  // namespace wl::app
