#include "query/ResultFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace wl::query {

namespace {

std::string realText(double d) {
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d > 0 ? "inf" : "-inf";
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, d);
    return std::string(buffer, r.ptr);
}

std::string hex(const std::string& bytes) {
    static const char* const kDigits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char ch : bytes) {
        const auto b = static_cast<unsigned char>(ch);
        out += kDigits[b >> 4];
        out += kDigits[b & 0xf];
    }
    return out;
}

// Characters on screen: UTF-8 continuation bytes take none.
std::size_t displayWidth(const std::string& s) {
    std::size_t n = 0;
    for (const char ch : s)
        n += (static_cast<unsigned char>(ch) & 0xc0) != 0x80 ? 1 : 0;
    return n;
}

// The byte index where the `chars`-th character starts.
std::size_t byteOfChar(const std::string& s, std::size_t chars) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) {
            if (seen == chars)
                return i;
            ++seen;
        }
    }
    return s.size();
}

std::string elide(const std::string& s, std::size_t maxWidth) {
    const std::size_t width = displayWidth(s);
    if (width <= maxWidth || maxWidth < 5)
        return s;
    const std::size_t keep = maxWidth - 3;
    const std::size_t head = (keep + 1) / 2;
    const std::size_t tail = keep - head;
    return s.substr(0, byteOfChar(s, head)) + "..." + s.substr(byteOfChar(s, width - tail));
}

bool isNumber(const Value& v) {
    return v.type == Value::Type::Integer || v.type == Value::Type::Real;
}

}  // namespace

std::string valueText(const Value& v, const char* null) {
    switch (v.type) {
        case Value::Type::Null:
            return null;
        case Value::Type::Integer:
            return std::to_string(v.integer);
        case Value::Type::Real:
            return realText(v.real);
        case Value::Type::Text:
            return v.text;
        case Value::Type::Blob:
            return "x'" + hex(v.text) + "'";
    }
    return null;
}

void writeTable(std::ostream& out, const QueryResult& result, std::size_t maxWidth) {
    const std::size_t n = result.names.size();
    std::vector<std::vector<std::string>> cells;
    cells.reserve(result.rows.size());
    std::vector<std::size_t> widths(n, 0);
    std::vector<std::string> header(n);
    for (std::size_t c = 0; c < n; ++c) {
        header[c] = elide(result.names[c], maxWidth);
        widths[c] = displayWidth(header[c]);
    }
    for (const auto& row : result.rows) {
        std::vector<std::string> line(n);
        for (std::size_t c = 0; c < n && c < row.size(); ++c) {
            std::string text = valueText(row[c]);
            for (char& ch : text) {
                if (ch == '\n' || ch == '\r' || ch == '\t')
                    ch = ' ';
            }
            line[c] = elide(text, maxWidth);
            widths[c] = std::max(widths[c], displayWidth(line[c]));
        }
        cells.push_back(std::move(line));
    }
    const auto pad = [&](const std::string& text, std::size_t c, bool right) {
        const std::string spaces(widths[c] - displayWidth(text), ' ');
        out << (right ? spaces + text : text + (c + 1 < n ? spaces : ""));
    };
    for (std::size_t c = 0; c < n; ++c) {
        out << (c ? "  " : "");
        pad(header[c], c, false);
    }
    out << "\n";
    for (std::size_t c = 0; c < n; ++c)
        out << (c ? "  " : "") << std::string(widths[c], '-');
    out << "\n";
    for (std::size_t r = 0; r < cells.size(); ++r) {
        for (std::size_t c = 0; c < n; ++c) {
            out << (c ? "  " : "");
            pad(cells[r][c], c, c < result.rows[r].size() && isNumber(result.rows[r][c]));
        }
        out << "\n";
    }
    out << "(" << cells.size() << (cells.size() == 1 ? " row)\n" : " rows)\n");
}

void CsvSink::field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        m_out << text;
        return;
    }
    m_out << '"';
    for (const char ch : text) {
        if (ch == '"')
            m_out << '"';
        m_out << ch;
    }
    m_out << '"';
}

void CsvSink::columns(const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i)
            m_out << ',';
        field(names[i]);
    }
    m_out << "\r\n";
}

bool CsvSink::row(const std::vector<Value>& values) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            m_out << ',';
        field(valueText(values[i], ""));
    }
    m_out << "\r\n";
    return m_out.good();
}

std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (const char ch : text) {
        const auto b = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (b < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", b);
                    out += buffer;
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
    return out;
}

void JsonSink::columns(const std::vector<std::string>& names) {
    m_keys.clear();
    for (const auto& name : names)
        m_keys.push_back(jsonString(name));
    m_out << "[";
}

bool JsonSink::row(const std::vector<Value>& values) {
    m_out << (m_first ? "\n  {" : ",\n  {");
    m_first = false;
    for (std::size_t i = 0; i < values.size() && i < m_keys.size(); ++i) {
        m_out << (i ? ", " : "") << m_keys[i] << ": ";
        const Value& v = values[i];
        switch (v.type) {
            case Value::Type::Null:
                m_out << "null";
                break;
            case Value::Type::Integer:
                m_out << v.integer;
                break;
            case Value::Type::Real:
                m_out << (std::isfinite(v.real) ? realText(v.real) : "null");
                break;
            case Value::Type::Text:
                m_out << jsonString(v.text);
                break;
            case Value::Type::Blob:
                m_out << jsonString(hex(v.text));
                break;
        }
    }
    m_out << "}";
    return m_out.good();
}

void JsonSink::finish() {
    if (m_keys.empty() && m_first)
        m_out << "[";
    m_out << (m_first ? "]\n" : "\n]\n");
}

}  // namespace wl::query
