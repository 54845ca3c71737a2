#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl::io {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> malformedFiles() {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(test::dataPath("malformed"))) {
        files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

class MalformedInput : public ::testing::TestWithParam<std::string> {};

// Every malformed file is an Error that names the file and a byte inside it; never a trace.
TEST_P(MalformedInput, IsAnErrorWithFileAndByteOffset) {
    const std::string path = test::dataPath("malformed/" + GetParam());
    const auto result = loadTrace(path);
    ASSERT_FALSE(result.ok()) << GetParam() << " was accepted";
    const auto& error = result.error();
    EXPECT_EQ(error.file, path);
    EXPECT_FALSE(error.message.empty());
    EXPECT_GE(error.byteOffset, 0) << error.describe();
    const std::string bytes = test::readFile(path);
    const bool gz = GetParam().ends_with(".gz");
    if (!gz) {
        EXPECT_LE(error.byteOffset, static_cast<std::int64_t>(bytes.size())) << error.describe();
    }
    // The same bytes from memory give the same answer.
    const auto fromMemory = parseTrace(bytes, path);
    ASSERT_FALSE(fromMemory.ok());
    EXPECT_EQ(fromMemory.error().describe(), error.describe());
}

INSTANTIATE_TEST_SUITE_P(AllFiles, MalformedInput, ::testing::ValuesIn(malformedFiles()),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& c : name) {
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             }
                             return name;
                         });

struct Expected {
    const char* file;
    const char* message;  // a substring of the message
    std::int64_t offset;  // -2: any offset
};

// Where it matters most, the offset points at the culprit. A file whose only event cannot be
// read holds no events: the error is that event's problem (a file with other, readable events
// loads without it: TolerantImportTest).
TEST(MalformedInput, OffsetsPointAtTheProblem) {
    const Expected cases[] = {
        {"wrong_type_ts.json", "ts must be", 43},
        {"wrong_type_name.json", "name must be a string", 18},
        {"wrong_type_ph.json", "ph must be a string", 7},
        {"wrong_type_pid.json", "pid must be", 28},
        {"nan_string.json", "ts is not a number", 43},
        {"huge_ts.json", "ts is out of range", 43},
        {"huge_int_ts.json", "ts is out of range", 43},
        {"empty.json", "empty", 0},
        {"whitespace.json", "empty", 0},
        {"missing_ph.json", "without \"ph\"", 1},
        {"missing_ts.json", "without \"ts\"", 1},
        {"bad_utf8.json", "UTF-8", 20},
        {"unclosed_string.json", "string is not closed", 18},
        {"trailing_garbage.json", "after the JSON document", 57},
        {"scalar_root.json", "starts with '{' or '['", 0},
        {"wrong_type_events.json", "must be an array", 15},
        {"not_gzip.json.gz", "not a valid gzip stream", -2},
        {"truncated.json.gz", "truncated", -2},
        {"gzip_of_garbage.json.gz", "decompressed data", -2},
        {"truncated.json", "truncated", -2},
        {"huge_dur_overflow.json", "out of range", 43},
        {"nan.json", "NaN and infinities are not JSON numbers", 43},
        {"ts_beyond_range.json", "ts is out of range", 43},
        {"base_time_overflow.json", "baseTimeNanoseconds plus the earliest", 23},
        // Two processes of one pid leave tracks' owners ambiguous (found by the fuzzer).
        {"duplicate_process_pid.json", "lists pid 1 twice", 92},
        {"infinity.json", "NaN and infinities are not JSON numbers", 43},
    };
    for (const auto& c : cases) {
        const auto result = loadTrace(test::dataPath(std::string("malformed/") + c.file));
        ASSERT_FALSE(result.ok()) << c.file;
        EXPECT_NE(result.error().message.find(c.message), std::string::npos)
            << c.file << ": " << result.error().describe();
        if (c.offset != -2) {
            EXPECT_EQ(result.error().byteOffset, c.offset)
                << c.file << ": " << result.error().describe();
        }
    }
}

TEST(MalformedInput, MissingFileIsAnErrorWithoutOffset) {
    const auto result = loadTrace("/nonexistent/dir/trace.json");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().file, "/nonexistent/dir/trace.json");
    EXPECT_NE(result.error().message.find("cannot open"), std::string::npos);
    EXPECT_EQ(result.error().byteOffset, -1);
}

TEST(MalformedInput, DirectoryIsAnError) {
    const auto result = loadTrace(test::dataPath("malformed"));
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("directory"), std::string::npos);
}

// Cutting a valid trace anywhere never yields a trace: every prefix is an error or (for the
// few cuts that leave valid JSON) a complete smaller document is impossible here because the
// text ends with "]}".
TEST(MalformedInput, EveryTruncationOfAValidFileIsAnError) {
    const std::string bytes = test::readFile(test::dataPath("chrome_phases.json"));
    ASSERT_FALSE(bytes.empty());
    ASSERT_TRUE(parseTrace(bytes, "full").ok());
    std::string trimmed = bytes;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back())))
        trimmed.pop_back();
    for (std::size_t cut = 0; cut < trimmed.size(); ++cut) {
        const auto result = parseTrace(std::string_view(trimmed).substr(0, cut), "cut");
        ASSERT_FALSE(result.ok()) << "prefix of " << cut << " bytes was accepted";
        EXPECT_GE(result.error().byteOffset, 0);
        EXPECT_LE(result.error().byteOffset, static_cast<std::int64_t>(cut));
    }
}

}  // namespace
}  // namespace wl::io
