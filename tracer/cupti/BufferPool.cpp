#include "cupti/BufferPool.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace wl::cupti {
namespace {
constexpr std::size_t kAlignment = 8;

std::size_t alignedSize(std::size_t bytes) {
    return (std::max<std::size_t>(bytes, 4096) + kAlignment - 1) / kAlignment * kAlignment;
}
}  // namespace

BufferPool::BufferPool(std::size_t bufferBytes) : m_bufferBytes(alignedSize(bufferBytes)) {}

BufferPool::~BufferPool() {
    for (std::uint8_t* buffer : m_all) {
        std::free(buffer);
    }
}

BufferPool& BufferPool::instance() {
    static BufferPool* pool =
        new BufferPool();  // intentionally never destroyed (see class comment)
    return *pool;
}

std::uint8_t* BufferPool::allocate() {
    void* memory = std::aligned_alloc(kAlignment, m_bufferBytes);
    if (memory == nullptr) {
        return nullptr;
    }
    auto* buffer = static_cast<std::uint8_t*>(memory);
    m_all.push_back(buffer);
    return buffer;
}

void BufferPool::reserve(std::size_t count, std::size_t bufferBytes) {
    std::lock_guard lock(m_mutex);
    const std::size_t size = alignedSize(bufferBytes);
    // The size only changes while no buffer is out with CUPTI, so every free buffer has one size.
    if (size != m_bufferBytes && m_outstanding == 0) {
        for (std::uint8_t* buffer : m_free) {
            m_all.erase(std::find(m_all.begin(), m_all.end(), buffer));
            std::free(buffer);
        }
        m_free.clear();
        m_bufferBytes = size;
    }
    m_free.reserve(count);
    while (m_free.size() < count) {
        std::uint8_t* buffer = allocate();
        if (buffer == nullptr) {
            break;
        }
        m_free.push_back(buffer);
    }
}

std::uint8_t* BufferPool::acquire() {
    std::lock_guard lock(m_mutex);
    std::uint8_t* buffer = nullptr;
    if (!m_free.empty()) {
        buffer = m_free.back();
        m_free.pop_back();
    } else {
        buffer = allocate();
    }
    if (buffer != nullptr) {
        ++m_outstanding;
    }
    return buffer;
}

void BufferPool::release(std::uint8_t* buffer) {
    if (buffer == nullptr) {
        return;
    }
    std::lock_guard lock(m_mutex);
    if (m_outstanding > 0) {
        --m_outstanding;
    }
    m_free.push_back(buffer);
}

std::size_t BufferPool::bufferBytes() const {
    std::lock_guard lock(m_mutex);
    return m_bufferBytes;
}

std::size_t BufferPool::freeCount() const {
    std::lock_guard lock(m_mutex);
    return m_free.size();
}

std::size_t BufferPool::outstanding() const {
    std::lock_guard lock(m_mutex);
    return m_outstanding;
}

std::size_t BufferPool::allocatedCount() const {
    std::lock_guard lock(m_mutex);
    return m_all.size();
}

}  // namespace wl::cupti
