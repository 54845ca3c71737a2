#include "ui/timeline/DenseSpan.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace wl::ui {

namespace {

// Enough points to find a cluster of 1% of the events; sorting them stays well under a
// millisecond per 10^5, so opening a trace of millions of events does not wait on this.
constexpr std::size_t kMaxSamples = 200'000;

std::size_t sliceCount(const model::Trace& trace) {
    std::size_t n = 0;
    for (const model::Track& track : trace.tracks()) {
        n += track.slices.size();
    }
    return n;
}

std::size_t sampleCount(const model::Trace& trace) {
    std::size_t n = 0;
    for (const model::CounterTrack& counter : trace.counters()) {
        n += counter.samples.size();
    }
    return n;
}

// Calls f(startNs, endNs) for every slice in a fixed order; for counter samples only in a trace
// without slices (a counter is a signal sampled over the run, not where its activity is).
template <typename F>
void forEachEvent(const model::Trace& trace, F&& f) {
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& s : track.slices) {
            f(s.startNs, s.endNs());
        }
    }
    if (sliceCount(trace) > 0) {
        return;
    }
    for (const model::CounterTrack& counter : trace.counters()) {
        for (const model::CounterSample& sample : counter.samples) {
            f(sample.timestampNs, sample.timestampNs);
        }
    }
}

std::size_t eventCount(const model::Trace& trace) {
    const std::size_t slices = sliceCount(trace);
    return slices > 0 ? slices : sampleCount(trace);
}

}  // namespace

model::TimeRange denseSpan(const model::Trace& trace) {
    const model::TimeRange whole{0, trace.spanNs()};
    const std::size_t events = eventCount(trace);
    if (events < 2) {
        return whole;
    }

    // A spread sample of event starts and ends: every stride-th event.
    const std::size_t stride = (events + kMaxSamples - 1) / kMaxSamples;
    std::vector<model::TimeNs> times;
    times.reserve(2 * (events / stride + 1));
    std::size_t i = 0;
    forEachEvent(trace, [&](model::TimeNs start, model::TimeNs end) {
        if (i++ % stride == 0) {
            times.push_back(start);
            times.push_back(end);
        }
    });
    std::sort(times.begin(), times.end());

    // The core: the middle 98% of the points. Walk outwards from it while the next point lies
    // within the core's own extent of the last one; what remains beyond is stray.
    const std::size_t n = times.size();
    std::size_t lo = n / 100;
    std::size_t hi = n - 1 - n / 100;
    const model::TimeNs reach = std::max<model::TimeNs>(times[hi] - times[lo], 1);
    while (lo > 0 && times[lo] - times[lo - 1] <= reach) {
        --lo;
    }
    while (hi + 1 < n && times[hi + 1] - times[hi] <= reach) {
        ++hi;
    }
    const model::TimeNs cutLo = lo > 0 ? times[lo] : std::numeric_limits<model::TimeNs>::min();
    const model::TimeNs cutHi = hi + 1 < n ? times[hi] : std::numeric_limits<model::TimeNs>::max();
    if (lo == 0 && hi + 1 == n) {
        return whole;
    }

    // The exact extent of every event (not only the sampled ones) inside the cut.
    model::TimeRange dense{std::numeric_limits<model::TimeNs>::max(),
                           std::numeric_limits<model::TimeNs>::min()};
    forEachEvent(trace, [&](model::TimeNs start, model::TimeNs end) {
        if (start >= cutLo && start <= cutHi) {
            dense.startNs = std::min(dense.startNs, start);
        }
        if (end >= cutLo && end <= cutHi) {
            dense.endNs = std::max(dense.endNs, end);
        }
    });
    return dense.empty() ? whole : dense;
}

}  // namespace wl::ui
