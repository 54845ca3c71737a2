// The window's tools for finding things: Find (Ctrl+F), the events table and flow navigation,
// each driven as a user would and checked on the timeline and the details.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "WindowTestDeps.h"
#include "app/gui/MainWindow.h"
#include "app/gui/SampleTraces.h"
#include "support/TraceFactory.h"
#include "ui/details/DetailsPanel.h"
#include "ui/find/EventsPanel.h"
#include "ui/find/FindPanel.h"
#include "ui/find/SliceTableModel.h"
#include "ui/timeline/TimelineView.h"

namespace wl::app {
namespace {

class MainWindowFindTest : public ::testing::Test {
protected:
    void SetUp() override {
        QSettings().clear();
        window = std::make_unique<MainWindow>(windowTestDeps());
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

TEST_F(MainWindowFindTest, AnEventsTableRowSelectsAndRevealsItsSlice) {
    ui::EventsPanel* events = window->eventsPanel();
    QSignalSpy rows(events, &ui::EventsPanel::rowsChanged);
    window->showEvents();
    ASSERT_TRUE(rows.wait(10'000));
    // Every slice of the trace but the NVTX-on-the-GPU copies of the host's ranges.
    std::size_t expected = 0;
    for (const model::Track& t : trace->tracks()) {
        if (t.kind != model::TrackKind::NvtxProjection)
            expected += t.slices.size();
    }
    EXPECT_EQ(std::size_t(events->model()->rowCount()), expected);

    // The longest first; its row selects it and brings it into view, zoomed in from far away.
    events->sortBy(ui::SliceTableModel::kDuration, Qt::DescendingOrder);
    ASSERT_TRUE(rows.wait(10'000));
    const model::SliceRef longest = events->model()->sliceAt(0);
    for (int r = 1; r < events->model()->rowCount(); ++r) {
        ASSERT_GE(trace->slice(longest).durationNs,
                  trace->slice(events->model()->sliceAt(r)).durationNs);
    }
    // A short one, with the view somewhere else.
    const int last = events->model()->rowCount() - 1;
    const model::SliceRef shortest = events->model()->sliceAt(last);
    window->timeline()->setVisibleRange(0, 100);
    QTableView* table = events->table();
    table->scrollToBottom();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(events->model()->index(last, 1)).center());
    EXPECT_EQ(window->timeline()->selectedSlice(), shortest);
    EXPECT_EQ(window->details()->slice(), shortest);
    EXPECT_TRUE(inView(shortest));
}

// The slice named `name` that starts at `startNs` in `trace`.
model::SliceRef sliceNamed(const model::Trace& trace, std::string_view name,
                           model::TimeNs startNs) {
    for (model::TrackIndex t = 0; t < trace.tracks().size(); ++t) {
        const auto& slices = trace.track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (trace.str(slices[i].nameId) == name && slices[i].startNs == startNs)
                return {t, i};
        }
    }
    return {};
}

// Clicks the link of a details row, as a user would.
bool clickDetailsLink(ui::DetailsPanel* details, const QString& field) {
    const QList<QLabel*> labels = details->findChildren<QLabel*>();
    for (int i = 0; i + 1 < labels.size(); ++i) {
        if (labels[i]->text() == field && labels[i + 1]->text().contains(QLatin1String("href"))) {
            emit labels[i + 1]->linkActivated(QStringLiteral("slice"));
            return true;
        }
    }
    return false;
}

TEST_F(MainWindowFindTest, DetailsLinksAndKeysFollowLaunchArrowsAndWaitsAndRevealTheOtherEnd) {
    // The README promised that "Launched by" jumps to the call: it must select it and bring it
    // into view, not only select it.
    window->openTrace(test::makeEventWaitTrace(), "event-wait");
    trace = window->currentDocument()->trace;
    const model::SliceRef consumer = sliceNamed(*trace, "consumer", 510);
    const model::SliceRef producer = sliceNamed(*trace, "producer", 100);
    const model::SliceRef launch = sliceNamed(*trace, "cudaLaunchKernel", 60);
    ASSERT_TRUE(consumer.valid() && producer.valid() && launch.valid());
    ui::TimelineView* view = window->timeline();

    view->revealSlice(consumer);
    ASSERT_EQ(window->details()->slice(), consumer);
    view->setVisibleRange(850, 870);  // a sliver of the consumer, far from its launch call
    ASSERT_TRUE(clickDetailsLink(window->details(), QStringLiteral("Launched by")));
    EXPECT_EQ(view->selectedSlice(), launch);
    EXPECT_EQ(window->details()->slice(), launch);
    EXPECT_TRUE(inView(launch));
    // From the call: "Launches" leads back.
    view->setVisibleRange(0, 5);
    ASSERT_TRUE(clickDetailsLink(window->details(), QStringLiteral("Launches")));
    EXPECT_EQ(view->selectedSlice(), consumer);
    EXPECT_TRUE(inView(consumer));
    ASSERT_TRUE(clickDetailsLink(window->details(), QStringLiteral("Waits for")));
    EXPECT_EQ(view->selectedSlice(), producer);
    EXPECT_TRUE(inView(producer));
    ASSERT_TRUE(clickDetailsLink(window->details(), QStringLiteral("Awaited by")));
    EXPECT_EQ(view->selectedSlice(), consumer);

    // The keys do the same from the timeline; the details follow.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_L);
    EXPECT_EQ(window->details()->slice(), launch);
    QTest::keyClick(view, Qt::Key_L);
    QTest::keyClick(view, Qt::Key_BracketLeft);
    EXPECT_EQ(window->details()->slice(), producer);
    QTest::keyClick(view, Qt::Key_BracketRight);
    EXPECT_EQ(window->details()->slice(), consumer);
}

}  // namespace
}  // namespace wl::app
