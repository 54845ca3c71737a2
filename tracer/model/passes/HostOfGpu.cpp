#include "model/passes/HostOfGpu.h"

namespace wl::model {

std::optional<ProcessIndex> hostOfGpu(const FinalizeState& s, const Process& gpu,
                                      const std::set<ProcessIndex>& callers) {
    std::optional<ProcessIndex> owner;
    std::optional<ProcessIndex> only;
    std::size_t sameRank = 0;
    for (ProcessIndex p : callers) {
        const Process& host = s.processes[p];
        if (host.rank != gpu.rank)
            continue;
        ++sameRank;
        only = p;
        if (gpu.ownerPid >= 0 && host.pid == gpu.ownerPid)
            owner = p;
    }
    if (owner)
        return owner;
    return sameRank == 1 ? only : std::nullopt;
}

}  // namespace wl::model
