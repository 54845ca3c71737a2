#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wl::query {

// What a JSON value is, as the args table's `type` column names it.
enum class JsonType : std::uint8_t { Integer, Real, Text, Array, Object, True, False, Null };
// "integer", "real", "text", "array", "object", "true", "false", "null"
const char* jsonTypeName(JsonType type);

// One member of a JSON object: its key unescaped, its value as written.
struct JsonMember {
    std::string key;
    // The value's bytes as the producer wrote them, without the white space around it (a string
    // with its quotes: jsonStringText unescapes it).
    std::string_view value;
    JsonType type = JsonType::Null;
    // Integer: the value; Real: the value (also an integer too large for 64 bits: a real, as
    // SQLite reads such a literal).
    std::int64_t integer = 0;
    double real = 0.0;
};

// Splits JSON object members without their braces (`"External id":513,"Input Dims":[[2,3]]`,
// model::Trace::producerArgs) into `out` (cleared first), in order; the values' views point into
// `members`. Strings may hold any escape; arrays and objects nest. False when the text is not
// well-formed members (`out` then holds those before the fault); empty text is no members.
// Linear in the text; no state, any thread.
bool splitJsonMembers(std::string_view members, std::vector<JsonMember>& out);

// The text of a JSON string written with its quotes (`"a\"b"` -> `a"b`): escapes undone, \u
// escapes (and surrogate pairs) as UTF-8, an unpaired surrogate as U+FFFD. Nullopt when it is no
// well-formed string.
std::optional<std::string> jsonStringText(std::string_view quoted);

}  // namespace wl::query
