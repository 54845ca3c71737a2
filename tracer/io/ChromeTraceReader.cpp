#include "io/ChromeTraceReader.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "io/ChromeTraceFormat.h"
#include "io/JsonCutter.h"
#include "io/TimeText.h"
#include "model/TraceBuilder.h"

namespace wl::io {

namespace {

namespace od = simdjson::ondemand;
using format::keyHash;
using model::ProcessIndex;
using model::SliceKind;
using model::StringId;
using model::TimeNs;
using model::TrackIndex;

static_assert(ChromeTraceReader::kPadding >= simdjson::SIMDJSON_PADDING);

constexpr TimeNs kMaxAbsTimeNs = TimeNs{1} << 61;

constexpr int kMaxNesting = 256;
// String pids/tids ("Spans", "PyTorch Profiler") become numbers above any OS id.
constexpr std::int64_t kStringIdBase = model::kSyntheticIdBase;
// Ids of flows/async events given as strings live above numeric ones.
constexpr std::uint64_t kStringFlowIdBit = std::uint64_t{1} << 63;
// The process key of async events with a global id ("id2": {"global": ...}).
constexpr std::int64_t kGlobalScope = std::numeric_limits<std::int64_t>::min();

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

// The run-at-a-time read met something it does not judge (bad JSON, a failed event array, a
// top level it does not expect): the whole-document read runs instead and gives the verdict.
struct ChunkedGiveUp {};

// Marks a slice whose "B" never met its "E": it ends with its thread's last event.
constexpr std::string_view kUnclosedSuffix = " (unclosed)";

// What an event's category says it is.
enum class Cat : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Sync,
    Runtime,
    Driver,
    Annotation,
    GpuAnnotation,
    Overhead,
    Other,
};

Cat classify(std::string_view cat) {
    switch (keyHash(cat)) {
        case keyHash(format::kCatKernel):
            if (cat == format::kCatKernel)
                return Cat::Kernel;
            break;
        case keyHash(format::kCatMemcpy):
            if (cat == format::kCatMemcpy)
                return Cat::Memcpy;
            break;
        case keyHash(format::kCatMemset):
            if (cat == format::kCatMemset)
                return Cat::Memset;
            break;
        case keyHash(format::kCatSync):
            if (cat == format::kCatSync)
                return Cat::Sync;
            break;
        case keyHash(format::kCatRuntime):
            if (cat == format::kCatRuntime)
                return Cat::Runtime;
            break;
        case keyHash(format::kCatDriver):
            if (cat == format::kCatDriver)
                return Cat::Driver;
            break;
        case keyHash(format::kCatUserAnnotation):
            if (cat == format::kCatUserAnnotation)
                return Cat::Annotation;
            break;
        case keyHash(format::kCatGpuUserAnnotation):
            if (cat == format::kCatGpuUserAnnotation)
                return Cat::GpuAnnotation;
            break;
        case keyHash(format::kCatOverhead):
            if (cat == format::kCatOverhead)
                return Cat::Overhead;
            break;
        case keyHash(format::kCatKernelLegacy):
            if (cat == format::kCatKernelLegacy)
                return Cat::Kernel;
            break;
        case keyHash(format::kCatMemcpyLegacy):
            if (cat == format::kCatMemcpyLegacy)
                return Cat::Memcpy;
            break;
        case keyHash(format::kCatMemsetLegacy):
            if (cat == format::kCatMemsetLegacy)
                return Cat::Memset;
            break;
        case keyHash(format::kCatRuntimeLegacy):
            if (cat == format::kCatRuntimeLegacy)
                return Cat::Runtime;
            break;
        default:
            break;
    }
    return Cat::Other;
}

// Launch arrows (API call -> GPU work) keyed by correlation id, of every PyTorch profiler vintage.
bool isLaunchFlowCat(std::string_view cat) {
    return cat == format::kCatLaunchFlow || cat == format::kCatLaunchFlowLegacy ||
           cat == format::kCatLaunchFlowOldest || cat == format::kCatLaunchFlowCpuToGpu;
}

bool onGpu(Cat c) {
    return c == Cat::Kernel || c == Cat::Memcpy || c == Cat::Memset || c == Cat::Sync ||
           c == Cat::GpuAnnotation;
}

// Presence bits of EventArgs fields.
enum ArgBit : std::uint32_t {
    kArgCorrelation = 1u << 0,
    kArgDevice = 1u << 1,
    kArgStream = 1u << 2,
    kArgWaitOnStream = 1u << 3,
    kArgEventId = 1u << 4,
    kArgCbid = 1u << 5,
    kArgReturnCode = 1u << 6,
    kArgSrcDevice = 1u << 7,
    kArgDstDevice = 1u << 8,
    kArgCategory = 1u << 9,
    kArgSortIndex = 1u << 10,
    kArgBytes = 1u << 11,
    kArgValue = 1u << 12,
    kArgGrid = 1u << 13,
    kArgBlock = 1u << 14,
    kArgRegisters = 1u << 15,
    kArgSharedTotal = 1u << 16,
    kArgSharedStatic = 1u << 17,
    kArgSharedDynamic = 1u << 18,
    kArgWarps = 1u << 19,
    kArgOccupancy = 1u << 20,
    kArgCopyKind = 1u << 21,
    kArgSrcKind = 1u << 22,
    kArgDstKind = 1u << 23,
    kArgMemoryKind = 1u << 24,
    kArgSyncKind = 1u << 25,
    kArgDomain = 1u << 26,
    kArgName = 1u << 27,
    kArgColor = 1u << 28,
    kArgPayload = 1u << 29,
    kArgCategoryName = 1u << 30,
};

// The args we understand (Kineto's names and ours). Views point into the parser's buffers,
// valid for the whole document.
struct EventArgs {
    std::uint32_t has = 0;
    std::int64_t correlation = 0;
    std::int64_t device = -1;
    std::int64_t stream = -1;
    std::int64_t waitOnStream = -1;
    std::int64_t eventId = -1;
    std::int64_t cbid = 0;
    std::int64_t returnCode = 0;
    std::int64_t srcDevice = -1;
    std::int64_t dstDevice = -1;
    std::int64_t category = 0;
    std::int64_t sortIndex = 0;
    std::uint64_t bytes = 0;
    std::uint64_t value = 0;
    std::int64_t registers = 0;
    std::int64_t sharedTotal = 0;
    std::int64_t sharedStatic = 0;
    std::int64_t sharedDynamic = 0;
    std::array<std::int32_t, 3> grid{1, 1, 1};
    std::array<std::int32_t, 3> block{1, 1, 1};
    float warps = -1.0f;
    float occupancy = -1.0f;
    std::uint32_t color = 0;
    double payload = 0.0;
    std::string_view copyKind, srcKind, dstKind, memoryKind, syncKind, domain, name, categoryName;

    bool hasAll(std::uint32_t bits) const { return (has & bits) == bits; }
    bool hasAny(std::uint32_t bits) const { return (has & bits) != 0; }
};

struct RawEvent {
    const char* at = nullptr;  // the event's '{'
    char ph = 0;
    bool phaseKnown = false;  // a one-character phase
    bool hasTs = false;
    bool hasId = false;
    bool globalId = false;  // "id2": {"global": ...}: one id space across processes
    bool hasBindId = false;
    bool flowIn = false;   // flow v2: this slice ends (or continues) flow `bindId`
    bool flowOut = false;  // flow v2: this slice starts (or continues) flow `bindId`
    std::string_view name, cat, scope, bindPoint;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    TimeNs ts = 0;
    TimeNs dur = 0;
    std::uint64_t id = 0;
    std::uint64_t bindId = 0;
    EventArgs args;
    // Its args as written, [membersBegin, +membersCount) of Importer::m_members: those the
    // writer does not write back for the slice's kind are kept with it (Trace::extraArgs).
    std::uint32_t membersBegin = 0;
    std::uint32_t membersCount = 0;
};

// One member of an event's args, as the text has it (both views into the text, which outlives
// the import): the key with its quotes, the value (trimmed; objects and arrays whole).
struct ArgMember {
    std::string_view key;
    std::string_view value;
    bool container = false;  // an object or array: white space inside is dropped when kept
};

struct FlowEvent {
    const char* at;
    char ph;
    bool launch;    // a launch arrow of the PyTorch profiler (correlation id)
    bool bindNext;  // an "f" without "bp":"e": binds to the next slice that begins on its thread
    StringId cat;
    std::uint64_t id;
    std::int64_t pid;
    std::int64_t tid;
    TimeNs ts;
};

// A slice that carries a flow v2 endpoint ("bind_id" with "flow_in"/"flow_out").
struct BoundFlowEnd {
    std::uint64_t id;
    bool in;
    bool out;
    std::int64_t pid;
    std::int64_t tid;
    TimeNs startNs;
};

// A "B" or "E" of one thread, kept until the end: they pair in time order, not file order.
struct BeginEnd {
    TimeNs ts;
    std::uint32_t begin;  // index into Importer::m_begins; kNoBegin for an "E"
};
constexpr std::uint32_t kNoBegin = std::numeric_limits<std::uint32_t>::max();

// Unsigned arithmetic: hashing must not overflow a signed type.
std::size_t mixHash(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::size_t>((a * 0x9E3779B97F4A7C15ull) ^
                                    (b + 0x7F4A7C15ull + (a << 6) + (a >> 2)));
}

struct PairHash {
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const noexcept {
        return mixHash(static_cast<std::uint64_t>(p.first), static_cast<std::uint64_t>(p.second));
    }
};

struct TrackKey {
    Cat cat;
    std::int64_t a;
    std::int64_t b;
    StringId domain;
    bool operator==(const TrackKey&) const = default;
};
struct TrackKeyHash {
    std::size_t operator()(const TrackKey& k) const noexcept {
        return mixHash(mixHash(static_cast<std::uint64_t>(k.a), static_cast<std::uint64_t>(k.b)),
                       (std::uint64_t{k.domain} << 8) | static_cast<std::uint64_t>(k.cat));
    }
};

std::string_view trimRight(std::string_view s) {
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return s;
}

// JSON number grammar (from_chars alone would take "inf", "nan" and leading zeros).
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

// First byte that is not valid UTF-8 (for the error position of a stage-1 rejection).
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

// Where the string that never closes begins (for the error position of a stage-1 rejection).
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

// Where the root value ends (one past its closing bracket), or npos when it never closes.
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

// One import: owns the builder, reads the document, throws ParseFailure on bad input.
class Importer {
public:
    Importer(const char* base, std::size_t size) : m_base(base), m_size(size) {}

    model::TracePtr run(od::document& doc);
    // The same over a writable text, a run of events at a time (see JsonCutter.h). Throws
    // ChunkedGiveUp where the whole-document parse must decide (anything but a clean read).
    model::TracePtr runChunked(char* text, std::size_t readableBytes, std::size_t runBytes,
                               bool releaseParsedText);
    std::size_t runsParsed() const { return m_runsParsed; }
    // Where the text has been given back up to (see Runs::textIsFileMapping).
    bool m_releaseParsedText = false;
    std::size_t m_releasedBytes = 0;

private:
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

    // pid/tid: integers, or strings mapped to stable synthetic ids. A string that is a plain
    // decimal number is that number: the PyTorch 1.8 profiler wrote a thread's id as a string
    // on its slices and as a number on its flow events.
    std::int64_t getProcessOrThreadId(od::value& v, std::string_view what) {
        const char* at = locate(v);
        const od::json_type type = typeOf(v);
        if (type == od::json_type::number)
            return getInt<std::int64_t>(v, what);
        if (type == od::json_type::string) {
            const std::string_view s = getString(v, what);
            std::int64_t number = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), number);
            if (!s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() &&
                number < kStringIdBase && number > -kStringIdBase &&
                std::to_string(number) == s) {  // only the canonical spelling: "007" is a name
                return number;
            }
            auto it = m_stringIds.find(std::string(s));
            if (it == m_stringIds.end()) {
                it = m_stringIds
                         .emplace(std::string(s),
                                  kStringIdBase + static_cast<std::int64_t>(m_stringIds.size()))
                         .first;
                m_stringIdNames.emplace(it->second, it->first);
            }
            return it->second;
        }
        problem(std::string(what) + " must be an integer or a string", at);
    }

    std::uint64_t getFlowId(od::value& v, std::string_view what = "id") {
        const char* at = locate(v);
        const od::json_type type = typeOf(v);
        if (type == od::json_type::string) {
            return kStringFlowIdBit | m_builder.intern(getString(v, what));
        }
        if (type == od::json_type::number) {
            const std::string_view tok = numberText(v, what);
            std::uint64_t out = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), out);
            if (r.ec == std::errc() && r.ptr == tok.data() + tok.size() && out < kStringFlowIdBit) {
                return out;
            }
            return kStringFlowIdBit | m_builder.intern(tok);
        }
        problem(std::string(what) + " must be a number or a string", at);
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

    void parseArgs(od::value& v, RawEvent& e);
    bool parseArg(std::string_view key, od::value& value, RawEvent& e);
    void parseEvent(od::value& v);
    void handleTopLevelField(std::string_view key, od::value& value, bool& haveEvents);
    void keepExtraArgs(const RawEvent& e, TrackIndex track, SliceKind kind);
    std::size_t parseEventRuns(char* text, std::size_t open, std::size_t readableBytes,
                               std::size_t runBytes);
    void releaseTextBefore(const char* text, std::size_t end);
    void parseEvents(od::value& v);
    void parseDevices(od::value& v);
    void parseWarplineBlock(od::value& v);
    void parseMetadataObject(od::value& v);
    // Keeps a top-level fact of another producer as metadata (strings, numbers and booleans as
    // text); anything else is checked and skipped.
    void keepScalar(const std::string& key, od::value& value);

    void handleEvent(RawEvent& e);
    // An event left out (a field of the wrong type or value, no "ph"): counted, and the first
    // problem kept for the message (and for the error when no event at all could be read).
    void skipEvent(const FieldProblem& p);
    void noteThreadTime(const RawEvent& e, TimeNs endNs);
    void pairBeginsAndEnds();
    void resolveBoundFlows();
    void addSlice(const RawEvent& e, TimeNs start, TimeNs end);
    void addInstant(const RawEvent& e);
    void addCounter(const RawEvent& e);
    void handleMetadataEvent(const RawEvent& e);
    void resolveFlows();
    void finish();
    // Where a flow end binds on its thread: the track of the slice that encloses `ts`, or of the
    // next slice that begins at or after it (whose start replaces `ts`).
    void sortSliceStarts();
    bool enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                        TrackIndex& track);
    bool nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts, TrackIndex& track);

    TrackIndex trackFor(const RawEvent& e, Cat cat);
    ProcessIndex hostProcess(std::int64_t pid);
    ProcessIndex gpuProcessFor(const RawEvent& e);
    std::int32_t deviceForPid(std::int64_t pid) const;
    std::int64_t streamOf(const RawEvent& e) const;

    const char* m_base;
    od::document* m_doc = nullptr;  // the document being read (a run, a member, or the whole)
    std::size_t m_runsParsed = 0;
    std::size_t m_size;
    model::TraceBuilder m_builder;

    bool m_eventsSeen = false;
    TimeNs m_baseNs = 0;
    const char* m_baseAt = nullptr;
    TimeNs m_earliestNs = std::numeric_limits<TimeNs>::max();  // of slices and counter samples
    bool m_warpline = false;        // our own export: tracks come from the "warpline" block
    bool m_ourMetadata = false;     // "warplineMetadata" seen
    bool m_foreignGpuData = false;  // Kineto-like content, for the "producer" metadata
    std::map<std::string, std::string> m_foreignMetadata;
    std::vector<std::pair<std::string_view, double>> m_series;  // C event args

    // Our exports: (pid, tid) -> track, pid -> process.
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, TrackIndex, PairHash> m_tidTracks;
    std::unordered_map<std::int64_t, ProcessIndex> m_pidProcesses;
    std::unordered_map<std::int64_t, std::int32_t> m_pidDevices;

    // Any producer: tracks created on demand.
    std::unordered_map<TrackKey, TrackIndex, TrackKeyHash> m_tracks;
    TrackKey m_lastKey{Cat::Other, std::numeric_limits<std::int64_t>::min(), 0, 0};
    TrackIndex m_lastTrack = 0;
    std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, TrackIndex>> m_hostTracks;
    std::map<std::int64_t, std::string> m_processNames;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_threadNames;
    std::unordered_map<std::string, std::int64_t> m_stringIds;
    std::unordered_map<std::int64_t, std::string> m_stringIdNames;
    std::unordered_map<std::int64_t, ProcessIndex> m_hostProcesses;

    // Events kept until the end (an open "B" or "b") keep their strings: a string with escapes
    // is unescaped into the parser's buffer, which the next run of events reuses.
    void pinStrings(RawEvent& e) {
        auto pin = [&](std::string_view& v) {
            if (v.empty() || (v.data() >= m_base && v.data() + v.size() <= m_base + m_size))
                return;  // in the text itself, which outlives the import
            v = m_pinned.emplace_back(v);
        };
        for (std::string_view* v :
             {&e.name, &e.cat, &e.scope, &e.bindPoint, &e.args.copyKind, &e.args.srcKind,
              &e.args.dstKind, &e.args.memoryKind, &e.args.syncKind, &e.args.domain, &e.args.name,
              &e.args.categoryName}) {
            pin(*v);
        }
    }
    std::deque<std::string> m_pinned;

    // Args members of the event being read, and before them those of events kept until the end
    // (open "B" and "b"): see RawEvent::membersBegin.
    std::vector<ArgMember> m_members;
    std::size_t m_keptMembers = 0;
    std::string m_extraScratch;

    // Names: the last few interned, by content. Cleared at every run of events (the views may
    // be into the parser's buffer).
    std::string_view m_lastName;
    StringId m_lastNameId = 0;
    std::string_view m_lastCat;
    Cat m_lastCatClass = Cat::Other;

    // B/E per (pid, tid), paired at the end; b/e stacks per (pid, cat, id) (pid kGlobalScope
    // for "id2" global ids).
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::vector<BeginEnd>, PairHash>
        m_beginEnds;
    std::vector<RawEvent> m_begins;
    // End of the last event seen on each thread: where a "B" that never ends is closed.
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, TimeNs, PairHash> m_threadEndNs;
    std::deque<std::string> m_ownedNames;  // names made here (unclosed slices); stable storage
    std::map<std::tuple<std::int64_t, StringId, std::uint64_t>, std::vector<RawEvent>> m_openAsync;
    std::vector<FlowEvent> m_flows;
    std::vector<BoundFlowEnd> m_boundFlows;

    // Events of the document, events left out, and the first reason one was.
    std::uint64_t m_eventCount = 0;
    std::uint64_t m_skippedCount = 0;
    std::uint64_t m_emptyEvents = 0;  // "{}": Chrome's writer ends its array with one
    std::optional<FieldProblem> m_firstSkip;
    std::uint64_t m_ignoredArgs = 0;  // args of an unexpected type, left out of their event
    std::optional<FieldProblem> m_firstIgnoredArg;
    std::uint64_t m_strayEnds = 0;
    std::vector<std::uint64_t> m_gpuCorrelations;
    // Other producers' files: where each slice started, to bind flow ends (see resolveFlows).
    struct SliceStart {
        std::int64_t pid;
        std::int64_t tid;
        TimeNs startNs;
        TrackIndex track;
        TimeNs endNs;
    };
    std::vector<SliceStart> m_sliceStarts;
    bool m_startsSorted = false;
    // After sorting: the latest end of the thread's slices up to each entry, so whether any of
    // them still runs at a time is one comparison.
    std::vector<TimeNs> m_coverEndNs;
    std::unordered_set<TrackIndex> m_apiTracks;
    std::uint64_t m_looseFlowEvents = 0;
    std::uint64_t m_looseLaunchEvents = 0;
    const char* m_eventsAt = nullptr;  // the event array, for "no events" errors
};

std::int32_t Importer::deviceForPid(std::int64_t pid) const {
    if (auto it = m_pidDevices.find(pid); it != m_pidDevices.end())
        return it->second;
    // Kineto: the GPU process's pid is the device ordinal.
    if (pid >= 0 && pid <= std::numeric_limits<std::int32_t>::max()) {
        return static_cast<std::int32_t>(pid);
    }
    return 0;
}

ProcessIndex Importer::hostProcess(std::int64_t pid) {
    if (auto it = m_pidProcesses.find(pid); it != m_pidProcesses.end())
        return it->second;
    auto [it, inserted] = m_hostProcesses.try_emplace(pid, 0);
    if (inserted) {
        auto named = m_stringIdNames.find(pid);
        it->second = m_builder.hostProcess(pid, named != m_stringIdNames.end()
                                                    ? std::string_view(named->second)
                                                    : std::string_view());
    }
    return it->second;
}

std::int64_t Importer::streamOf(const RawEvent& e) const {
    if (e.args.has & kArgStream)
        return e.args.stream;
    // The PyTorch 1.8 profiler names GPU rows by tid strings: "stream 7".
    if (auto it = m_stringIdNames.find(e.tid); it != m_stringIdNames.end()) {
        std::string_view text = it->second;
        if (text.starts_with("stream ")) {
            text.remove_prefix(7);
            std::int64_t stream = 0;
            const auto r = std::from_chars(text.data(), text.data() + text.size(), stream);
            if (r.ec == std::errc() && r.ptr == text.data() + text.size())
                return stream;
        }
    }
    return e.tid;
}

ProcessIndex Importer::gpuProcessFor(const RawEvent& e) {
    const std::int64_t device =
        e.args.has & kArgDevice ? e.args.device : static_cast<std::int64_t>(deviceForPid(e.pid));
    if (device < 0 || device > std::numeric_limits<std::int32_t>::max()) {
        fail("device must be a CUDA device ordinal", e.at);
    }
    return m_builder.gpuProcess(static_cast<std::int32_t>(device));
}

TrackIndex Importer::trackFor(const RawEvent& e, Cat cat) {
    if (m_warpline) {
        if (auto it = m_tidTracks.find({e.pid, e.tid}); it != m_tidTracks.end())
            return it->second;
    }
    TrackKey key{cat, e.pid, e.tid, 0};
    switch (cat) {
        case Cat::Kernel:
        case Cat::Memcpy:
        case Cat::Memset:
            key.cat = Cat::Kernel;
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = streamOf(e);
            break;
        case Cat::GpuAnnotation:
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = streamOf(e);
            break;
        case Cat::Sync:
            key.a = e.args.has & kArgDevice ? e.args.device : deviceForPid(e.pid);
            key.b = 0;
            break;
        case Cat::Runtime:
        case Cat::Driver:
            key.cat = Cat::Runtime;
            break;
        case Cat::Annotation:
            if (e.args.has & kArgDomain)
                key.domain = m_builder.intern(e.args.domain);
            break;
        default:
            key.cat = Cat::Other;
            break;
    }
    if (key == m_lastKey)
        return m_lastTrack;
    auto [it, inserted] = m_tracks.try_emplace(key, 0);
    if (inserted) {
        TrackIndex track = 0;
        switch (key.cat) {
            case Cat::Kernel:
                track = m_builder.gpuStreamTrack(gpuProcessFor(e), key.b);
                break;
            case Cat::GpuAnnotation:
                track = m_builder.nvtxTrack(gpuProcessFor(e), key.b);
                break;
            case Cat::Sync:
                track = m_builder.syncTrack(gpuProcessFor(e));
                break;
            case Cat::Runtime:
                track = m_builder.hostApiTrack(hostProcess(e.pid), e.tid);
                m_apiTracks.insert(track);
                break;
            case Cat::Annotation:
                track = m_builder.nvtxTrack(hostProcess(e.pid), e.tid, e.args.domain);
                break;
            default:
                track = m_builder.hostTrack(hostProcess(e.pid), e.tid);
                m_hostTracks.push_back({{e.pid, e.tid}, track});
                break;
        }
        it->second = track;
    }
    m_lastKey = key;
    m_lastTrack = it->second;
    return it->second;
}

void Importer::parseArgs(od::value& v, RawEvent& e) {
    if (typeOf(v) != od::json_type::object)
        problem("args must be an object", locate(v));
    od::object obj = v.get_object();
    e.membersBegin = static_cast<std::uint32_t>(m_members.size());
    for (auto field : obj) {
        ArgMember member;
        const std::string_view key = keyText(field, &member.key);
        od::value value = field.value();
        const od::json_type type = typeOf(value);
        member.container = type == od::json_type::object || type == od::json_type::array;
        if (!member.container)
            member.value = trimRight(value.raw_json_token());
        // One arg of an unexpected type (a producer's own idea of "grid") costs that arg only;
        // it is kept as written all the same.
        bool used = false;
        bool walked = false;
        try {
            used = parseArg(key, value, e);
        } catch (const FieldProblem& p) {
            ++m_ignoredArgs;
            if (!m_firstIgnoredArg)
                m_firstIgnoredArg =
                    FieldProblem{"args." + std::string(key) + ": " + p.message, p.at};
            walked = p.consumed;
        }
        if (!used && !walked) {
            const char* start = member.container ? value.raw_json_token().data() : nullptr;
            skipValue(value, 1);  // checks what it skips (nesting, numbers, literals)
            // The document now stands at the separator after the value.
            const char* next = nullptr;
            if (member.container && m_doc &&
                m_doc->current_location().get(next) == simdjson::SUCCESS)
                member.value =
                    trimRight(std::string_view(start, static_cast<std::size_t>(next - start)));
        }
        if (!member.value.empty())
            m_members.push_back(member);
    }
    e.membersCount = static_cast<std::uint32_t>(m_members.size() - e.membersBegin);
}

void Importer::keepExtraArgs(const RawEvent& e, TrackIndex track, SliceKind kind) {
    if (e.membersCount == 0)
        return;
    std::string& out = m_extraScratch;
    out.clear();
    for (std::uint32_t i = e.membersBegin; i < e.membersBegin + e.membersCount; ++i) {
        const ArgMember& m = m_members[i];
        const std::string_view plainKey = m.key.substr(1, m.key.size() - 2);
        if (plainKey.find('\\') == std::string_view::npos &&
            format::writerWritesArg(kind, plainKey))
            continue;  // the model has it; export writes it from there
        if (!out.empty())
            out += ',';
        out += m.key;
        out += ':';
        if (m.container) {
            const std::size_t at = out.size();
            out.resize(at + m.value.size());
            std::size_t length = 0;
            if (simdjson::minify(m.value.data(), m.value.size(), out.data() + at, length))
                out.resize(at), out += m.value;  // (it parsed, so this does not happen)
            else
                out.resize(at + length);
        } else {
            out += m.value;
        }
    }
    m_builder.setLastSliceExtraArgs(track, out);
}

bool Importer::parseArg(std::string_view key, od::value& value, RawEvent& e) {
    EventArgs& a = e.args;
    const bool series = !e.phaseKnown || e.ph == 'C';
    if (series) {
        const char* at = locate(value);
        if (typeOf(value) == od::json_type::number) {
            const std::string_view tok = numberText(value, key);
            double d = 0;
            const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), d);
            if (r.ec != std::errc() || !std::isfinite(d))
                problem("counter value out of range", at);
            m_series.emplace_back(key, d);
        } else if (e.phaseKnown) {
            skipValue(value, 1);  // a C event's non-numeric arg: not a series
        } else if (key == "name" && typeOf(value) == od::json_type::string) {
            a.name = getString(value, "args.name");
            a.has |= kArgName;
        } else {
            skipValue(value, 1);
        }
        return true;  // counter series and metadata: nothing to keep beside them
    }
    switch (keyHash(key)) {
#define WL_INT_ARG(text, field, bit, type)          \
    case keyHash(text):                             \
        if (key == text) {                          \
            a.field = getArgInt<type>(value, text); \
            a.has |= bit;                           \
            return true;                            \
        }                                           \
        break;
#define WL_STR_ARG(text, field, bit)          \
    case keyHash(text):                       \
        if (key == text) {                    \
            a.field = getString(value, text); \
            a.has |= bit;                     \
            return true;                      \
        }                                     \
        break;
        WL_INT_ARG("correlation", correlation, kArgCorrelation, std::int64_t)
        WL_INT_ARG("stream", stream, kArgStream, std::int64_t)
        WL_INT_ARG("wait_on_stream", waitOnStream, kArgWaitOnStream, std::int64_t)
        WL_INT_ARG("wait_on_cuda_event_id", eventId, kArgEventId, std::int64_t)
        WL_INT_ARG("cbid", cbid, kArgCbid, std::int64_t)
        WL_INT_ARG("return code", returnCode, kArgReturnCode, std::int64_t)
        WL_INT_ARG("src device", srcDevice, kArgSrcDevice, std::int64_t)
        WL_INT_ARG("dst device", dstDevice, kArgDstDevice, std::int64_t)
        WL_INT_ARG("category", category, kArgCategory, std::int64_t)
        WL_INT_ARG("sort_index", sortIndex, kArgSortIndex, std::int64_t)
        WL_INT_ARG("bytes", bytes, kArgBytes, std::uint64_t)
        WL_INT_ARG("value", value, kArgValue, std::uint64_t)
        WL_INT_ARG("registers per thread", registers, kArgRegisters, std::int64_t)
        WL_INT_ARG("shared memory", sharedTotal, kArgSharedTotal, std::int64_t)
        WL_INT_ARG("static shared memory", sharedStatic, kArgSharedStatic, std::int64_t)
        WL_INT_ARG("dynamic shared memory", sharedDynamic, kArgSharedDynamic, std::int64_t)
        WL_STR_ARG("copy kind", copyKind, kArgCopyKind)
        WL_STR_ARG("src kind", srcKind, kArgSrcKind)
        WL_STR_ARG("dst kind", dstKind, kArgDstKind)
        WL_STR_ARG("memory kind", memoryKind, kArgMemoryKind)
        WL_STR_ARG("cuda_sync_kind", syncKind, kArgSyncKind)
        WL_STR_ARG("domain", domain, kArgDomain)
        WL_STR_ARG("category name", categoryName, kArgCategoryName)
#undef WL_INT_ARG
#undef WL_STR_ARG
        case keyHash("device"):
            if (key == "device") {
                const auto device = getArgInt<std::int64_t>(value, "device");
                // Not an ordinal (-1 on host-side events): the pid says the device.
                if (device >= 0 && device <= std::numeric_limits<std::int32_t>::max()) {
                    a.device = device;
                    a.has |= kArgDevice;
                }
                return true;
            }
            break;
        case keyHash("name"):
            // Metadata events name things with a string; other events may put anything here.
            if (key == "name" && typeOf(value) == od::json_type::string) {
                a.name = getString(value, "args.name");
                a.has |= kArgName;
                return true;
            }
            break;
        case keyHash("grid"):
            if (key == "grid") {
                getIntTriple(value, a.grid, "grid");
                a.has |= kArgGrid;
                return true;
            }
            break;
        case keyHash("block"):
            if (key == "block") {
                getIntTriple(value, a.block, "block");
                a.has |= kArgBlock;
                return true;
            }
            break;
        case keyHash("warps per SM"):
            if (key == "warps per SM") {
                a.warps = getFloat<float>(value, key);
                a.has |= kArgWarps;
                return true;
            }
            break;
        case keyHash("est. achieved occupancy %"):
            if (key == "est. achieved occupancy %") {
                a.occupancy = getFloat<float>(value, key);
                a.has |= kArgOccupancy;
                return true;
            }
            break;
        case keyHash("payload"):
            if (key == "payload") {
                a.payload = getFloat<double>(value, key);
                a.has |= kArgPayload;
                return true;
            }
            break;
        case keyHash("color"):
            if (key == "color") {
                a.color = getColor(value);
                a.has |= kArgColor;
                return true;
            }
            break;
        default:
            break;
    }
    return false;  // not one the reader uses: kept as written by parseArgs
}

void Importer::parseEvent(od::value& v) {
    m_members.resize(m_keptMembers);  // the last event's, unless it was kept
    RawEvent e;
    e.at = locate(v);
    ++m_eventCount;
    if (typeOf(v) != od::json_type::object) {
        skipValue(v, 1);
        skipEvent({"an event must be a JSON object", e.at});
        return;
    }
    od::object obj;
    if (const auto err = v.get_object().get(obj))
        failJson(err, e.at);
    m_series.clear();
    bool hasPhase = false;
    bool empty = true;
    std::optional<FieldProblem> bad;
    for (auto field : obj) {
        empty = false;
        const std::string_view key = keyText(field);
        od::value value = field.value();
        // A field of an unexpected type or value costs this event only; it is still checked as
        // JSON. Args are read one by one (see parseArgs) and never cost the event.
        try {
            switch (keyHash(key)) {
                case keyHash("ph"):
                    if (key == "ph") {
                        const std::string_view ph = getString(value, "ph");
                        hasPhase = true;
                        e.phaseKnown = ph.size() == 1;
                        e.ph = ph.empty() ? '?' : ph[0];
                        continue;
                    }
                    break;
                case keyHash("name"):
                    if (key == "name") {
                        e.name = getString(value, "name");
                        continue;
                    }
                    break;
                case keyHash("cat"):
                    if (key == "cat") {
                        e.cat = getString(value, "cat");
                        // Our own launch arrows are rebuilt from correlation ids: the writer puts
                        // "cat" second so the rest of these (half of all events) is skipped
                        // unread.
                        if (m_warpline && hasPhase && e.cat == format::kCatLaunchFlow &&
                            (e.ph == 's' || e.ph == 'f' || e.ph == 't')) {
                            return;
                        }
                        continue;
                    }
                    break;
                case keyHash("pid"):
                    if (key == "pid") {
                        e.pid = getProcessOrThreadId(value, "pid");
                        continue;
                    }
                    break;
                case keyHash("tid"):
                    if (key == "tid") {
                        e.tid = getProcessOrThreadId(value, "tid");
                        continue;
                    }
                    break;
                case keyHash("ts"):
                    if (key == "ts") {
                        e.ts = getTime(value, "ts");
                        e.hasTs = true;
                        continue;
                    }
                    break;
                case keyHash("dur"):
                    if (key == "dur") {
                        e.dur = getTime(value, "dur");
                        continue;
                    }
                    break;
                case keyHash("args"):
                    if (key == "args") {
                        try {
                            parseArgs(value, e);
                        } catch (const FieldProblem& p) {  // not an object: no args
                            ++m_ignoredArgs;
                            if (!m_firstIgnoredArg)
                                m_firstIgnoredArg = p;
                            skipValue(value, 1);
                        }
                        continue;
                    }
                    break;
                case keyHash("id"):
                    if (key == "id") {
                        e.id = getFlowId(value);
                        e.hasId = true;
                        e.globalId = false;
                        continue;
                    }
                    break;
                case keyHash("id2"):
                    // Newer Chrome async events: {"local": id} (one process) or {"global": id}.
                    if (key == "id2") {
                        if (typeOf(value) != od::json_type::object)
                            problem("id2 must be an object", locate(value));
                        std::optional<FieldProblem> badId;
                        for (auto part : value.get_object()) {
                            const std::string_view scope = keyText(part);
                            od::value idValue = part.value();
                            if (scope != "local" && scope != "global") {
                                skipValue(idValue, 2);
                                continue;
                            }
                            try {
                                e.id = getFlowId(idValue, "id2");
                                e.hasId = true;
                                e.globalId = scope == "global";
                            } catch (const FieldProblem& p) {
                                badId = p;
                                skipValue(idValue, 2);
                            }
                        }
                        if (badId)
                            problem(badId->message, badId->at, true);
                        continue;
                    }
                    break;
                case keyHash("bind_id"):
                    if (key == "bind_id") {
                        e.bindId = getFlowId(value, "bind_id");
                        e.hasBindId = true;
                        continue;
                    }
                    break;
                case keyHash("flow_in"):
                    if (key == "flow_in") {
                        e.flowIn = getFlag(value);
                        continue;
                    }
                    break;
                case keyHash("flow_out"):
                    if (key == "flow_out") {
                        e.flowOut = getFlag(value);
                        continue;
                    }
                    break;
                case keyHash("s"):
                    if (key == "s") {
                        e.scope = getString(value, "s");
                        continue;
                    }
                    break;
                case keyHash("bp"):
                    if (key == "bp") {
                        e.bindPoint = getString(value, "bp");
                        continue;
                    }
                    break;
                default:
                    break;
            }
            skipValue(value, 1);
        } catch (const FieldProblem& p) {
            if (!bad)
                bad = p;
            if (!p.consumed)
                skipValue(value, 1);
        }
    }
    if (empty) {
        // Chrome's own writer ends its event array with "{}": a routine quirk, not a problem.
        ++m_emptyEvents;
        return;
    }
    if (bad) {
        skipEvent(*bad);
        return;
    }
    if (!hasPhase) {
        skipEvent({"event without \"ph\"", e.at});
        return;
    }
    handleEvent(e);
}

void Importer::skipEvent(const FieldProblem& p) {
    ++m_skippedCount;
    if (!m_firstSkip)
        m_firstSkip = p;
}

void Importer::noteThreadTime(const RawEvent& e, TimeNs endNs) {
    auto [it, inserted] = m_threadEndNs.try_emplace({e.pid, e.tid}, endNs);
    if (!inserted && endNs > it->second)
        it->second = endNs;
}

void Importer::handleEvent(RawEvent& e) {
    if (!e.phaseKnown) {
        ++m_builder.diagnostics().unknownPhases;
        return;
    }
    if (e.ph != 'M' && !e.hasTs) {
        skipEvent({"event without \"ts\"", e.at});
        return;
    }
    switch (e.ph) {
        case 'X': {
            if (e.dur > 0 && e.ts > kMaxAbsTimeNs - e.dur) {
                skipEvent({"ts + dur is out of range", e.at});
                return;
            }
            noteThreadTime(e, e.ts + std::max<TimeNs>(e.dur, 0));
            addSlice(e, e.ts, e.ts + e.dur);
            return;
        }
        case 'B': {
            noteThreadTime(e, e.ts);
            if (m_begins.size() >= kNoBegin) {
                skipEvent({"too many \"B\" events", e.at});
                return;
            }
            m_beginEnds[{e.pid, e.tid}].push_back(
                {e.ts, static_cast<std::uint32_t>(m_begins.size())});
            m_begins.push_back(e);
            pinStrings(m_begins.back());
            m_keptMembers = m_members.size();
            return;
        }
        case 'E':
            noteThreadTime(e, e.ts);
            m_beginEnds[{e.pid, e.tid}].push_back({e.ts, kNoBegin});
            return;
        case 'b':
        case 'e':
        case 'n': {
            if (!e.hasId) {
                skipEvent({"async event without \"id\"", e.at});
                return;
            }
            const std::int64_t scope = e.globalId ? kGlobalScope : e.pid;
            const auto key = std::make_tuple(scope, m_builder.intern(e.cat), e.id);
            if (e.ph == 'b') {
                m_openAsync[key].push_back(e);
                pinStrings(m_openAsync[key].back());
                m_keptMembers = m_members.size();
                return;
            }
            if (e.ph == 'n') {
                const TrackIndex track = m_builder.nvtxAsyncTrack(hostProcess(e.pid), e.cat);
                m_builder.setTrackName(track,
                                       e.cat.empty() ? std::string_view("Async events") : e.cat);
                m_builder.addSliceId(track, e.ts, e.ts, m_builder.intern(e.name),
                                     SliceKind::Instant, 0, model::kNoDetail);
                m_earliestNs = std::min(m_earliestNs, e.ts);
                return;
            }
            auto it = m_openAsync.find(key);
            if (it == m_openAsync.end() || it->second.empty()) {
                ++m_builder.diagnostics().unmatchedEnds;
                return;
            }
            const RawEvent begin = it->second.back();
            it->second.pop_back();
            // On the row of the process that began it (a global id may end elsewhere).
            const TrackIndex track = m_builder.nvtxAsyncTrack(hostProcess(begin.pid), begin.cat);
            m_builder.setTrackName(
                track, begin.cat.empty() ? std::string_view("Async events") : begin.cat);
            m_builder.addSliceId(track, begin.ts, e.ts, m_builder.intern(begin.name),
                                 SliceKind::Other, 0, model::kNoDetail);
            m_earliestNs = std::min(m_earliestNs, begin.ts);
            return;
        }
        case 'i':
        case 'I':
            noteThreadTime(e, e.ts);
            addInstant(e);
            return;
        case 'C':
            addCounter(e);
            return;
        case 'M':
            handleMetadataEvent(e);
            return;
        case 's':
        case 't':
        case 'f': {
            const bool launch = isLaunchFlowCat(e.cat);
            if (launch && m_warpline)
                return;  // rebuilt from correlation ids
            if (!e.hasId) {
                skipEvent({"flow event without \"id\"", e.at});
                return;
            }
            const bool bindNext = e.ph == 'f' && e.bindPoint != "e";
            m_flows.push_back(FlowEvent{e.at, e.ph, launch, bindNext, m_builder.intern(e.cat), e.id,
                                        e.pid, e.tid, e.ts});
            return;
        }
        default:
            ++m_builder.diagnostics().unknownPhases;
            return;
    }
}

void Importer::addSlice(const RawEvent& e, TimeNs start, TimeNs end) {
    Cat cat = m_lastCatClass;
    if (e.cat != m_lastCat) {
        cat = classify(e.cat);
        m_lastCat = e.cat;
        m_lastCatClass = cat;
    }
    if (onGpu(cat) || cat == Cat::Runtime || cat == Cat::Driver)
        m_foreignGpuData = true;
    const TrackIndex track = trackFor(e, cat);
    StringId name = m_lastNameId;
    if (e.name != m_lastName) {
        name = m_builder.intern(e.name);
        m_lastName = e.name;
        m_lastNameId = name;
    }
    const EventArgs& a = e.args;
    const std::uint64_t correlation = (a.has & kArgCorrelation) && a.correlation > 0
                                          ? static_cast<std::uint64_t>(a.correlation)
                                          : 0;
    SliceKind kind = SliceKind::Other;
    std::uint32_t detail = model::kNoDetail;
    switch (cat) {
        case Cat::Kernel: {
            kind = SliceKind::Kernel;
            if (a.hasAny(kArgGrid | kArgBlock)) {
                model::KernelDetail k;
                k.grid = a.grid;
                k.block = a.block;
                k.registersPerThread = static_cast<std::int32_t>(a.registers);
                if (a.has & kArgSharedStatic) {
                    k.staticSharedBytes = static_cast<std::int32_t>(a.sharedStatic);
                    k.dynamicSharedBytes = static_cast<std::int32_t>(a.sharedDynamic);
                } else {
                    k.staticSharedBytes = static_cast<std::int32_t>(a.sharedTotal);
                }
                k.warpsPerSm = a.warps;
                k.estimatedOccupancyPct = a.occupancy;
                detail = m_builder.addKernelDetail(k);
            }
            break;
        }
        case Cat::Memcpy: {
            kind = SliceKind::Memcpy;
            if (a.has & kArgBytes) {
                model::MemcpyDetail m;
                m.bytes = a.bytes;
                // Kineto names the direction and memory kinds: "Memcpy HtoD (Pageable -> Device)".
                std::string_view rest = e.name;
                std::string_view direction, src, dst;
                if (rest.starts_with("Memcpy ")) {
                    rest.remove_prefix(7);
                    const auto space = rest.find(' ');
                    direction = rest.substr(0, space);
                    const auto open = rest.find('(');
                    const auto arrow = rest.find(" -> ");
                    const auto close = rest.rfind(')');
                    if (open != std::string_view::npos && arrow != std::string_view::npos &&
                        close != std::string_view::npos && open < arrow && arrow < close) {
                        src = rest.substr(open + 1, arrow - open - 1);
                        dst = rest.substr(arrow + 4, close - arrow - 4);
                    }
                }
                m.copyKind =
                    model::copyKindFromString(a.has & kArgCopyKind ? a.copyKind : direction);
                m.srcKind = model::memoryKindFromString(a.has & kArgSrcKind ? a.srcKind : src);
                m.dstKind = model::memoryKindFromString(a.has & kArgDstKind ? a.dstKind : dst);
                m.srcDevice = static_cast<std::int32_t>(a.srcDevice);
                m.dstDevice = static_cast<std::int32_t>(a.dstDevice);
                detail = m_builder.addMemcpyDetail(m);
            }
            break;
        }
        case Cat::Memset: {
            kind = SliceKind::Memset;
            if (a.has & kArgBytes) {
                model::MemsetDetail m;
                m.bytes = a.bytes;
                m.value = static_cast<std::uint32_t>(a.value);
                std::string_view memory = a.memoryKind;
                if (!(a.has & kArgMemoryKind)) {
                    // Kineto: "Memset (Device)".
                    const auto open = e.name.find('(');
                    const auto close = e.name.rfind(')');
                    if (open != std::string_view::npos && close != std::string_view::npos &&
                        open < close) {
                        memory = e.name.substr(open + 1, close - open - 1);
                    }
                }
                m.memoryKind = model::memoryKindFromString(memory);
                detail = m_builder.addMemsetDetail(m);
            }
            break;
        }
        case Cat::Sync: {
            kind = SliceKind::Sync;
            if (a.has & kArgSyncKind) {
                model::SyncDetail s;
                s.syncKind = model::syncKindFromString(a.syncKind);
                s.streamId = a.has & kArgStream ? a.stream : -1;
                if (s.streamId == -1 && (a.has & kArgWaitOnStream))
                    s.streamId = a.waitOnStream;
                s.eventId = a.eventId > 0 ? static_cast<std::uint64_t>(a.eventId) : 0;
                detail = m_builder.addSyncDetail(s);
            }
            break;
        }
        case Cat::Runtime:
        case Cat::Driver: {
            kind = cat == Cat::Runtime ? SliceKind::RuntimeApi : SliceKind::DriverApi;
            if (a.has & kArgCbid) {
                model::ApiDetail api;
                api.apiKind =
                    cat == Cat::Runtime ? model::ApiKind::Runtime : model::ApiKind::Driver;
                api.callbackId = static_cast<std::uint32_t>(a.cbid);
                api.returnCode = static_cast<std::int32_t>(a.returnCode);
                detail = m_builder.addApiDetail(api);
            }
            break;
        }
        case Cat::Annotation:
        case Cat::GpuAnnotation: {
            kind = SliceKind::Nvtx;
            model::NvtxDetail n;
            n.colorArgb = a.color;
            n.domainId = a.has & kArgDomain ? m_builder.intern(a.domain) : 0;
            n.category = static_cast<std::int32_t>(a.category);
            n.categoryNameId = a.has & kArgCategoryName ? m_builder.intern(a.categoryName) : 0;
            n.hasPayload = (a.has & kArgPayload) != 0;
            n.payload = a.payload;
            detail = m_builder.addNvtxDetail(n);
            break;
        }
        case Cat::Overhead:
            kind = SliceKind::Overhead;
            break;
        case Cat::Other:
            break;
    }
    if (correlation != 0 &&
        (kind == SliceKind::Kernel || kind == SliceKind::Memcpy || kind == SliceKind::Memset)) {
        if (!m_warpline)
            m_gpuCorrelations.push_back(correlation);
    }
    m_builder.addSliceId(track, start, end, name, kind, correlation, detail);
    keepExtraArgs(e, track, kind);
    m_earliestNs = std::min(m_earliestNs, start);
    if (!m_warpline)
        m_sliceStarts.push_back({e.pid, e.tid, start, track, std::max(start, end)});
    if (e.hasBindId && (e.flowIn || e.flowOut))
        m_boundFlows.push_back({e.bindId, e.flowIn, e.flowOut, e.pid, e.tid, start});
}

void Importer::addInstant(const RawEvent& e) {
    const TrackIndex track = trackFor(e, Cat::Other);
    const std::uint64_t correlation = (e.args.has & kArgCorrelation) && e.args.correlation > 0
                                          ? static_cast<std::uint64_t>(e.args.correlation)
                                          : 0;
    m_builder.addSliceId(track, e.ts, e.ts, m_builder.intern(e.name), SliceKind::Instant,
                         correlation, model::kNoDetail);
    keepExtraArgs(e, track, SliceKind::Instant);
    m_earliestNs = std::min(m_earliestNs, e.ts);
}

void Importer::addCounter(const RawEvent& e) {
    ProcessIndex process = 0;
    if (auto it = m_pidProcesses.find(e.pid); it != m_pidProcesses.end()) {
        process = it->second;
    } else {
        process = hostProcess(e.pid);
    }
    for (const auto& [series, value] : m_series) {
        const auto counter = m_builder.counterTrack(process, e.name, series);
        m_builder.addCounterSample(counter, e.ts, value);
        m_earliestNs = std::min(m_earliestNs, e.ts);
    }
}

void Importer::handleMetadataEvent(const RawEvent& e) {
    if (m_warpline)
        return;  // names and order come from the "warpline" block
    const std::string_view what = e.name;
    if (what == "process_name" && (e.args.has & kArgName)) {
        m_processNames[e.pid] = std::string(e.args.name);
    } else if (what == "thread_name" && (e.args.has & kArgName)) {
        m_threadNames[{e.pid, e.tid}] = std::string(e.args.name);
    }
}

void Importer::parseEvents(od::value& v) {
    if (typeOf(v) != od::json_type::array)
        fail("\"traceEvents\" must be an array", locate(v));
    m_eventsSeen = true;
    m_eventsAt = locate(v);
    if (!m_warpline) {
        // Other producers' events are ~100-300 bytes: size the bookkeeping once, not by doubling.
        const std::size_t estimate = m_size / 256;
        m_sliceStarts.reserve(estimate);
        m_flows.reserve(estimate);
        m_gpuCorrelations.reserve(estimate / 2);
    }
    od::array arr = v.get_array();
    for (auto element : arr) {
        od::value event = element.value();
        parseEvent(event);
    }
}

void Importer::parseDevices(od::value& v) {
    if (typeOf(v) != od::json_type::array)
        fail("\"deviceProperties\" must be an array", locate(v));
    od::array arr = v.get_array();
    for (auto element : arr) {
        od::value dv = element.value();
        if (typeOf(dv) != od::json_type::object)
            fail("a device must be an object", locate(dv));
        model::DeviceProperties d;
        bool haveWarps = false;
        od::object obj = dv.get_object();
        for (auto field : obj) {
            const std::string_view key = keyText(field);
            od::value value = field.value();
            // A property of an unexpected type (vintages differ) is left out, not the file.
            try {
                switch (keyHash(key)) {
#define WL_DEV(text, member, type)                \
    case keyHash(text):                           \
        if (key == text) {                        \
            d.member = getInt<type>(value, text); \
            continue;                             \
        }                                         \
        break;
                    WL_DEV("id", id, std::int32_t)
                    WL_DEV("totalGlobalMem", totalMemoryBytes, std::int64_t)
                    WL_DEV("computeMajor", computeMajor, std::int32_t)
                    WL_DEV("computeMinor", computeMinor, std::int32_t)
                    WL_DEV("maxThreadsPerBlock", maxThreadsPerBlock, std::int32_t)
                    WL_DEV("maxThreadsPerMultiprocessor", maxThreadsPerSm, std::int32_t)
                    WL_DEV("regsPerBlock", registersPerBlock, std::int32_t)
                    WL_DEV("warpSize", warpSize, std::int32_t)
                    WL_DEV("sharedMemPerBlock", sharedMemoryPerBlockBytes, std::int64_t)
                    WL_DEV("numSms", smCount, std::int32_t)
                    WL_DEV("regsPerMultiprocessor", registersPerSm, std::int32_t)
                    WL_DEV("sharedMemPerBlockOptin", sharedMemoryPerBlockOptinBytes, std::int64_t)
                    WL_DEV("sharedMemPerMultiprocessor", sharedMemoryPerSmBytes, std::int64_t)
                    WL_DEV("maxBlocksPerMultiprocessor", maxBlocksPerSm, std::int32_t)
                    WL_DEV("l2CacheSize", l2CacheBytes, std::int64_t)
                    WL_DEV("clockRate", clockRateKHz, std::int32_t)
                    WL_DEV("memoryClockRate", memoryClockRateKHz, std::int32_t)
                    WL_DEV("memoryBusWidth", memoryBusWidthBits, std::int32_t)
                    WL_DEV("pcieGeneration", pcieGeneration, std::int32_t)
                    WL_DEV("pcieLinkWidth", pcieLinkWidth, std::int32_t)
#undef WL_DEV
                    case keyHash("maxWarpsPerMultiprocessor"):
                        if (key == "maxWarpsPerMultiprocessor") {
                            d.maxWarpsPerSm = getInt<std::int32_t>(value, key);
                            haveWarps = true;
                            continue;
                        }
                        break;
                    case keyHash("name"):
                        if (key == "name") {
                            d.name = std::string(getString(value, "name"));
                            continue;
                        }
                        break;
                    case keyHash("uuid"):
                        if (key == "uuid") {
                            d.uuid = std::string(getString(value, "uuid"));
                            continue;
                        }
                        break;
                    case keyHash("pciBusId"):
                        if (key == "pciBusId") {
                            d.pciBusId = std::string(getString(value, "pciBusId"));
                            continue;
                        }
                        break;
                    case keyHash("memoryBandwidthGBps"):
                        if (key == "memoryBandwidthGBps") {
                            d.memoryBandwidthGBps = getFloat<double>(value, key);
                            continue;
                        }
                        break;
                    default:
                        break;
                }
                skipValue(value, 2);
            } catch (const FieldProblem& p) {
                ++m_ignoredArgs;
                if (!m_firstIgnoredArg) {
                    m_firstIgnoredArg = FieldProblem{
                        "deviceProperties." + std::string(key) + ": " + p.message, p.at};
                }
                if (!p.consumed)
                    skipValue(value, 2);
            }
        }
        // Kineto does not write warps per SM; analysis needs it.
        if (!haveWarps && d.warpSize > 0)
            d.maxWarpsPerSm = d.maxThreadsPerSm / d.warpSize;
        m_builder.addDevice(d);
    }
}

void Importer::keepScalar(const std::string& key, od::value& value) {
    switch (typeOf(value)) {
        case od::json_type::string:
            m_foreignMetadata[key] = std::string(getString(value, key));
            break;
        case od::json_type::number:
            m_foreignMetadata[key] = std::string(numberText(value, key));
            break;
        case od::json_type::boolean:
            m_foreignMetadata[key] = value.get_bool().value() ? "true" : "false";
            break;
        default:
            skipValue(value, 1);
            break;
    }
}

void Importer::parseMetadataObject(od::value& v) {
    if (typeOf(v) != od::json_type::object)
        fail("\"warplineMetadata\" must be an object", locate(v));
    m_ourMetadata = true;
    od::object obj = v.get_object();
    for (auto field : obj) {
        const std::string_view key = keyText(field);
        od::value value = field.value();
        m_builder.setMetadata(std::string(key), std::string(getString(value, "metadata value")));
    }
}

void Importer::parseWarplineBlock(od::value& v) {
    if (typeOf(v) != od::json_type::object)
        fail("\"warpline\" must be an object", locate(v));
    if (m_eventsSeen) {  // too late to place events on its tracks: read the file as any other
        skipValue(v, 1);
        return;
    }
    m_warpline = true;
    od::object obj = v.get_object();
    auto forEachObject = [&](od::value& arrValue, std::string_view what, auto&& handle) {
        if (typeOf(arrValue) != od::json_type::array)
            fail(std::string(what) + " must be an array", locate(arrValue));
        od::array arr = arrValue.get_array();
        for (auto element : arr) {
            od::value item = element.value();
            if (typeOf(item) != od::json_type::object)
                fail(std::string(what) + " entries must be objects", locate(item));
            od::object o = item.get_object();
            handle(o);
        }
    };
    for (auto field : obj) {
        const std::string_view key = keyText(field);
        od::value value = field.value();
        if (key == "processes") {
            forEachObject(value, "warpline.processes", [&](od::object& o) {
                std::int64_t pid = 0, processId = 0, device = -1, owner = -1;
                std::string name;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "pid")
                        pid = getInt<std::int64_t>(fv, k);
                    else if (k == "processId")
                        processId = getInt<std::int64_t>(fv, k);
                    else if (k == "device")
                        device = getInt<std::int32_t>(fv, k);
                    else if (k == "name")
                        name = std::string(getString(fv, k));
                    else if (k == "owner")
                        owner = getInt<std::int64_t>(fv, k);
                    else
                        skipValue(fv, 3);
                }
                // Keyed by (device, owner): a merged trace's GPU processes of one ordinal in
                // different traced processes stay apart (the pids tell them apart in the file).
                const ProcessIndex p =
                    device >= 0
                        ? m_builder.gpuProcess(static_cast<std::int32_t>(device), name, owner)
                        : m_builder.hostProcess(processId, name);
                m_pidProcesses[pid] = p;
                if (device >= 0)
                    m_pidDevices[pid] = static_cast<std::int32_t>(device);
            });
        } else if (key == "tracks") {
            forEachObject(value, "warpline.tracks", [&](od::object& o) {
                const char* at = nullptr;
                std::int64_t pid = 0, thread = -1, stream = -1;
                std::int32_t sortIndex = 0;
                std::vector<std::int64_t> tids;
                std::string_view kind, domain, name;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (!at)
                        at = locate(fv);
                    if (k == "pid") {
                        pid = getInt<std::int64_t>(fv, k);
                    } else if (k == "tids") {
                        if (typeOf(fv) != od::json_type::array)
                            fail("tids must be an array", locate(fv));
                        od::array ta = fv.get_array();
                        for (auto t : ta) {
                            od::value tv = t.value();
                            tids.push_back(getInt<std::int64_t>(tv, "tid"));
                        }
                    } else if (k == "kind") {
                        kind = getString(fv, k);
                    } else if (k == "thread") {
                        thread = getInt<std::int64_t>(fv, k);
                    } else if (k == "stream") {
                        stream = getInt<std::int64_t>(fv, k);
                    } else if (k == "domain") {
                        domain = getString(fv, k);
                    } else if (k == "name") {
                        name = getString(fv, k);
                    } else if (k == "sortIndex") {
                        sortIndex = getInt<std::int32_t>(fv, k);
                    } else {
                        skipValue(fv, 3);
                    }
                }
                auto pit = m_pidProcesses.find(pid);
                if (pit == m_pidProcesses.end())
                    fail("warpline track of an unknown pid", at);
                const ProcessIndex p = pit->second;
                const bool gpu = m_pidDevices.count(pid) > 0;
                TrackIndex track = 0;
                if (kind == "api") {
                    track = m_builder.hostApiTrack(p, thread);
                } else if (kind == "nvtx") {
                    track = m_builder.nvtxTrack(p, thread, domain);
                } else if (kind == "nvtx_async") {
                    track = m_builder.nvtxAsyncTrack(p, domain);
                } else if (kind == "stream" && gpu) {
                    track = m_builder.gpuStreamTrack(p, stream);
                } else if (kind == "sync" && gpu) {
                    track = m_builder.syncTrack(p);
                } else if (kind == "host") {
                    track = m_builder.hostTrack(p, thread);
                } else {
                    fail("unknown warpline track kind", at);
                }
                m_builder.setTrackName(track, name);
                m_builder.setTrackSortIndex(track, sortIndex);
                for (auto tid : tids)
                    m_tidTracks[{pid, tid}] = track;
            });
        } else if (key == "counters") {
            forEachObject(value, "warpline.counters", [&](od::object& o) {
                std::int64_t pid = 0;
                std::string_view name, series, unit;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "pid")
                        pid = getInt<std::int64_t>(fv, k);
                    else if (k == "name")
                        name = getString(fv, k);
                    else if (k == "series")
                        series = getString(fv, k);
                    else if (k == "unit")
                        unit = getString(fv, k);
                    else
                        skipValue(fv, 3);
                }
                auto pit = m_pidProcesses.find(pid);
                const ProcessIndex p = pit != m_pidProcesses.end() ? pit->second : hostProcess(pid);
                m_builder.counterTrack(p, name, series, unit);
            });
        } else if (key == "captureWindows") {
            // In ns from the file's time zero, as the events' ts: rebased with them.
            forEachObject(value, "warpline.captureWindows", [&](od::object& o) {
                TimeNs startNs = 0, endNs = 0;
                for (auto f : o) {
                    const std::string_view k = keyText(f);
                    od::value fv = f.value();
                    if (k == "startNs")
                        startNs = getInt<TimeNs>(fv, k);
                    else if (k == "endNs")
                        endNs = getInt<TimeNs>(fv, k);
                    else
                        skipValue(fv, 3);
                }
                m_builder.addCaptureWindow(startNs, endNs);
            });
        } else if (key == "diagnostics") {
            if (typeOf(value) != od::json_type::object)
                fail("diagnostics must be an object", locate(value));
            auto& d = m_builder.diagnostics();
            od::object o = value.get_object();
            for (auto f : o) {
                const std::string_view k = keyText(f);
                od::value fv = f.value();
                if (k == "droppedRecords")
                    d.droppedRecords += getInt<std::uint64_t>(fv, k);
                else if (k == "invalidTimestamps")
                    d.invalidTimestamps += getInt<std::uint64_t>(fv, k);
                else if (k == "spilledOverlaps")
                    d.spilledOverlaps += getInt<std::uint64_t>(fv, k);
                else if (k == "unknownPhases")
                    d.unknownPhases += getInt<std::uint64_t>(fv, k);
                else if (k == "unmatchedEnds")
                    d.unmatchedEnds += getInt<std::uint64_t>(fv, k);
                else if (k == "unknownRecords")
                    d.unknownRecords += getInt<std::uint64_t>(fv, k);
                else if (k == "truncatedStrings")
                    d.truncatedStrings += getInt<std::uint64_t>(fv, k);
                else if (k == "skippedEvents")
                    d.skippedEvents += getInt<std::uint64_t>(fv, k);
                else if (k == "warningCount")
                    d.warningCount += getInt<std::uint64_t>(fv, k);
                else if (k == "noteCount")
                    d.noteCount += getInt<std::uint64_t>(fv, k);
                else if (k == "warnings" || k == "notes") {
                    const bool warning = k == "warnings";
                    if (typeOf(fv) != od::json_type::array)
                        fail(std::string(k) + " must be an array", locate(fv));
                    auto& messages = warning ? d.warnings : d.notes;
                    od::array wa = fv.get_array();
                    for (auto w : wa) {
                        od::value wv = w.value();
                        const std::string_view msg = getString(wv, warning ? "warning" : "note");
                        if (messages.size() < model::Diagnostics::kMaxMessages) {
                            messages.emplace_back(msg);
                        }
                    }
                } else {
                    skipValue(fv, 3);
                }
            }
        } else {
            skipValue(value, 2);
        }
    }
}

void Importer::sortSliceStarts() {
    if (m_startsSorted)
        return;
    std::sort(m_sliceStarts.begin(), m_sliceStarts.end(),
              [](const SliceStart& a, const SliceStart& b) {
                  return std::tie(a.pid, a.tid, a.startNs) < std::tie(b.pid, b.tid, b.startNs);
              });
    m_coverEndNs.resize(m_sliceStarts.size());
    for (std::size_t i = 0; i < m_sliceStarts.size(); ++i) {
        const SliceStart& s = m_sliceStarts[i];
        const bool sameThread =
            i > 0 && m_sliceStarts[i - 1].pid == s.pid && m_sliceStarts[i - 1].tid == s.tid;
        m_coverEndNs[i] = sameThread ? std::max(m_coverEndNs[i - 1], s.endNs) : s.endNs;
    }
    m_startsSorted = true;
}

// Several tracks can share a (pid, tid) (Kineto puts CPU ops and runtime calls on one thread,
// stream syncs on the stream's tid): a flow end binds to the track of the slice that starts
// last at or before its time on that thread.
bool Importer::enclosingTrack(std::int64_t pid, std::int64_t tid, TimeNs ts, bool launchStart,
                              TrackIndex& track) {
    if (m_warpline) {
        if (auto it = m_tidTracks.find({pid, tid}); it != m_tidTracks.end()) {
            track = it->second;
            return true;
        }
    }
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0};
    auto it = std::upper_bound(m_sliceStarts.begin(), m_sliceStarts.end(), probe,
                               [](const SliceStart& a, const SliceStart& b) {
                                   return std::tie(a.pid, a.tid, a.startNs) <
                                          std::tie(b.pid, b.tid, b.startNs);
                               });
    if (it == m_sliceStarts.begin())
        return false;
    --it;
    if (it->pid != pid || it->tid != tid)
        return false;
    // No slice of the thread runs at that time: the end binds nowhere (Perfetto counts these as
    // flows without an enclosing slice).
    auto index = static_cast<std::size_t>(it - m_sliceStarts.begin());
    if (m_coverEndNs[index] < ts)
        return false;
    // The innermost slice over `ts` is the last one to start that still runs then; walk back
    // over siblings that ended before it (bounded: a long tail of them keeps the nearest track).
    for (std::size_t k = index, steps = 0; steps < 4096; --k, ++steps) {
        if (m_sliceStarts[k].endNs >= ts) {
            it = m_sliceStarts.begin() + static_cast<std::ptrdiff_t>(k);
            break;
        }
        if (k == 0 || m_coverEndNs[k - 1] < ts || m_sliceStarts[k - 1].pid != pid ||
            m_sliceStarts[k - 1].tid != tid)
            break;
    }
    track = it->track;
    // Several slices start at that time: a launch arrow leaves from the API call.
    if (launchStart) {
        for (auto k = it;; --k) {
            if (k->pid != pid || k->tid != tid || k->startNs != it->startNs)
                break;
            if (m_apiTracks.count(k->track) && k->endNs >= ts) {
                track = k->track;
                break;
            }
            if (k == m_sliceStarts.begin())
                break;
        }
    }
    return true;
}

// Flow v1 "f" without "bp":"e" (the Trace Event Format, and Perfetto): the arrow ends at the
// next slice that begins on the thread.
bool Importer::nextSliceTrack(std::int64_t pid, std::int64_t tid, TimeNs& ts, TrackIndex& track) {
    if (m_warpline)
        return enclosingTrack(pid, tid, ts, false, track);
    sortSliceStarts();
    const SliceStart probe{pid, tid, ts, 0, 0};
    auto it = std::lower_bound(m_sliceStarts.begin(), m_sliceStarts.end(), probe,
                               [](const SliceStart& a, const SliceStart& b) {
                                   return std::tie(a.pid, a.tid, a.startNs) <
                                          std::tie(b.pid, b.tid, b.startNs);
                               });
    if (it == m_sliceStarts.end() || it->pid != pid || it->tid != tid)
        return false;
    ts = it->startNs;
    track = it->track;
    return true;
}

void Importer::resolveFlows() {
    if (m_flows.empty())
        return;
    std::sort(m_gpuCorrelations.begin(), m_gpuCorrelations.end());
    // Producers write flow events in any order (Kineto often puts "f" first): group by (cat, id).
    std::stable_sort(m_flows.begin(), m_flows.end(), [&](const FlowEvent& a, const FlowEvent& b) {
        if (a.cat != b.cat)
            return a.cat < b.cat;
        return a.id < b.id;
    });
    auto rank = [](char ph) { return ph == 's' ? 0 : ph == 't' ? 1 : 2; };
    struct End {
        TrackIndex track = 0;
        TimeNs ts = 0;
    };
    std::vector<const FlowEvent*> order;
    for (std::size_t i = 0; i < m_flows.size();) {
        std::size_t j = i;
        while (j < m_flows.size() && m_flows[j].cat == m_flows[i].cat &&
               m_flows[j].id == m_flows[i].id)
            ++j;
        const FlowEvent& first = m_flows[i];
        if (first.launch &&
            std::binary_search(m_gpuCorrelations.begin(), m_gpuCorrelations.end(), first.id)) {
            i = j;  // the model links launches by correlation id
            continue;
        }
        const auto starts = std::count_if(m_flows.begin() + static_cast<std::ptrdiff_t>(i),
                                          m_flows.begin() + static_cast<std::ptrdiff_t>(j),
                                          [](const FlowEvent& f) { return f.ph == 's'; });
        // One start: s -> t... -> f, steps in time order, whatever the start's time says (a GPU
        // clock may run a little behind the host's). Several starts (Fuchsia reuses ids): each
        // opens the next flow, all in time order.
        order.clear();
        for (std::size_t k = i; k < j; ++k)
            order.push_back(&m_flows[k]);
        std::stable_sort(order.begin(), order.end(), [&](const FlowEvent* a, const FlowEvent* b) {
            if (starts <= 1 && (a->ph == 's') != (b->ph == 's'))
                return a->ph == 's';
            return a->ts != b->ts ? a->ts < b->ts : rank(a->ph) < rank(b->ph);
        });
        std::optional<End> open;  // where the flow stands: its start or its last step
        bool unusedStart = false;
        std::uint64_t dropped = 0;
        for (const FlowEvent* f : order) {
            End here{0, f->ts};
            const bool ok = f->bindNext ? nextSliceTrack(f->pid, f->tid, here.ts, here.track)
                                        : enclosingTrack(f->pid, f->tid, f->ts,
                                                         f->launch && f->ph == 's', here.track);
            if (f->ph == 's') {
                dropped += unusedStart || !ok ? 1 : 0;
                open = ok ? std::optional<End>(here) : std::nullopt;
                unusedStart = ok;
                continue;
            }
            if (!open || !ok) {
                ++dropped;
                continue;
            }
            m_builder.addFlow(first.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                              here.ts);
            unusedStart = false;
            // An "f" leaves the flow open (several ends may share one start, as in Perfetto); a
            // reused id's next "s" starts a new flow.
            if (f->ph == 't')
                open = here;
        }
        dropped += unusedStart ? 1 : 0;
        (first.launch ? m_looseLaunchEvents : m_looseFlowEvents) += dropped;
        i = j;
    }
}

// Flow v2 (Perfetto): slices carry "bind_id" with "flow_out" (a flow leaves), "flow_in" (one
// arrives) or both (it passes through); the ends of one id are taken in time order.
void Importer::resolveBoundFlows() {
    if (m_boundFlows.empty())
        return;
    std::stable_sort(m_boundFlows.begin(), m_boundFlows.end(),
                     [](const BoundFlowEnd& a, const BoundFlowEnd& b) {
                         return a.id != b.id ? a.id < b.id : a.startNs < b.startNs;
                     });
    struct End {
        TrackIndex track = 0;
        TimeNs ts = 0;
    };
    std::optional<End> open;
    for (std::size_t i = 0; i < m_boundFlows.size(); ++i) {
        const BoundFlowEnd& b = m_boundFlows[i];
        if (i == 0 || m_boundFlows[i - 1].id != b.id)
            open.reset();
        End here{0, b.startNs};
        if (!enclosingTrack(b.pid, b.tid, b.startNs, false, here.track)) {
            ++m_looseFlowEvents;
            continue;
        }
        if (b.in) {
            if (open) {
                m_builder.addFlow(b.id & ~kStringFlowIdBit, open->track, open->ts, here.track,
                                  here.ts);
            } else if (!b.out) {
                ++m_looseFlowEvents;
            }
        }
        if (b.out)
            open = here;
    }
}

void Importer::pairBeginsAndEnds() {
    // Thread by thread in a fixed order, so equal input gives an equal trace.
    std::vector<std::pair<std::int64_t, std::int64_t>> threads;
    threads.reserve(m_beginEnds.size());
    for (const auto& [thread, list] : m_beginEnds)
        threads.push_back(thread);
    std::sort(threads.begin(), threads.end());
    std::uint64_t unclosed = 0;
    std::vector<std::uint32_t> stack;
    for (const auto& thread : threads) {
        auto& list = m_beginEnds[thread];
        // Pairs form in time order (producers may write a thread's events out of order); file
        // order breaks ties, so a zero-length B/E pair stays a pair.
        auto byTime = [](const BeginEnd& a, const BeginEnd& b) { return a.ts < b.ts; };
        if (!std::is_sorted(list.begin(), list.end(), byTime))
            std::stable_sort(list.begin(), list.end(), byTime);
        stack.clear();
        for (const BeginEnd& item : list) {
            if (item.begin != kNoBegin) {
                stack.push_back(item.begin);
                continue;
            }
            if (stack.empty()) {
                ++m_strayEnds;
                continue;
            }
            const RawEvent& begin = m_begins[stack.back()];
            stack.pop_back();
            addSlice(begin, begin.ts, item.ts);
        }
        // Still open when the recording stopped: it lasted at least until the thread's last
        // event, and its name says that it did not end.
        const TimeNs threadEndNs = m_threadEndNs[thread];
        for (std::uint32_t index : stack) {
            RawEvent begin = m_begins[index];
            m_ownedNames.push_back(std::string(begin.name) + std::string(kUnclosedSuffix));
            begin.name = m_ownedNames.back();
            addSlice(begin, begin.ts, std::max(begin.ts, threadEndNs));
            ++unclosed;
        }
    }
    auto& d = m_builder.diagnostics();
    d.unmatchedEnds += m_strayEnds + unclosed;
    if (m_strayEnds > 0) {
        d.note(std::to_string(m_strayEnds) +
               " \"E\" event(s) without a matching \"B\" on their thread were ignored");
    }
    if (unclosed > 0) {
        d.note(std::to_string(unclosed) +
               " \"B\" event(s) never ended: each ends with its thread's last event, marked \"" +
               std::string(kUnclosedSuffix.substr(1)) + "\"");
    }
}

void Importer::finish() {
    pairBeginsAndEnds();
    auto& d = m_builder.diagnostics();
    const std::uint64_t readable = m_eventCount - m_skippedCount - m_emptyEvents;
    // Our own export of a trace that showed nothing (its events all left out or unpaired) is
    // still that trace: it reads back as it was written.
    if (readable == 0 && !m_warpline) {
        // Nothing to show is an error, never an empty window: say why the events were refused.
        if (m_firstSkip) {
            fail(m_firstSkip->message + (m_skippedCount > 1 ? " (and no other event could be read)"
                                                            : " (the only event)"),
                 m_firstSkip->at);
        }
        fail("the trace holds no events", m_eventsAt ? m_eventsAt : m_base);
    }
    // The trace's origin is base + earliest event: it must be an int64 too.
    TimeNs origin = 0;
    if (m_earliestNs != std::numeric_limits<TimeNs>::max() &&
        __builtin_add_overflow(m_baseNs, m_earliestNs, &origin)) {
        fail("baseTimeNanoseconds plus the earliest timestamp is out of range", m_baseAt);
    }
    auto at = [&](const char* p) { return std::to_string(p - m_base); };
    if (m_skippedCount > 0) {
        d.skippedEvents += m_skippedCount;
        d.warn(std::to_string(m_skippedCount) +
               " event(s) could not be read and were left out; the first, at byte " +
               at(m_firstSkip->at) + ": " + m_firstSkip->message);
    }
    if (m_emptyEvents > 0)
        d.note(std::to_string(m_emptyEvents) + " empty {} event(s) were ignored");
    if (m_ignoredArgs > 0) {
        d.note(std::to_string(m_ignoredArgs) +
               " arg(s) of an unexpected type were ignored; the first, at byte " +
               at(m_firstIgnoredArg->at) + ": " + m_firstIgnoredArg->message);
    }
    std::uint64_t unended = 0;
    for (const auto& [key, stack] : m_openAsync)
        unended += stack.size();
    if (unended > 0) {
        d.unmatchedEnds += unended;
        d.note(std::to_string(unended) + " async event(s) never ended");
    }
    if (d.unknownPhases > 0 && !m_warpline) {
        d.note(std::to_string(d.unknownPhases) + " event(s) of unsupported phases were skipped");
    }
    resolveFlows();
    resolveBoundFlows();
    if (m_looseLaunchEvents > 0) {
        // Routine in PyTorch profiler files: launches whose GPU work fell outside the profiling
        // window, and arrow ends of records the profiler did not keep.
        d.note(std::to_string(m_looseLaunchEvents) +
               " launch flow event(s) without a matching start or end were ignored");
    }
    if (m_looseFlowEvents > 0) {
        d.note(std::to_string(m_looseFlowEvents) +
               " flow event(s) without a matching start or end were ignored");
    }
    if (!m_warpline) {
        for (const auto& [pid, name] : m_processNames) {
            if (auto it = m_hostProcesses.find(pid); it != m_hostProcesses.end()) {
                m_builder.setProcessName(it->second, name);
            }
        }
        for (const auto& [key, track] : m_hostTracks) {
            if (auto it = m_threadNames.find(key); it != m_threadNames.end()) {
                m_builder.setTrackName(track, it->second);
            } else if (auto named = m_stringIdNames.find(key.second);
                       named != m_stringIdNames.end() && !named->second.empty()) {
                m_builder.setTrackName(track, named->second);  // a tid written as a name
            }
        }
    }
    if (!m_ourMetadata) {
        for (auto& [k, val] : m_foreignMetadata)
            m_builder.setMetadata(k, val);
        if (!m_foreignMetadata.count("producer")) {
            m_builder.setMetadata(
                "producer", m_foreignGpuData ? "PyTorch profiler (Kineto)" : "Chrome trace JSON");
        }
    }
}

void Importer::handleTopLevelField(std::string_view key, od::value& value, bool& haveEvents) {
    switch (keyHash(key)) {
        case keyHash(format::kTraceEvents):
            if (key == format::kTraceEvents) {
                parseEvents(value);
                haveEvents = true;
                return;
            }
            break;
        case keyHash(format::kDeviceProperties):
            if (key == format::kDeviceProperties) {
                parseDevices(value);
                m_foreignGpuData = true;
                return;
            }
            break;
        case keyHash(format::kBaseTime):
            if (key == format::kBaseTime) {
                m_baseAt = value.raw_json_token().data();
                m_baseNs = getInt<std::int64_t>(value, key);
                m_builder.setBaseTimeNs(m_baseNs);
                return;
            }
            break;
        case keyHash(format::kMetadata):
            if (key == format::kMetadata) {
                parseMetadataObject(value);
                return;
            }
            break;
        case keyHash(format::kWarpline):
            if (key == format::kWarpline) {
                parseWarplineBlock(value);
                return;
            }
            break;
        case keyHash(format::kDistributedInfo):
            if (key == format::kDistributedInfo) {
                // Which rank of which job wrote the file (Kineto: backend, rank,
                // world_size): kept as metadata, so a job's traces can be told apart.
                if (typeOf(value) == od::json_type::object) {
                    for (auto info : value.get_object()) {
                        od::value v = info.value();
                        keepScalar(std::string(keyText(info)), v);
                    }
                } else {
                    skipValue(value, 1);
                }
                return;
            }
            break;
        case keyHash("displayTimeUnit"):
        case keyHash("schemaVersion"):
            skipValue(value, 1);
            return;
        default:
            break;
    }
    // Other producers' top-level facts (trace_id, cuda_runtime_version, ...) are kept as
    // metadata; structures we do not read are checked and skipped.
    keepScalar(std::string(key), value);
}

model::TracePtr Importer::run(od::document& doc) {
    m_doc = &doc;
    od::json_type rootType;
    if (const auto err = doc.type().get(rootType)) {
        const char* at = nullptr;
        if (doc.current_location().get(at) != simdjson::SUCCESS)
            at = m_base;
        failJson(err, at);
    }
    if (rootType == od::json_type::array) {
        // An array document: iterate it as the event list.
        od::array arr = doc.get_array();
        m_eventsSeen = true;
        m_eventsAt = m_base;
        for (auto element : arr) {
            od::value event = element.value();
            parseEvent(event);
        }
    } else if (rootType == od::json_type::object) {
        od::object obj = doc.get_object();
        bool haveEvents = false;
        for (auto field : obj) {
            const std::string_view key = keyText(field);
            od::value value = field.value();
            handleTopLevelField(key, value, haveEvents);
        }
        if (!haveEvents)
            fail("no \"traceEvents\" array in the JSON object", m_base);
    } else {
        fail("expected a JSON array of events or an object with \"traceEvents\"", m_base);
    }
    // current_location() fails with OUT_OF_BOUNDS exactly when the whole text was consumed.
    if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS) {
        fail("unexpected content after the JSON document", at);
    }
    finish();
    return m_builder.finalize();
}

namespace {

bool isJsonSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::size_t skipSpace(const char* text, std::size_t size, std::size_t pos) {
    while (pos < size && isJsonSpace(text[pos]))
        ++pos;
    return pos;
}

// Puts two bytes back when it goes: the reader borrows the separators around a run (or a
// top-level member) as the brackets that make it a document of its own.
class BorrowedBrackets {
public:
    BorrowedBrackets(char* text, std::size_t open, char openAs, std::size_t close, char closeAs)
        : m_text(text),
          m_open(open),
          m_close(close),
          m_openWas(text[open]),
          m_closeWas(text[close]) {
        text[open] = openAs;
        text[close] = closeAs;
    }
    ~BorrowedBrackets() {
        m_text[m_open] = m_openWas;
        m_text[m_close] = m_closeWas;
    }
    BorrowedBrackets(const BorrowedBrackets&) = delete;
    BorrowedBrackets& operator=(const BorrowedBrackets&) = delete;

private:
    char* m_text;
    std::size_t m_open, m_close;
    char m_openWas, m_closeWas;
};

}  // namespace

// Gives the pages of the mapped text before `end` back to the system: they read back from the
// file if anything looks at them again (a kept name of an open "B", a later diagnostic).
void Importer::releaseTextBefore(const char* text, std::size_t end) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<std::uintptr_t>(text);
    const std::uintptr_t first = (base + m_releasedBytes + page - 1) / page * page;
    const std::uintptr_t last = (base + end) / page * page;
    if (last > first + (std::size_t{16} << 20)) {  // in steps of 16 MB: few calls
        ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
        m_releasedBytes = last - base;
    }
}

// Where the runs of one event array end, found on a thread of its own while the caller parses
// the runs already found (on two cores the cutting costs no time). Cuts are published in order;
// the caller only ever writes at positions the cutter has passed.
class RunCutter {
public:
    RunCutter(std::string_view text, std::size_t first, std::size_t runBytes)
        : m_cuts(text.size() / runBytes + 2, std::string_view::npos),
          m_thread([this, text, first, runBytes] { cutAll(text, first, runBytes); }) {}
    ~RunCutter() {
        m_stop.store(true, std::memory_order_relaxed);
        m_thread.join();
    }
    RunCutter(const RunCutter&) = delete;
    RunCutter& operator=(const RunCutter&) = delete;

    // The end of run `i` (npos: the text ended first); waits until it is known.
    std::size_t cut(std::size_t i) {
        if (i >= m_cuts.size())
            return std::string_view::npos;
        std::size_t known = m_published.load(std::memory_order_acquire);
        while (known <= i) {
            m_published.wait(known, std::memory_order_acquire);
            known = m_published.load(std::memory_order_acquire);
        }
        return m_cuts[i];
    }

private:
    void cutAll(std::string_view text, std::size_t from, std::size_t runBytes) {
        for (std::size_t i = 0; i < m_cuts.size() && !m_stop.load(std::memory_order_relaxed); ++i) {
            const std::size_t cut = nextMemberCut(text, from, runBytes);
            m_cuts[i] = cut;
            m_published.store(i + 1, std::memory_order_release);
            m_published.notify_one();
            if (cut == std::string_view::npos || text[cut] != ',')
                break;
            from = cut + 1;
        }
        // A count the caller can never wait past (the last cut ends the array or the text).
        m_published.store(m_cuts.size(), std::memory_order_release);
        m_published.notify_one();
    }

    std::vector<std::size_t> m_cuts;
    std::atomic<std::size_t> m_published{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;  // last: starts once the members above exist
};

// The events of the array whose '[' is at `open`, a run of about `runBytes` at a time, each run
// parsed as a document of its own with one parser whose index is reused. Returns the position
// of the array's ']'.
std::size_t Importer::parseEventRuns(char* text, std::size_t open, std::size_t readableBytes,
                                     std::size_t runBytes) {
    m_eventsSeen = true;
    m_eventsAt = text + open;
    if (!m_warpline) {
        const std::size_t estimate = m_size / 256;  // as in parseEvents
        m_sliceStarts.reserve(estimate);
        m_flows.reserve(estimate);
        m_gpuCorrelations.reserve(estimate / 2);
    }
    RunCutter cutter(std::string_view(text, m_size), open + 1, runBytes);
    od::parser parser;
    std::size_t from = open + 1;
    for (std::size_t i = 0;; ++i) {
        const std::size_t cut = cutter.cut(i);
        // The cutter only counts brackets: a '}' closing the array is for the whole read to judge.
        if (cut == std::string_view::npos || (text[cut] != ',' && text[cut] != ']'))
            throw ChunkedGiveUp{};
        // A blank run after a separator is a trailing or doubled comma: the whole read says so.
        if (i > 0 && skipSpace(text, m_size, from) == cut)
            throw ChunkedGiveUp{};
        const bool last = text[cut] == ']';
        m_lastName = {};
        m_lastNameId = 0;  // ""
        m_lastCat = {};
        m_lastCatClass = classify({});
        {
            const BorrowedBrackets brackets(text, from - 1, '[', cut, ']');
            const simdjson::padded_string_view run(text + from - 1, cut - from + 2,
                                                   readableBytes - (from - 1));
            od::document doc;
            m_doc = &doc;
            od::array arr;
            if (parser.iterate(run).get(doc) || doc.get_array().get(arr))
                throw ChunkedGiveUp{};
            for (auto element : arr) {
                od::value event;
                if (element.get(event))
                    throw ChunkedGiveUp{};
                parseEvent(event);
            }
            if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS)
                throw ChunkedGiveUp{};
        }
        ++m_runsParsed;
        if (m_releaseParsedText)
            releaseTextBefore(text, from);
        if (last)
            return cut;
        from = cut + 1;
    }
}

model::TracePtr Importer::runChunked(char* text, std::size_t readableBytes, std::size_t runBytes,
                                     bool releaseParsedText) {
    m_releaseParsedText = releaseParsedText;
    const std::size_t size = m_size;
    std::size_t pos = skipSpace(text, size, 0);
    if (pos < size && text[pos] == '[') {
        pos = parseEventRuns(text, pos, readableBytes, runBytes) + 1;
    } else if (pos < size && text[pos] == '{') {
        // Each top-level member in document order: "traceEvents" a run at a time, any other
        // member parsed as a one-member object of its own by the same code as run()'s.
        bool haveEvents = false;
        od::parser parser;
        std::size_t from = pos + 1;
        while (true) {
            std::size_t p = skipSpace(text, size, from);
            if (p < size && text[p] == '}' && from == pos + 1) {
                pos = p + 1;  // {}
                break;
            }
            constexpr std::string_view kEventsKey = "\"traceEvents\"";
            if (std::string_view(text + p, std::min(size - p, kEventsKey.size())) == kEventsKey) {
                std::size_t q = skipSpace(text, size, p + kEventsKey.size());
                if (q < size && text[q] == ':')
                    q = skipSpace(text, size, q + 1);
                if (q < size && text[q] == '[') {
                    const std::size_t close = parseEventRuns(text, q, readableBytes, runBytes);
                    haveEvents = true;
                    const std::size_t next = skipSpace(text, size, close + 1);
                    if (next >= size || (text[next] != ',' && text[next] != '}'))
                        throw ChunkedGiveUp{};
                    if (text[next] == '}') {
                        pos = next + 1;
                        break;
                    }
                    from = next + 1;
                    continue;
                }
            }
            const std::size_t cut = nextMemberCut(std::string_view(text, size), from, 0);
            // A ']' closing the object, or a member that is only white space ("a":1,,"b":2):
            // for the whole read to judge.
            if (cut == std::string_view::npos || (text[cut] != ',' && text[cut] != '}') ||
                skipSpace(text, size, from) == cut)
                throw ChunkedGiveUp{};
            const bool last = text[cut] == '}';
            {
                const BorrowedBrackets braces(text, from - 1, '{', cut, '}');
                const simdjson::padded_string_view member(text + from - 1, cut - from + 2,
                                                          readableBytes - (from - 1));
                od::document doc;
                m_doc = &doc;
                od::object obj;
                if (parser.iterate(member).get(doc) || doc.get_object().get(obj))
                    throw ChunkedGiveUp{};
                for (auto field : obj) {
                    const std::string_view key = keyText(field);
                    od::value value = field.value();
                    handleTopLevelField(key, value, haveEvents);
                }
                if (const char* at = nullptr; doc.current_location().get(at) == simdjson::SUCCESS)
                    throw ChunkedGiveUp{};
            }
            if (last) {
                pos = cut + 1;
                break;
            }
            from = cut + 1;
        }
        if (!haveEvents)
            throw ChunkedGiveUp{};
    } else {
        throw ChunkedGiveUp{};
    }
    if (skipSpace(text, size, pos) != size)
        throw ChunkedGiveUp{};  // content after the document
    finish();
    return m_builder.finalize();
}

}  // namespace

model::Result<model::TracePtr> ChromeTraceReader::read(std::string_view json,
                                                       const std::string& name,
                                                       std::size_t readableBytes) const {
    // A UTF-8 byte order mark is not JSON; skip it but keep offsets relative to the file.
    std::size_t skipped = 0;
    if (json.starts_with("\xEF\xBB\xBF")) {
        json.remove_prefix(3);
        skipped = 3;
        readableBytes = readableBytes >= 3 ? readableBytes - 3 : 0;
    }
    auto errorAt = [&](std::string message, std::int64_t offset) {
        // The parser calls NaN and Infinity bad characters; say what they are.
        if (offset >= 0 && static_cast<std::size_t>(offset) < json.size()) {
            const std::string_view at = json.substr(static_cast<std::size_t>(offset));
            for (std::string_view word :
                 {"NaN", "-NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"}) {
                if (at.starts_with(word)) {
                    message = "NaN and infinities are not JSON numbers";
                    break;
                }
            }
        }
        return model::Error{std::move(message), name,
                            offset < 0 ? -1 : offset + static_cast<std::int64_t>(skipped)};
    };
    std::size_t firstNonSpace = 0;
    while (firstNonSpace < json.size() &&
           (json[firstNonSpace] == ' ' || json[firstNonSpace] == '\n' ||
            json[firstNonSpace] == '\r' || json[firstNonSpace] == '\t')) {
        ++firstNonSpace;
    }
    if (firstNonSpace == json.size())
        return errorAt("empty file: no JSON in it", 0);

    std::string copy;
    simdjson::padded_string_view padded;
    if (readableBytes >= json.size() + kPadding) {
        padded = simdjson::padded_string_view(json.data(), json.size(), readableBytes);
    } else {
        copy.reserve(json.size() + kPadding);
        copy.assign(json);
        padded = simdjson::padded_string_view(copy.data(), copy.size(), copy.capacity());
    }
    const char* base = padded.data();
    // The parser reports an unclosed root and trailing text after the root alike; tell them
    // apart, and point a truncation at the end of the text.
    auto refineStructuralError = [&](simdjson::error_code code) -> std::optional<model::Error> {
        if (code != simdjson::INCOMPLETE_ARRAY_OR_OBJECT && code != simdjson::TAPE_ERROR) {
            return std::nullopt;
        }
        const std::size_t end = rootValueEnd(json);
        if (end == std::string_view::npos) {
            return errorAt("truncated JSON: an array or object is not closed",
                           static_cast<std::int64_t>(json.size()));
        }
        std::size_t next = end;
        while (next < json.size() && std::isspace(static_cast<unsigned char>(json[next])))
            ++next;
        if (next < json.size()) {
            return errorAt("unexpected content after the JSON document",
                           static_cast<std::int64_t>(next));
        }
        return std::nullopt;
    };
    if (m_runs.runsParsed)
        *m_runs.runsParsed = 0;
    if (json.size() >= m_runs.wholeBelowBytes) {
        // The text is ours (the copy) or the caller's writable buffer (see the header).
        Importer chunked(base, json.size());
        try {
            auto trace = chunked.runChunked(const_cast<char*>(base), padded.capacity(),
                                            m_runs.runBytes, m_runs.textIsFileMapping);
            if (m_runs.runsParsed)
                *m_runs.runsParsed = chunked.runsParsed();
            return trace;
        } catch (...) {
            // Bad input, or input the runs do not judge: the whole-document read gives the
            // verdict (and the same trace or error as it always did).
        }
    }
    od::parser parser;
    od::document doc;
    if (const auto err = parser.iterate(padded).get(doc)) {
        if (auto refined = refineStructuralError(err))
            return *refined;
        std::int64_t offset = 0;
        if (err == simdjson::UTF8_ERROR)
            offset = static_cast<std::int64_t>(firstInvalidUtf8(json));
        if (err == simdjson::UNCLOSED_STRING)
            offset = static_cast<std::int64_t>(unclosedStringStart(json));
        return errorAt(describeSimdjsonError(err), offset);
    }
    Importer importer(base, json.size());
    try {
        return importer.run(doc);
    } catch (const ParseFailure& f) {
        if (auto refined = refineStructuralError(f.code))
            return *refined;
        std::int64_t offset = -1;
        if (f.at)
            offset = f.at - base;
        if (offset < 0 || offset > static_cast<std::int64_t>(json.size())) {
            const char* at = nullptr;
            offset = doc.current_location().get(at) == simdjson::SUCCESS
                         ? at - base
                         : static_cast<std::int64_t>(json.size());
        }
        return errorAt(f.message, offset);
    } catch (const FieldProblem& p) {
        // Outside the events (our own block, a top-level number) a wrong value is the file's.
        std::int64_t offset = p.at ? p.at - base : -1;
        if (offset < 0 || offset > static_cast<std::int64_t>(json.size()))
            offset = static_cast<std::int64_t>(json.size());
        return errorAt(p.message, offset);
    } catch (const simdjson::simdjson_error& e) {
        if (auto refined = refineStructuralError(e.error()))
            return *refined;
        const char* at = nullptr;
        const std::int64_t offset = doc.current_location().get(at) == simdjson::SUCCESS
                                        ? at - base
                                        : static_cast<std::int64_t>(json.size());
        return errorAt(describeSimdjsonError(e.error()), offset);
    } catch (const std::exception& e) {
        return errorAt(std::string("cannot import the trace: ") + e.what(), -1);
    }
}

}  // namespace wl::io
