#include "ui/find/SliceSort.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>

#include "ui/find/HugePageAllocator.h"
#include "ui/find/LaneMerge.h"

namespace wl::ui {
namespace {

constexpr std::uint32_t kCancelCheckRows = 1u << 20;

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

struct KeyedRow {
    std::uint64_t key;
    model::SliceRef ref;
};
using KeyedRows = std::vector<KeyedRow, HugePageAllocator<KeyedRow>>;

// Stable LSD radix sort by key, 11 bits a pass; passes over digits that no key changes are skipped
// (durations and bytes rarely use more than three of the six).
bool radixSort(KeyedRows& rows, const std::atomic<bool>* cancel) {
    constexpr int kBits = 11;
    constexpr std::size_t kBuckets = std::size_t{1} << kBits;
    std::uint64_t anyOne = 0;
    std::uint64_t allOne = ~std::uint64_t{0};
    for (const KeyedRow& r : rows) {
        anyOne |= r.key;
        allOne &= r.key;
    }
    const std::uint64_t varying = anyOne ^ allOne;
    KeyedRows buffer(rows.size());
    for (int shift = 0; shift < 64; shift += kBits) {
        if (((varying >> shift) & (kBuckets - 1)) == 0)
            continue;
        if (cancelled(cancel))
            return false;
        std::array<std::size_t, kBuckets> offsets{};
        for (const KeyedRow& r : rows)
            ++offsets[(r.key >> shift) & (kBuckets - 1)];
        std::size_t sum = 0;
        for (std::size_t& o : offsets)
            sum += std::exchange(o, sum);
        for (const KeyedRow& r : rows)
            buffer[offsets[(r.key >> shift) & (kBuckets - 1)]++] = r;
        rows.swap(buffer);
    }
    return true;
}

// Case-insensitive text order, ties by the exact text, so equal texts get one rank.
std::vector<std::uint32_t> ranksOf(const std::vector<QString>& texts) {
    std::vector<std::uint32_t> order(texts.size());
    std::iota(order.begin(), order.end(), 0u);
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        const int c = QString::compare(texts[a], texts[b], Qt::CaseInsensitive);
        return c != 0 ? c < 0 : texts[a] < texts[b];
    };
    std::sort(order.begin(), order.end(), less);
    std::vector<std::uint32_t> rank(texts.size());
    std::uint32_t r = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && texts[order[i]] != texts[order[i - 1]])
            ++r;
        rank[order[i]] = r;
    }
    return rank;
}

// A name's text depends on the slice's kind (kernels by short name, API calls without CUPTI's
// suffix): three classes of the same name id.
std::uint32_t nameClass(model::SliceKind kind) {
    if (kind == model::SliceKind::Kernel)
        return 1;
    if (kind == model::SliceKind::RuntimeApi || kind == model::SliceKind::DriverApi)
        return 2;
    return 0;
}

// Per (class, name id) used by `rows`: the rank of its shown name.
std::vector<std::uint32_t> nameRanks(const model::Trace& trace, const SliceList& rows) {
    const std::size_t strings = trace.strings().size();
    constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slot(3 * strings, kUnused);
    std::vector<QString> texts;
    for (const model::SliceRef ref : rows) {
        const model::Slice& s = trace.slice(ref);
        std::uint32_t& k = slot[nameClass(s.kind) * strings + s.nameId];
        if (k == kUnused) {
            k = static_cast<std::uint32_t>(texts.size());
            texts.push_back(SliceTableModel::shownName(trace, s));
        }
    }
    const std::vector<std::uint32_t> rank = ranksOf(texts);
    for (std::uint32_t& k : slot) {
        if (k != kUnused)
            k = rank[k];
    }
    return slot;
}

}  // namespace

SliceList SliceSort::collect(const model::Trace& trace, std::optional<model::TimeRange> window,
                             const std::atomic<bool>* cancel) {
    std::vector<std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>>> indices;
    std::vector<LaneSlices> lanes;
    std::size_t total = 0;
    const auto tracks = trace.tracks();
    for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
        const model::Track& track = tracks[t];
        if (track.kind == model::TrackKind::NvtxProjection)
            continue;  // the host's NVTX ranges again
        for (std::uint32_t d = 0; d < track.laneCount(); ++d) {
            std::uint32_t first = track.laneBegin[d];
            std::uint32_t last = track.laneBegin[d + 1];
            if (window) {
                // A lane's slices do not overlap: ends are sorted like starts.
                const auto lane = track.lane(d);
                first += static_cast<std::uint32_t>(
                    std::partition_point(
                        lane.begin(), lane.end(),
                        [&](const model::Slice& s) { return s.endNs() < window->startNs; }) -
                    lane.begin());
                last = track.laneBegin[d] +
                       static_cast<std::uint32_t>(std::partition_point(lane.begin(), lane.end(),
                                                                       [&](const model::Slice& s) {
                                                                           return s.startNs <=
                                                                                  window->endNs;
                                                                       }) -
                                                  lane.begin());
            }
            if (first >= last)
                continue;
            auto& idx = indices.emplace_back(last - first);
            std::iota(idx.begin(), idx.end(), first);
            // Moving the outer vector keeps each inner one's buffer: the span stays valid.
            lanes.push_back({t, idx});
            total += idx.size();
        }
        if (cancelled(cancel))
            return {};
    }
    return mergeLanes(trace, lanes, total, cancel);
}

SliceList SliceSort::sorted(const model::Trace& trace, const SliceList& rows,
                            SliceTableModel::Column column, Qt::SortOrder order,
                            const std::atomic<bool>* cancel) {
    if (cancelled(cancel))
        return {};
    const bool descending = order == Qt::DescendingOrder;
    if (column == SliceTableModel::kStart) {
        SliceList out(rows);
        if (descending)
            std::reverse(out.begin(), out.end());
        return out;
    }
    std::vector<std::uint32_t> trackRank;
    std::vector<std::uint32_t> nameRank;
    if (column == SliceTableModel::kRow) {
        std::vector<QString> titles;
        for (model::TrackIndex t = 0; t < trace.tracks().size(); ++t)
            titles.push_back(SliceTableModel::rowTitle(trace, t));
        trackRank = ranksOf(titles);
    } else if (column == SliceTableModel::kName) {
        nameRank = nameRanks(trace, rows);
    }
    const std::size_t strings = trace.strings().size();
    KeyedRows keyed(rows.size());
    std::uint32_t untilCheck = kCancelCheckRows;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (--untilCheck == 0) {
            untilCheck = kCancelCheckRows;
            if (cancelled(cancel))
                return {};
        }
        const model::SliceRef ref = rows[i];
        const model::Slice& s = trace.slice(ref);
        std::uint64_t key = 0;
        switch (column) {
            case SliceTableModel::kDuration:
                key = static_cast<std::uint64_t>(std::max<model::TimeNs>(s.durationNs, 0));
                break;
            case SliceTableModel::kRow:
                key = trackRank[ref.track];
                break;
            case SliceTableModel::kName:
                key = nameRank[nameClass(s.kind) * strings + s.nameId];
                break;
            case SliceTableModel::kBytes:
                key = SliceTableModel::sliceBytes(trace, s);
                break;
            default:
                break;
        }
        keyed[i] = {descending ? ~key : key, ref};
    }
    if (!radixSort(keyed, cancel))
        return {};
    SliceList out(keyed.size());
    for (std::size_t i = 0; i < keyed.size(); ++i)
        out[i] = keyed[i].ref;
    return out;
}

}  // namespace wl::ui
