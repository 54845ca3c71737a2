#include "analysis/Intervals.h"

#include <algorithm>

namespace wl::analysis {

IntervalSet::IntervalSet(std::vector<Interval> intervals) {
    std::erase_if(intervals, [](const Interval& i) { return i.endNs <= i.startNs; });
    const auto byStart = [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; };
    // GPU ops come sorted already; checking is much cheaper than sorting again.
    if (!std::is_sorted(intervals.begin(), intervals.end(), byStart)) {
        std::sort(intervals.begin(), intervals.end(), byStart);
    }
    m_intervals.reserve(intervals.size());
    for (const Interval& i : intervals) {
        if (!m_intervals.empty() && i.startNs <= m_intervals.back().endNs) {
            m_intervals.back().endNs = std::max(m_intervals.back().endNs, i.endNs);
        } else {
            m_intervals.push_back(i);
        }
    }
    m_intervals.shrink_to_fit();
    m_prefixNs.reserve(m_intervals.size());
    model::TimeNs sum = 0;
    for (const Interval& i : m_intervals) {
        sum += i.durationNs();
        m_prefixNs.push_back(sum);
    }
}

model::TimeNs IntervalSet::coveredBefore(model::TimeNs t) const {
    // First interval that starts at or after t: everything before it is (partly) covered.
    auto it = std::lower_bound(m_intervals.begin(), m_intervals.end(), t,
                               [](const Interval& i, model::TimeNs v) { return i.startNs < v; });
    if (it == m_intervals.begin()) {
        return 0;
    }
    const auto last = static_cast<std::size_t>(it - m_intervals.begin()) - 1;
    const Interval& i = m_intervals[last];
    const model::TimeNs full = m_prefixNs[last];
    return i.endNs <= t ? full : full - (i.endNs - t);
}

model::TimeNs IntervalSet::coveredNs(model::TimeNs startNs, model::TimeNs endNs) const {
    if (endNs <= startNs) {
        return 0;
    }
    return coveredBefore(endNs) - coveredBefore(startNs);
}

model::TimeNs IntervalSet::intersectionNs(const IntervalSet& other) const {
    model::TimeNs total = 0;
    std::size_t a = 0;
    std::size_t b = 0;
    const auto& x = m_intervals;
    const auto& y = other.m_intervals;
    while (a < x.size() && b < y.size()) {
        const model::TimeNs lo = std::max(x[a].startNs, y[b].startNs);
        const model::TimeNs hi = std::min(x[a].endNs, y[b].endNs);
        if (hi > lo) {
            total += hi - lo;
        }
        if (x[a].endNs < y[b].endNs) {
            ++a;
        } else {
            ++b;
        }
    }
    return total;
}

std::vector<Interval> IntervalSet::holes() const {
    std::vector<Interval> out;
    for (std::size_t i = 1; i < m_intervals.size(); ++i) {
        out.push_back({m_intervals[i - 1].endNs, m_intervals[i].startNs});
    }
    return out;
}

Interval IntervalSet::holeAt(model::TimeNs t) const {
    // The first interval starting after t; the one before it must have ended by t.
    auto next = std::upper_bound(m_intervals.begin(), m_intervals.end(), t,
                                 [](model::TimeNs v, const Interval& i) { return v < i.startNs; });
    if (next == m_intervals.begin() || next == m_intervals.end()) {
        return {};
    }
    const Interval& prev = *(next - 1);
    if (prev.endNs > t) {
        return {};
    }
    return {prev.endNs, next->startNs};
}

IntervalSet IntervalSet::unite(const IntervalSet& other) const {
    std::vector<Interval> all(m_intervals.begin(), m_intervals.end());
    all.insert(all.end(), other.m_intervals.begin(), other.m_intervals.end());
    return IntervalSet(std::move(all));
}

// Sorted, disjoint union of ranges (touching ones merged).
std::vector<model::TimeRange> uniteRanges(std::vector<model::TimeRange> ranges) {
    std::sort(
        ranges.begin(), ranges.end(),
        [](const model::TimeRange& a, const model::TimeRange& b) { return a.startNs < b.startNs; });
    std::vector<model::TimeRange> out;
    for (const model::TimeRange& r : ranges) {
        if (r.empty()) {
            continue;
        }
        if (!out.empty() && r.startNs <= out.back().endNs) {
            out.back().endNs = std::max(out.back().endNs, r.endNs);
        } else {
            out.push_back(r);
        }
    }
    return out;
}

}  // namespace wl::analysis
