#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include <QString>

#include "model/Trace.h"
#include "ui/timeline/RowArrangement.h"

namespace wl::ui {

enum class RowKind : std::uint8_t {
    Process,     // a host process or a GPU: a title band that collapses its rows
    Track,       // a track's lanes (API calls, NVTX, a stream, synchronisation, ...)
    DeviceGaps,  // idle gaps of a whole device (hatched), from the overlays
    Counter,     // a counter track as a filled area
    // A unified-memory track: all its lanes in one band. The driver migrates and faults in many
    // regions at once; how many overlap is no nesting to read, and a band per lane would push
    // the GPU's streams out of view.
    UnifiedMemory,
};

// Rows that show a track's slices (and hold TimelineRow::track).
inline bool showsTrack(RowKind kind) {
    return kind == RowKind::Track || kind == RowKind::UnifiedMemory;
}

// One horizontal band of the timeline. y is in content pixels (0 = top of the first row, before
// vertical scrolling).
struct TimelineRow {
    RowKind kind = RowKind::Track;
    QString title;
    std::uint64_t key = 0;  // stable id for the collapse state
    model::ProcessIndex process = 0;
    model::TrackIndex track = 0;  // Track rows
    std::uint32_t counter = 0;    // Counter rows
    std::int32_t deviceId = -1;   // GPU rows (and DeviceGaps)
    int yPx = 0;
    int heightPx = 0;
    std::uint32_t lanesShown = 0;  // Track rows: lanes drawn (1 when collapsed, or all in one)
    std::uint32_t laneCount = 0;   // Track rows: lanes the track has
    bool collapsible = false;
    bool collapsed = false;
    int indent = 0;  // 0 for process rows, 1 for their children
    // What the user's arrangement calls the row and its group (RowArrangement.h), repeats numbered.
    QString identity;
    QString groupIdentity;
    QString groupTitle;
    int groupRow = -1;    // index of its process row (-1 for a pinned row and a process row)
    bool pinned = false;  // in the band of pinned rows at the top
    // A GPU group that holds no work of its own (model::holdsGpuWork): its title, which says so,
    // is drawn dimmed, so it reads as such even where the title is cut short.
    bool quiet = false;
};

// Builds the rows of a trace top to bottom — per host process: CUDA API rows, other host rows,
// NVTX rows (one per thread and domain), NVTX async rows, its counters; then per GPU: one row per
// stream, synchronisation, idle gaps, counters — and answers geometry questions (which row is at
// y, where a slice's lane is). Value type owned by the view; rebuilt when the trace, the collapse
// state or the gap overlays change. Heights in pixels.
class TimelineLayout {
public:
    static constexpr int kLaneHeightPx = 20;
    static constexpr int kProcessHeightPx = 24;
    static constexpr int kGapRowHeightPx = 16;
    static constexpr int kCounterHeightPx = 44;
    static constexpr int kRowPaddingPx = 3;  // above and below a track's lanes

    static std::uint64_t processKey(model::ProcessIndex p) { return (1ull << 60) | p; }
    static std::uint64_t trackKey(model::TrackIndex t) { return (2ull << 60) | t; }
    static std::uint64_t counterKey(std::uint32_t c) { return (3ull << 60) | c; }

    // devicesWithGaps: devices that get a DeviceGaps row. The arrangement leaves hidden rows and
    // groups out, puts pinned rows first (pinned groups first among groups) and orders groups and
    // the rows of a group as the user put them (the default order otherwise).
    void build(const model::Trace* trace, const std::unordered_set<std::uint64_t>& collapsed,
               const std::unordered_set<std::int32_t>& devicesWithGaps,
               const RowArrangement& arrangement = {});
    // Rows hidden by the arrangement in the last build: identity and title, in layout order.
    const std::vector<std::pair<QString, QString>>& hiddenRows() const { return m_hidden; }

    const std::vector<TimelineRow>& rows() const { return m_rows; }
    int totalHeightPx() const { return m_totalHeightPx; }
    // Index of the row containing content y, or -1.
    int rowAt(int yPx) const;
    // Row index showing a track (-1 when hidden by a collapsed process).
    int rowOfTrack(model::TrackIndex track) const;
    // Top y of lane `depth` of a track row (content px); nullopt when the lane is not shown.
    std::optional<int> laneY(int rowIndex, std::uint32_t depth) const;
    int rowOfDeviceGaps(std::int32_t deviceId) const;

    // Processes in display order: GPUs by device id (and owner), so the GPU rows are in view
    // when a trace opens however many host threads it has; then host processes by pid; last the
    // producer's bookkeeping processes (pids given as names: Kineto's "Spans", "Traces").
    static std::vector<model::ProcessIndex> processOrder(const model::Trace& trace);
    // The bookkeeping processes: shown folded when a trace opens.
    static std::vector<model::ProcessIndex> foldedAtOpen(const model::Trace& trace);

private:
    // A process's rows in their default order, with their identities.
    static std::vector<TimelineRow> childRows(const model::Trace& trace, const TimelineRow& header,
                                              const std::vector<model::TrackIndex>& tracks,
                                              const std::vector<std::uint32_t>& counters,
                                              bool hasGaps,
                                              const std::unordered_set<std::uint64_t>& collapsed);

    std::vector<TimelineRow> m_rows;
    std::vector<int> m_rowOfTrack;  // by track index
    std::vector<std::pair<QString, QString>> m_hidden;
    int m_totalHeightPx = 0;
};

}  // namespace wl::ui
