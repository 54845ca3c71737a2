// GoogleTest main for GUI tests: one offscreen QApplication for the whole executable, and settings
// in a folder of their own that is removed afterwards, so tests never read or write the user's
// real settings (or leave a test's remembered folders and layout for the next run).
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen")
                                                                    : qgetenv("QT_QPA_PLATFORM"));
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir settingsDir;
    if (settingsDir.isValid()) {
        for (auto format : {QSettings::NativeFormat, QSettings::IniFormat}) {
            QSettings::setPath(format, QSettings::UserScope, settingsDir.path());
            QSettings::setPath(format, QSettings::SystemScope, settingsDir.path());
        }
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName("WarplineTests");
    QApplication::setApplicationName("warpline-tests");
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
