#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>

namespace wl::app {

// The most recently opened trace files, newest first, kept in QSettings (key "recentFiles").
// Main thread only.
class RecentFiles {
public:
    static constexpr int kMaxEntries = 10;

    explicit RecentFiles(QSettings& settings) : m_settings(settings) {}

    QStringList list() const;
    // Moves `path` (made absolute) to the front and trims the list.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    QSettings& m_settings;
};

}  // namespace wl::app
