#include "analysis/BlockingCalls.h"

#include <algorithm>

#include "analysis/ApiNames.h"

namespace wl::analysis {

BlockingCalls::BlockingCalls(const model::Trace& trace) {
    const auto tracks = trace.tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind == model::TrackKind::Sync) {
            List& list = m_syncByDevice[std::max(track.deviceId, 0)];
            for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                const model::Slice& s = track.slices[i];
                // Stream-wait-event makes a stream wait, not the host.
                const model::SyncDetail* d = trace.sync(s);
                if (d != nullptr && d->syncKind == model::SyncKind::StreamWaitEvent) {
                    continue;
                }
                list.entries.push_back({s.startNs, s.endNs(), {t, i}});
            }
        } else if (track.kind == model::TrackKind::HostApi) {
            // Names repeat a lot: classify each distinct name id once.
            std::map<model::StringId, bool> blocking;
            for (std::uint32_t i = 0; i < track.slices.size(); ++i) {
                const model::Slice& s = track.slices[i];
                auto [it, fresh] = blocking.try_emplace(s.nameId, false);
                if (fresh) {
                    it->second = isSynchronizingApi(trace.str(s.nameId));
                }
                if (it->second) {
                    m_apiCalls.entries.push_back({s.startNs, s.endNs(), {t, i}});
                }
            }
        }
    }
    for (auto& [device, list] : m_syncByDevice) {
        list.finish();
    }
    m_apiCalls.finish();
}

void BlockingCalls::List::finish() {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.startNs < b.startNs; });
    maxEndIndex.resize(entries.size());
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
        maxEndIndex[i] = (i == 0 || entries[i].endNs > entries[maxEndIndex[i - 1]].endNs)
                             ? i
                             : maxEndIndex[i - 1];
    }
}

model::SliceRef BlockingCalls::List::find(model::TimeNs startNs, model::TimeNs endNs) const {
    // Entries starting before endNs; among them, the one ending last must end after startNs.
    auto it = std::lower_bound(entries.begin(), entries.end(), endNs,
                               [](const Entry& e, model::TimeNs v) { return e.startNs < v; });
    if (it == entries.begin()) {
        return {};
    }
    const Entry& e = entries[maxEndIndex[static_cast<std::size_t>(it - entries.begin()) - 1]];
    return e.endNs > startNs ? e.ref : model::SliceRef{};
}

model::SliceRef BlockingCalls::overlapping(std::int32_t deviceId, model::TimeNs startNs,
                                           model::TimeNs endNs) const {
    if (auto it = m_syncByDevice.find(deviceId); it != m_syncByDevice.end()) {
        if (model::SliceRef ref = it->second.find(startNs, endNs); ref.valid()) {
            return ref;
        }
    }
    return m_apiCalls.find(startNs, endNs);
}

std::size_t BlockingCalls::size() const {
    std::size_t n = m_apiCalls.entries.size();
    for (const auto& [device, list] : m_syncByDevice) {
        n += list.entries.size();
    }
    return n;
}

}  // namespace wl::analysis
