// libFuzzer target for the Chrome trace JSON reader (plain and gzip input). Any input must give a
// trace or an Error, never a crash, hang or sanitizer report; a trace we accept must export to
// JSON that we read back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/TraceFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const auto result = wl::io::parseTrace(bytes, "fuzz-input");
    if (!result.ok()) {
        if (result.error().message.empty())
            __builtin_trap();
        return 0;
    }
    const std::string exported = wl::io::ChromeTraceWriter(*result.value()).toString();
    const auto again = wl::io::ChromeTraceReader().read(exported, "fuzz-export");
    if (!again.ok())
        __builtin_trap();
    return 0;
}
