// The JSON text layer: the number grammar, and where and why simdjson rejected a text.
#include "io/chrome/Importer.h"

namespace wl::io::chrome {

bool isJsonNumber(std::string_view s) {
    std::size_t i = 0;
    const std::size_t n = s.size();
    auto digit = [&](std::size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
    if (i < n && s[i] == '-')
        ++i;
    if (!digit(i))
        return false;
    if (s[i] == '0') {
        ++i;
    } else {
        while (digit(i))
            ++i;
    }
    if (i < n && s[i] == '.') {
        ++i;
        if (!digit(i))
            return false;
        while (digit(i))
            ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digit(i))
            return false;
        while (digit(i))
            ++i;
    }
    return i == n;
}

std::string describeSimdjsonError(simdjson::error_code code) {
    switch (code) {
        case simdjson::TAPE_ERROR:
            return "malformed JSON: unexpected character, or a missing comma, colon, bracket or "
                   "brace";
        case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
            return "truncated JSON: an array or object is not closed";
        case simdjson::UNCLOSED_STRING:
            return "truncated JSON: a string is not closed";
        case simdjson::NUMBER_ERROR:
            return "malformed or out-of-range number";
        case simdjson::T_ATOM_ERROR:
        case simdjson::F_ATOM_ERROR:
        case simdjson::N_ATOM_ERROR:
            return "invalid literal (only true, false and null exist in JSON)";
        case simdjson::STRING_ERROR:
            return "invalid string (bad escape or control character)";
        case simdjson::UTF8_ERROR:
            return "text is not valid UTF-8";
        case simdjson::EMPTY:
            return "empty file";
        case simdjson::DEPTH_ERROR:
            return "JSON nested too deeply";
        case simdjson::CAPACITY:
            return "file too large for the JSON parser (4 GiB)";
        case simdjson::INCORRECT_TYPE:
            return "unexpected JSON type";
        default:
            return std::string("malformed JSON: ") + simdjson::error_message(code);
    }
}

std::size_t firstInvalidUtf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        if (c < 0x80) {
            len = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
        } else {
            return i;
        }
        if (i + len > s.size())
            return i;
        for (std::size_t k = 1; k < len; ++k) {
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0u) != 0x80u)
                return i;
        }
        if (len == 3) {
            const auto c1 = static_cast<unsigned char>(s[i + 1]);
            if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F))
                return i;
        }
        if (len == 4) {
            const auto c1 = static_cast<unsigned char>(s[i + 1]);
            if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
                return i;
        }
        i += len;
    }
    return s.size();
}

std::size_t unclosedStringStart(std::string_view s) {
    bool inString = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (inString) {
            if (s[i] == '\\') {
                ++i;
            } else if (s[i] == '"') {
                inString = false;
            }
        } else if (s[i] == '"') {
            inString = true;
            start = i;
        }
    }
    return inString ? start : s.size();
}

std::size_t rootValueEnd(std::string_view s) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth <= 0)
                return i + 1;
        }
    }
    return std::string_view::npos;
}

}  // namespace wl::io::chrome
