#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include "app/gui/AppSettings.h"

namespace wl::app {
namespace {

TEST(DialogFolder, PseudoFileSystemsAreNeverOpened) {
    // A save dialog that listed /proc read /proc/kmsg and never returned.
    EXPECT_EQ(dialogFolder(QStringLiteral("/proc"), true), QDir::homePath());
    EXPECT_EQ(dialogFolder(QStringLiteral("/proc"), false), QDir::homePath());
    EXPECT_EQ(dialogFolder(QStringLiteral("/proc/self"), false), QDir::homePath());
    EXPECT_EQ(dialogFolder(QStringLiteral("/sys"), false), QDir::homePath());
    EXPECT_EQ(dialogFolder(QStringLiteral("/dev"), false), QDir::homePath());
}

TEST(DialogFolder, ARealFolderIsKeptAndAMissingOneIsNot) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString real = QDir(dir.path()).canonicalPath();
    EXPECT_EQ(dialogFolder(dir.path(), true), real);
    EXPECT_EQ(dialogFolder(dir.path(), false), real);
    EXPECT_EQ(dialogFolder(dir.filePath(QStringLiteral("gone")), false), QDir::homePath());
    EXPECT_EQ(dialogFolder(QString(), false), QDir::homePath());
    // A file is not a folder.
    QFile file(dir.filePath(QStringLiteral("a.json")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.close();
    EXPECT_EQ(dialogFolder(file.fileName(), false), QDir::homePath());
    // A link to /proc is /proc.
    const QString link = dir.filePath(QStringLiteral("procs"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/proc"), link));
    EXPECT_EQ(dialogFolder(link, false), QDir::homePath());
}

// Every wait's arrow buried a two-rank trace's rows: the selection's own are drawn, the rest only
// when View > Dependencies asks, and a setting stored while all were the default does not count.
TEST(ViewSettings, AllDependencyArrowsAreOffUntilAskedFor) {
    QSettings settings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("warpline-test"),
                       QStringLiteral("view-settings"));
    settings.clear();
    EXPECT_FALSE(loadShowDependencies(settings));
    settings.setValue("view/dependencies", true);  // what earlier versions kept
    EXPECT_FALSE(loadShowDependencies(settings));
    saveShowDependencies(settings, true);
    EXPECT_TRUE(loadShowDependencies(settings));
    settings.clear();
}

}  // namespace
}  // namespace wl::app
