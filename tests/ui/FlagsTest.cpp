#include <gtest/gtest.h>

#include "ui/timeline/Flags.h"

namespace wl::ui {
namespace {

TEST(Flags, KeptInTimeOrderWithNames) {
    FlagSet flags;
    const int late = flags.add(5'000);
    const int early = flags.add(1'000, "start of step");
    ASSERT_EQ(flags.flags().size(), 2u);
    EXPECT_EQ(flags.flags()[0].id, early);
    EXPECT_EQ(flags.flags()[0].name, "start of step");
    EXPECT_EQ(flags.flags()[1].name, QString("Flag %1").arg(late));
    EXPECT_TRUE(flags.rename(late, "end"));
    EXPECT_EQ(flags.find(late)->name, "end");
    EXPECT_FALSE(flags.rename(99, "x"));
    EXPECT_TRUE(flags.remove(early));
    EXPECT_FALSE(flags.remove(early));
    EXPECT_EQ(flags.flags().size(), 1u);
}

TEST(Flags, JumpsToTheNextAndPreviousAndPicksTheNearest) {
    FlagSet flags;
    flags.add(1'000, "a");
    flags.add(3'000, "b");
    flags.add(3'000, "c");
    EXPECT_EQ(flags.next(1'000)->name, "b");
    EXPECT_EQ(flags.next(0)->name, "a");
    EXPECT_EQ(flags.next(3'000), nullptr);
    EXPECT_EQ(flags.previous(3'000)->name, "a");
    EXPECT_EQ(flags.previous(1'000), nullptr);
    EXPECT_EQ(flags.nearest(1'090, 100)->name, "a");
    EXPECT_EQ(flags.nearest(2'000, 100), nullptr);
}

TEST(Flags, AReferenceFlagIsWhereTimesCountFrom) {
    FlagSet flags;
    const int a = flags.add(2'500);
    EXPECT_EQ(flags.referenceNs(), 0);
    flags.setReference(a);
    EXPECT_EQ(flags.referenceNs(), 2'500);
    flags.setReference(42);  // no such flag
    EXPECT_FALSE(flags.reference());
    flags.setReference(a);
    flags.remove(a);
    EXPECT_FALSE(flags.reference());
    EXPECT_EQ(flags.referenceNs(), 0);
}

TEST(Flags, MeasureNamesBothEndsAndTheDuration) {
    EXPECT_EQ(measureText("Flag 1", 1'000'000, "Flag 2", 13'400'000), "Flag 1 → Flag 2: 12.40 ms");
    EXPECT_EQ(measureText("b", 5'000, "a", 1'000), "b → a: 4.0 µs");
}

}  // namespace
}  // namespace wl::ui
