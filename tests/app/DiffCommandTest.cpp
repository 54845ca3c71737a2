// `warpline diff A B`: the bundled reduce samples, pinned baseline against 8-stream async.
#include <gtest/gtest.h>

#include <simdjson.h>
#include <iostream>
#include <sstream>
#include <string>

#include "app/cli/Commands.h"
#include "support/TestData.h"

namespace wl::app {
namespace {

// Runs a command with std::cout captured.
std::pair<int, std::string> captured(int (*command)(const std::vector<std::string>&),
                                     const std::vector<std::string>& args) {
    std::ostringstream out;
    std::streambuf* old = std::cout.rdbuf(out.rdbuf());
    const int rc = command(args);
    std::cout.rdbuf(old);
    return {rc, out.str()};
}

TEST(DiffCommand, BaselineAgainstAsyncReduceSamples) {
    const std::string a = test::samplePath("reduce-baseline-pinned.json.gz");
    const std::string b = test::samplePath("reduce-async-8streams-repeat50.json.gz");
    const auto [rc, json] = captured(&diffCommand, {a, b, "--json"});
    ASSERT_EQ(rc, kExitOk);
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json.substr(0, 400);
    const double busyA = doc["a"]["gpu_busy_pct"].get_double().value();
    const double busyB = doc["b"]["gpu_busy_pct"].get_double().value();
    EXPECT_GT(busyB, busyA);  // the async run keeps the GPU busier
    EXPECT_GT(doc["a"]["window_ns"].get_int64().value(), 0);
    // The same kernels on both sides, 50 times as many launches after (repeat 50).
    bool sawPartialReduce = false;
    for (simdjson::dom::element row : doc["kernels"].get_array()) {
        if (std::string_view(row["name"].get_string().value()) == "partial_reduce") {
            sawPartialReduce = true;
            EXPECT_GT(row["count_b"].get_uint64().value(), row["count_a"].get_uint64().value());
        }
    }
    EXPECT_TRUE(sawPartialReduce) << json.substr(0, 2000);
    EXPECT_TRUE(doc["findings"]["gone"].is_array());

    // The text form says the same in lines a reader can scan.
    const auto [textRc, text] = captured(&diffCommand, {a, b});
    EXPECT_EQ(textRc, kExitOk);
    EXPECT_NE(text.find("GPU busy:"), std::string::npos) << text;
    EXPECT_NE(text.find("partial_reduce"), std::string::npos) << text;
    EXPECT_NE(text.find("findings gone:"), std::string::npos) << text;
}

TEST(DiffCommand, BadUsageAndBadFilesAreRefused) {
    EXPECT_EQ(captured(&diffCommand, {}).first, kExitBadInput);
    EXPECT_EQ(captured(&diffCommand, {test::samplePath("reduce-baseline-pinned.json.gz")}).first,
              kExitBadInput);
    EXPECT_EQ(captured(&diffCommand, {"/nonexistent/a.json", "/nonexistent/b.json"}).first,
              kExitBadInput);
    EXPECT_EQ(captured(&diffCommand, {"a", "b", "--colour"}).first, kExitBadInput);
}

}  // namespace
}  // namespace wl::app
