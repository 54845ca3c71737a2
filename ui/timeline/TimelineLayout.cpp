#include "ui/timeline/TimelineLayout.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include <QSet>

#include "model/TrackOrder.h"
#include "ui/common/TrackTitles.h"

namespace wl::ui {

namespace {

QString qstr(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace

std::vector<model::ProcessIndex> TimelineLayout::processOrder(const model::Trace& trace) {
    std::vector<model::ProcessIndex> order(trace.processes().size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = model::ProcessIndex(i);
    }
    auto processes = trace.processes();
    auto group = [](const model::Process& p) {
        if (p.deviceId >= 0) {
            return 0;
        }
        return model::isSyntheticId(p.pid) ? 2 : 1;
    };
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
        const model::Process& pa = processes[a];
        const model::Process& pb = processes[b];
        // A job's ranks one after another, each with its GPUs then its host processes, so a
        // rank reads as one block (-1 outside a job: one block, as before).
        return std::make_tuple(pa.rank, group(pa), pa.deviceId, pa.ownerPid, pa.pid) <
               std::make_tuple(pb.rank, group(pb), pb.deviceId, pb.ownerPid, pb.pid);
    });
    return order;
}

std::vector<model::ProcessIndex> TimelineLayout::foldedAtOpen(const model::Trace& trace) {
    std::vector<model::ProcessIndex> folded;
    auto processes = trace.processes();
    for (std::size_t i = 0; i < processes.size(); ++i) {
        if (processes[i].deviceId < 0 && model::isSyntheticId(processes[i].pid)) {
            folded.push_back(model::ProcessIndex(i));
        }
    }
    return folded;
}

namespace {

// "x", then "x#2", "x#3" for rows that would read the same under one parent.
QString numbered(const QString& identity, std::unordered_map<QString, int>& seen) {
    const int n = ++seen[identity];
    return n == 1 ? identity : identity + QStringLiteral("#%1").arg(n);
}

// A row named away from its group (pinned, or in the list of hidden rows): its own title first,
// so eliding a long GPU name keeps it.
QString inGroup(const TimelineRow& row) {
    return row.title + QStringLiteral(" \u00b7 ") + row.groupTitle;
}

}  // namespace

std::vector<TimelineRow> TimelineLayout::childRows(
    const model::Trace& trace, const TimelineRow& header,
    const std::vector<model::TrackIndex>& tracks, const std::vector<std::uint32_t>& counters,
    bool hasGaps, const std::unordered_set<std::uint64_t>& collapsed) {
    std::vector<TimelineRow> out;
    const model::ProcessIndex p = header.process;
    for (model::TrackIndex t : tracks) {
        const model::Track& track = trace.track(t);
        TimelineRow row;
        row.kind = RowKind::Track;
        row.title = trackTitle(trace, track);
        row.key = trackKey(t);
        row.process = p;
        row.track = t;
        row.deviceId = track.deviceId;
        row.laneCount = std::max<std::uint32_t>(track.laneCount(), 1);
        if (track.kind == model::TrackKind::UnifiedMemory) {
            row.kind = RowKind::UnifiedMemory;  // every lane in one band
            row.lanesShown = 1;
        } else {
            row.collapsible = row.laneCount > 1;
            row.collapsed = row.collapsible && collapsed.count(row.key) > 0;
            row.lanesShown = row.collapsed ? 1 : row.laneCount;
        }
        row.heightPx = int(row.lanesShown) * kLaneHeightPx + 2 * kRowPaddingPx;
        row.indent = 1;
        out.push_back(std::move(row));
    }
    if (hasGaps) {
        TimelineRow row;
        row.kind = RowKind::DeviceGaps;
        row.title = QStringLiteral("Idle gaps");
        row.key = (4ull << 60) | p;
        row.process = p;
        row.deviceId = header.deviceId;
        row.heightPx = kGapRowHeightPx;
        row.indent = 1;
        out.push_back(std::move(row));
    }
    for (std::uint32_t c : counters) {
        const model::CounterTrack& counter = trace.counters()[c];
        TimelineRow row;
        row.kind = RowKind::Counter;
        QString title = qstr(trace.str(counter.seriesId));
        if (title.isEmpty()) {
            title = qstr(trace.str(counter.nameId));
        }
        row.title = title;
        row.key = counterKey(c);
        row.process = p;
        row.counter = c;
        row.deviceId = counter.deviceId;
        row.heightPx = kCounterHeightPx;
        row.indent = 1;
        out.push_back(std::move(row));
    }
    // Identities under the group's own (numbered) one.
    std::unordered_map<QString, int> seen;
    const QString prefix = header.identity + QLatin1Char('/');
    for (TimelineRow& row : out) {
        row.identity = numbered(prefix + rowIdentityPart(trace, row), seen);
        row.groupIdentity = header.identity;
        row.groupTitle = header.title;
    }
    return out;
}

void TimelineLayout::build(const model::Trace* trace,
                           const std::unordered_set<std::uint64_t>& collapsed,
                           const std::unordered_set<std::int32_t>& devicesWithGaps,
                           const RowArrangement& arrangement) {
    m_rows.clear();
    m_rowOfTrack.clear();
    m_hidden.clear();
    m_totalHeightPx = 0;
    if (!trace) {
        return;
    }
    m_rowOfTrack.assign(trace->tracks().size(), -1);

    // Tracks and counters grouped by process, in display order.
    std::vector<std::vector<model::TrackIndex>> tracksOf(trace->processes().size());
    for (std::size_t t = 0; t < trace->tracks().size(); ++t) {
        const model::Track& track = trace->tracks()[t];
        if (track.process < tracksOf.size()) {
            tracksOf[track.process].push_back(model::TrackIndex(t));
        }
    }
    std::vector<std::vector<std::uint32_t>> countersOf(trace->processes().size());
    for (std::size_t c = 0; c < trace->counters().size(); ++c) {
        const model::CounterTrack& counter = trace->counters()[c];
        if (counter.process < countersOf.size()) {
            countersOf[counter.process].push_back(std::uint32_t(c));
        }
    }

    const QSet<QString> hidden(arrangement.hidden.begin(), arrangement.hidden.end());
    const QSet<QString> pinned(arrangement.pinned.begin(), arrangement.pinned.end());
    // A folded group's rows are made only when the arrangement may name them (pinned or hidden).
    const bool needAllRows = !hidden.isEmpty() || !pinned.isEmpty();

    struct Group {
        TimelineRow header;
        std::vector<TimelineRow> children;
    };
    std::vector<Group> groups;
    std::unordered_map<QString, int> seenGroups;
    for (model::ProcessIndex p : processOrder(*trace)) {
        const model::Process& process = trace->processes()[p];
        auto& tracks = tracksOf[p];
        // A GPU that holds no work of its own (only allocations) has no idle time of its own:
        // the gaps of its ordinal are another process's (a job's other rank on that GPU).
        const bool noGpuWork = process.deviceId >= 0 && !model::holdsGpuWork(*trace, p);
        const bool hasGaps =
            process.deviceId >= 0 && devicesWithGaps.count(process.deviceId) && !noGpuWork;
        // A group for what it holds: none for a process whose rows hold nothing (only named
        // by a producer's metadata, or a row made and never filled).
        const bool holdsSlices = std::any_of(
            tracks.begin(), tracks.end(), [&](auto t) { return !trace->track(t).slices.empty(); });
        const bool holdsSamples =
            std::any_of(countersOf[p].begin(), countersOf[p].end(),
                        [&](auto c) { return !trace->counters()[c].samples.empty(); });
        if (!holdsSlices && !holdsSamples && !hasGaps) {
            continue;
        }
        // The model's track order (finalize() lists tracks in it; rows it makes later, the graph
        // launches and NVTX projections, come at the end of the list).
        std::stable_sort(tracks.begin(), tracks.end(), [&](auto a, auto b) {
            return model::trackOrderLess(*trace, trace->track(a), trace->track(b));
        });

        Group group;
        TimelineRow& header = group.header;
        header.kind = RowKind::Process;
        header.title = processTitle(*trace, p);
        header.key = processKey(p);
        header.process = p;
        header.deviceId = process.deviceId;
        header.heightPx = kProcessHeightPx;
        header.collapsible = true;
        header.collapsed = collapsed.count(header.key) > 0;
        header.quiet = noGpuWork;
        header.identity = numbered(rowIdentity(*trace, header).row, seenGroups);
        header.groupIdentity = header.identity;
        header.groupTitle = header.title;
        if (!header.collapsed || needAllRows) {
            group.children = childRows(*trace, header, tracks, countersOf[p], hasGaps, collapsed);
        }
        groups.push_back(std::move(group));
    }

    int y = 0;
    auto push = [&](TimelineRow row) {
        row.yPx = y;
        y += row.heightPx;
        if (showsTrack(row.kind)) {
            m_rowOfTrack[row.track] = int(m_rows.size());
        }
        m_rows.push_back(std::move(row));
    };

    // The pinned band: pinned rows in the order they were pinned, named with their group.
    if (!pinned.isEmpty()) {
        std::unordered_map<QString, const TimelineRow*> byIdentity;
        for (const Group& group : groups) {
            for (const TimelineRow& row : group.children) {
                if (pinned.contains(row.identity)) {
                    byIdentity.emplace(row.identity, &row);
                }
            }
        }
        for (const QString& identity : arrangement.pinned) {
            const auto it = byIdentity.find(identity);
            if (it == byIdentity.end() || hidden.contains(identity)) {
                continue;
            }
            TimelineRow row = *it->second;
            row.title = inGroup(row);
            row.pinned = true;
            push(std::move(row));
        }
    }

    // Groups: pinned ones first, in pin order, then in the user's order.
    QStringList groupIds;
    for (const Group& group : groups) {
        groupIds << group.header.identity;
    }
    std::vector<int> groupOrder;
    for (const QString& identity : arrangement.pinned) {
        if (const qsizetype i = groupIds.indexOf(identity); i >= 0) {
            groupOrder.push_back(int(i));
        }
    }
    for (const int i : arrangement.arrange(groupIds)) {
        if (!pinned.contains(groupIds[i])) {
            groupOrder.push_back(i);
        }
    }

    for (const int gi : groupOrder) {
        Group& group = groups[std::size_t(gi)];
        if (hidden.contains(group.header.identity)) {
            m_hidden.emplace_back(group.header.identity, group.header.title);
            continue;
        }
        const int headerRow = int(m_rows.size());
        const bool folded = group.header.collapsed;
        push(group.header);
        QStringList childIds;
        for (const TimelineRow& row : group.children) {
            childIds << row.identity;
        }
        for (const int ci : arrangement.arrange(childIds)) {
            TimelineRow& row = group.children[std::size_t(ci)];
            if (hidden.contains(row.identity)) {
                m_hidden.emplace_back(row.identity, inGroup(row));
            } else if (!folded && !pinned.contains(row.identity)) {
                row.groupRow = headerRow;
                push(std::move(row));
            }
        }
    }
    m_totalHeightPx = y;
}

int TimelineLayout::rowAt(int yPx) const {
    if (m_rows.empty() || yPx < 0 || yPx >= m_totalHeightPx) {
        return -1;
    }
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), yPx,
                               [](int y, const TimelineRow& r) { return y < r.yPx; });
    return int(it - m_rows.begin()) - 1;
}

int TimelineLayout::rowOfTrack(model::TrackIndex track) const {
    return track < m_rowOfTrack.size() ? m_rowOfTrack[track] : -1;
}

std::optional<int> TimelineLayout::laneY(int rowIndex, std::uint32_t depth) const {
    if (rowIndex < 0 || rowIndex >= int(m_rows.size())) {
        return std::nullopt;
    }
    const TimelineRow& row = m_rows[rowIndex];
    if (row.kind == RowKind::UnifiedMemory && depth < row.laneCount) {
        return row.yPx + kRowPaddingPx;  // every lane is the one band
    }
    if (row.kind != RowKind::Track || depth >= row.lanesShown) {
        return std::nullopt;
    }
    return row.yPx + kRowPaddingPx + int(depth) * kLaneHeightPx;
}

int TimelineLayout::rowOfDeviceGaps(std::int32_t deviceId) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].kind == RowKind::DeviceGaps && m_rows[i].deviceId == deviceId) {
            return int(i);
        }
    }
    return -1;
}

}  // namespace wl::ui
