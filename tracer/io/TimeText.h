#pragma once

#include <string>
#include <string_view>

#include "model/Time.h"

namespace wl::io {

// Exact conversions between model nanoseconds and the microsecond text of Chrome trace JSON.
// Integer arithmetic only: a double cannot hold every ns value of a long trace (2^53 ns is about
// 104 days, and producers write absolute clock values), so "1234567.891" must become exactly
// 1234567891 ns.

// Appends `ns` as microseconds with exactly three decimals ("1234567.891", "-0.500").
void appendMicros(std::string& out, model::TimeNs ns);

enum class TimeParse { Ok, Syntax, Range };

// Parses a JSON number (or the same text from a string) in microseconds into ns. Accepts
// integers, decimals and exponents; digits beyond ns resolution are rounded half away from zero.
// Text that is not a JSON number is Syntax; a value outside int64 ns is Range.
TimeParse parseMicros(std::string_view text, model::TimeNs& ns);

}  // namespace wl::io
