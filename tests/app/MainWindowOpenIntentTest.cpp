// Each load carries why it was started (LoadIntent) and gets it back with its result: a newer
// open supersedes an older one together with its intent, so neither inherits the other's plan.
#include <gtest/gtest.h>

#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "WindowTestDeps.h"
#include "app/gui/MainWindow.h"
#include "support/TraceFactory.h"
#include "ui/analysis/CompareView.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

class MainWindowOpenIntentTest : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }

    // The traces the loader made, watched: a result that was superseded is dropped and lets go
    // of its trace; one that was taken lives on in a document.
    struct Made {
        std::mutex mutex;
        std::vector<std::weak_ptr<const model::Trace>> traces;
    };
    Made made;

    // A window whose loader makes a small trace for any path, slowly for the first of a pair.
    MainWindowDeps slowPairDeps() {
        MainWindowDeps d = windowTestDeps();
        d.loader = [this](const QString& path,
                          const io::ReadControl&) -> model::Result<model::TracePtr> {
            if (path.startsWith(QLatin1String("pair-first")))
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            test::SyntheticTraceSpec spec;
            spec.kernels = 20;
            model::TracePtr trace = test::makeSyntheticTrace(spec);
            const std::lock_guard lock(made.mutex);
            made.traces.push_back(trace);
            return trace;
        };
        return d;
    }

    // Waits for openFinished, for all `loads` loads to have been made and each of their results
    // taken (a document holds the trace) or dropped (nothing does), whichever order they came
    // in, and for the window to settle.
    void settle(MainWindow& window, QSignalSpy& opened, std::size_t loads) {
        ASSERT_TRUE(opened.count() > 0 || opened.wait(10000));
        const auto allArrived = [&] {
            const std::lock_guard lock(made.mutex);
            if (made.traces.size() < loads)
                return false;
            for (const std::weak_ptr<const model::Trace>& weak : made.traces) {
                const model::TracePtr trace = weak.lock();
                bool taken = false;
                for (int i = 0; trace && i < window.documentCount(); ++i)
                    taken = taken || window.document(i)->trace == trace;
                if (trace && !taken)
                    return false;  // still on its way
            }
            return true;
        };
        ASSERT_TRUE(QTest::qWaitFor(allArrived, 20000));
        if (window.isBusy()) {
            ASSERT_TRUE(QSignalSpy(&window, &MainWindow::idle).wait(10000));
        }
    }
};

TEST_F(MainWindowOpenIntentTest, AnOpenWhileASamplePairLoadsIsAPlainOpen) {
    MainWindow window(slowPairDeps());
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.compareSamples("pair-first.json", "pair-second.json");
    window.openFile("mine.json");  // File > Open while the pair's first trace loads
    settle(window, opened, 2);
    // Only the file opened: it is not the first trace of the pair, and nothing is compared.
    ASSERT_EQ(opened.count(), 1);
    EXPECT_TRUE(opened.front().front().toBool());
    ASSERT_EQ(window.documentCount(), 1);
    EXPECT_EQ(window.currentDocument()->title, "mine.json");
    EXPECT_EQ(window.currentDocument()->origin, TraceDocument::Origin::File);
    EXPECT_EQ(window.compareView(), nullptr);
    EXPECT_TRUE(QSettings().value("recentFiles").toStringList().value(0).endsWith("mine.json"));
}

TEST_F(MainWindowOpenIntentTest, ASamplePairStartedWhileAFileLoadsOpensBothAndCompares) {
    MainWindow window(slowPairDeps());
    window.show();
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.openFile("mine.json");
    window.compareSamples("pair-first.json", "pair-second.json");  // supersedes the open
    settle(window, opened, 3);
    ASSERT_EQ(opened.count(), 1);  // one for the pair, when both are in
    ASSERT_EQ(window.documentCount(), 2);
    EXPECT_TRUE(window.document(0)->title.startsWith("pair-first.json"));
    EXPECT_TRUE(window.document(1)->title.startsWith("pair-second.json"));
    EXPECT_EQ(window.document(1)->origin, TraceDocument::Origin::Sample);
    ASSERT_NE(window.compareView(), nullptr);
    EXPECT_EQ(window.compareView()->baselineView()->trace(), window.document(0)->trace);
    EXPECT_EQ(window.compareView()->asyncView()->trace(), window.document(1)->trace);
    // Samples are not recent files.
    EXPECT_TRUE(QSettings().value("recentFiles").toStringList().isEmpty());
}

TEST_F(MainWindowOpenIntentTest, ACompareWithSupersededByAnOpenComparesNothing) {
    MainWindow window(slowPairDeps());
    window.show();
    window.openTrace(test::makeSyntheticTrace({}), "current");
    QSignalSpy opened(&window, &MainWindow::openFinished);
    window.compareWith("pair-first-other.json");  // slow
    window.openFile("mine.json");
    settle(window, opened, 2);
    ASSERT_EQ(opened.count(), 1);
    ASSERT_EQ(window.documentCount(), 2);
    EXPECT_EQ(window.currentDocument()->title, "mine.json");
    EXPECT_EQ(window.compareView(), nullptr);
}

}  // namespace
}  // namespace wl::app
