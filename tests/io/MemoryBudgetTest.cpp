#include "io/MemoryBudget.h"

#include <gtest/gtest.h>

namespace {

using wl::io::memoryShortfall;

TEST(MemoryBudget, ATraceThatCannotFitIsRefusedWithTheFigures) {
    // 10 GB of JSON needs about 5 GB while it is read; 1 GB is available.
    const auto refused = memoryShortfall(10'000'000'000ull, 0, "big.json", 1'000'000'000ull);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->file, "big.json");
    EXPECT_NE(refused->message.find("needs about 5.0 GB"), std::string::npos) << refused->message;
    EXPECT_NE(refused->message.find("1.0 GB are available"), std::string::npos) << refused->message;
}

TEST(MemoryBudget, ADecompressedTextCountsWhole) {
    // 2 GB of gzip text: held whole (2 GB) besides what its read needs (1 GB) does not fit in
    // 2.5 GB; as a plain file (mapped, given back as it is read) it does.
    EXPECT_FALSE(memoryShortfall(2'000'000'000ull, 0, "t.json", 2'500'000'000ull).has_value());
    EXPECT_TRUE(memoryShortfall(2'000'000'000ull, 2'000'000'000ull, "t.json.gz", 2'500'000'000ull)
                    .has_value());
}

TEST(MemoryBudget, WhatFitsOrCannotBeKnownIsRead) {
    EXPECT_FALSE(memoryShortfall(100'000'000ull, 0, "t.json", 1'000'000'000ull).has_value());
    EXPECT_FALSE(memoryShortfall(100'000'000'000ull, 0, "t.json", std::nullopt).has_value());
    // This machine's own figure is read (where /proc/meminfo exists).
    if (const auto available = wl::io::availableMemoryBytes())
        EXPECT_GT(*available, 0u);
}

}  // namespace
