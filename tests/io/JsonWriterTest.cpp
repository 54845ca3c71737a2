#include <gtest/gtest.h>

#include <limits>

#include "io/JsonWriter.h"

namespace wl::io {
namespace {

std::string quoted(std::string_view s) {
    std::string out;
    appendJsonString(out, s);
    return out;
}

TEST(JsonWriter, EscapesEverythingJsonRequires) {
    EXPECT_EQ(quoted("plain"), "\"plain\"");
    EXPECT_EQ(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(quoted("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
    EXPECT_EQ(quoted(std::string_view("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
    EXPECT_EQ(quoted("caf\xc3\xa9 \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
    // Bytes that are not UTF-8 become U+FFFD so the output stays valid JSON.
    EXPECT_EQ(quoted("a\xff"
                     "b"),
              "\"a\xEF\xBF\xBD"
              "b\"");
    EXPECT_EQ(quoted("\xc3"), "\"\xEF\xBF\xBD\"");
    EXPECT_EQ(quoted("\xed\xa0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
}

TEST(JsonWriter, NumbersAreShortestAndNeverNaN) {
    std::string s;
    appendJsonNumber(s, 0.1 + 0.2);
    EXPECT_EQ(s, "0.30000000000000004");
    s.clear();
    appendJsonNumber(s, std::numeric_limits<double>::quiet_NaN());
    EXPECT_EQ(s, "null");
    s.clear();
    appendJsonNumber(s, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(s, "null");
}

TEST(JsonWriter, StreamsNestedObjectsWithCommas) {
    std::string out;
    JsonWriter w(out);
    w.beginObject();
    w.field("span_ns", std::int64_t{1500});
    w.key("counts").beginObject().field("kernel", 3u).field("ratio", 0.5).endObject();
    w.key("devices").beginArray();
    w.beginObject().field("id", 0).field("name", "H100").endObject();
    w.beginObject()
        .field("id", 1)
        .key("streams")
        .beginArray()
        .value(7)
        .value(13)
        .endArray()
        .endObject();
    w.endArray();
    w.field("ok", true).key("none").null();
    w.endObject();
    EXPECT_TRUE(w.complete());
    EXPECT_EQ(
        out,
        R"({"span_ns":1500,"counts":{"kernel":3,"ratio":0.5},"devices":[{"id":0,"name":"H100"},)"
        R"({"id":1,"streams":[7,13]}],"ok":true,"none":null})");
}

TEST(JsonWriter, PrettyOutputIndents) {
    std::string out;
    JsonWriter w(out, true);
    w.beginObject()
        .field("a", 1)
        .key("b")
        .beginArray()
        .value(2)
        .endArray()
        .key("c")
        .beginObject()
        .endObject()
        .endObject();
    EXPECT_EQ(out, "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ],\n  \"c\": {}\n}");
}

}  // namespace
}  // namespace wl::io
