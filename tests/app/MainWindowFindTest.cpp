// The window's tools for finding things: Find (Ctrl+F), the events table and flow navigation,
// each driven as a user would and checked on the timeline and the details.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "support/TraceFactory.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

MainWindowDeps testDeps() {
    MainWindowDeps d;
    d.deviceProbe = [] { return model::Result<std::string>(model::Error{"no GPU here", {}, -1}); };
    d.restoreLayout = false;
    d.probeDeviceInBackground = false;
    return d;
}

class MainWindowFindTest : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        window = std::make_unique<MainWindow>(testDeps());
        window->show();
        window->openTrace(syntheticSampleTrace(), "synthetic-reduce-async");
        ASSERT_TRUE(window->currentDocument());
        trace = window->currentDocument()->trace;
    }
    void TearDown() override {
        window.reset();
        QSettings().clear();
    }
    // Searches for `text` through the window and waits for the worker's answer.
    ui::SearchMatchesPtr findAndWait(const QString& text) {
        QSignalSpy spy(window->findPanel(), &ui::FindPanel::matchesChanged);
        window->find(text);
        if (spy.isEmpty()) {
            EXPECT_TRUE(spy.wait(10'000));
        }
        return window->findPanel()->matches();
    }
    bool inView(model::SliceRef ref) const {
        const model::Slice& s = trace->slice(ref);
        return s.startNs >= window->timeline()->visibleStartNs() &&
               s.endNs() <= window->timeline()->visibleEndNs();
    }

    std::unique_ptr<MainWindow> window;
    model::TracePtr trace;
};

TEST_F(MainWindowFindTest, CtrlFShowsTheFindPanelWithTheCursorInItsField) {
    EXPECT_FALSE(window->findDock()->isVisible());
    window->activateWindow();
    QApplication::setActiveWindow(window.get());
    QTest::keyClick(window->timeline(), Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(window->findDock()->isVisible());
    EXPECT_EQ(QApplication::focusWidget(), window->findPanel()->queryField());
}

TEST_F(MainWindowFindTest, MatchesAreOutlinedOnTheTimelineAndEnterRevealsThem) {
    const ui::SearchMatchesPtr matches = findAndWait(QStringLiteral("divide"));
    ASSERT_TRUE(matches);
    ASSERT_FALSE(matches->empty());
    EXPECT_EQ(window->timeline()->searchMatches(), matches);
    EXPECT_TRUE(window->findPanel()->statusText().endsWith(QStringLiteral("matches")));

    // The last match, with the view zoomed in far away from it.
    window->timeline()->setVisibleRange(0, 1'000);
    QTest::keyClick(window->findPanel()->queryField(), Qt::Key_Return, Qt::ShiftModifier);
    const model::SliceRef last = matches->at(matches->size() - 1);
    EXPECT_EQ(window->timeline()->selectedSlice(), last);
    EXPECT_EQ(window->details()->slice(), last);
    EXPECT_TRUE(inView(last));
    // F3 goes on to the next one (wrapping to the first).
    QTest::keyClick(window.get(), Qt::Key_F3);
    EXPECT_EQ(window->timeline()->selectedSlice(), matches->at(0));
    EXPECT_TRUE(inView(matches->at(0)));
}

TEST_F(MainWindowFindTest, AnotherDocumentIsSearchedForTheSameText) {
    ASSERT_TRUE(findAndWait(QStringLiteral("divide")));
    test::SyntheticTraceSpec spec;
    spec.kernels = 30;
    QSignalSpy spy(window->findPanel(), &ui::FindPanel::matchesChanged);
    window->openTrace(test::makeSyntheticTrace(spec), "other");
    // The old matches address the old trace: gone at once, then the new ones arrive.
    EXPECT_EQ(window->timeline()->searchMatches(), nullptr);
    ASSERT_TRUE(spy.wait(10'000));
    const ui::SearchMatchesPtr now = window->findPanel()->matches();
    ASSERT_TRUE(now);
    EXPECT_EQ(now->query().text, QStringLiteral("divide"));
    EXPECT_EQ(window->timeline()->searchMatches(), now);
}

}  // namespace
}  // namespace wl::app
