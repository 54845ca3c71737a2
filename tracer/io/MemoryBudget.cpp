#include "io/MemoryBudget.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace wl::io {

std::optional<std::uint64_t> availableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::optional<std::uint64_t> available;
    std::uint64_t swapFree = 0;
    std::string line;
    while (std::getline(meminfo, line)) {
        std::istringstream fields(line);
        std::string key;
        std::uint64_t kib = 0;
        fields >> key >> kib;
        if (key == "MemAvailable:")
            available = kib * 1024;
        else if (key == "SwapFree:")
            swapFree = kib * 1024;
    }
    if (!available)
        return std::nullopt;
    return *available + swapFree;
}

std::optional<model::Error> memoryShortfall(std::uint64_t jsonBytes, std::uint64_t heldBytes,
                                            const std::string& file,
                                            std::optional<std::uint64_t> available) {
    const auto needed =
        static_cast<std::uint64_t>(static_cast<double>(jsonBytes) * kPeakBytesPerJsonByte) +
        heldBytes;
    if (!available || needed <= *available)
        return std::nullopt;
    char text[256];
    std::snprintf(text, sizeof text,
                  "not enough memory to open this trace: it needs about %.1f GB and %.1f GB "
                  "are available (close other programs, or open it on a machine with more "
                  "memory)",
                  static_cast<double>(needed) / 1e9, static_cast<double>(*available) / 1e9);
    return model::Error{text, file, -1};
}

}  // namespace wl::io
