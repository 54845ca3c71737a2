#include "model/PackedTexts.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>

namespace wl::model {

namespace {

constexpr std::uint32_t kGroup = 16;           // entries per indexed group
constexpr std::size_t kChunkBytes = 1u << 20;  // bytes per chunk (more for a longer entry)
constexpr std::size_t kMaxRunDigits = 18;      // a longer run stays in the shape: < 2^63
constexpr std::size_t kSeenOnceSlots = 1u << 12;
constexpr char kRun = '\x01';  // a digit run's place in a shape

// How an entry's text is written, after its heads.
enum Code : std::uint32_t {
    kRaw = 0,     // length, bytes (a text holding kRun itself)
    kInline = 1,  // the shape's length and bytes, then its runs
    kShape = 2,   // kShape + id: an interned shape, then its runs
};

std::uint8_t* putVarint(std::uint8_t* out, std::uint64_t v) {
    while (v >= 0x80) {
        *out++ = static_cast<std::uint8_t>(v | 0x80);
        v >>= 7;
    }
    *out++ = static_cast<std::uint8_t>(v);
    return out;
}

std::uint64_t getVarint(const std::uint8_t*& in) {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        const std::uint8_t b = *in++;
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if ((b & 0x80) == 0)
            return v;
    }
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// A run is stored as value * 2, plus 1 when it had leading zeros, then its digit count.
void skipRun(const std::uint8_t*& in) {
    if (getVarint(in) & 1)
        ++in;
}

void appendRun(const std::uint8_t*& in, std::string& text) {
    const std::uint64_t code = getVarint(in);
    const std::uint64_t value = code >> 1;
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const auto length = static_cast<std::size_t>(end - digits);
    if (code & 1) {
        const std::size_t width = *in++;
        text.append(width > length ? width - length : 0, '0');
    }
    text.append(digits, length);
}

}  // namespace

PackedTexts::PackedTexts() = default;
PackedTexts::PackedTexts(PackedTexts&&) noexcept = default;
PackedTexts& PackedTexts::operator=(PackedTexts&&) noexcept = default;
PackedTexts::~PackedTexts() = default;

std::uint8_t* PackedTexts::reserve(std::size_t bytes) {
    if (m_chunks.empty() || m_chunks.back().capacity - m_chunks.back().used < bytes) {
        Chunk chunk;
        chunk.capacity = std::max(kChunkBytes, bytes);
        chunk.bytes = std::make_unique_for_overwrite<std::uint8_t[]>(chunk.capacity);
        m_chunks.push_back(std::move(chunk));
    }
    return m_chunks.back().bytes.get() + m_chunks.back().used;
}

std::uint32_t PackedTexts::shapeFor(std::string_view shape, std::uint64_t hash) {
    // By the hash already made (one hash per text); the text is compared, so a collision only
    // costs an inline shape.
    if (const auto it = m_shapeByHash.find(hash); it != m_shapeByHash.end())
        return m_shapes.get(it->second) == shape ? it->second : 0;
    if (m_seenOnce.empty())
        m_seenOnce.assign(kSeenOnceSlots, 0);
    std::uint64_t& slot = m_seenOnce[hash % kSeenOnceSlots];
    if (slot != hash) {
        slot = hash;
        return 0;
    }
    const StringId id = m_shapes.intern(shape);
    m_shapeByHash.emplace(hash, id);
    if (m_shapeRuns.size() <= id)
        m_shapeRuns.resize(id + 1);
    m_shapeRuns[id] = static_cast<std::uint16_t>(std::count(shape.begin(), shape.end(), kRun));
    return id;
}

std::uint32_t PackedTexts::append(const Heads& heads, std::string_view text) {
    // The shape, and the runs cut out of it.
    m_scratch.clear();
    m_runs.clear();
    bool raw = text.find(kRun) != std::string_view::npos;
    for (std::size_t i = 0; i < text.size() && !raw;) {
        if (!isDigit(text[i])) {
            const std::size_t from = i;
            while (i < text.size() && !isDigit(text[i]))
                ++i;
            m_scratch.append(text.substr(from, i - from));
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isDigit(text[end]))
            ++end;
        const std::size_t length = end - i;
        if (length > kMaxRunDigits) {
            m_scratch.append(text.substr(i, length));
        } else {
            std::uint64_t value = 0;
            std::from_chars(text.data() + i, text.data() + end, value);
            const bool leadingZero = length > 1 && text[i] == '0';
            m_runs.push_back(value << 1 | (leadingZero ? 1 : 0));
            if (leadingZero)
                m_runs.push_back(length);  // the digit count, stored as one byte
            m_scratch += kRun;
        }
        i = end;
    }
    std::uint32_t code = kRaw;
    if (!raw) {
        const std::uint64_t hash = std::hash<std::string_view>{}(m_scratch);
        const std::uint32_t id = m_scratch.empty() ? 0 : shapeFor(m_scratch, hash);
        code = id != 0 ? kShape + id : kInline;
    }
    // Bound: heads and code, a length, the text or shape, and per run at most 10 + 1 bytes.
    const std::size_t bound =
        5 * (kHeads + 2) + text.size() + m_scratch.size() + 11 * m_runs.size();
    std::uint8_t* const start = reserve(bound);
    if (m_count % kGroup == 0)
        m_groupStarts.push_back(Position{static_cast<std::uint32_t>(m_chunks.size() - 1),
                                         static_cast<std::uint32_t>(m_chunks.back().used)});
    std::uint8_t* out = start;
    for (const std::uint32_t h : heads)
        out = putVarint(out, h);
    out = putVarint(out, code);
    if (code == kRaw || code == kInline) {
        const std::string_view body = code == kRaw ? text : std::string_view(m_scratch);
        out = putVarint(out, body.size());
        if (!body.empty())
            std::memcpy(out, body.data(), body.size());
        out += body.size();
    }
    if (code != kRaw) {
        for (std::size_t r = 0; r < m_runs.size(); ++r) {
            out = putVarint(out, m_runs[r]);
            if (m_runs[r] & 1)
                *out++ = static_cast<std::uint8_t>(m_runs[++r]);
        }
    }
    m_chunks.back().used += static_cast<std::size_t>(out - start);
    return m_count++;
}

PackedTexts::Heads PackedTexts::decode(std::uint32_t& chunk, std::size_t& offset,
                                       std::string* text) const {
    if (offset >= m_chunks[chunk].used) {
        ++chunk;
        offset = 0;
    }
    const std::uint8_t* const start = m_chunks[chunk].bytes.get() + offset;
    const std::uint8_t* in = start;
    Heads heads{};
    for (auto& h : heads)
        h = static_cast<std::uint32_t>(getVarint(in));
    const auto code = static_cast<std::uint32_t>(getVarint(in));
    std::string_view shape;
    std::size_t runs = 0;
    if (code == kRaw || code == kInline) {
        const auto length = static_cast<std::size_t>(getVarint(in));
        const std::string_view body(reinterpret_cast<const char*>(in), length);
        in += length;
        if (code == kRaw) {
            if (text)
                text->append(body);
        } else {
            shape = body;
            runs = static_cast<std::size_t>(std::count(body.begin(), body.end(), kRun));
        }
    } else {
        shape = m_shapes.get(code - kShape);
        runs = m_shapeRuns[code - kShape];
    }
    if (code != kRaw) {
        if (!text) {
            for (std::size_t r = 0; r < runs; ++r)
                skipRun(in);
        } else {
            for (std::size_t i = 0; i < shape.size();) {
                const std::size_t next = shape.find(kRun, i);
                const std::size_t end = next == std::string_view::npos ? shape.size() : next;
                text->append(shape.substr(i, end - i));
                if (next == std::string_view::npos)
                    break;
                appendRun(in, *text);
                i = next + 1;
            }
        }
    }
    offset += static_cast<std::size_t>(in - start);
    return heads;
}

PackedTexts::Heads PackedTexts::read(std::uint32_t index, std::string* text) const {
    const Position group = m_groupStarts[index / kGroup];
    std::uint32_t chunk = group.chunk;
    std::size_t offset = group.offset;
    for (std::uint32_t i = index - index % kGroup; i < index; ++i)
        decode(chunk, offset, nullptr);
    return decode(chunk, offset, text);
}

std::string PackedTexts::text(std::uint32_t index) const {
    std::string out;
    read(index, &out);
    return out;
}

PackedTexts::Heads PackedTexts::Reader::next(std::string* text) {
    ++m_index;
    return m_texts.decode(m_chunk, m_offset, text);
}

void PackedTexts::finish() {
    if (!m_chunks.empty() && m_chunks.back().used < m_chunks.back().capacity) {
        Chunk& last = m_chunks.back();
        auto exact =
            std::make_unique_for_overwrite<std::uint8_t[]>(std::max<std::size_t>(last.used, 1));
        std::memcpy(exact.get(), last.bytes.get(), last.used);
        last.bytes = std::move(exact);
        last.capacity = last.used;
    }
    m_chunks.shrink_to_fit();
    m_groupStarts.shrink_to_fit();
    m_shapeRuns.shrink_to_fit();
    m_seenOnce = {};
    m_shapeByHash = {};
    m_scratch = {};
    m_runs = {};
}

std::size_t PackedTexts::memoryBytes() const {
    std::size_t bytes = m_chunks.capacity() * sizeof(Chunk) +
                        m_groupStarts.capacity() * sizeof(Position) + m_shapes.memoryBytes() +
                        m_shapeRuns.capacity() * sizeof(std::uint16_t) +
                        m_seenOnce.capacity() * sizeof(std::uint64_t) +
                        m_shapeByHash.size() * 4 * sizeof(std::uint64_t) + m_scratch.capacity() +
                        m_runs.capacity() * sizeof(std::uint64_t);
    for (const Chunk& c : m_chunks)
        bytes += c.capacity;
    return bytes;
}

}  // namespace wl::model
