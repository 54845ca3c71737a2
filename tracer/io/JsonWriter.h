#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wl::io {

// Appends `text` as a JSON string literal (quotes included): escapes quotes, backslashes and
// control characters, and replaces invalid UTF-8 with U+FFFD so the output is always valid JSON.
void appendJsonString(std::string& out, std::string_view text);

// Appends a double in its shortest round-trip form; NaN and infinities (not JSON) become null.
void appendJsonNumber(std::string& out, double value);

// A small streaming JSON writer over a caller-owned std::string: it tracks commas and nesting so
// callers only say what comes next. Not thread-safe; cheap to create. Misuse (a value where a key
// is due) is not diagnosed: it is meant for code that knows its output shape.
class JsonWriter {
public:
    explicit JsonWriter(std::string& out, bool pretty = false) : m_out(out), m_pretty(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);

    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(std::int64_t number);
    JsonWriter& value(std::uint64_t number);
    JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned number) { return value(static_cast<std::uint64_t>(number)); }
    JsonWriter& value(long long number) { return value(static_cast<std::int64_t>(number)); }
    JsonWriter& value(unsigned long long number) {
        return value(static_cast<std::uint64_t>(number));
    }
    JsonWriter& value(double number);
    JsonWriter& value(bool flag);
    JsonWriter& null();

    // key(name).value(v) in one call.
    template <class T>
    JsonWriter& field(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }

    // True when every object and array opened has been closed.
    bool complete() const { return m_stack.empty() && m_wroteRoot; }

private:
    void beforeValue();
    void newline();

    std::string& m_out;
    bool m_pretty;
    bool m_afterKey = false;
    bool m_wroteRoot = false;
    // One entry per open container: whether it already holds an element.
    std::vector<bool> m_stack;
};

}  // namespace wl::io
