#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/Trace.h"
#include "ui/timeline/Overlays.h"

namespace wl::ui {

// Owns the analysis overlays of one trace and indexes them for drawing: gaps per (device, stream)
// sorted by start, kernel badges by slice, and low-fill kernels per track sorted by slice index
// (so a frame finds the visible ones by binary search). Built on the GUI thread when the overlays
// or the trace change; read-only afterwards, apart from the label cache (locked, so a draw list
// may be built on any thread).
class OverlayIndex {
public:
    void build(const model::Trace* trace, TimelineOverlays overlays);

    // The text a slice is labelled with on the timeline: its name, or a kernel's short name unless
    // full kernel names are asked for (View > Full Kernel Names: a view setting, kept across
    // builds). Each distinct kernel name is shortened once per trace, not per frame.
    QString label(const model::Slice& slice) const;
    void setFullKernelNames(bool full) { m_fullKernelNames = full; }
    bool fullKernelNames() const { return m_fullKernelNames; }

    const TimelineOverlays& overlays() const { return m_overlays; }
    // Indices into overlays().gaps for one row, sorted by start; stream -1 = the whole device.
    const std::vector<std::uint32_t>& gapsFor(std::int32_t deviceId, std::int64_t streamId) const;
    const KernelBadge* badge(model::SliceRef ref) const;
    // Slice indices (within the track) of low-fill kernels, sorted.
    const std::vector<std::uint32_t>& lowFillOf(model::TrackIndex track) const;
    const std::unordered_set<std::int32_t>& devicesWithGaps() const { return m_devicesWithGaps; }
    bool empty() const { return m_overlays.gaps.empty() && m_overlays.kernelBadges->empty(); }

private:
    static std::uint64_t refKey(model::SliceRef r) {
        return (std::uint64_t{r.track} << 32) | r.index;
    }
    struct LabelCache {
        std::mutex mutex;
        std::unordered_map<model::StringId, QString> shortNames;
    };
    const model::Trace* m_trace = nullptr;
    bool m_fullKernelNames = false;
    TimelineOverlays m_overlays;
    std::unique_ptr<LabelCache> m_labels = std::make_unique<LabelCache>();
    std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::uint32_t>> m_gaps;
    std::unordered_map<std::uint64_t, std::uint32_t> m_badges;
    std::unordered_map<model::TrackIndex, std::vector<std::uint32_t>> m_lowFill;
    std::unordered_set<std::int32_t> m_devicesWithGaps;
};

}  // namespace wl::ui
