#pragma once

#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <string>

namespace wl::workloads {

// Colours of the seeds' NVTX ranges (ARGB).
inline constexpr std::uint32_t kNvtxRed = 0xFFE53935;
inline constexpr std::uint32_t kNvtxYellow = 0xFFFDD835;
inline constexpr std::uint32_t kNvtxGreen = 0xFF43A047;
inline constexpr std::uint32_t kNvtxOrange = 0xFFFB8C00;
inline constexpr std::uint32_t kNvtxBlue = 0xFF1E88E5;
inline constexpr std::uint32_t kNvtxGrey = 0xFF9E9E9E;

// A push/pop NVTX range on the calling thread for the lifetime of the object (the C++ form of the
// seeds' `with nvtx.annotate(name, color=...)`). Costs next to nothing when no tool listens.
class NvtxRange {
public:
    // `push` false makes an object that marks nothing (a range only in some modes).
    explicit NvtxRange(const std::string& name, std::uint32_t argb = kNvtxGrey, bool push = true)
        : m_pushed(push) {
        if (!push)
            return;
        nvtxEventAttributes_t attributes{};
        attributes.version = NVTX_VERSION;
        attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        attributes.colorType = NVTX_COLOR_ARGB;
        attributes.color = argb;
        attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
        attributes.message.ascii = name.c_str();
        nvtxRangePushEx(&attributes);
    }
    ~NvtxRange() {
        if (m_pushed)
            nvtxRangePop();
    }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;

private:
    bool m_pushed;
};

}  // namespace wl::workloads
