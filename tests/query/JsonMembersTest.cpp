// The splitter behind the args table: JSON object members (a producer's args as written) into
// keys, values as written and their types, and JSON strings unescaped.
#include "query/JsonMembers.h"

#include <gtest/gtest.h>

namespace wl::query {
namespace {

std::vector<JsonMember> split(std::string_view text) {
    std::vector<JsonMember> members;
    EXPECT_TRUE(splitJsonMembers(text, members)) << text;
    return members;
}

TEST(JsonMembersTest, SplitsKeysValuesAndTypes) {
    const std::string text =
        R"("External id":513,"Input Dims":[[2,3],[]], "name" : "a,b" ,"x":-1.5e-3,"ok":true,)"
        R"("no":false,"none":null,"o":{"k":[1,"]"],"j":{}},"zero":0,"r":2.50)";
    const auto m = split(text);
    ASSERT_EQ(m.size(), 10u);
    EXPECT_EQ(m[0].key, "External id");
    EXPECT_EQ(m[0].type, JsonType::Integer);
    EXPECT_EQ(m[0].integer, 513);
    EXPECT_EQ(m[0].value, "513");
    EXPECT_EQ(m[1].key, "Input Dims");
    EXPECT_EQ(m[1].type, JsonType::Array);
    EXPECT_EQ(m[1].value, "[[2,3],[]]");
    EXPECT_EQ(m[2].key, "name");
    EXPECT_EQ(m[2].type, JsonType::Text);
    EXPECT_EQ(m[2].value, "\"a,b\"");
    EXPECT_EQ(m[3].type, JsonType::Real);
    EXPECT_DOUBLE_EQ(m[3].real, -1.5e-3);
    EXPECT_EQ(m[4].type, JsonType::True);
    EXPECT_EQ(m[4].value, "true");
    EXPECT_EQ(m[5].type, JsonType::False);
    EXPECT_EQ(m[6].type, JsonType::Null);
    EXPECT_EQ(m[6].value, "null");
    EXPECT_EQ(m[7].type, JsonType::Object);
    EXPECT_EQ(m[7].value, R"({"k":[1,"]"],"j":{}})");
    EXPECT_EQ(m[8].type, JsonType::Integer);
    EXPECT_EQ(m[8].integer, 0);
    EXPECT_EQ(m[9].type, JsonType::Real);
    EXPECT_DOUBLE_EQ(m[9].real, 2.5);
    EXPECT_EQ(m[9].value, "2.50");
    EXPECT_STREQ(jsonTypeName(m[1].type), "array");
    EXPECT_STREQ(jsonTypeName(m[6].type), "null");
}

TEST(JsonMembersTest, EscapesInKeysAndStrings) {
    const auto m = split(R"("ke\"y,":"a\\b\"c\/d\n\t","u":"\u00e9\ud83d\ude00","bad":"\ud800x")");
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].key, "ke\"y,");
    EXPECT_EQ(m[0].value, R"("a\\b\"c\/d\n\t")");  // as written
    EXPECT_EQ(jsonStringText(m[0].value), "a\\b\"c/d\n\t");
    EXPECT_EQ(jsonStringText(m[1].value), "\xc3\xa9\xf0\x9f\x98\x80");  // é and U+1F600
    EXPECT_EQ(jsonStringText(m[2].value), "\xef\xbf\xbdx");  // an unpaired surrogate: U+FFFD
    EXPECT_EQ(jsonStringText("\"\""), "");
    EXPECT_FALSE(jsonStringText("\"\\x\""));      // no such escape
    EXPECT_FALSE(jsonStringText("\"\\u12G4\""));  // not hex
    EXPECT_FALSE(jsonStringText("\"a\"b\""));     // a quote inside
    EXPECT_FALSE(jsonStringText("abc"));
}

TEST(JsonMembersTest, AnIntegerPast64BitsIsAReal) {
    const auto m = split(R"("big":18446744073709551615,"min":-9223372036854775808)");
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].type, JsonType::Real);
    EXPECT_DOUBLE_EQ(m[0].real, 18446744073709551615.0);
    EXPECT_EQ(m[1].type, JsonType::Integer);
    EXPECT_EQ(m[1].integer, INT64_MIN);
}

TEST(JsonMembersTest, EmptyAndMalformed) {
    std::vector<JsonMember> m;
    EXPECT_TRUE(splitJsonMembers("", m));
    EXPECT_TRUE(m.empty());
    EXPECT_TRUE(splitJsonMembers("  ", m));
    EXPECT_TRUE(m.empty());
    for (const char* bad :
         {R"("a":)", R"("a")", R"(a:1)", R"("a":1,)", R"("a":1 "b":2)", R"("a":[1,2)", R"("a":[1})",
          R"("a":"x)", R"("a":tru)", R"("a":nullx)", R"("a":01)", R"("a":1.)", R"("a":-)",
          R"("a":1e)", R"("a":NaN)", R"("a":1]")"}) {
        EXPECT_FALSE(splitJsonMembers(bad, m)) << bad;
    }
    // What came before a fault is kept.
    EXPECT_FALSE(splitJsonMembers(R"("a":1,"b":[)", m));
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].key, "a");
}

}  // namespace
}  // namespace wl::query
