#pragma once

#include <span>
#include <vector>

#include "model/Time.h"

namespace wl::analysis {

// A half-open time interval [startNs, endNs) in ns since the trace origin.
struct Interval {
    model::TimeNs startNs = 0;
    model::TimeNs endNs = 0;
    model::TimeNs durationNs() const { return endNs - startNs; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

// The union of a set of intervals: sorted, disjoint, non-touching intervals with prefix sums so
// "how much of [a, b) is covered" costs O(log n). Built once, then read-only (safe to share).
class IntervalSet {
public:
    IntervalSet() = default;
    // Takes intervals in any order; empty and negative ones are ignored.
    explicit IntervalSet(std::vector<Interval> intervals);

    std::span<const Interval> intervals() const { return m_intervals; }
    bool empty() const { return m_intervals.empty(); }
    model::TimeNs totalNs() const { return m_prefixNs.empty() ? 0 : m_prefixNs.back(); }
    model::TimeNs firstNs() const { return m_intervals.empty() ? 0 : m_intervals.front().startNs; }
    model::TimeNs lastNs() const { return m_intervals.empty() ? 0 : m_intervals.back().endNs; }

    // Covered time within [startNs, endNs).
    model::TimeNs coveredNs(model::TimeNs startNs, model::TimeNs endNs) const;
    // Time covered by both sets.
    model::TimeNs intersectionNs(const IntervalSet& other) const;
    // The holes between consecutive intervals (within [firstNs, lastNs)).
    std::vector<Interval> holes() const;
    // The hole that contains t (t not covered, an interval before and after it); empty otherwise.
    Interval holeAt(model::TimeNs t) const;
    // The union with another set.
    IntervalSet unite(const IntervalSet& other) const;

private:
    model::TimeNs coveredBefore(model::TimeNs t) const;  // covered time in (-inf, t)

    std::vector<Interval> m_intervals;
    std::vector<model::TimeNs> m_prefixNs;  // m_prefixNs[i] = covered time of intervals [0, i]
};

// Sorted, disjoint union of time ranges (touching ones merged, empty ones dropped).
std::vector<model::TimeRange> uniteRanges(std::vector<model::TimeRange> ranges);

}  // namespace wl::analysis
