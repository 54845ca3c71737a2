#pragma once

// The JSON cursor of the Chrome/Kineto reader: typed reads of simdjson On-Demand values that say
// what is wrong and where (a byte position), and the text checks behind them (JsonText.cpp). A
// wrong value inside an event is a FieldProblem, which costs that event or arg; broken JSON is a
// ParseFailure, which costs the file. Internal to wl_io.

#include <simdjson.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "io/TimeText.h"
#include "io/chrome/RawEvent.h"
#include "model/Time.h"

namespace wl::io::chrome {

namespace od = simdjson::ondemand;
using model::TimeNs;

constexpr int kMaxNesting = 256;

// Thrown inside the importer, turned into an Error at the boundary.
struct ParseFailure {
    std::string message;
    const char* at = nullptr;                       // where in the text; nullptr when unknown
    simdjson::error_code code = simdjson::SUCCESS;  // when the JSON parser reported it
};

// A value that is valid JSON but not what the field needs (a string where a number belongs, a
// time out of range). Inside an event it costs that event or that arg, not the file (as in
// Perfetto's importer); elsewhere it is a ParseFailure. `consumed`: the reader already walked
// the value (then it must not be skipped again).
struct FieldProblem {
    std::string message;
    const char* at = nullptr;
    bool consumed = false;
};

inline std::string_view trimRight(std::string_view s) {
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

// JSON number grammar (from_chars alone would take "inf", "nan" and leading zeros).
bool isJsonNumber(std::string_view s);

std::string describeSimdjsonError(simdjson::error_code code);

// First byte that is not valid UTF-8 (for the error position of a stage-1 rejection).
std::size_t firstInvalidUtf8(std::string_view s);

// Where the string that never closes begins (for the error position of a stage-1 rejection).
std::size_t unclosedStringStart(std::string_view s);

// Where the root value ends (one past its closing bracket), or npos when it never closes.
std::size_t rootValueEnd(std::string_view s);

class JsonCursor {
protected:
    [[noreturn]] void fail(std::string message, const char* at) {
        throw ParseFailure{std::move(message), at};
    }
    [[noreturn]] void failJson(simdjson::error_code code, const char* at) {
        throw ParseFailure{describeSimdjsonError(code), at, code};
    }

    static const char* locate(od::value& v) {
        const char* at = nullptr;
        if (v.current_location().get(at) != simdjson::SUCCESS)
            return nullptr;
        return at;
    }

    od::json_type typeOf(od::value& v) {
        od::json_type t;
        if (const auto err = v.type().get(t))
            failJson(err, locate(v));
        return t;
    }

    // A semantic problem with a value (see FieldProblem).
    [[noreturn]] static void problem(std::string message, const char* at, bool consumed = false) {
        throw FieldProblem{std::move(message), at, consumed};
    }

    // A string value. Strings without escapes (nearly all) are viewed in place in the input;
    // others are unescaped into the parser's buffer. Both stay valid for the whole document.
    std::string_view getString(od::value& v, std::string_view what) {
        const std::string_view tok = trimRight(v.raw_json_token());
        if (tok.empty() || tok.front() != '"')
            problem(std::string(what) + " must be a string", tok.data());
        if (tok.size() >= 2 && tok.back() == '"' &&
            !std::memchr(tok.data() + 1, '\\', tok.size() - 2)) {
            return tok.substr(1, tok.size() - 2);
        }
        std::string_view s;
        if (const auto err = v.get_string().get(s))
            failJson(err, tok.data());
        return s;
    }

    // The text of a string value that must hold a number: escapes never belong in one, so it is
    // refused before the value is consumed.
    std::string_view numericString(od::value& v, std::string_view what) {
        const std::string_view tok = trimRight(v.raw_json_token());
        if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"' ||
            std::memchr(tok.data() + 1, '\\', tok.size() - 2)) {
            problem(std::string(what) + " is not a number", tok.data());
        }
        return tok.substr(1, tok.size() - 2);
    }

    // An object key, read in place unless it has escapes. `quoted`, when given, receives the key
    // as the text writes it, quotes included.
    std::string_view keyText(simdjson::simdjson_result<od::field>& field,
                             std::string_view* quoted = nullptr) {
        od::raw_json_string raw;
        if (const auto err = field.key().get(raw))
            failJson(err, nullptr);
        const char* begin = raw.raw();
        // Keys are short: a plain scan beats memchr. The input ends with padding, and the
        // closing quote exists (the structural index found it).
        const char* p = begin;
        while (*p != '"' && *p != '\\')
            ++p;
        if (quoted) {
            const char* end = p;
            while (*end != '"') {
                end += *end == '\\' ? 2 : 1;
            }
            *quoted = {begin - 1, static_cast<std::size_t>(end + 2 - begin)};
        }
        if (*p == '"')
            return {begin, static_cast<std::size_t>(p - begin)};
        std::string_view key;
        if (const auto err = field.unescaped_key().get(key))
            failJson(err, begin);
        return key;
    }

    // A number's text, checked against the JSON grammar (a malformed number is not JSON: that
    // fails the file; a value of another type is a problem of the field).
    std::string_view numberText(od::value& v, std::string_view what) {
        const std::string_view tok = trimRight(v.raw_json_token());
        if (tok.empty() || (tok.front() != '-' && (tok.front() < '0' || tok.front() > '9'))) {
            problem(std::string(what) + " must be a number", tok.data());
        }
        if (!isJsonNumber(tok))
            fail("malformed number for " + std::string(what), tok.data());
        return tok;
    }

    template <class Int>
    static Int parseInt(std::string_view text, std::string_view what, const char* at,
                        int base = 10) {
        Int out{};
        const auto r = std::from_chars(text.data(), text.data() + text.size(), out, base);
        if (r.ec == std::errc::result_out_of_range)
            problem(std::string(what) + " is out of range", at);
        if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) {
            problem(std::string(what) + " must be an integer", at);
        }
        return out;
    }

    template <class Int>
    Int getInt(od::value& v, std::string_view what) {
        const std::string_view tok = numberText(v, what);
        return parseInt<Int>(tok, what, tok.data());
    }

    // An integer arg of any PyTorch profiler vintage: a number, or a string holding a decimal
    // or "0x" hexadecimal one (ROCm builds write "stream": "0x0").
    template <class Int>
    Int getArgInt(od::value& v, std::string_view what) {
        const std::string_view tok = trimRight(v.raw_json_token());
        if (tok.empty() || tok.front() != '"')
            return getInt<Int>(v, what);
        std::string_view text = numericString(v, what);
        bool negative = false;
        if (text.starts_with('-') && std::is_signed_v<Int>) {
            negative = true;
            text.remove_prefix(1);
        }
        int base = 10;
        if (text.starts_with("0x") || text.starts_with("0X")) {
            base = 16;
            text.remove_prefix(2);
        }
        if (text.starts_with('-') || text.starts_with('+'))
            problem(std::string(what) + " must be an integer", tok.data());
        if (!negative)
            return parseInt<Int>(text, what, tok.data(), base);
        const auto magnitude = parseInt<std::uint64_t>(text, what, tok.data(), base);
        if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()) + 1u)
            problem(std::string(what) + " is out of range", tok.data());
        return static_cast<Int>(0 - magnitude);
    }

    template <class Float>
    Float getFloat(od::value& v, std::string_view what) {
        const std::string_view tok = trimRight(v.raw_json_token());
        std::string_view text = tok;
        if (!tok.empty() && tok.front() == '"') {
            text = numericString(v, what);  // older producers quote some numbers
            if (!isJsonNumber(text))
                problem(std::string(what) + " is not a number", tok.data());
        } else {
            text = numberText(v, what);
        }
        Float out{};
        const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(out)) {
            problem(std::string(what) + " is out of range", tok.data());
        }
        return out;
    }

    TimeNs getTime(od::value& v, std::string_view what) {
        std::string_view text = trimRight(v.raw_json_token());
        const char* at = text.data();
        if (!text.empty() && text.front() == '"') {
            text = numericString(v, what);
        } else if (text.empty() ||
                   (text.front() != '-' && (text.front() < '0' || text.front() > '9'))) {
            typeOf(v);  // a token that is no JSON value at all (NaN) fails the file here
            problem(std::string(what) + " must be a number or a numeric string", at);
        }
        TimeNs ns = 0;
        switch (parseMicros(text, ns)) {
            case TimeParse::Ok:
                // ±2^61 ns (73 years) keeps every sum and difference of times inside int64.
                if (ns > kMaxAbsTimeNs || ns < -kMaxAbsTimeNs) {
                    problem(std::string(what) + " is out of range", at);
                }
                return ns;
            case TimeParse::Range:
                problem(std::string(what) + " is out of range", at);
            case TimeParse::Syntax:
                if (text.data() == at)  // a bare token: not even JSON
                    fail(std::string(what) + " is not a number", at);
                problem(std::string(what) + " is not a number", at);
        }
        return ns;
    }

    // A flag that should be a boolean; anything else counts as false (and is still checked).
    bool getFlag(od::value& v) {
        if (typeOf(v) == od::json_type::boolean) {
            bool b = false;
            if (const auto err = v.get_bool().get(b))
                failJson(err, locate(v));
            return b;
        }
        skipValue(v, 1);
        return false;
    }

    // Walks a value we do not use, so malformed JSON inside it is still an error.
    void skipValue(od::value& v, int depth) {
        if (depth > kMaxNesting)
            fail("JSON nested too deeply", locate(v));
        switch (typeOf(v)) {
            case od::json_type::object: {
                od::object obj;
                if (const auto err = v.get_object().get(obj))
                    failJson(err, locate(v));
                for (auto field : obj) {
                    std::string_view key;
                    if (const auto err = field.unescaped_key().get(key)) {
                        failJson(err, nullptr);
                    }
                    od::value inner = field.value();
                    skipValue(inner, depth + 1);
                }
                break;
            }
            case od::json_type::array: {
                od::array arr;
                if (const auto err = v.get_array().get(arr))
                    failJson(err, locate(v));
                for (auto element : arr) {
                    od::value inner = element.value();
                    skipValue(inner, depth + 1);
                }
                break;
            }
            case od::json_type::string:
                getString(v, "value");
                break;
            case od::json_type::number:
                numberText(v, "value");
                break;
            case od::json_type::boolean: {
                bool b = false;
                if (const auto err = v.get_bool().get(b))
                    failJson(err, locate(v));
                break;
            }
            case od::json_type::null: {
                bool isNull = false;
                if (v.is_null().get(isNull) || !isNull)
                    fail("invalid literal", locate(v));
                break;
            }
        }
    }

    // grid/block: [x, y, z] (Kineto), or a launcher's text such as "grid(100,)" (a Triton
    // launch seen from the CPU side), whose numbers are read in order.
    void getIntTriple(od::value& v, std::array<std::int32_t, 3>& out, std::string_view what) {
        const char* at = locate(v);
        const od::json_type type = typeOf(v);
        if (type == od::json_type::string) {
            const std::string_view text = getString(v, what);
            std::array<std::int32_t, 3> dims{1, 1, 1};
            std::size_t count = 0;
            for (std::size_t i = 0; i < text.size() && count < 3;) {
                if (text[i] < '0' || text[i] > '9') {
                    ++i;
                    continue;
                }
                std::int32_t n = 0;
                const auto r = std::from_chars(text.data() + i, text.data() + text.size(), n);
                if (r.ec != std::errc())
                    problem(std::string(what) + " is out of range", at);
                dims[count++] = n;
                i = static_cast<std::size_t>(r.ptr - text.data());
            }
            if (count == 0)
                problem(std::string(what) + " holds no dimensions", at);
            out = dims;
            return;
        }
        if (type != od::json_type::array)
            problem(std::string(what) + " must be an array", at);
        od::array arr = v.get_array();
        std::size_t i = 0;
        std::optional<FieldProblem> bad;
        std::array<std::int32_t, 3> dims = out;
        for (auto element : arr) {
            od::value inner = element.value();
            try {
                const auto n = getInt<std::int32_t>(inner, what);
                if (i < 3)
                    dims[i] = n;
            } catch (const FieldProblem& p) {
                if (!bad)
                    bad = p;
                skipValue(inner, 2);
            }
            ++i;
        }
        if (bad)
            problem(bad->message, bad->at, true);
        out = dims;
    }

    std::uint32_t getColor(od::value& v) {
        const char* at = locate(v);
        if (typeOf(v) == od::json_type::number)
            return getInt<std::uint32_t>(v, "color");
        std::string_view s = numericString(v, "color");
        if (!s.empty() && s.front() == '#')
            s.remove_prefix(1);
        std::uint32_t color = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), color, 16);
        if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
            problem("color must be \"#AARRGGBB\"", at);
        }
        if (s.size() == 6)
            color |= 0xff000000u;
        return color;
    }
};

}  // namespace wl::io::chrome
