// Numbers as the panels write them.
#include <gtest/gtest.h>

#include "ui/common/Units.h"

namespace wl::ui {
namespace {

TEST(Units, SmallDecimalsKeepTwoSignificantDigits) {
    // Kineto's "warps per SM" for a one-block kernel on a 132-SM GPU is about 0.024: it must not
    // read as 0.0.
    EXPECT_EQ(units::decimal(0.0242), QStringLiteral("0.024"));
    EXPECT_EQ(units::decimal(0.5), QStringLiteral("0.50"));
    EXPECT_EQ(units::decimal(0.000012), QStringLiteral("0.000012"));
    EXPECT_EQ(units::decimal(-0.031), QStringLiteral("-0.031"));
    // From 1 up, one decimal as before; zero is 0.
    EXPECT_EQ(units::decimal(12.34), QStringLiteral("12.3"));
    EXPECT_EQ(units::decimal(1.0), QStringLiteral("1.0"));
    EXPECT_EQ(units::decimal(0.0), QStringLiteral("0"));
}

}  // namespace
}  // namespace wl::ui
