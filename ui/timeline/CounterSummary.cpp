#include "ui/timeline/CounterSummary.h"

#include <algorithm>
#include <limits>

namespace wl::ui {

void CounterSummary::build(const model::Trace* trace) {
    m_tracks.clear();
    if (!trace) {
        return;
    }
    for (const model::CounterTrack& counter : trace->counters()) {
        PerTrack per;
        per.track = &counter;
        const auto& samples = counter.samples;
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        // Level 0 from the samples, then each level from the one below.
        Level level;
        for (std::size_t i = 0; i < samples.size(); i += kFanout) {
            double mn = samples[i].value;
            double mx = mn;
            for (std::size_t j = i; j < std::min(samples.size(), i + kFanout); ++j) {
                mn = std::min(mn, samples[j].value);
                mx = std::max(mx, samples[j].value);
            }
            level.mins.push_back(mn);
            level.maxs.push_back(mx);
            lo = std::min(lo, mn);
            hi = std::max(hi, mx);
        }
        while (level.mins.size() > 1) {
            Level up;
            for (std::size_t i = 0; i < level.mins.size(); i += kFanout) {
                const std::size_t end = std::min(level.mins.size(), i + kFanout);
                up.mins.push_back(
                    *std::min_element(level.mins.begin() + i, level.mins.begin() + end));
                up.maxs.push_back(
                    *std::max_element(level.maxs.begin() + i, level.maxs.begin() + end));
            }
            per.levels.push_back(std::move(level));
            level = std::move(up);
        }
        per.levels.push_back(std::move(level));
        const std::string_view unit = trace->str(counter.unitId);
        per.minValue = samples.empty() ? 0.0 : std::min(lo, 0.0);
        per.scaleMax = unit == "%" ? std::max(100.0, samples.empty() ? 0.0 : hi)
                                   : std::max(samples.empty() ? 1.0 : hi, 1e-9);
        m_tracks.push_back(std::move(per));
    }
}

CounterSummary::Range CounterSummary::range(std::uint32_t counter, std::size_t first,
                                            std::size_t last) const {
    const PerTrack& per = m_tracks[counter];
    const auto& samples = per.track->samples;
    Range r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    auto takeSample = [&](std::size_t i) {
        r.minValue = std::min(r.minValue, samples[i].value);
        r.maxValue = std::max(r.maxValue, samples[i].value);
    };
    // Unaligned ends from the samples, the aligned middle from ever coarser levels.
    while (first < last && first % kFanout != 0) {
        takeSample(first++);
    }
    while (first < last && last % kFanout != 0) {
        takeSample(--last);
    }
    std::size_t a = first / kFanout;
    std::size_t b = last / kFanout;
    for (std::size_t li = 0; a < b; ++li) {
        const Level& level = per.levels[li];
        auto take = [&](std::size_t i) {
            r.minValue = std::min(r.minValue, level.mins[i]);
            r.maxValue = std::max(r.maxValue, level.maxs[i]);
        };
        if (li + 1 == per.levels.size()) {
            for (std::size_t i = a; i < b; ++i) {
                take(i);
            }
            break;
        }
        while (a < b && a % kFanout != 0) {
            take(a++);
        }
        while (a < b && b % kFanout != 0) {
            take(--b);
        }
        a /= kFanout;
        b /= kFanout;
    }
    return r;
}

}  // namespace wl::ui
