#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/StringTable.h"

namespace wl::model {

// Many short texts written once and read back by index, stored compactly: the producer's args of
// every imported slice and the events a trace keeps as written. Such texts repeat their shape
// (keys, punctuation, spacing) and differ in their numbers, so each is stored as its shape, with
// every run of up to 18 digits cut out, and those runs as variable-length integers: a Kineto
// kernel's 400 bytes of args take about 25. A shape seen twice is interned and named by a number;
// one seen once is written out (a trace of unique texts costs what their bytes cost). Reading
// gives the text back byte for byte. Each entry also carries kHeads small numbers (what the
// texts' owner keeps beside a text: an origin, a length).
//
// Entries are grouped sixteen to a group, and only a group's start is indexed: reading one entry
// skips at most fifteen. Bytes live in chunks that never move, so appending copies nothing.
// Built by one thread, then read-only and safe to share.
class PackedTexts {
public:
    static constexpr unsigned kHeads = 2;
    using Heads = std::array<std::uint32_t, kHeads>;

    PackedTexts();
    PackedTexts(PackedTexts&&) noexcept;
    PackedTexts& operator=(PackedTexts&&) noexcept;
    ~PackedTexts();

    // Appends an entry; returns its index.
    std::uint32_t append(const Heads& heads, std::string_view text);
    std::uint32_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }

    // Entry `index`'s heads, and its text appended to `text` (nullptr: the heads only).
    Heads read(std::uint32_t index, std::string* text) const;
    std::string text(std::uint32_t index) const;

    // Reads entries in order, from the first (export writes every kept event this way).
    class Reader {
    public:
        explicit Reader(const PackedTexts& texts) : m_texts(texts) {}
        bool done() const { return m_index >= m_texts.size(); }
        // The next entry's heads, its text appended to `text`.
        Heads next(std::string* text);

    private:
        const PackedTexts& m_texts;
        std::uint32_t m_index = 0;
        std::uint32_t m_chunk = 0;
        std::size_t m_offset = 0;
    };

    // Gives back growth slack and the interning's working memory (finished building).
    void finish();
    // Heap bytes held.
    std::size_t memoryBytes() const;

private:
    struct Chunk {
        std::unique_ptr<std::uint8_t[]> bytes;
        std::size_t capacity = 0;
        std::size_t used = 0;
    };
    struct Position {
        std::uint32_t chunk = 0;
        std::uint32_t offset = 0;
    };

    std::uint8_t* reserve(std::size_t bytes);
    // Decodes the entry at chunk/offset (moving past it); appends its text when `text` is set.
    Heads decode(std::uint32_t& chunk, std::size_t& offset, std::string* text) const;
    std::uint32_t shapeFor(std::string_view shape, std::uint64_t hash);

    std::vector<Chunk> m_chunks;
    std::vector<Position> m_groupStarts;  // of entries 0, 16, 32, ...
    std::uint32_t m_count = 0;
    StringTable m_shapes;                    // interned shapes (id 0, the empty one, unused)
    std::vector<std::uint16_t> m_shapeRuns;  // by shape id: its digit runs
    // Hashes of shapes seen once, by hash modulo its size: a second sighting interns the shape.
    std::vector<std::uint64_t> m_seenOnce;
    std::unordered_map<std::uint64_t, std::uint32_t> m_shapeByHash;  // while building
    std::string m_scratch;                                           // the shape being built
    std::vector<std::uint64_t> m_runs;
};

}  // namespace wl::model
