// The trace formats Warpline reads, in the order they are asked whether content is theirs.
#include "io/ChromeTraceReader.h"
#include "io/TraceReader.h"
#include "io/nsys/NsysReader.h"

namespace wl::io {

namespace {

const ChromeTraceReader kChromeJson;
const NsysSqliteReader kNsysSqlite;
const NsysReportReader kNsysReport;

// Every reader, most specific first. A new format: its reader here, nothing else.
const TraceReader* const kReaders[] = {&kNsysSqlite, &kNsysReport, &kChromeJson};

// Formats people may open by mistake, by their first bytes: named in the error.
std::string_view knownUnreadFormat(std::string_view head) {
    if (head.starts_with("PK\x03\x04"))
        return "a zip archive";
    if (head.starts_with("\x28\xB5\x2F\xFD"))
        return "zstd-compressed data";
    if (head.starts_with("BZh"))
        return "bzip2-compressed data";
    if (head.starts_with("\xFD"
                         "7zXZ"))
        return "xz-compressed data";
    // Perfetto and Nsight Systems' own files are protobuf: field 1, length-delimited, first.
    if (!head.empty() && head[0] == '\x0a' && head.size() > 1 &&
        static_cast<unsigned char>(head[1]) < 0x80 && head.find('\0') != std::string_view::npos)
        return "a binary (protobuf) trace, such as Perfetto's";
    return {};
}

}  // namespace

model::Result<const TraceReader*> readerFor(std::string_view head) {
    for (const TraceReader* reader : kReaders) {
        if (reader->recognizes(head))
            return reader;
    }
    // The text format first (its compression and first character are what a user can check),
    // then the formats read from files.
    std::string fileFormats;
    for (const TraceReader* reader : kReaders) {
        if (reader->readsFiles())
            fileFormats += ", " + std::string(reader->formatName());
    }
    const std::string formats = std::string(kChromeJson.formatName());
    if (const std::string_view what = knownUnreadFormat(head); !what.empty()) {
        return model::Error{"this is " + std::string(what) + ", not a trace Warpline reads (" +
                                formats + ", plain or gzip-compressed" + fileFormats + ")",
                            {},
                            0};
    }
    // Content that no reader recognises (a text file dropped on the window, a log): say what it
    // is not and what Warpline opens, rather than the JSON parser's complaint about its first
    // byte. An empty file still goes to the JSON reader, which says it is empty.
    std::string_view text = head;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    if (const std::size_t first = text.find_first_not_of(" \t\r\n");
        first != std::string_view::npos) {
        return model::Error{"not a trace Warpline reads: Warpline opens " + formats +
                                " (plain or gzip-compressed, as the PyTorch profiler, Perfetto, "
                                "chrome://tracing and Warpline write it), which starts with '{' "
                                "or '['" +
                                fileFormats,
                            {},
                            static_cast<std::int64_t>(first + (head.size() - text.size()))};
    }
    return &kChromeJson;
}

}  // namespace wl::io
