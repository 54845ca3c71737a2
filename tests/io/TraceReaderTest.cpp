// The seam between formats and the rest: readerFor picks a reader by the content, and content in
// a format Warpline does not read is named in the error instead of failing as bad JSON.
#include <gtest/gtest.h>

#include <string>

#include "io/TraceFile.h"
#include "io/TraceReader.h"

namespace wl::io {
namespace {

TEST(TraceReader, JsonContentGoesToTheChromeReader) {
    for (const std::string& head :
         {std::string("[{\"ph\":\"X\"}]"), std::string(" \n {\"traceEvents\":[]}"),
          std::string("\xEF\xBB\xBF[]")}) {
        const auto reader = readerFor(head);
        ASSERT_TRUE(reader.ok()) << head;
        EXPECT_EQ(reader.value()->formatName(), "Chrome trace JSON");
        EXPECT_TRUE(reader.value()->recognizes(head));
    }
}

TEST(TraceReader, OtherContentIsNotATraceAndSaysWhatWarplineOpens) {
    // A text file dropped on the window: not the JSON parser's complaint about its first byte,
    // but what it is not and what Warpline opens.
    const auto reader = readerFor("this is not JSON at all");
    ASSERT_FALSE(reader.ok());
    EXPECT_NE(reader.error().message.find("not a trace Warpline reads"), std::string::npos)
        << reader.error().message;
    EXPECT_NE(reader.error().message.find("Chrome trace JSON"), std::string::npos);
    const auto result = parseTrace("this is not JSON at all", "notes.txt");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().file, "notes.txt");
    EXPECT_EQ(result.error().byteOffset, 0);
    EXPECT_EQ(result.error().message.find("escaped"), std::string::npos);
    // The offset is the first byte that is not white space.
    EXPECT_EQ(parseTrace("\n  42", "n.json").error().byteOffset, 3);
    // An empty file is still the JSON reader's to explain.
    EXPECT_TRUE(readerFor("  \n").ok());
}

TEST(TraceReader, KnownFormatsItDoesNotReadAreNamed) {
    // An SQLite database is an Nsight Systems export's, read from its file (NsysReaderTest).
    const std::string sqlite = std::string("SQLite format 3\0", 16) + std::string(100, '\0');
    const auto reader = readerFor(sqlite);
    ASSERT_TRUE(reader.ok());
    EXPECT_TRUE(reader.value()->readsFiles());
    EXPECT_EQ(reader.value()->formatName(), "Nsight Systems SQLite export");

    const auto loaded = parseTrace(sqlite, "report.sqlite");
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().file, "report.sqlite");
    EXPECT_NE(loaded.error().message.find("Nsight Systems"), std::string::npos);

    EXPECT_FALSE(readerFor(std::string("PK\x03\x04rest", 8)).ok());
    const std::string protobuf("\x0a\x12\x08\x01\x00\x00", 6);
    const auto proto = readerFor(protobuf);
    ASSERT_FALSE(proto.ok());
    EXPECT_NE(proto.error().message.find("protobuf"), std::string::npos);
}

}  // namespace
}  // namespace wl::io
