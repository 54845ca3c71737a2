#include <gtest/gtest.h>
#include <QSettings>

#include "app/gui/AppSettings.h"
#include "app/gui/RecentFiles.h"

namespace wl::app {
namespace {

TEST(RecentFiles, NewestFirstWithoutDuplicatesAndBounded) {
    QSettings settings;
    settings.clear();
    RecentFiles recent(settings);
    recent.add("/tmp/a.json");
    recent.add("/tmp/b.json");
    recent.add("/tmp/a.json");
    ASSERT_EQ(recent.list().size(), 2);
    EXPECT_EQ(recent.list().front(), "/tmp/a.json");
    for (int i = 0; i < 20; ++i)
        recent.add(QStringLiteral("/tmp/f%1.json").arg(i));
    EXPECT_EQ(recent.list().size(), RecentFiles::kMaxEntries);
    EXPECT_EQ(recent.list().front(), "/tmp/f19.json");
    recent.remove("/tmp/f19.json");
    EXPECT_EQ(recent.list().front(), "/tmp/f18.json");
    recent.clear();
    EXPECT_TRUE(recent.list().isEmpty());
    settings.clear();
}

TEST(AppSettings, RunRequestRoundTripsAndBadValuesFallBack) {
    QSettings settings;
    settings.clear();
    RunRequest r;
    r.workload = "power";
    r.mode = "async";
    r.streams = 9;
    r.pinned = true;
    r.size = 4096;
    r.repeat = 15;
    r.steps = 300;
    r.gpuMetrics = true;
    saveRunRequest(settings, r);
    const RunRequest back = loadRunRequest(settings);
    EXPECT_EQ(back.workload, "power");
    EXPECT_EQ(back.mode, "async");
    EXPECT_EQ(back.streams, 9);
    EXPECT_TRUE(back.pinned);
    EXPECT_EQ(back.size, 4096);
    EXPECT_EQ(back.repeat, 15);
    EXPECT_EQ(back.steps, 300);
    EXPECT_TRUE(back.gpuMetrics);

    settings.setValue("run/streams", 500);
    settings.setValue("run/workload", "matmul");
    settings.setValue("run/size", -3);
    const RunRequest clamped = loadRunRequest(settings);
    EXPECT_EQ(clamped.streams, 64);
    EXPECT_EQ(clamped.workload, "reduce");
    EXPECT_EQ(clamped.size, 0);
    settings.clear();
}

}  // namespace
}  // namespace wl::app
