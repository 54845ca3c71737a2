#include "ui/find/LaneMerge.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace wl::ui {
namespace {

constexpr model::TimeNs kDone = std::numeric_limits<model::TimeNs>::max();
constexpr std::size_t kCancelCheckSlices = std::size_t{1} << 16;
// Up to this many lanes the next slice is found by scanning every lane's next start (a few ns
// for a handful of streams and threads); beyond it, with a heap.
constexpr std::size_t kMaxScannedLanes = 48;

bool cancelled(const std::atomic<bool>* cancel) {
    return cancel && cancel->load(std::memory_order_relaxed);
}

// Lanes are given in (track, depth) order, and a lane of a track with a lower depth holds lower
// indices: taking the first lane with the smallest start keeps ties in (track, index) order.
SliceList mergeByScan(const model::Trace& trace, std::span<const LaneSlices> lanes,
                      std::size_t total, const std::atomic<bool>* cancel) {
    SliceList out;
    out.reserve(total);
    const std::size_t k = lanes.size();
    std::vector<const model::Slice*> slices(k);
    std::vector<std::size_t> pos(k, 0);
    std::vector<model::TimeNs> head(k, kDone);
    for (std::size_t i = 0; i < k; ++i) {
        slices[i] = trace.track(lanes[i].track).slices.data();
        if (!lanes[i].indices.empty())
            head[i] = slices[i][lanes[i].indices[0]].startNs;
    }
    std::size_t untilCheck = kCancelCheckSlices;
    while (true) {
        // The lane to take from (the first with the smallest start) and the best of the others
        // (the first lane with the next smallest start: what ends its run), in one pass.
        std::size_t best = 0;
        std::size_t boundLane = k;
        model::TimeNs bound = kDone;
        for (std::size_t i = 1; i < k; ++i) {
            if (head[i] < head[best]) {
                boundLane = best;
                bound = head[best];
                best = i;
            } else if (head[i] < bound) {
                boundLane = i;
                bound = head[i];
            }
        }
        if (head[best] == kDone)
            break;
        // Take its run: every next slice before the bound (or at it, when the bound's lane
        // comes later in the tie order).
        const LaneSlices& lane = lanes[best];
        const model::Slice* s = slices[best];
        std::size_t p = pos[best];
        const std::size_t end = lane.indices.size();
        do {
            out.push_back({lane.track, lane.indices[p]});
            ++p;
        } while (p < end && (s[lane.indices[p]].startNs < bound ||
                             (s[lane.indices[p]].startNs == bound && best < boundLane)));
        const std::size_t taken = p - pos[best];
        pos[best] = p;
        head[best] = p < end ? s[lane.indices[p]].startNs : kDone;
        if (untilCheck <= taken) {
            untilCheck = kCancelCheckSlices;
            if (cancelled(cancel))
                return {};
        } else {
            untilCheck -= taken;
        }
    }
    return out;
}

SliceList mergeByHeap(const model::Trace& trace, std::span<const LaneSlices> lanes,
                      std::size_t total, const std::atomic<bool>* cancel) {
    SliceList out;
    out.reserve(total);
    struct Cursor {
        model::TimeNs startNs;
        model::TrackIndex track;
        std::uint32_t index;
        std::uint32_t lane;
        std::uint32_t pos;
    };
    auto later = [](const Cursor& a, const Cursor& b) {
        return std::tie(a.startNs, a.track, a.index) > std::tie(b.startNs, b.track, b.index);
    };
    auto cursorAt = [&](std::uint32_t lane, std::uint32_t pos) {
        const LaneSlices& l = lanes[lane];
        const std::uint32_t index = l.indices[pos];
        return Cursor{trace.track(l.track).slices[index].startNs, l.track, index, lane, pos};
    };
    std::vector<Cursor> heap;
    heap.reserve(lanes.size());
    for (std::uint32_t i = 0; i < lanes.size(); ++i) {
        if (!lanes[i].indices.empty())
            heap.push_back(cursorAt(i, 0));
    }
    std::make_heap(heap.begin(), heap.end(), later);
    std::size_t untilCheck = kCancelCheckSlices;
    while (!heap.empty()) {
        if (--untilCheck == 0) {
            untilCheck = kCancelCheckSlices;
            if (cancelled(cancel))
                return {};
        }
        std::pop_heap(heap.begin(), heap.end(), later);
        Cursor& c = heap.back();
        out.push_back({c.track, c.index});
        if (c.pos + 1 < lanes[c.lane].indices.size()) {
            c = cursorAt(c.lane, c.pos + 1);
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }
    return out;
}

}  // namespace

SliceList mergeLanes(const model::Trace& trace, std::span<const LaneSlices> lanes,
                     std::size_t total, const std::atomic<bool>* cancel) {
    if (lanes.empty())
        return {};
    return lanes.size() <= kMaxScannedLanes ? mergeByScan(trace, lanes, total, cancel)
                                            : mergeByHeap(trace, lanes, total, cancel);
}

}  // namespace wl::ui
