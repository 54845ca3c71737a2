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

TEST(Units, SmallRatesAndSharesNeverReadAsZero) {
    // The PyTorch profiler's 8-byte device copies take 1.568 µs: 0.0051 GB/s, not "0.0 GB/s".
    EXPECT_EQ(units::gbPerSecond(8, 1'568), QStringLiteral("0.0051 GB/s"));
    EXPECT_EQ(units::gbPerSecond(1 << 20, 1'300), QStringLiteral("806.6 GB/s"));
    EXPECT_EQ(units::gbPerSecond(8, 0), QStringLiteral("n/a"));
    EXPECT_EQ(units::percent(0.00042), QStringLiteral("0.00042%"));
    EXPECT_EQ(units::percent(0.047), QStringLiteral("0.047%"));
    EXPECT_EQ(units::percent(12.34), QStringLiteral("12.3%"));
    EXPECT_EQ(units::percent(0.0), QStringLiteral("0.0%"));
}

}  // namespace
}  // namespace wl::ui
