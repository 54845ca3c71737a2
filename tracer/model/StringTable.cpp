#include "model/StringTable.h"

#include <algorithm>

namespace wl::model {

namespace {
// Characters are appended to blocks reserved up front and never grown past their capacity, so the
// string_views handed out stay valid for the table's lifetime.
constexpr std::size_t kBlockBytes = 64 * 1024;
}  // namespace

StringTable::StringTable() {
    m_views.emplace_back();  // id 0: ""
    m_index.emplace(std::string_view{}, 0);
}

StringTable::StringTable(StringTable&&) noexcept = default;
StringTable& StringTable::operator=(StringTable&&) noexcept = default;

StringId StringTable::intern(std::string_view text) {
    if (auto it = m_index.find(text); it != m_index.end()) {
        return it->second;
    }
    if (m_blocks.empty() || m_blocks.back().capacity() - m_blocks.back().size() < text.size()) {
        m_blocks.emplace_back();
        m_blocks.back().reserve(std::max(kBlockBytes, text.size()));
    }
    std::string& block = m_blocks.back();
    const std::size_t offset = block.size();
    block.append(text);
    const std::string_view stored(block.data() + offset, text.size());
    const auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return id;
}

std::size_t StringTable::memoryBytes() const {
    std::size_t bytes = m_views.capacity() * sizeof(std::string_view);
    for (const auto& block : m_blocks) {
        bytes += block.capacity();
    }
    // Node-based hash map: a node (key + value + next pointer) per entry plus the bucket array.
    bytes += m_index.size() * (sizeof(std::string_view) + sizeof(StringId) + 2 * sizeof(void*));
    bytes += m_index.bucket_count() * sizeof(void*);
    return bytes;
}

}  // namespace wl::model
