#include "ui/timeline/OverlayIndex.h"

#include <algorithm>

#include "analysis/ApiNames.h"
#include "analysis/KernelNames.h"

namespace wl::ui {

namespace {
const std::vector<std::uint32_t> kNone;
}

void OverlayIndex::build(const model::Trace* trace, TimelineOverlays overlays) {
    if (!overlays.kernelBadges) {
        overlays.kernelBadges = std::make_shared<const std::vector<KernelBadge>>();
    }
    // Another window of the same trace brings the same badges: their index stays.
    const bool sameBadges = trace == m_trace && overlays.kernelBadges == m_overlays.kernelBadges;
    if (trace != m_trace) {
        m_labels = std::make_unique<LabelCache>();  // name ids of another trace mean other names
    }
    m_trace = trace;
    m_overlays = std::move(overlays);
    m_gaps.clear();
    m_devicesWithGaps.clear();
    for (std::size_t i = 0; i < m_overlays.gaps.size(); ++i) {
        const GapOverlay& gap = m_overlays.gaps[i];
        m_gaps[{gap.deviceId, gap.streamId < 0 ? -1 : gap.streamId}].push_back(std::uint32_t(i));
        if (gap.streamId < 0) {
            m_devicesWithGaps.insert(gap.deviceId);
        }
    }
    for (auto& [key, list] : m_gaps) {
        std::sort(list.begin(), list.end(), [&](auto a, auto b) {
            return m_overlays.gaps[a].startNs < m_overlays.gaps[b].startNs;
        });
    }
    if (sameBadges) {
        return;
    }
    m_badges.clear();
    m_lowFill.clear();
    const std::vector<KernelBadge>& badges = *m_overlays.kernelBadges;
    for (std::size_t i = 0; i < badges.size(); ++i) {
        const KernelBadge& badge = badges[i];
        // Badges that do not address a slice of this trace are ignored rather than trusted.
        if (!trace || !badge.slice.valid() || badge.slice.track >= trace->tracks().size() ||
            badge.slice.index >= trace->track(badge.slice.track).slices.size()) {
            continue;
        }
        m_badges[refKey(badge.slice)] = std::uint32_t(i);
        if (badge.lowFill) {
            m_lowFill[badge.slice.track].push_back(badge.slice.index);
        }
    }
    for (auto& [track, list] : m_lowFill) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
}

QString OverlayIndex::label(const model::Slice& slice) const {
    if (!m_trace) {
        return {};
    }
    const std::string_view name = analysis::shownName(*m_trace, slice);
    if (slice.kind != model::SliceKind::Kernel || m_fullKernelNames) {
        return QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    const std::lock_guard lock(m_labels->mutex);
    auto [it, fresh] = m_labels->shortNames.try_emplace(slice.nameId);
    if (fresh) {
        it->second = QString::fromStdString(analysis::shortKernelName(name));
    }
    return it->second;
}

const std::vector<std::uint32_t>& OverlayIndex::gapsFor(std::int32_t deviceId,
                                                        std::int64_t streamId) const {
    auto it = m_gaps.find({deviceId, streamId});
    return it == m_gaps.end() ? kNone : it->second;
}

const KernelBadge* OverlayIndex::badge(model::SliceRef ref) const {
    auto it = m_badges.find(refKey(ref));
    return it == m_badges.end() ? nullptr : &(*m_overlays.kernelBadges)[it->second];
}

const std::vector<std::uint32_t>& OverlayIndex::lowFillOf(model::TrackIndex track) const {
    auto it = m_lowFill.find(track);
    return it == m_lowFill.end() ? kNone : it->second;
}

}  // namespace wl::ui
