#include "model/PackedTexts.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using wl::model::PackedTexts;

// Texts of the kinds a trace keeps: Kineto args, flow events, digits of every form.
std::vector<std::string> sampleTexts() {
    return {
        "",
        "0",
        R"("External id": 513,"Record function id": 0, "Sequence number": 95, "Ev Idx": 0)",
        R"("External id": 514,"Record function id": 0, "Sequence number": 96, "Ev Idx": 1)",
        R"({"ph": "f", "id": 46, "pid": 0, "tid": 7, "ts": 5039230756546.719, "bp": "e"})",
        R"({"ph": "f", "id": 47, "pid": 0, "tid": 7, "ts": 5039230756546.070, "bp": "e"})",
        // Leading zeros, a lone zero, runs longer than 18 digits, the largest 18-digit run.
        "007 0 00 000123 1234567890123456789012345 999999999999999999 0.000001",
        R"("blocks per SM": 3.878788, "grid": [1, 512, 1], "block": [128, 1, 1])",
        // A byte the packing uses itself, and other bytes past ASCII.
        std::string("a\x01"
                    "5b",
                    4),
        "\xe2\x82\xac 12 \xff",
        "no digits at all",
        "trailing 42",
    };
}

TEST(PackedTexts, GivesEveryTextBackByteForByte) {
    PackedTexts packed;
    const auto texts = sampleTexts();
    // Twice over, so that the second sightings use interned shapes.
    for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < texts.size(); ++i)
            packed.append({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(round)},
                          texts[i]);
    }
    packed.finish();
    ASSERT_EQ(packed.size(), 2 * texts.size());
    for (std::uint32_t k = 0; k < packed.size(); ++k) {
        std::string text;
        const auto heads = packed.read(k, &text);
        EXPECT_EQ(text, texts[k % texts.size()]) << "entry " << k;
        EXPECT_EQ(heads[0], k % texts.size());
        EXPECT_EQ(heads[1], k / texts.size());
        EXPECT_EQ(packed.read(k, nullptr), heads);  // the heads alone
    }
}

TEST(PackedTexts, ReadsInOrderAndByIndexAlikeAcrossGroupsAndChunks) {
    // Enough entries for many groups of sixteen and several 1 MiB chunks, some larger than a
    // chunk, with numbers that differ from entry to entry.
    std::mt19937_64 random(7);
    std::vector<std::string> texts;
    for (int i = 0; i < 60'000; ++i) {
        std::string t = R"("External id": )" + std::to_string(random() % 1'000'000) +
                        R"(, "ts": )" + std::to_string(random()) + "." +
                        std::to_string(random() % 1000);
        if (i % 997 == 0)
            t += std::string(i % 2 == 0 ? 1'500'000 : 70'000, 'x');
        if (i % 13 == 0)
            t = "unique " + std::to_string(random()) + std::string(i % 40, 'a' + i % 26);
        texts.push_back(std::move(t));
    }
    PackedTexts packed;
    for (std::size_t i = 0; i < texts.size(); ++i)
        packed.append({static_cast<std::uint32_t>(i), 0}, texts[i]);
    std::size_t index = 0;
    std::string text;
    for (PackedTexts::Reader reader(packed); !reader.done(); ++index) {
        text.clear();
        ASSERT_EQ(reader.next(&text)[0], index);
        ASSERT_EQ(text, texts[index]) << "entry " << index;
    }
    EXPECT_EQ(index, texts.size());
    for (std::uint32_t k : {0u, 15u, 16u, 17u, 996u, 997u, 998u, 59'999u}) {
        EXPECT_EQ(packed.text(k), texts[k]) << "entry " << k;
    }
}

TEST(PackedTexts, RepeatedShapesCostTheirNumbersNotTheirText) {
    PackedTexts packed;
    std::size_t textBytes = 0;
    for (int i = 0; i < 100'000; ++i) {
        const std::string t = R"("External id": )" + std::to_string(100'000 + i) +
                              R"(,"Record function id": 0, "Sequence number": )" +
                              std::to_string(i % 300) + R"(, "Fwd thread id": 1, "Ev Idx": )" +
                              std::to_string(i);
        textBytes += t.size();
        packed.append({}, t);
    }
    packed.finish();
    // About 100 bytes of text each; their numbers take 9 bytes and the entry 3 more.
    EXPECT_GT(textBytes, 100'000u * 95);
    EXPECT_LT(packed.memoryBytes(), 100'000u * 16);
}

}  // namespace
