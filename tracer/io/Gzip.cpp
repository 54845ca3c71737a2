#include "io/Gzip.h"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <climits>

namespace wl::io {

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

namespace {

// The uncompressed size modulo 2^32 that ends a gzip member: for the usual one-member file below
// 4 GB, the exact size.
std::size_t lastMemberSize(std::string_view compressed) {
    if (compressed.size() < 18)
        return 0;
    const auto* tail =
        reinterpret_cast<const unsigned char*>(compressed.data() + compressed.size() - 4);
    return std::size_t{tail[0]} | std::size_t{tail[1]} << 8 | std::size_t{tail[2]} << 16 |
           std::size_t{tail[3]} << 24;
}

// One member, whole: libdeflate, about four times zlib's speed. False (and `out` empty) for
// anything else, which zlib's streaming path then handles and, if bad, explains.
bool inflateOneMember(std::string_view compressed, std::string& out, std::size_t padding,
                      std::size_t maxBytes) {
    // Deflate expands at most 1032-fold: a size beyond that is not this member's (corrupt or
    // multi-member data, left to zlib) and must not be allocated.
    constexpr std::size_t kMaxDeflateRatio = 1032;
    const std::size_t size = lastMemberSize(compressed);
    if (size < compressed.size() / 2 || size > maxBytes ||
        size / kMaxDeflateRatio > compressed.size())
        return false;
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    if (!d)
        return false;
    out.reserve(size + padding);
    out.resize(size);
    std::size_t inBytes = 0;
    std::size_t outBytes = 0;
    const libdeflate_result r = libdeflate_gzip_decompress_ex(
        d, compressed.data(), compressed.size(), out.data(), size, &inBytes, &outBytes);
    libdeflate_free_decompressor(d);
    if (r != LIBDEFLATE_SUCCESS || outBytes != size || inBytes != compressed.size()) {
        out.clear();
        return false;
    }
    return true;
}

}  // namespace

model::Status gunzip(std::string_view compressed, std::string& out, std::size_t padding,
                     std::size_t maxBytes, const ReadControl& control) {
    const auto cancelled = [&] {
        out.clear();
        out.shrink_to_fit();
        return model::Status(model::Error{kReadCancelled, {}, -1});
    };
    if (control.cancelled())
        return cancelled();
    if (inflateOneMember(compressed, out, padding, maxBytes)) {
        if (control.cancelled())
            return cancelled();
        control.report(compressed.size(), compressed.size());
        return {};
    }
    z_stream zs{};
    // 16 + MAX_WBITS: gzip header and trailer, checked (CRC and length).
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        return model::Error{"cannot initialise zlib", {}, -1};
    }
    out.clear();
    out.reserve(std::min<std::size_t>(compressed.size() * 4 + padding, maxBytes + padding));
    std::size_t consumed = 0;
    std::size_t produced = 0;
    constexpr std::size_t kCheckBytes = std::size_t{8} << 20;  // of output, between checks
    std::size_t checkAt = kCheckBytes;
    auto failure = [&](const std::string& what) {
        const auto at = static_cast<std::int64_t>(consumed + zs.total_in);
        inflateEnd(&zs);
        out.clear();
        return model::Status(model::Error{"not a valid gzip stream: " + what, {}, at});
    };
    while (true) {
        const std::size_t inChunk = std::min<std::size_t>(compressed.size() - consumed, UINT_MAX);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data() + consumed));
        zs.avail_in = static_cast<uInt>(inChunk);
        zs.total_in = 0;
        int rc = Z_OK;
        while (rc != Z_STREAM_END) {
            if (out.size() < produced + (1 << 16)) {
                if (produced >= maxBytes)
                    return failure("decompressed data too large");
                out.resize(std::max(out.size() * 2, produced + (std::size_t{1} << 20)));
            }
            // At most a check's worth per call: the flag is looked at between calls.
            const std::size_t room = std::min<std::size_t>(out.size() - produced, kCheckBytes);
            zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
            zs.avail_out = static_cast<uInt>(room);
            rc = inflate(&zs, Z_NO_FLUSH);
            produced += room - zs.avail_out;
            if (produced >= checkAt) {
                checkAt = produced + kCheckBytes;
                if (control.cancelled()) {
                    inflateEnd(&zs);
                    return cancelled();
                }
                control.report(consumed + zs.total_in, compressed.size());
            }
            if (rc == Z_STREAM_END)
                break;
            if (rc == Z_BUF_ERROR && zs.avail_in == 0)
                return failure("the data is truncated");
            if (rc != Z_OK && rc != Z_BUF_ERROR) {
                return failure(zs.msg ? zs.msg : "corrupt data");
            }
        }
        consumed += zs.total_in;
        // Concatenated members are one stream (gzip -c a b > c); trailing zero padding is allowed.
        std::string_view rest = compressed.substr(consumed);
        while (!rest.empty() && rest.front() == '\0') {
            rest.remove_prefix(1);
            ++consumed;
        }
        if (rest.empty())
            break;
        if (!isGzip(rest))
            return failure("unexpected bytes after the compressed data");
        if (inflateReset(&zs) != Z_OK)
            return failure("cannot reset zlib");
    }
    inflateEnd(&zs);
    out.resize(produced);
    out.reserve(produced + padding);
    return {};
}

GzipWriter::GzipWriter(Sink sink, int level) : m_sink(std::move(sink)), m_stream(new z_stream{}) {
    auto* zs = static_cast<z_stream*>(m_stream);
    m_ok = deflateInit2(zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    m_out.resize(1 << 18);
}

GzipWriter::~GzipWriter() {
    auto* zs = static_cast<z_stream*>(m_stream);
    deflateEnd(zs);
    delete zs;
}

bool GzipWriter::pump(std::string_view input, int flush) {
    auto* zs = static_cast<z_stream*>(m_stream);
    zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    zs->avail_in = static_cast<uInt>(input.size());
    while (m_ok) {
        zs->next_out = reinterpret_cast<Bytef*>(m_out.data());
        zs->avail_out = static_cast<uInt>(m_out.size());
        const int rc = deflate(zs, flush);
        if (rc == Z_STREAM_ERROR) {
            m_ok = false;
            break;
        }
        const std::size_t have = m_out.size() - zs->avail_out;
        if (have > 0 && !m_sink(std::string_view(m_out.data(), have)))
            m_ok = false;
        if (flush == Z_FINISH ? rc == Z_STREAM_END : (zs->avail_in == 0 && zs->avail_out != 0))
            break;
    }
    return m_ok;
}

bool GzipWriter::write(std::string_view chunk) {
    while (m_ok && !chunk.empty()) {
        const std::size_t n = std::min<std::size_t>(chunk.size(), UINT_MAX);
        pump(chunk.substr(0, n), Z_NO_FLUSH);
        chunk.remove_prefix(n);
    }
    return m_ok;
}

bool GzipWriter::finish() {
    return pump({}, Z_FINISH);
}

}  // namespace wl::io
