#include <gtest/gtest.h>

#include "model/TraceBuilder.h"
#include "ui/timeline/RowArrangement.h"

namespace wl::ui {
namespace {

std::vector<int> arranged(const RowArrangement& a, const QStringList& ids) {
    return a.arrange(ids);
}

TEST(RowArrangement, HideShowPinAreSetsOfIdentities) {
    RowArrangement a;
    EXPECT_TRUE(a.empty());
    a.hide("gpu 0/stream 7");
    a.hide("gpu 0/stream 7");
    EXPECT_EQ(a.hidden.size(), 1);
    EXPECT_TRUE(a.isHidden("gpu 0/stream 7"));
    a.show("gpu 0/stream 7");
    EXPECT_FALSE(a.isHidden("gpu 0/stream 7"));
    a.pin("gpu 0/stream 14");
    a.pin("host python/NVTX");
    EXPECT_EQ(a.pinned, (QStringList{"gpu 0/stream 14", "host python/NVTX"}));
    a.unpin("gpu 0/stream 14");
    EXPECT_EQ(a.pinned, (QStringList{"host python/NVTX"}));
}

TEST(RowArrangement, AMovePutsARowBeforeAnotherAndKeepsTheRestInOrder) {
    const QStringList streams{"gpu 0/stream 7", "gpu 0/stream 14", "gpu 0/stream 21"};
    RowArrangement a;
    EXPECT_EQ(arranged(a, streams), (std::vector<int>{0, 1, 2}));
    a.move("gpu 0/stream 21", "gpu 0/stream 7", streams);
    EXPECT_EQ(arranged(a, streams), (std::vector<int>{2, 0, 1}));
    a.move("gpu 0/stream 7", "", streams);  // last
    EXPECT_EQ(arranged(a, streams), (std::vector<int>{2, 1, 0}));
    // A stream the next recording has and this one had not comes after the arranged ones.
    const QStringList more{"gpu 0/stream 7", "gpu 0/stream 14", "gpu 0/stream 21",
                           "gpu 0/stream 3"};
    EXPECT_EQ(arranged(a, more), (std::vector<int>{2, 1, 0, 3}));
    // Another group's order is kept when this one's changes.
    const QStringList groups{"host python", "gpu 0"};
    a.move("gpu 0", "host python", groups);
    EXPECT_EQ(arranged(a, groups), (std::vector<int>{1, 0}));
    EXPECT_EQ(arranged(a, streams), (std::vector<int>{2, 1, 0}));
}

TEST(RowArrangement, SurvivesTheSettingsRoundTrip) {
    RowArrangement a;
    a.hide("host python/CUDA API (thread #)");
    a.pin("gpu 0/stream 7");
    a.move("gpu 0", "host python", {"host python", "gpu 0"});
    const RowArrangement b = RowArrangement::fromStrings(a.toStrings());
    EXPECT_EQ(b.hidden, a.hidden);
    EXPECT_EQ(b.pinned, a.pinned);
    EXPECT_EQ(b.order, a.order);
}

TEST(RowArrangement, OneKeyPerProducerWhateverItsVersion) {
    model::TraceBuilder one;
    one.setMetadata("producer", "PyTorch Profiler (0)");
    model::TraceBuilder two;
    two.setMetadata("producer", "PyTorch Profiler (2.1)");
    model::TraceBuilder none;
    EXPECT_EQ(RowArrangement::key(*one.finalize()), "rows/PyTorch Profiler");
    EXPECT_EQ(RowArrangement::key(*two.finalize()), "rows/PyTorch Profiler");
    EXPECT_EQ(RowArrangement::key(*none.finalize()), "rows/unknown");
}

}  // namespace
}  // namespace wl::ui
