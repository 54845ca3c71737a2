#include "analysis/KeptArgs.h"

#include <cstdint>

namespace wl::analysis {

namespace {

void skipSpace(std::string_view text, std::size_t& i) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        ++i;
}

void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

std::optional<std::uint32_t> hex4(std::string_view text, std::size_t at) {
    if (at + 4 > text.size())
        return std::nullopt;
    std::uint32_t v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
        const char c = text[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= static_cast<std::uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= static_cast<std::uint32_t>(c - 'A' + 10);
        else
            return std::nullopt;
    }
    return v;
}

// The JSON string that starts at text[i] (a quote), unescaped; i moves past its closing quote.
std::optional<std::string> readString(std::string_view text, std::size_t& i) {
    if (i >= text.size() || text[i] != '"')
        return std::nullopt;
    std::string out;
    for (++i; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            ++i;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= text.size())
            return std::nullopt;
        switch (text[i]) {
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                auto cp = hex4(text, i + 1);
                if (!cp)
                    return std::nullopt;
                i += 4;
                // A surrogate pair is one code point.
                if (*cp >= 0xd800 && *cp < 0xdc00 && i + 2 < text.size() && text[i + 1] == '\\' &&
                    text[i + 2] == 'u') {
                    if (const auto low = hex4(text, i + 3);
                        low && *low >= 0xdc00 && *low < 0xe000) {
                        cp = 0x10000 + ((*cp - 0xd800) << 10) + (*low - 0xdc00);
                        i += 6;
                    }
                }
                appendUtf8(out, *cp);
                break;
            }
            default:
                out += text[i];
                break;  // \" \\ \/
        }
    }
    return std::nullopt;  // unterminated
}

// Past the value that starts at text[i]: to the comma (or the end) outside strings and brackets.
std::size_t valueEnd(std::string_view text, std::size_t i) {
    int depth = 0;
    while (i < text.size() && (depth > 0 || text[i] != ',')) {
        const char c = text[i];
        if (c == '"') {
            std::size_t s = i;
            if (!readString(text, s))
                return text.size();
            i = s;
            continue;
        }
        depth += (c == '[' || c == '{') ? 1 : (c == ']' || c == '}') ? -1 : 0;
        ++i;
    }
    return i;
}

}  // namespace

std::optional<std::string> keptArg(std::string_view members, std::string_view key) {
    std::size_t i = 0;
    while (true) {
        skipSpace(members, i);
        const auto name = readString(members, i);
        if (!name)
            return std::nullopt;
        skipSpace(members, i);
        if (i >= members.size() || members[i] != ':')
            return std::nullopt;
        ++i;
        skipSpace(members, i);
        const std::size_t end = valueEnd(members, i);
        if (*name == key) {
            if (i < members.size() && members[i] == '"') {
                std::size_t s = i;
                return readString(members, s);
            }
            std::size_t last = end;
            while (last > i && (members[last - 1] == ' ' || members[last - 1] == '\n' ||
                                members[last - 1] == '\t' || members[last - 1] == '\r'))
                --last;
            return std::string(members.substr(i, last - i));
        }
        if (end >= members.size())
            return std::nullopt;
        i = end + 1;  // past the comma
    }
}

}  // namespace wl::analysis
