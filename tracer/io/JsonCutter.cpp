#include "io/JsonCutter.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define WL_CUTTER_X86 1
#endif

namespace wl::io {

namespace {

constexpr std::size_t kBlockBytes = 64;

// Where one block's structural characters are, outside strings (bit i = byte i).
struct BlockMasks {
    std::uint64_t open = 0;   // '{' '['
    std::uint64_t close = 0;  // '}' ']'
    std::uint64_t comma = 0;
};

// Carried from block to block.
struct ScanState {
    bool inString = false;
    bool escaped = false;  // the next byte is escaped (a backslash ended the last block)
};

// Bit i set where byte i of the 64 equals c (or, with `fold`, where byte i & ~fold equals c:
// '{' and '[' differ in one bit, as do '}' and ']').
#if defined(WL_CUTTER_X86)
struct Block {
    __m128i v[4];
    explicit Block(const char* p) {
        for (int i = 0; i < 4; ++i) {
            v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
        }
    }
    std::uint64_t eq(char c, char fold = 0) const {
        const __m128i needle = _mm_set1_epi8(c);
        const __m128i keep = _mm_set1_epi8(static_cast<char>(~fold));
        std::uint64_t bits = 0;
        for (int i = 0; i < 4; ++i) {
            const auto m = static_cast<std::uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(v[i], keep), needle)) & 0xFFFF);
            bits |= std::uint64_t{m} << (16 * i);
        }
        return bits;
    }
};
#else
struct Block {
    const char* p;
    explicit Block(const char* bytes) : p(bytes) {}
    std::uint64_t eq(char c, char fold = 0) const {
        std::uint64_t bits = 0;
        for (std::size_t i = 0; i < kBlockBytes; ++i) {
            bits |= std::uint64_t{static_cast<char>(p[i] & ~fold) == c} << i;
        }
        return bits;
    }
};
#endif

// Bit i set where an odd number of set bits lie at or below i: the bytes from an opening quote up
// to (not including) its closing quote.
std::uint64_t prefixXor(std::uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Any block: byte by byte. Used where backslashes make the mask arithmetic harder than it is
// worth (rare in traces), and for the last, partial block.
BlockMasks scanBytes(const char* p, std::size_t n, ScanState& st) {
    BlockMasks m;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = p[i];
        if (st.inString) {
            if (st.escaped) {
                st.escaped = false;
            } else if (c == '\\') {
                st.escaped = true;
            } else if (c == '"') {
                st.inString = false;
            }
            continue;
        }
        const std::uint64_t bit = std::uint64_t{1} << i;
        switch (c) {
            case '"':
                st.inString = true;
                break;
            case '{':
            case '[':
                m.open |= bit;
                break;
            case '}':
            case ']':
                m.close |= bit;
                break;
            case ',':
                m.comma |= bit;
                break;
            default:
                break;
        }
    }
    return m;
}

// A whole block of 64 bytes. Commas only when asked (they matter only near a cut).
template <typename BlockT>
BlockMasks scanBlockWith(const char* p, ScanState& st, bool wantCommas) {
    const BlockT block(p);
    if (st.escaped || block.eq('\\') != 0) {
        return scanBytes(p, kBlockBytes, st);
    }
    const std::uint64_t inside = prefixXor(block.eq('"')) ^ (st.inString ? ~std::uint64_t{0} : 0);
    st.inString = (inside >> 63) != 0;
    const std::uint64_t outside = ~inside;
    constexpr char kBracketFold = '{' ^ '[';  // also '}' ^ ']'
    BlockMasks m;
    m.open = block.eq('[', kBracketFold) & outside;
    m.close = block.eq(']', kBracketFold) & outside;
    if (wantCommas) {
        m.comma = block.eq(',') & outside;
    }
    return m;
}

template <typename BlockT>
std::size_t cutWith(std::string_view text, std::size_t from, std::size_t targetBytes) {
    ScanState st;
    std::int64_t depth = 0;  // inside the container, between its members
    const std::size_t target = targetBytes > text.size() - from ? text.size() : from + targetBytes;
    for (std::size_t pos = from; pos < text.size(); pos += kBlockBytes) {
        const std::size_t n = std::min(kBlockBytes, text.size() - pos);
        const bool beforeTarget = pos + n <= target;
        const BlockMasks m = n == kBlockBytes
                                 ? scanBlockWith<BlockT>(text.data() + pos, st, !beforeTarget)
                                 : scanBytes(text.data() + pos, n, st);
        // Before the target only the depth matters, unless the container may end in this block.
        if (beforeTarget && std::popcount(m.close) <= depth) {
            depth += std::popcount(m.open) - std::popcount(m.close);
            continue;
        }
        std::uint64_t all = m.open | m.close | m.comma;
        while (all != 0) {
            const int i = std::countr_zero(all);
            const std::uint64_t bit = std::uint64_t{1} << i;
            all &= all - 1;
            if (m.open & bit) {
                ++depth;
            } else if (m.close & bit) {
                if (depth == 0) {
                    return pos + static_cast<std::size_t>(i);  // the container's own end
                }
                --depth;
            } else if (depth == 0 && pos + static_cast<std::size_t>(i) >= target) {
                return pos + static_cast<std::size_t>(i);
            }
        }
    }
    return std::string_view::npos;
}

#if defined(WL_CUTTER_X86)
// AVX-512BW compares 64 bytes into a 64-bit mask in one instruction. `flatten` compiles the whole
// loop for it (generic code inlined into a function with a wider target takes that target).
struct Block512 {
    __m512i v;
    __attribute__((target("avx512bw"))) explicit Block512(const char* p)
        : v(_mm512_loadu_si512(p)) {}
    __attribute__((target("avx512bw"))) std::uint64_t eq(char c, char fold = 0) const {
        return _mm512_cmpeq_epi8_mask(
            _mm512_and_si512(v, _mm512_set1_epi8(static_cast<char>(~fold))), _mm512_set1_epi8(c));
    }
};

__attribute__((target("avx512bw"), flatten)) std::size_t cut512(std::string_view text,
                                                                std::size_t from,
                                                                std::size_t targetBytes) {
    return cutWith<Block512>(text, from, targetBytes);
}

__attribute__((flatten)) std::size_t cutBaseline(std::string_view text, std::size_t from,
                                                 std::size_t targetBytes) {
    return cutWith<Block>(text, from, targetBytes);
}

using CutFn = std::size_t (*)(std::string_view, std::size_t, std::size_t);

CutFn pickCut() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bw") ? cut512 : cutBaseline;
}
#endif

}  // namespace

std::size_t nextMemberCut(std::string_view text, std::size_t from, std::size_t targetBytes) {
#if defined(WL_CUTTER_X86)
    static const CutFn cut = pickCut();
    return cut(text, from, targetBytes);
#else
    return cutWith<Block>(text, from, targetBytes);
#endif
}

std::size_t detail::nextMemberCutBaseline(std::string_view text, std::size_t from,
                                          std::size_t targetBytes) {
    return cutWith<Block>(text, from, targetBytes);
}

}  // namespace wl::io
