// Export runs on a worker: the window's thread only hears how it went.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QThread>

#include "app/gui/TraceExporter.h"
#include "io/TraceFile.h"
#include "model/TraceBuilder.h"
#include "support/TestData.h"

namespace wl::app {
namespace {

model::TracePtr smallTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(7, "app");
    b.addSlice(b.hostTrack(host, 7), 0, 100, "work", model::SliceKind::Other);
    return b.finalize();
}

TEST(TraceExporter, WritesOnAWorkerAndReportsBack) {
    TraceExporter exporter;
    QSignalSpy saving(&exporter, &TraceExporter::savingChanged);
    QSignalSpy saved(&exporter, &TraceExporter::saved);
    const QString path = QString::fromStdString(test::makeTempDir("wl-export") + "/trace.json.gz");
    exporter.save(smallTrace(), path);
    EXPECT_TRUE(exporter.isSaving());
    ASSERT_EQ(saving.count(), 1);
    EXPECT_TRUE(saving.at(0).at(0).toBool());
    ASSERT_TRUE(saved.wait(10000));
    EXPECT_FALSE(exporter.isSaving());
    EXPECT_EQ(saved.at(0).at(0).toString(), path);
    EXPECT_TRUE(saved.at(0).at(1).value<model::Status>().ok());
    EXPECT_FALSE(saving.last().at(0).toBool());
    const auto loaded = io::loadTrace(path.toStdString());
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    EXPECT_EQ(loaded.value()->counts().slices, 1u);
}

TEST(TraceExporter, AFailedWriteIsReportedWithItsReason) {
    TraceExporter exporter;
    QSignalSpy saved(&exporter, &TraceExporter::saved);
    exporter.save(smallTrace(), QStringLiteral("/proc/warpline-cannot-write-here.json"));
    ASSERT_TRUE(saved.wait(10000));
    const auto status = saved.at(0).at(1).value<model::Status>();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("cannot write"), std::string::npos)
        << status.error().message;
}

}  // namespace
}  // namespace wl::app
