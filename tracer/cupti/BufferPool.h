#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace wl::cupti {

// Activity buffers handed to CUPTI: pre-allocated, 8-byte aligned (CUPTI requires it), recycled.
// acquire() is O(1) (a pop under a short lock) because CUPTI calls it on the application's launch
// path when a buffer fills; when the pool runs dry it allocates one more rather than let CUPTI
// drop records. Buffers are owned by the pool and live until the pool is destroyed; the
// process-wide pool (instance()) is never destroyed, because CUPTI may hand a buffer back during
// process exit. Thread-safe.
class BufferPool {
public:
    explicit BufferPool(std::size_t bufferBytes = 8u << 20);
    ~BufferPool();
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;

    static BufferPool& instance();

    // Grows the pool to `count` free buffers of the current size (allocation happens here, not in
    // the request callback). A different size empties the free list first.
    void reserve(std::size_t count, std::size_t bufferBytes);

    std::uint8_t* acquire();
    void release(std::uint8_t* buffer);

    std::size_t bufferBytes() const;
    std::size_t freeCount() const;
    std::size_t outstanding() const;  // acquired and not yet released
    std::size_t allocatedCount() const;

private:
    std::uint8_t* allocate();

    mutable std::mutex m_mutex;
    std::size_t m_bufferBytes;
    std::vector<std::uint8_t*> m_free;
    std::vector<std::uint8_t*> m_all;  // every buffer ever allocated (for the destructor)
    std::size_t m_outstanding = 0;
};

}  // namespace wl::cupti
