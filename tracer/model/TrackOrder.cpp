#include "model/TrackOrder.h"

#include <tuple>

namespace wl::model {

int trackKindRank(TrackKind kind) {
    switch (kind) {
        case TrackKind::HostApi:
            return 0;
        case TrackKind::Host:
            return 1;
        case TrackKind::Nvtx:
            return 2;
        case TrackKind::NvtxAsync:
            return 3;
        case TrackKind::GpuStream:
        case TrackKind::GraphLaunches:  // beside its stream (same sort index and stream id)
            return 4;
        case TrackKind::Sync:
            return 5;
        case TrackKind::Memory:
            return 6;
        case TrackKind::NvtxProjection:
            return 7;
        case TrackKind::UnifiedMemory:  // after the GPU's own rows, or a host's
            return 8;
    }
    return 9;
}

namespace {

// A graph-launch row after its stream's row, which has the same key otherwise.
int besideStream(TrackKind kind) {
    return kind == TrackKind::GraphLaunches ? 1 : 0;
}

bool lessBy(const Trace& trace, const Track& a, const Track& b, bool bySortIndex) {
    const auto key = [&](const Track& t) {
        return std::tuple(trackKindRank(t.kind), bySortIndex ? t.sortIndex : 0, t.streamId,
                          t.threadId, trace.str(t.domainId), besideStream(t.kind),
                          t.unifiedMemoryKind);
    };
    return key(a) < key(b);
}

}  // namespace

bool trackOrderLess(const Trace& trace, const Track& a, const Track& b) {
    return lessBy(trace, a, b, true);
}

bool trackKeyLess(const Trace& trace, const Track& a, const Track& b) {
    return lessBy(trace, a, b, false);
}

}  // namespace wl::model
