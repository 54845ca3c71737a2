#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/ChromeTraceWriter.h"
#include "io/JsonWriter.h"
#include "io/TimeText.h"

namespace wl::io::writer {

inline constexpr std::size_t kChunkBytes = 1 << 20;

// The output buffer, handed to the sink in chunks.
class Out {
public:
    explicit Out(const ChromeTraceWriter::Sink& sink) : m_sink(sink) {
        m_buf.reserve(kChunkBytes + 4096);
    }

    std::string& buf() { return m_buf; }
    void put(std::string_view s) { m_buf.append(s); }
    void put(char c) { m_buf.push_back(c); }
    template <class Int>
    void putInt(Int v) {
        char tmp[24];
        m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    void putMicros(model::TimeNs ns) { appendMicros(m_buf, ns); }
    void putDouble(double v) { appendJsonNumber(m_buf, v); }
    void putFloat(float v) {
        char tmp[32];
        m_buf.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, v).ptr);
    }
    void putString(std::string_view s) { appendJsonString(m_buf, s); }

    bool maybeFlush() {
        if (m_buf.size() < kChunkBytes)
            return m_ok;
        return flush();
    }
    bool flush() {
        if (m_ok && !m_buf.empty())
            m_ok = m_sink(m_buf);
        m_buf.clear();
        return m_ok;
    }
    bool ok() const { return m_ok; }

private:
    const ChromeTraceWriter::Sink& m_sink;
    std::string m_buf;
    bool m_ok = true;
};

// Escaped JSON strings of a trace's interned names, each computed once.
class EscapedNames {
public:
    explicit EscapedNames(const model::Trace& trace)
        : m_trace(trace), m_escaped(trace.strings().size()) {}

    const std::string& operator()(model::StringId id) {
        std::string& s = m_escaped[id];
        if (s.empty())
            appendJsonString(s, m_trace.str(id));
        return s;
    }

private:
    const model::Trace& m_trace;
    std::vector<std::string> m_escaped;
};

}  // namespace wl::io::writer
