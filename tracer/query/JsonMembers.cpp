// A splitter of JSON object members for the args table: one pass that finds where each member's
// key and value end (strings skipped escape by escape, arrays and objects by their brackets) and
// reads numbers; strings are unescaped only when asked for (jsonStringText).
#include "query/JsonMembers.h"

#include <charconv>
#include <iterator>

namespace wl::query {

namespace {

constexpr std::size_t kBad = std::string_view::npos;

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skipSpace(std::string_view text, std::size_t i) {
    while (i < text.size() && isSpace(text[i]))
        ++i;
    return i;
}

// Past the closing quote of the string that opens at text[i]; kBad when it does not close.
std::size_t stringEnd(std::string_view text, std::size_t i) {
    for (++i; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;  // the escaped character is never the closing quote
        else if (text[i] == '"')
            return i + 1;
    }
    return kBad;
}

// Past the bracket that closes the array or object that opens at text[i]; kBad when the brackets
// do not pair up.
std::size_t compositeEnd(std::string_view text, std::size_t i) {
    std::string closers;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
            i = stringEnd(text, i);
            if (i == kBad)
                return kBad;
            continue;
        }
        if (c == '[' || c == '{') {
            closers += c == '[' ? ']' : '}';
        } else if (c == ']' || c == '}') {
            if (closers.empty() || closers.back() != c)
                return kBad;
            closers.pop_back();
            if (closers.empty())
                return i + 1;
        }
        ++i;
    }
    return kBad;
}

std::size_t digitsEnd(std::string_view text, std::size_t i) {
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i;
    return i;
}

// Past the JSON number at text[i] (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?); kBad when
// there is none. `whole`: it has no fraction and no exponent.
std::size_t numberEnd(std::string_view text, std::size_t i, bool& whole) {
    if (i < text.size() && text[i] == '-')
        ++i;
    const std::size_t intEnd = digitsEnd(text, i);
    if (intEnd == i || (text[i] == '0' && intEnd > i + 1))
        return kBad;
    i = intEnd;
    whole = true;
    if (i < text.size() && text[i] == '.') {
        const std::size_t end = digitsEnd(text, i + 1);
        if (end == i + 1)
            return kBad;
        i = end;
        whole = false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        const std::size_t end = digitsEnd(text, i);
        if (end == i)
            return kBad;
        i = end;
        whole = false;
    }
    return i;
}

// Reads the value at text[i] into `m` (type, view, number); past it, or kBad.
std::size_t readValue(std::string_view text, std::size_t i, JsonMember& m) {
    if (i >= text.size())
        return kBad;
    std::size_t end = kBad;
    const char c = text[i];
    if (c == '"') {
        end = stringEnd(text, i);
        m.type = JsonType::Text;
    } else if (c == '[' || c == '{') {
        end = compositeEnd(text, i);
        m.type = c == '[' ? JsonType::Array : JsonType::Object;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        bool whole = true;
        end = numberEnd(text, i, whole);
        if (end == kBad)
            return kBad;
        const char* first = text.data() + i;
        const char* last = text.data() + end;
        if (whole && std::from_chars(first, last, m.integer).ec == std::errc()) {
            m.type = JsonType::Integer;
        } else {
            m.type = JsonType::Real;  // a fraction, an exponent, or past 64 bits
            if (std::from_chars(first, last, m.real).ec != std::errc())
                return kBad;
        }
    } else {
        struct Literal {
            std::string_view word;
            JsonType type;
        };
        for (const Literal& l : {Literal{"true", JsonType::True}, Literal{"false", JsonType::False},
                                 Literal{"null", JsonType::Null}}) {
            if (text.substr(i, l.word.size()) == l.word) {
                end = i + l.word.size();
                m.type = l.type;
            }
        }
    }
    if (end != kBad)
        m.value = text.substr(i, end - i);
    return end;
}

// The code point of the four hex digits at text[i], or -1.
long hexQuad(std::string_view text, std::size_t i) {
    unsigned value = 0;
    if (i + 4 > text.size())
        return -1;
    const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + i + 4, value, 16);
    return ec == std::errc() && ptr == text.data() + i + 4 ? static_cast<long>(value) : -1;
}

void putUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
        return;
    }
    const int tail = cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;  // continuation bytes
    out += static_cast<char>(((0xff00u >> (tail + 1)) & 0xffu) | (cp >> (6 * tail)));
    for (int k = tail - 1; k >= 0; --k)
        out += static_cast<char>(0x80u | ((cp >> (6 * k)) & 0x3fu));
}

}  // namespace

const char* jsonTypeName(JsonType type) {
    // In JsonType's order.
    static constexpr const char* kNames[] = {"integer", "real", "text",  "array",
                                             "object",  "true", "false", "null"};
    static_assert(std::size(kNames) == static_cast<std::size_t>(JsonType::Null) + 1);
    return kNames[static_cast<std::size_t>(type)];
}

bool splitJsonMembers(std::string_view members, std::vector<JsonMember>& out) {
    out.clear();
    std::size_t i = skipSpace(members, 0);
    if (i == members.size())
        return true;
    for (;;) {
        JsonMember m;
        const std::size_t keyEnd =
            i < members.size() && members[i] == '"' ? stringEnd(members, i) : kBad;
        if (keyEnd == kBad)
            return false;
        auto key = jsonStringText(members.substr(i, keyEnd - i));
        if (!key)
            return false;
        m.key = std::move(*key);
        i = skipSpace(members, keyEnd);
        if (i >= members.size() || members[i] != ':')
            return false;
        i = readValue(members, skipSpace(members, i + 1), m);
        if (i == kBad)
            return false;
        out.push_back(std::move(m));
        i = skipSpace(members, i);
        if (i == members.size())
            return true;
        if (members[i] != ',')
            return false;
        i = skipSpace(members, i + 1);
    }
}

std::optional<std::string> jsonStringText(std::string_view quoted) {
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
        return std::nullopt;
    const std::string_view body = quoted.substr(1, quoted.size() - 2);
    std::string out;
    out.reserve(body.size());
    // An escape's letter and the character it stands for, side by side (\u aside).
    constexpr std::string_view kEscapes = "\"\"\\\\//b\bf\fn\nr\rt\t";
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] == '"')
            return std::nullopt;  // a quote the string should have ended at
        if (body[i] != '\\') {
            out += body[i];
            continue;
        }
        if (++i == body.size())
            return std::nullopt;
        if (body[i] != 'u') {
            const std::size_t at = kEscapes.find(body[i]);
            if (at == std::string_view::npos || at % 2 != 0)
                return std::nullopt;
            out += kEscapes[at + 1];
            continue;
        }
        long cp = hexQuad(body, i + 1);
        if (cp < 0)
            return std::nullopt;
        i += 4;
        if (cp >= 0xd800 && cp < 0xe000) {
            // A high surrogate followed by a low one is one code point; any other is none.
            const long low =
                cp < 0xdc00 && body.substr(i + 1, 2) == "\\u" ? hexQuad(body, i + 3) : -1;
            if (low >= 0xdc00 && low < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                i += 6;
            } else {
                cp = 0xfffd;
            }
        }
        putUtf8(out, static_cast<std::uint32_t>(cp));
    }
    return out;
}

}  // namespace wl::query
