#include "io/TimeText.h"

#include <charconv>
#include <cstdint>
#include <limits>

namespace wl::io {

void appendMicros(std::string& out, model::TimeNs ns) {
    char buf[32];
    char* p = buf;
    std::uint64_t magnitude = static_cast<std::uint64_t>(ns);
    if (ns < 0) {
        *p++ = '-';
        magnitude = 0 - magnitude;  // well defined for INT64_MIN too
    }
    const std::uint64_t whole = magnitude / 1000;
    const auto frac = static_cast<unsigned>(magnitude % 1000);
    p = std::to_chars(p, buf + sizeof buf, whole).ptr;
    p[0] = '.';
    p[1] = static_cast<char>('0' + frac / 100);
    p[2] = static_cast<char>('0' + frac / 10 % 10);
    p[3] = static_cast<char>('0' + frac % 10);
    out.append(buf, p + 4);
}

TimeParse parseMicros(std::string_view text, model::TimeNs& ns) {
    std::size_t i = 0;
    const std::size_t n = text.size();
    bool negative = false;
    if (i < n && text[i] == '-') {
        negative = true;
        ++i;
    }
    auto isDigit = [&](std::size_t k) { return k < n && text[k] >= '0' && text[k] <= '9'; };
    if (!isDigit(i))
        return TimeParse::Syntax;
    // JSON grammar: no leading zeros, digits after '.', digits after the exponent sign.
    if (text[i] == '0' && isDigit(i + 1))
        return TimeParse::Syntax;

    // Significant digits (leading zeros dropped) and the decimal exponent that scales them.
    // Only the first 20 digits can matter for an int64 result (19 plus the rounding digit).
    constexpr int kMaxDigits = 20;
    char digits[kMaxDigits];
    int count = 0;
    std::int64_t exponent = 0;  // value = digits * 10^exponent
    auto take = [&](char c, bool fractional) {
        if (count == 0 && c == '0') {
            if (fractional)
                --exponent;
            return;
        }
        if (count < kMaxDigits) {
            digits[count++] = c;
            if (fractional)
                --exponent;
        } else {
            if (!fractional)
                ++exponent;
        }
    };
    while (isDigit(i))
        take(text[i++], false);
    if (i < n && text[i] == '.') {
        ++i;
        if (!isDigit(i))
            return TimeParse::Syntax;
        while (isDigit(i))
            take(text[i++], true);
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            expNegative = text[i++] == '-';
        if (!isDigit(i))
            return TimeParse::Syntax;
        std::int64_t e = 0;
        while (isDigit(i)) {
            if (e < 100000)
                e = e * 10 + (text[i] - '0');
            ++i;
        }
        exponent += expNegative ? -e : e;
    }
    if (i != n)
        return TimeParse::Syntax;
    if (count == 0) {
        ns = 0;
        return TimeParse::Ok;
    }
    exponent += 3;  // microseconds -> nanoseconds

    // Integer part: digits[0 .. count+exponent); the digit after it rounds.
    const std::int64_t intDigits = count + exponent;
    if (intDigits > 19)
        return TimeParse::Range;
    std::uint64_t value = 0;  // at most 19 digits (+1 from rounding): fits
    for (std::int64_t k = 0; k < intDigits; ++k) {
        value = value * 10 + (k < count ? static_cast<unsigned>(digits[k] - '0') : 0u);
    }
    if (intDigits >= 0 && intDigits < count && digits[intDigits] >= '5')
        ++value;
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    if (value > limit)
        return TimeParse::Range;
    ns = negative ? static_cast<model::TimeNs>(0 - value) : static_cast<model::TimeNs>(value);
    return TimeParse::Ok;
}

}  // namespace wl::io
