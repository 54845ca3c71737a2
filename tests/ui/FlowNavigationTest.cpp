// Following a selected op's relations: its launch arrow (L) and its waits through CUDA events
// ([ and ]), each revealing where it leads.
#include <QTest>

#include <gtest/gtest.h>

#include "support/TraceFactory.h"
#include "ui/timeline/FlowNavigation.h"
#include "ui/timeline/TimelineView.h"

namespace wl::ui {
namespace {

// The slice named `name` that starts at `startNs`.
model::SliceRef find(const model::Trace& trace, std::string_view name, model::TimeNs startNs) {
    for (model::TrackIndex t = 0; t < trace.tracks().size(); ++t) {
        const auto& slices = trace.track(t).slices;
        for (std::uint32_t i = 0; i < slices.size(); ++i) {
            if (trace.str(slices[i].nameId) == name && slices[i].startNs == startNs)
                return {t, i};
        }
    }
    ADD_FAILURE() << "no " << name << " at " << startNs;
    return {};
}

// makeEventWaitTrace: cudaLaunchKernel at 0 launches "producer" [100, 500) on stream 7; the
// consumer [510, 900) on stream 9, launched by the cudaLaunchKernel at 60, waits for it.
struct FlowFixture : ::testing::Test {
    void SetUp() override {
        trace = test::makeEventWaitTrace();
        producer = find(*trace, "producer", 100);
        consumer = find(*trace, "consumer", 510);
        launchProducer = find(*trace, "cudaLaunchKernel", 0);
        launchConsumer = find(*trace, "cudaLaunchKernel", 60);
        record = find(*trace, "cudaEventRecord", 20);
    }
    model::TracePtr trace;
    model::SliceRef producer, consumer, launchProducer, launchConsumer, record;
};

TEST_F(FlowFixture, LaunchPartnerIsTheOtherEndOfTheArrow) {
    EXPECT_EQ(FlowNavigation::launchPartner(*trace, consumer), launchConsumer);
    EXPECT_EQ(FlowNavigation::launchPartner(*trace, launchConsumer), consumer);
    EXPECT_EQ(FlowNavigation::launchPartner(*trace, producer), launchProducer);
    EXPECT_FALSE(FlowNavigation::launchPartner(*trace, record).valid());  // launched nothing
    EXPECT_FALSE(FlowNavigation::launchPartner(*trace, {}).valid());
}

TEST_F(FlowFixture, WaitsLeadToTheOpWaitedForAndBack) {
    EXPECT_EQ(FlowNavigation::waitedFor(*trace, consumer), producer);
    EXPECT_EQ(FlowNavigation::awaitedBy(*trace, producer), consumer);
    EXPECT_FALSE(FlowNavigation::waitedFor(*trace, producer).valid());
    EXPECT_FALSE(FlowNavigation::awaitedBy(*trace, consumer).valid());
}

TEST_F(FlowFixture, KeysFollowTheRelationsAndRevealWhereTheyLead) {
    TimelineView view;
    view.resize(1240, 600);
    view.setTrace(trace);
    auto inView = [&](model::SliceRef ref) {
        const model::Slice& s = trace->slice(ref);
        return s.startNs >= view.visibleStartNs() && s.endNs() <= view.visibleEndNs();
    };
    view.selectSlice(consumer);
    view.setVisibleRange(800, 820);  // a sliver of the consumer, far from its launch call

    QTest::keyClick(&view, Qt::Key_L);
    EXPECT_EQ(view.selectedSlice(), launchConsumer);
    EXPECT_TRUE(inView(launchConsumer));
    QTest::keyClick(&view, Qt::Key_L);
    EXPECT_EQ(view.selectedSlice(), consumer);
    EXPECT_TRUE(inView(consumer));

    QTest::keyClick(&view, Qt::Key_BracketLeft);
    EXPECT_EQ(view.selectedSlice(), producer);
    EXPECT_TRUE(inView(producer));
    QTest::keyClick(&view, Qt::Key_BracketRight);
    EXPECT_EQ(view.selectedSlice(), consumer);

    // Nothing to follow: the selection and the view stay.
    const model::TimeNs start = view.visibleStartNs();
    EXPECT_FALSE(view.followRelation(TimelineView::Relation::AwaitedBy));
    QTest::keyClick(&view, Qt::Key_BracketRight);
    EXPECT_EQ(view.selectedSlice(), consumer);
    EXPECT_EQ(view.visibleStartNs(), start);
}

}  // namespace
}  // namespace wl::ui
