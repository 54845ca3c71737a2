#include <gtest/gtest.h>

#include "app/gui/GuiOptions.h"

namespace wl::app {
namespace {

TEST(GuiOptions, NoArgumentsOpenAnEmptyWindow) {
    auto options = parseGuiOptions({});
    ASSERT_TRUE(options.ok());
    EXPECT_TRUE(options->openPath.empty());
    EXPECT_FALSE(options->run);
    EXPECT_FALSE(options->requestGiven);
    EXPECT_TRUE(options->screenshotPath.empty());
}

TEST(GuiOptions, ParsesOpenRunOptionsAndScreenshot) {
    auto options =
        parseGuiOptions({"--open", "t.json", "--workload", "power", "--mode=async", "--streams",
                         "8", "--pinned", "--size", "4096", "--repeat", "30", "--steps", "90",
                         "--gpu-metrics", "--run", "--screenshot", "x.png"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_EQ(options->openPath, "t.json");
    EXPECT_EQ(options->screenshotPath, "x.png");
    EXPECT_TRUE(options->run);
    EXPECT_TRUE(options->requestGiven);
    EXPECT_EQ(options->request.workload, "power");
    EXPECT_EQ(options->request.mode, "async");
    EXPECT_EQ(options->request.streams, 8);
    EXPECT_TRUE(options->request.pinned);
    EXPECT_EQ(options->request.size, 4096);
    EXPECT_EQ(options->request.repeat, 30);
    EXPECT_EQ(options->request.steps, 90);
    EXPECT_TRUE(options->request.gpuMetrics);
    EXPECT_FALSE(options->request.sharedStreamBug);
}

TEST(GuiOptions, FindTakesTheTextToSearchFor) {
    auto options = parseGuiOptions({"--open", "t.json", "--find", "Memcpy DtoH"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_EQ(options->findText, "Memcpy DtoH");
    EXPECT_FALSE(parseGuiOptions({"--find"}).ok());
}

TEST(GuiOptions, WindowSizeIsWidthByHeight) {
    auto options = parseGuiOptions({"--window-size", "1024x700"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_EQ(options->windowWidthPx, 1024);
    EXPECT_EQ(options->windowHeightPx, 700);
    EXPECT_FALSE(parseGuiOptions({"--window-size", "1024"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--window-size", "1024x70o"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--window-size", "10x10"}).ok());
}

TEST(GuiOptions, OpenTakesSeveralRankTraces) {
    auto options = parseGuiOptions({"--open", "rank0.json", "rank1.json", "--screenshot", "s.png"});
    ASSERT_TRUE(options.ok()) << options.error().message;
    EXPECT_EQ(options->openPath, "rank0.json");
    EXPECT_EQ(options->moreOpenPaths, std::vector<std::string>{"rank1.json"});
    EXPECT_EQ(options->screenshotPath, "s.png");
    auto one = parseGuiOptions({"--open", "a.json"});
    ASSERT_TRUE(one.ok());
    EXPECT_TRUE(one->moreOpenPaths.empty());
}

TEST(GuiOptions, SelectTakesARangeInMilliseconds) {
    auto options = parseGuiOptions({"--select", "12.5:30"});
    ASSERT_TRUE(options.ok()) << options.error().message;
    ASSERT_TRUE(options->selectRange.has_value());
    EXPECT_EQ(options->selectRange->startNs, 12'500'000);
    EXPECT_EQ(options->selectRange->endNs, 30'000'000);
    EXPECT_FALSE(parseGuiOptions({"--select", "30:12"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--select", "12"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--select", "a:b"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--select", "-1:5"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--select"}).ok());
}

TEST(GuiOptions, FlagsTakeATimeInMillisecondsAndAName) {
    auto options = parseGuiOptions({"--flag", "12.5:step 2", "--flag", "40"});
    ASSERT_TRUE(options.ok());
    ASSERT_EQ(options->flags.size(), 2u);
    EXPECT_EQ(options->flags[0].timeNs, 12'500'000);
    EXPECT_EQ(options->flags[0].name, "step 2");
    EXPECT_EQ(options->flags[1].timeNs, 40'000'000);
    EXPECT_EQ(options->flags[1].name, "");
    EXPECT_FALSE(parseGuiOptions({"--flag", "x"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--flag", "-1:a"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--flag"}).ok());
}

TEST(GuiOptions, CompareWithNeedsATraceToCompareWith) {
    auto options = parseGuiOptions({"--open", "a.json", "--compare-with", "b.json"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_EQ(options->compareWithPath, "b.json");
    EXPECT_FALSE(parseGuiOptions({"--compare-with", "b.json"}).ok());
    // `--compare A B` is the same; a bare --compare runs a comparison; one file is an error.
    auto pair = parseGuiOptions({"--compare", "a.json", "b.json", "--window-size", "1024x700"});
    ASSERT_TRUE(pair.ok()) << pair.error().message;
    EXPECT_EQ(pair->openPath, "a.json");
    EXPECT_EQ(pair->compareWithPath, "b.json");
    EXPECT_FALSE(pair->compare);
    EXPECT_FALSE(parseGuiOptions({"--compare", "a.json"}).ok());
    auto bare = parseGuiOptions({"--compare", "--streams", "4"});
    ASSERT_TRUE(bare.ok());
    EXPECT_TRUE(bare->compare);
    EXPECT_FALSE(parseGuiOptions({"--open", "a.json", "--compare-with", "b.json", "--run"}).ok());
    EXPECT_FALSE(parseGuiOptions({"--open", "a.json", "--compare-with"}).ok());
}

TEST(GuiOptions, PageableAfterPinnedWins) {
    auto options = parseGuiOptions({"--pinned", "--pageable", "--shared-stream"});
    ASSERT_TRUE(options.ok());
    EXPECT_FALSE(options->request.pinned);
    EXPECT_TRUE(options->request.sharedStreamBug);
}

TEST(GuiOptions, QtOptionsPassThrough) {
    auto options = parseGuiOptions({"-platform", "offscreen", "-reverse", "--run", "--compare"});
    ASSERT_TRUE(options.ok()) << options.error().describe();
    EXPECT_TRUE(options->run);
    EXPECT_TRUE(options->compare);
}

TEST(GuiOptions, BadValuesAreErrorsNamingTheOption) {
    const std::vector<std::vector<std::string>> bad = {
        {"--streams", "0"}, {"--streams", "65"},      {"--streams", "x"}, {"--size", "-5"},
        {"--repeat", "0"},  {"--workload", "matmul"}, {"--mode", "fast"}, {"--open"},
        {"--screenshot"},   {"--frobnicate"},         {"stray.json"},     {"--run=yes"},
    };
    for (const auto& args : bad) {
        auto options = parseGuiOptions(args);
        EXPECT_FALSE(options.ok()) << args.front();
        if (!options.ok()) {
            EXPECT_FALSE(options.error().message.empty());
        }
    }
    auto streams = parseGuiOptions({"--streams", "65"});
    ASSERT_FALSE(streams.ok());
    EXPECT_NE(streams.error().message.find("--streams"), std::string::npos);
}

}  // namespace
}  // namespace wl::app
