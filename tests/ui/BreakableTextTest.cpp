#include <gtest/gtest.h>

#include "ui/common/BreakableText.h"

namespace wl::ui {
namespace {

// Long names get break points after their separators; numbers keep their decimal point.
TEST(BreakableText, NamesBreakAfterSeparatorsButNumbersStayWhole) {
    const QChar zw(0x200B);
    EXPECT_EQ(breakable("a::b"), QStringLiteral("a:") + zw + ":" + zw + "b");
    EXPECT_EQ(breakable("Iter.__next__"),
              QStringLiteral("Iter.") + zw + "_" + zw + "_" + zw + "next_" + zw + "_" + zw);
    EXPECT_EQ(breakable("0.087% of 12.5 ms"), "0.087% of 12.5 ms");
    EXPECT_EQ(breakable("end."), QStringLiteral("end.") + zw);
}

}  // namespace
}  // namespace wl::ui
