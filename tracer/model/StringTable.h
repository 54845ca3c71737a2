#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wl::model {

using StringId = std::uint32_t;

// Interns strings (kernel names, API names, NVTX messages) so slices carry a 4-byte id.
// Id 0 is always the empty string. Owned by a TraceBuilder while building, then by the Trace,
// where it is read-only and safe to share between threads.
class StringTable {
public:
    StringTable();
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) noexcept;
    StringTable& operator=(StringTable&&) noexcept;

    StringId intern(std::string_view text);
    std::string_view get(StringId id) const { return m_views[id]; }
    std::size_t size() const { return m_views.size(); }
    // Heap bytes held (for the memory-per-slice figure).
    std::size_t memoryBytes() const;

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    // Character storage in large blocks so string_views stay valid as the table grows.
    std::deque<std::string> m_blocks;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> m_index;
};

}  // namespace wl::model
