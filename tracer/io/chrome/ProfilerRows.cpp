#include "io/chrome/ProfilerRows.h"

#include <string>

namespace wl::io::chrome {

ProfilerRows::Row ProfilerRows::rowOf(const RawEvent& e, const std::string* pidName,
                                      bool overhead) {
    if (pidName == nullptr)
        return e.pid == -1 && overhead ? Row::Overhead : Row::None;
    const bool instant = e.ph == 'i' || e.ph == 'I';
    if (*pidName == "Spans" || *pidName == "Traces") {
        if (instant)
            return Row::Markers;
        // Its spans have the category "Trace"; another producer's process named so keeps its own.
        return e.cat == "Trace" ? Row::Spans : Row::None;
    }
    // "Record Window End": a global instant on a pid and tid written as "".
    if (pidName->empty() && instant)
        return Row::Markers;
    return Row::None;
}

TrackIndex ProfilerRows::track(Row row) {
    const auto index = static_cast<std::size_t>(row);
    if (m_tracks[index] != kNone)
        return m_tracks[index];
    static constexpr std::array<std::string_view, 3> kNames = {
        "Profiling spans",  // one per profiling cycle: the time the profiler recorded
        "Markers",          // where a cycle began and where its recording window ended
        "CUPTI overhead",   // CUPTI's buffer requests and flushes, on no thread of the program
    };
    const ProcessIndex process = m_builder.hostProcess(kPid, kProcessName);
    // Threads known by no number (synthetic ids), so no row shows a thread id it does not have.
    const TrackIndex track =
        m_builder.hostTrack(process, kPid + 1 + static_cast<std::int64_t>(index));
    m_builder.setTrackName(track, kNames[index]);
    m_tracks[index] = track;
    return track;
}

}  // namespace wl::io::chrome
