// The run catalog's table: consistent in itself, and its one parser and message for numbers.
#include <gtest/gtest.h>

#include <set>

#include "workloads/catalog/RunCatalog.h"

namespace wl::workloads {
namespace {

TEST(RunCatalog, EveryDefaultLiesInItsRange) {
    for (const OptionSpec& option : runOptions()) {
        for (const ParamRange& range : option.ranges) {
            EXPECT_LE(range.min, range.defaultValue) << option.name << " " << range.workload;
            EXPECT_LE(range.defaultValue, range.max) << option.name << " " << range.workload;
            EXPECT_GE(range.min, 1) << option.name << ": 0 stands for the default";
            EXPECT_NE(findWorkload(range.workload), nullptr)
                << option.name << " " << range.workload;
            EXPECT_TRUE(checkOption(option.id, range.workload, range.defaultValue).ok());
        }
    }
}

TEST(RunCatalog, EveryWorkloadTakesSizeAndStreams) {
    for (const WorkloadSpec& workload : workloadSpecs()) {
        EXPECT_NE(runOption(RunOption::Size).rangeFor(workload.name), nullptr) << workload.name;
        EXPECT_NE(runOption(RunOption::Streams).rangeFor(workload.name), nullptr) << workload.name;
        EXPECT_NE(*workload.title, '\0');
    }
    EXPECT_EQ(workloadNames(), (std::vector<std::string>{kReduce, kPower}));
}

TEST(RunCatalog, NamesAreUniqueAndFound) {
    std::set<std::string> names;
    for (const OptionSpec& option : runOptions()) {
        EXPECT_TRUE(names.insert(option.name).second) << option.name;
        EXPECT_EQ(findRunOption(option.name), &option);
        EXPECT_EQ(&runOption(option.id), &option);
        EXPECT_EQ(option.isFlag(), option.valueName == nullptr);
        EXPECT_FALSE(option.isFlag() && option.isNumber()) << option.name;
    }
    EXPECT_EQ(findRunOption("--frobnicate"), nullptr);
    EXPECT_EQ(findRunOption("streams"), nullptr);
}

TEST(RunCatalog, TheWorkloadsLimits) {
    const OptionSpec& size = runOption(RunOption::Size);
    EXPECT_EQ(size.rangeFor(kReduce)->max, std::int64_t{1} << 36);
    EXPECT_EQ(size.rangeFor(kReduce)->defaultValue, 100'000'000);
    EXPECT_EQ(size.rangeFor(kPower)->max, 1 << 20);
    EXPECT_EQ(size.rangeFor(kPower)->defaultValue, 8192);
    EXPECT_EQ(size.widest().max, std::int64_t{1} << 36);
    EXPECT_EQ(runOption(RunOption::Steps).widest().max, 10'000'000);
    EXPECT_EQ(runOption(RunOption::Steps).rangeFor(kReduce), nullptr);
    EXPECT_EQ(runOption(RunOption::Repeat).rangeFor(kPower), nullptr);
    EXPECT_EQ(runOption(RunOption::Streams).widest().min, 1);
    EXPECT_EQ(runOption(RunOption::Streams).widest().max, 64);
    EXPECT_EQ(runOption(RunOption::Devices).widest().max, 8);
}

TEST(RunCatalog, OutOfRangeNamesOptionValueAndRange) {
    EXPECT_EQ(checkOption(RunOption::Streams, kReduce, 65).error().message,
              "--streams must be between 1 and 64 (got 65)");
    EXPECT_EQ(checkOption(RunOption::Size, kPower, 2'000'000).error().message,
              "--size must be between 1 and 1048576 (matrix dimension) (got 2000000)");
    EXPECT_EQ(checkOption(RunOption::Devices, kReduce, 9).error().message,
              "--devices must be between 1 and 8 GPUs (got 9)");
    EXPECT_TRUE(checkOption(RunOption::Size, kReduce, 2'000'000).ok());
    EXPECT_TRUE(checkOption(RunOption::Steps, kReduce, -1).ok());  // not reduce's option
}

TEST(RunCatalog, ParsesWholeNumbersInTheWidestRange) {
    const OptionSpec& streams = runOption(RunOption::Streams);
    EXPECT_EQ(*parseNumber(streams, std::string("8")), 8);
    EXPECT_EQ(*parseNumber(streams, std::string("64")), 64);
    EXPECT_EQ(parseNumber(streams, std::string("65")).error().message,
              "--streams must be between 1 and 64 (got 65)");
    EXPECT_EQ(parseNumber(streams, std::string("0")).error().message,
              "--streams must be between 1 and 64 (got 0)");
    for (const char* bad : {"x", "4x", " 4", "+4", "4.0", "99999999999999999999999"}) {
        EXPECT_EQ(
            parseNumber(streams, std::string(bad)).error().message,
            "--streams must be a whole number between 1 and 64 (got '" + std::string(bad) + "')");
    }
    EXPECT_EQ(parseNumber(streams, std::nullopt).error().message, "--streams needs a value");
    EXPECT_EQ(parseNumber(streams, std::string()).error().message, "--streams needs a value");
    // Size before the workload is known: what some workload takes.
    const OptionSpec& size = runOption(RunOption::Size);
    EXPECT_EQ(*parseNumber(size, std::string("68719476736")), std::int64_t{1} << 36);
    EXPECT_FALSE(parseNumber(size, std::string("68719476737")).ok());
    EXPECT_FALSE(parseNumber(size, std::string("-5")).ok());
}

TEST(RunCatalog, NamesAndModes) {
    EXPECT_TRUE(checkWorkloadName(kPower).ok());
    EXPECT_EQ(checkWorkloadName("matmul").error().message,
              "unknown workload 'matmul' (known: reduce, power)");
    EXPECT_EQ(*parseMode(kAsync), Mode::Async);
    EXPECT_STREQ(toString(Mode::Baseline), kBaseline);
    EXPECT_EQ(parseMode("fast").error().message, "unknown mode 'fast' (known: baseline, async)");
}

TEST(RunCatalog, UsageListsEveryOptionWithItsRanges) {
    const std::string usage = runOptionsUsage(28);
    for (const OptionSpec& option : runOptions()) {
        EXPECT_NE(usage.find(std::string("  ") + option.name), std::string::npos) << option.name;
    }
    EXPECT_NE(usage.find("1..64, default 1"), std::string::npos) << usage;
    EXPECT_NE(usage.find("power 1..1048576, default 8192"), std::string::npos) << usage;
    EXPECT_NE(usage.find("reduce (reduce/normalize, float32)"), std::string::npos) << usage;
    std::size_t start = 0;
    while (start < usage.size()) {
        const std::size_t end = usage.find('\n', start);
        EXPECT_LT(end - start, 100u) << usage.substr(start, end - start);
        start = end + 1;
    }
}

}  // namespace
}  // namespace wl::workloads

namespace wl::workloads {
namespace {

TEST(RunCatalogMetadata, EveryOptionHasItsOwnKey) {
    std::set<std::string> keys;
    for (const OptionSpec& option : runOptions()) {
        const char* key = metadataKey(option.id);
        if (option.id == RunOption::Pageable) {
            EXPECT_EQ(key, nullptr) << "--pageable is \"pinned\" false";
            continue;
        }
        ASSERT_NE(key, nullptr) << option.name;
        EXPECT_TRUE(keys.insert(key).second) << key;
        EXPECT_NE(key, std::string(kProducerKey));
        EXPECT_NE(key, std::string(kWallTimeKey));
    }
}

TEST(RunCatalogMetadata, NumbersReadBackInTheirRange) {
    const OptionSpec& streams = runOption(RunOption::Streams);
    EXPECT_EQ(metadataNumber(streams, "8"), 8);
    EXPECT_EQ(metadataNumber(streams, "1000"), kMaxStreams);  // brought into the range
    EXPECT_EQ(metadataNumber(streams, "0"), kMinStreams);     // 0 is no default here
    EXPECT_EQ(metadataNumber(streams, "8x"), std::nullopt);
    EXPECT_EQ(metadataNumber(streams, ""), std::nullopt);
    const OptionSpec& size = runOption(RunOption::Size);
    EXPECT_EQ(metadataNumber(size, "0"), 0);  // the workload's default
    EXPECT_EQ(metadataNumber(size, "4096"), 4096);
    EXPECT_TRUE(metadataFlagValue(metadataFlag(true)));
    EXPECT_FALSE(metadataFlagValue(metadataFlag(false)));
    EXPECT_FALSE(metadataFlagValue("yes"));
}

TEST(RunCatalogMetadata, TheSynopsisNamesEveryOption) {
    const std::string synopsis = runOptionsSynopsis(15, 80, "[-o trace.json]");
    for (const OptionSpec& option : runOptions())
        EXPECT_NE(synopsis.find(option.name), std::string::npos) << option.name;
    EXPECT_NE(synopsis.find("reduce|power"), std::string::npos) << synopsis;
    EXPECT_NE(synopsis.find("[--pinned|--pageable]"), std::string::npos) << synopsis;
    EXPECT_NE(synopsis.find("[-o trace.json]"), std::string::npos) << synopsis;
    std::size_t lineStart = 0;
    for (std::size_t end = synopsis.find('\n'); lineStart < synopsis.size();
         end = synopsis.find('\n', lineStart)) {
        const std::size_t length = (end == std::string::npos ? synopsis.size() : end) - lineStart;
        EXPECT_LT(length + (lineStart == 0 ? 15u : 0u), 80u) << synopsis;
        if (end == std::string::npos)
            break;
        lineStart = end + 1;
    }
}

}  // namespace
}  // namespace wl::workloads
