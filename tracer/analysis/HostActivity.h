#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "model/Trace.h"

namespace wl::analysis {

// What each host thread was doing at a given time, for the idle attribution: inside which
// blocking call (an explicit synchronisation, or a call whose copy or memset finished on the GPU
// before the call returned: synchronous copies, pageable cudaMemcpyAsync), and under which
// innermost NVTX range. A thread is identified by its CUDA API track; its NVTX ranges are those of
// the same process and thread id. Per-thread indexes are built on first use (most traces ask about
// one or two threads) and answer in O(log n). Not thread-safe: one per analysis.
class HostActivity {
public:
    explicit HostActivity(const model::Trace& trace);
    ~HostActivity();

    // The blocking call of the API track's thread that is running at t (start <= t < end);
    // invalid when none is.
    model::SliceRef blockingCallAt(model::TrackIndex apiTrack, model::TimeNs t);
    // A blocking call of any thread running at t; invalid when none is.
    model::SliceRef anyBlockingCallAt(model::TimeNs t);

    // One stretch of a thread's time under one innermost NVTX range (invalid ref: no range).
    struct RangeSpan {
        model::TimeNs startNs;
        model::TimeNs endNs;
        model::SliceRef range;
    };
    // The thread's innermost NVTX ranges over [startNs, endNs), in time order; stretches under no
    // range are left out.
    std::vector<RangeSpan> innermostRanges(model::TrackIndex apiTrack, model::TimeNs startNs,
                                           model::TimeNs endNs);

private:
    struct Intervals;  // blocking calls, sorted by start, with a running latest end
    struct Segments;   // innermost NVTX range per stretch of time
    Intervals& blockingOf(model::TrackIndex apiTrack);
    Segments& rangesOf(model::TrackIndex apiTrack);

    const model::Trace& m_trace;
    std::map<model::TrackIndex, std::unique_ptr<Intervals>> m_blocking;
    std::unique_ptr<Intervals> m_anyBlocking;
    std::map<model::TrackIndex, std::unique_ptr<Segments>> m_ranges;
};

}  // namespace wl::analysis
