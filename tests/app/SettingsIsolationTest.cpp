#include <gtest/gtest.h>

#include <QDir>
#include <QSettings>

namespace {

// The GUI tests' settings live in a temporary folder (tests/support/QtTestMain.cpp): a test that
// remembers a folder or a layout must never change what the user's own Warpline opens with.
TEST(SettingsIsolation, TestsDoNotUseTheUsersSettings) {
    const QString file = QSettings().fileName();
    EXPECT_FALSE(file.startsWith(QDir::homePath() + QStringLiteral("/.config")))
        << file.toStdString();
    EXPECT_TRUE(file.startsWith(QDir::tempPath())) << file.toStdString();
}

}  // namespace
