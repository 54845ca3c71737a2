#include "io/JsonWriter.h"

#include <charconv>
#include <cmath>

namespace wl::io {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not valid.
std::size_t utf8Length(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    auto cont = [&](std::size_t k) {
        return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0u) == 0x80u;
    };
    if (c >= 0xC2 && c <= 0xDF)
        return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2))
            return 0;
        const auto c1 = static_cast<unsigned char>(s[i + 1]);
        if (c == 0xE0 && c1 < 0xA0)
            return 0;  // overlong
        if (c == 0xED && c1 > 0x9F)
            return 0;  // surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3))
            return 0;
        const auto c1 = static_cast<unsigned char>(s[i + 1]);
        if (c == 0xF0 && c1 < 0x90)
            return 0;
        if (c == 0xF4 && c1 > 0x8F)
            return 0;
        return 4;
    }
    return 0;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
    out.push_back('"');
    std::size_t runStart = 0;
    std::size_t i = 0;
    auto flush = [&] { out.append(text.data() + runStart, i - runStart); };
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            const std::size_t n = utf8Length(text, i);
            if (n > 0) {
                i += n;
                continue;
            }
            flush();
            out.append("\xEF\xBF\xBD");  // U+FFFD for a byte that is not UTF-8
            runStart = ++i;
            continue;
        }
        flush();
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\t':
                out.append("\\t");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\b':
                out.append("\\b");
                break;
            case '\f':
                out.append("\\f");
                break;
            default: {
                const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
                out.append(esc, 6);
            }
        }
        runStart = ++i;
    }
    flush();
    out.push_back('"');
}

void appendJsonNumber(std::string& out, double value) {
    if (!std::isfinite(value)) {
        out.append("null");
        return;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, r.ptr);
}

void JsonWriter::newline() {
    if (!m_pretty)
        return;
    m_out.push_back('\n');
    m_out.append(2 * m_stack.size(), ' ');
}

void JsonWriter::beforeValue() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_stack.empty()) {
        m_wroteRoot = true;
        return;
    }
    if (m_stack.back())
        m_out.push_back(',');
    m_stack.back() = true;
    newline();
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    m_out.push_back('{');
    m_stack.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool hadElements = m_stack.back();
    m_stack.pop_back();
    if (hadElements)
        newline();
    m_out.push_back('}');
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    m_out.push_back('[');
    m_stack.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool hadElements = m_stack.back();
    m_stack.pop_back();
    if (hadElements)
        newline();
    m_out.push_back(']');
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    beforeValue();
    appendJsonString(m_out, name);
    m_out.push_back(':');
    if (m_pretty)
        m_out.push_back(' ');
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    beforeValue();
    appendJsonString(m_out, text);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, number);
    m_out.append(buf, r.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
    beforeValue();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, number);
    m_out.append(buf, r.ptr);
    return *this;
}

JsonWriter& JsonWriter::value(double number) {
    beforeValue();
    appendJsonNumber(m_out, number);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    beforeValue();
    m_out.append(flag ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    m_out.append("null");
    return *this;
}

}  // namespace wl::io
