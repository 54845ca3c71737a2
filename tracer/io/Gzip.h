#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "io/ReadControl.h"
#include "model/Result.h"

namespace wl::io {

// gzip (RFC 1952) helpers over zlib, for .json.gz traces.

// True when the bytes start with the gzip magic number.
bool isGzip(std::string_view bytes);

// The most gunzip() decompresses by default: more is an error, not an allocation.
inline constexpr std::size_t kMaxGunzipBytes = std::size_t{16} << 30;

// Decompresses every gzip member of `compressed` into `out`, leaving `padding` spare bytes of
// capacity after the data (for the JSON parser). Errors carry the offset in the compressed bytes.
// `control`: looked at before inflating, and every few megabytes on the streaming path (several
// members, or a size the trailer does not give); progress in compressed bytes. A one-member file
// is inflated by one call (about 1 s per GB of output), which the flag cannot interrupt. Once
// cancelled: an Error kReadCancelled and `out` emptied.
model::Status gunzip(std::string_view compressed, std::string& out, std::size_t padding,
                     std::size_t maxBytes = kMaxGunzipBytes, const ReadControl& control = {});

// Streaming compressor: feed chunks, then finish(); each output chunk goes to the sink.
class GzipWriter {
public:
    using Sink = std::function<bool(std::string_view)>;
    explicit GzipWriter(Sink sink, int level = 6);
    ~GzipWriter();
    GzipWriter(const GzipWriter&) = delete;
    GzipWriter& operator=(const GzipWriter&) = delete;

    bool write(std::string_view chunk);
    bool finish();

private:
    bool pump(std::string_view input, int flush);

    Sink m_sink;
    void* m_stream;  // z_stream, kept opaque so zlib stays private to wl_io
    bool m_ok = true;
    std::string m_out;
};

}  // namespace wl::io
