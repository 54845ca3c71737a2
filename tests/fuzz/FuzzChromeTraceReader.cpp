// libFuzzer target for the Chrome trace JSON reader (plain and gzip input). Any input must give a
// trace or an Error, never a crash, hang or sanitizer report; a trace we accept must export to
// JSON that we read back. The input is also read a few events at a time (the path large files
// take, ChromeTraceReader::Runs), which must give the same trace or the same error, and must
// leave the text as it found it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/TraceFile.h"

namespace {

std::string outcome(const wl::model::Result<wl::model::TracePtr>& result) {
    if (!result.ok())
        return "error " + result.error().message + " @" + std::to_string(result.error().byteOffset);
    return wl::io::ChromeTraceWriter(*result.value()).toString();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto result = wl::io::parseTrace(bytes, "fuzz-input");
    if (!result.ok() && result.error().message.empty())
        __builtin_trap();
    if (result.ok()) {
        const std::string exported = wl::io::ChromeTraceWriter(*result.value()).toString();
        const auto again = wl::io::ChromeTraceReader().read(exported, "fuzz-export");
        if (!again.ok())
            __builtin_trap();
    }

    // The same bytes (taken as JSON) whole and in runs of a few bytes: one outcome.
    std::string text(bytes);
    text.reserve(text.size() + wl::io::ChromeTraceReader::kPadding);
    const auto whole = wl::io::ChromeTraceReader().read(bytes, "fuzz-input");
    const auto inRuns = wl::io::ChromeTraceReader(wl::io::ChromeTraceReader::Runs{0, 16})
                            .read(text, "fuzz-input", text.capacity());
    if (text != bytes || outcome(whole) != outcome(inRuns))
        __builtin_trap();
    return 0;
}
