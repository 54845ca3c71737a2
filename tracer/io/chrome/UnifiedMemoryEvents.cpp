// Unified-memory events (category gpu_unified_memory): their args into the model's detail.
#include "io/chrome/Importer.h"

namespace wl::io::chrome {

model::UnifiedMemoryDetail unifiedMemoryDetailOf(const EventArgs& a) {
    model::UnifiedMemoryDetail d;
    d.kind = model::unifiedMemoryKindFromString(a.umKind);
    d.address = a.address;
    d.bytes = a.bytes;
    d.faultCount = a.faultCount;
    d.pc = a.faultPc;
    // Written only when known; -1 is the host.
    d.srcDevice =
        a.has & kArgSrcDevice ? static_cast<std::int32_t>(a.srcDevice) : model::kUnifiedMemoryNone;
    d.dstDevice =
        a.has & kArgDstDevice ? static_cast<std::int32_t>(a.dstDevice) : model::kUnifiedMemoryNone;
    d.cause = model::unifiedMemoryCauseFromString(a.umCause);
    d.access = model::unifiedMemoryAccessFromString(a.umAccess);
    return d;
}

}  // namespace wl::io::chrome
