// The rows the user arranges on the timeline are kept per trace kind (the producer) across
// windows, and another kind of trace keeps its own.
#include <gtest/gtest.h>

#include <QSettings>
#include <QSignalSpy>

#include "WindowTestDeps.h"
#include "model/TraceBuilder.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

// A host process and GPU 0 with two streams, written by `producer` (new pids each call, as a
// new recording has).
model::TracePtr recording(const std::string& producer, std::int64_t pid) {
    model::TraceBuilder b;
    b.setMetadata("producer", producer);
    const auto host = b.hostProcess(pid, "python");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    b.addApi(b.hostApiTrack(host, pid + 1), 0, 10, "cudaLaunchKernel", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 20, 40, "k", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 13), 20, 40, "k", 1, {});
    return b.finalize();
}

bool showsRow(const ui::TimelineView& view, const QString& identity) {
    for (const ui::TimelineRow& row : view.layout().rows())
        if (row.identity == identity)
            return true;
    return false;
}

class MainWindowRowsTest : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
};

TEST_F(MainWindowRowsTest, TheArrangementIsKeptPerTraceKindAcrossWindows) {
    const QString stream7 = QStringLiteral("gpu 0/Stream 7");
    {
        MainWindow window(windowTestDeps());
        window.openTrace(recording("PyTorch Profiler (0)", 4242), "first");
        ui::TimelineView* view = window.timeline();
        ASSERT_TRUE(showsRow(*view, stream7));
        int row = -1;
        for (std::size_t i = 0; i < view->layout().rows().size(); ++i)
            if (view->layout().rows()[i].identity == stream7)
                row = int(i);
        view->applyRowAction(ui::TimelineView::RowAction::Hide, row);
        EXPECT_FALSE(showsRow(*view, stream7));
    }
    {
        // A new window, a new recording of the same kind: the row stays hidden.
        MainWindow window(windowTestDeps());
        window.openTrace(recording("PyTorch Profiler (2.1)", 977), "second");
        EXPECT_FALSE(showsRow(*window.timeline(), stream7));
        EXPECT_TRUE(showsRow(*window.timeline(), QStringLiteral("gpu 0/Stream 13")));
        // Another producer's trace is not affected.
        window.openTrace(recording("warpline", 978), "other");
        EXPECT_TRUE(showsRow(*window.timeline(), stream7));
        EXPECT_TRUE(window.timeline()->arrangement().empty());
    }
}

TEST_F(MainWindowRowsTest, ViewMenuShowsAllRowsAndFoldsOrOpensAllGroups) {
    MainWindow window(windowTestDeps());
    window.openTrace(recording("warpline", 4242), "first");
    ui::TimelineView* view = window.timeline();
    view->applyRowAction(ui::TimelineView::RowAction::HideGroup, 0);
    ASSERT_FALSE(view->arrangement().hidden.isEmpty());
    const auto trigger = [&](const QString& text) {
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text().remove(QLatin1Char('&')) == text) {
                action->trigger();
                return true;
            }
        }
        return false;
    };
    ASSERT_TRUE(trigger(QStringLiteral("Show All Rows")));
    EXPECT_TRUE(view->arrangement().hidden.isEmpty());
    ASSERT_TRUE(trigger(QStringLiteral("Collapse All Groups")));
    for (const ui::TimelineRow& row : view->layout().rows())
        EXPECT_TRUE(row.kind == ui::RowKind::Process && row.collapsed);
    ASSERT_TRUE(trigger(QStringLiteral("Expand All Groups")));
    EXPECT_TRUE(showsRow(*view, QStringLiteral("gpu 0/Stream 7")));
}

}  // namespace
}  // namespace wl::app
