#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace wl::io {

// What the caller of a long read gives it: a flag that stops it, and where its progress goes.
// A reader polls `cancelled()` as it goes through its input and reports input bytes done; both
// are cheap enough to call every few megabytes.
struct ReadControl {
    // Once set, the read stops at its next check and returns an Error whose message is
    // kReadCancelled, keeping nothing it built.
    const std::atomic<bool>* cancel = nullptr;
    // Input bytes read of the whole (0: the whole is not known), from the reading thread.
    std::function<void(std::uint64_t doneBytes, std::uint64_t totalBytes)> progress;
    // Slices made so far, told just before `progress` by the readers that count them.
    std::function<void(std::uint64_t slices)> slicesMade;

    bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
    // `slices`: 0 when the reader does not count them.
    void report(std::uint64_t doneBytes, std::uint64_t totalBytes, std::uint64_t slices = 0) const {
        if (slicesMade && slices > 0)
            slicesMade(slices);
        if (progress)
            progress(doneBytes, totalBytes);
    }
};

// The message of the Error a cancelled read returns.
inline constexpr const char* kReadCancelled = "cancelled";

}  // namespace wl::io
