#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/TimeText.h"

namespace wl::io {
namespace {

using model::TimeNs;

std::string micros(TimeNs ns) {
    std::string s;
    appendMicros(s, ns);
    return s;
}

TimeNs parse(std::string_view text) {
    TimeNs ns = -42;
    EXPECT_EQ(parseMicros(text, ns), TimeParse::Ok) << text;
    return ns;
}

TEST(TimeText, PrintsMicrosecondsWithThreeDecimals) {
    EXPECT_EQ(micros(0), "0.000");
    EXPECT_EQ(micros(1), "0.001");
    EXPECT_EQ(micros(1234567891), "1234567.891");
    EXPECT_EQ(micros(-500), "-0.500");
    EXPECT_EQ(micros(std::numeric_limits<TimeNs>::max()), "9223372036854775.807");
    EXPECT_EQ(micros(std::numeric_limits<TimeNs>::min()), "-9223372036854775.808");
}

TEST(TimeText, ParsesExactlyWhereDoublesFail) {
    EXPECT_EQ(parse("1234567.891"), 1234567891);
    // Kineto writes absolute clock values like this; as a double times 1000 it is off by one.
    EXPECT_EQ(parse("4380746527791.193"), 4380746527791193);
    const TimeNs big = parse("9714995100553.779");
    EXPECT_EQ(big, 9714995100553779);
    EXPECT_NE(static_cast<TimeNs>(std::llround(9714995100553.779 * 1000.0)), big);
    // Beyond 2^53 ns: a double cannot even hold the value.
    EXPECT_EQ(parse("9007199254740.993"), 9007199254740993);
    EXPECT_NE(static_cast<TimeNs>(std::llround(9007199254740.993 * 1000.0)), 9007199254740993);
    EXPECT_EQ(parse("9223372036854775.807"), std::numeric_limits<TimeNs>::max());
    EXPECT_EQ(parse("-9223372036854775.808"), std::numeric_limits<TimeNs>::min());
}

TEST(TimeText, AcceptsJsonNumberForms) {
    EXPECT_EQ(parse("0"), 0);
    EXPECT_EQ(parse("-0"), 0);
    EXPECT_EQ(parse("42"), 42000);
    EXPECT_EQ(parse("1.5e3"), 1500000);
    EXPECT_EQ(parse("1.5E+3"), 1500000);
    EXPECT_EQ(parse("2e-3"), 2);
    EXPECT_EQ(parse("0.000000000001"), 0);
    EXPECT_EQ(parse("12345678901234567890e-10"), 1234567890123);  // .457 ns rounds down
    EXPECT_EQ(parse("0.0004"), 0);
    EXPECT_EQ(parse("0.0005"), 1);  // half away from zero
    EXPECT_EQ(parse("-0.0005"), -1);
    EXPECT_EQ(parse("1.0009"), 1001);
}

TEST(TimeText, RejectsWhatIsNotANumberOrTooBig) {
    TimeNs ns = 0;
    for (const char* bad : {"", "-", "NaN", "nan", "inf", "-Infinity", "01", "1.", ".5", "1e",
                            "1e+", "0x10", " 1", "1 ", "1,5", "+1", "--1", "1.2.3"}) {
        EXPECT_EQ(parseMicros(bad, ns), TimeParse::Syntax) << bad;
    }
    for (const char* big : {"9223372036854775.808", "-9223372036854775.809", "1e300", "1e16",
                            "123456789012345678901234567890"}) {
        EXPECT_EQ(parseMicros(big, ns), TimeParse::Range) << big;
    }
}

TEST(TimeText, EveryPrintedValueParsesBack) {
    for (TimeNs v :
         {TimeNs{0}, TimeNs{1}, TimeNs{999}, TimeNs{1000}, TimeNs{123456789123456789}, TimeNs{-1},
          TimeNs{-1001}, std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min()}) {
        EXPECT_EQ(parse(micros(v)), v);
    }
}

}  // namespace
}  // namespace wl::io
