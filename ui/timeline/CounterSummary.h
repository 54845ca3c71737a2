#pragma once

#include <cstdint>
#include <vector>

#include "model/Trace.h"

namespace wl::ui {

// Min/max pyramids over the samples of each counter track (levels of 32x fewer entries), so the
// min and max of any sample range cost O(levels * 64) and a counter row is drawn with work bounded
// by its width, whatever the number of samples. Built once per trace; read-only afterwards.
class CounterSummary {
public:
    void build(const model::Trace* trace);

    struct Range {
        double minValue;
        double maxValue;
    };
    // Min and max of samples [first, last) of counter `counter` (first < last).
    Range range(std::uint32_t counter, std::size_t first, std::size_t last) const;
    // The value the row is scaled to (100 for "%" counters, else the largest sample, at least
    // 1e-9).
    double scaleMax(std::uint32_t counter) const { return m_tracks[counter].scaleMax; }
    double minValue(std::uint32_t counter) const { return m_tracks[counter].minValue; }

private:
    static constexpr std::size_t kFanout = 32;
    struct Level {
        std::vector<double> mins;
        std::vector<double> maxs;
    };
    struct PerTrack {
        const model::CounterTrack* track = nullptr;
        std::vector<Level> levels;  // levels[0] summarises kFanout samples per entry
        double scaleMax = 1.0;
        double minValue = 0.0;
    };
    std::vector<PerTrack> m_tracks;
};

}  // namespace wl::ui
