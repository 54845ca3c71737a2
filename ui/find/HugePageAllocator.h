#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace wl::ui {

// An allocator for the large scratch arrays of a search or a sort (tens to hundreds of MB, made
// and dropped per request). Such arrays come fresh from the kernel each time, and touching them
// page by page costs more than the sort itself (measured: two thirds of a 10M-row sort went to
// page faults on the development VM). Blocks of 4 MiB and more are aligned to 2 MiB and marked
// for transparent huge pages, which the kernel honours in its default "madvise" mode: one fault
// per 2 MiB instead of per 4 KiB. Smaller blocks come from operator new as usual. Stateless.
template <class T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
    static constexpr std::size_t kMinBytes = std::size_t{4} << 20;

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kMinBytes)
            return static_cast<T*>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
        void* p = std::aligned_alloc(kHugePageBytes, rounded);
        if (!p)
            throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without THP it changes nothing
#endif
        return static_cast<T*>(p);
    }

    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kMinBytes)
            ::operator delete(p);
        else
            std::free(p);
    }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace wl::ui
