#include "ui/timeline/LaneIndex.h"

namespace wl::ui {

void LaneIndex::build(const model::Trace* trace) {
    m_firstLaneOfTrack.clear();
    m_lanes.clear();
    if (!trace) {
        return;
    }
    for (const model::Track& track : trace->tracks()) {
        m_firstLaneOfTrack.push_back(std::uint32_t(m_lanes.size()));
        for (std::uint32_t d = 0; d < track.laneCount(); ++d) {
            const auto lane = track.lane(d);
            std::vector<model::TimeNs> starts;
            starts.reserve(lane.size() / kGroup + 1);
            for (std::size_t i = 0; i < lane.size(); i += kGroup) {
                starts.push_back(lane[i].startNs);
            }
            m_lanes.push_back(std::move(starts));
        }
    }
}

std::span<const model::TimeNs> LaneIndex::coarseStarts(model::TrackIndex track,
                                                       std::uint32_t depth) const {
    if (track >= m_firstLaneOfTrack.size()) {
        return {};
    }
    const std::size_t lane = std::size_t(m_firstLaneOfTrack[track]) + depth;
    const std::size_t end =
        track + 1 < m_firstLaneOfTrack.size() ? m_firstLaneOfTrack[track + 1] : m_lanes.size();
    if (lane >= end) {
        return {};
    }
    return m_lanes[lane];
}

std::size_t LaneIndex::memoryBytes() const {
    std::size_t bytes = m_firstLaneOfTrack.capacity() * sizeof(std::uint32_t);
    for (const auto& lane : m_lanes) {
        bytes += lane.capacity() * sizeof(model::TimeNs) + sizeof(lane);
    }
    return bytes;
}

}  // namespace wl::ui
