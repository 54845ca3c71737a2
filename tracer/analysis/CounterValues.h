#pragma once

#include <algorithm>
#include <vector>

#include "model/Track.h"

namespace wl::analysis {

// Each sample of a counter holds until the next. The first sample after `ns` (end() when none):
// the one before it is in force at `ns`.
inline std::vector<model::CounterSample>::const_iterator firstSampleAfter(
    const model::CounterTrack& c, model::TimeNs ns) {
    return std::upper_bound(
        c.samples.begin(), c.samples.end(), ns,
        [](model::TimeNs t, const model::CounterSample& s) { return t < s.timestampNs; });
}

// The counter's value at `ns`; 0 before its first sample.
inline double counterValueAt(const model::CounterTrack& c, model::TimeNs ns) {
    const auto it = firstSampleAfter(c, ns);
    return it == c.samples.begin() ? 0.0 : std::prev(it)->value;
}

}  // namespace wl::analysis
