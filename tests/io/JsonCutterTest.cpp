#include "io/JsonCutter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace wl::io {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// The same rule, one byte at a time: the reference the block scanner must agree with.
std::size_t referenceCut(std::string_view text, std::size_t from, std::size_t targetBytes) {
    bool inString = false;
    bool escaped = false;
    long depth = 0;
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) {
                return i;
            }
            --depth;
        } else if (c == ',' && depth == 0 && i >= from + targetBytes) {
            return i;
        }
    }
    return npos;
}

// Cuts a whole array's content into runs and returns each run's text.
std::vector<std::string> runs(std::string_view text, std::size_t targetBytes) {
    std::vector<std::string> out;
    std::size_t from = text.find('[') + 1;
    while (true) {
        const std::size_t cut = nextMemberCut(text, from, targetBytes);
        if (cut == npos) {
            out.push_back("<truncated>");
            return out;
        }
        out.emplace_back(text.substr(from, cut - from));
        if (text[cut] == ']') {
            return out;
        }
        from = cut + 1;
    }
}

TEST(JsonCutter, CutsBetweenElementsOnly) {
    const std::string text = R"([{"a":[1,2]},{"b":{"c":3}},4,"x,]",[5,[6]]])";
    EXPECT_EQ(runs(text, 0), (std::vector<std::string>{R"({"a":[1,2]})", R"({"b":{"c":3}})", "4",
                                                       R"("x,]")", "[5,[6]]"}));
    // A target past the end: one run, up to the closing bracket.
    EXPECT_EQ(runs(text, 1000), (std::vector<std::string>{text.substr(1, text.size() - 2)}));
}

TEST(JsonCutter, FollowsStringsAndEscapesAcrossBlocks) {
    // Quotes, brackets and commas inside strings, escaped quotes and backslashes, placed so that
    // some of them straddle the 64-byte block boundaries.
    std::string text = "[";
    for (int i = 0; i < 200; ++i) {
        text += R"({"name":"f(a, b) [x] {y}","esc":"say \"hi\", \\",)";
        text += std::string(static_cast<std::size_t>(i % 61), ' ');
        text += R"("p":"C:\\dir\\","n":)" + std::to_string(i) + "},";
    }
    text += "{}]";
    const auto pieces = runs(text, 0);
    ASSERT_EQ(pieces.size(), 201u);
    for (int i = 0; i < 200; ++i) {
        EXPECT_EQ(pieces[static_cast<std::size_t>(i)].front(), '{');
        EXPECT_EQ(pieces[static_cast<std::size_t>(i)].back(), '}');
    }
    for (std::size_t target : {std::size_t{1}, std::size_t{100}, std::size_t{4096}}) {
        std::size_t from = 1;
        while (true) {
            const std::size_t cut = nextMemberCut(text, from, target);
            ASSERT_EQ(cut, referenceCut(text, from, target)) << "from " << from;
            ASSERT_EQ(detail::nextMemberCutBaseline(text, from, target), cut) << "from " << from;
            ASSERT_NE(cut, npos);
            if (text[cut] == ']') {
                break;
            }
            EXPECT_GE(cut, from + target);
            from = cut + 1;
        }
    }
}

TEST(JsonCutter, TruncatedTextHasNoCut) {
    EXPECT_EQ(nextMemberCut(R"([{"a":1},{"b":)", 1, 20), npos);
    EXPECT_EQ(nextMemberCut(R"([{"a":"never closed, ]})", 1, 0), npos);
}

TEST(JsonCutter, AgreesWithTheByteByByteRuleOnRandomText) {
    // Random mixes of the characters that matter, valid JSON or not: the block scanner and the
    // reference agree everywhere.
    std::mt19937 rng(7);
    const std::string alphabet = "{}[],\"\\ab1 :";
    for (int round = 0; round < 300; ++round) {
        std::string text = "[";
        const std::size_t len = 1 + rng() % 700;
        for (std::size_t i = 0; i < len; ++i) {
            text += alphabet[rng() % alphabet.size()];
        }
        for (std::size_t target : {std::size_t{0}, std::size_t{17}, std::size_t{200}}) {
            ASSERT_EQ(nextMemberCut(text, 1, target), referenceCut(text, 1, target))
                << "round " << round << " target " << target << ": " << text;
            ASSERT_EQ(detail::nextMemberCutBaseline(text, 1, target), referenceCut(text, 1, target))
                << "round " << round << " target " << target << ": " << text;
        }
    }
}

}  // namespace
}  // namespace wl::io
