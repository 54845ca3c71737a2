// TraceCounts: what was recorded, by kind. Rows and counters made from the rest (derived) are left
// out.
#include "model/passes/Passes.h"

namespace wl::model {

void countEvents(FinalizeState& s) {
    TraceCounts& n = s.counts;
    for (const auto& c : s.counters)
        n.counterSamples += c.derived ? 0 : c.samples.size();
    for (const auto& track : s.tracks) {
        if (isDerived(track.kind))
            continue;
        n.slices += track.slices.size();
        for (const auto& slice : track.slices) {
            switch (slice.kind) {
                case SliceKind::Kernel:
                    ++n.kernel;
                    break;
                case SliceKind::Memcpy:
                    ++n.memcpy;
                    break;
                case SliceKind::Memset:
                    ++n.memset;
                    break;
                case SliceKind::Memory:
                    ++n.memory;
                    break;
                case SliceKind::Sync:
                    ++n.sync;
                    break;
                case SliceKind::RuntimeApi:
                case SliceKind::DriverApi:
                    ++n.api;
                    break;
                case SliceKind::Nvtx:
                    ++n.nvtx;
                    break;
                case SliceKind::UnifiedMemory:
                    ++n.unifiedMemory;
                    break;
                case SliceKind::CpuOp:
                    ++n.cpuOp;
                    break;
                default:
                    ++n.other;
                    break;
            }
        }
    }
    n.flows = s.flows.size();
    n.dependencies = s.dependencies.size();
}

}  // namespace wl::model
