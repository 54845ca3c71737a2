#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "model/Trace.h"

namespace wl::analysis {

// Where the host waited for the GPU: synchronisation records (on a device's sync track) and
// synchronising API calls (explicit syncs, blocking copies) on host threads. Answers "did the host
// block at some point in [a, b)?" in O(log n). Built once; read-only afterwards.
class BlockingCalls {
public:
    explicit BlockingCalls(const model::Trace& trace);

    // A blocking slice that overlaps (startNs, endNs) with positive length, preferring a
    // synchronisation record of this device over an API call; invalid when there is none.
    model::SliceRef overlapping(std::int32_t deviceId, model::TimeNs startNs,
                                model::TimeNs endNs) const;
    std::size_t size() const;

private:
    // Intervals sorted by start, with a running "latest end so far" to stop the search early.
    struct List {
        struct Entry {
            model::TimeNs startNs;
            model::TimeNs endNs;
            model::SliceRef ref;
        };
        std::vector<Entry> entries;
        std::vector<std::uint32_t> maxEndIndex;  // index of the entry with the latest end in [0, i]
        void finish();
        model::SliceRef find(model::TimeNs startNs, model::TimeNs endNs) const;
    };
    std::map<std::int32_t, List> m_syncByDevice;
    List m_apiCalls;
};

}  // namespace wl::analysis
