#include "ui/timeline/HitTester.h"

#include <algorithm>
#include <cmath>

namespace wl::ui {

namespace {

// The slice of a lane nearest to t within tol (ns), or -1.
std::int64_t nearestInLane(std::span<const model::Slice> lane, double t, double tol) {
    auto it = std::partition_point(lane.begin(), lane.end(),
                                   [t](const model::Slice& s) { return double(s.startNs) <= t; });
    std::int64_t best = -1;
    double bestDist = tol;
    auto consider = [&](std::ptrdiff_t i) {
        if (i < 0 || i >= std::ptrdiff_t(lane.size())) {
            return;
        }
        const model::Slice& s = lane[std::size_t(i)];
        const double dist = t < double(s.startNs)   ? double(s.startNs) - t
                            : t > double(s.endNs()) ? t - double(s.endNs())
                                                    : 0.0;
        if (dist <= bestDist) {
            bestDist = dist;
            best = i;
        }
    };
    const std::ptrdiff_t at = it - lane.begin();
    consider(at - 1);  // the one starting at or before t: contains t when any does
    if (best < 0 || bestDist > 0) {
        consider(at);
    }
    return best;
}

}  // namespace

HitResult hitTest(const model::Trace& trace, const TimelineLayout& layout,
                  const OverlayIndex* overlays, const TimeMapper& mapper, double xPx, int contentY,
                  double tolerancePx) {
    HitResult hit;
    hit.timeNs = mapper.nsForX(xPx);
    hit.row = layout.rowAt(contentY);
    if (hit.row < 0 || xPx < 0 || xPx >= mapper.widthPx()) {
        return hit;
    }
    const TimelineRow& row = layout.rows()[std::size_t(hit.row)];
    const double t = mapper.startNs() + xPx * mapper.nsPerPx();
    const double tol = tolerancePx * mapper.nsPerPx();

    auto gapAt = [&](const std::vector<std::uint32_t>& list) -> bool {
        const auto& gaps = overlays->overlays().gaps;
        auto it = std::partition_point(list.begin(), list.end(), [&](std::uint32_t g) {
            return double(gaps[g].startNs) <= t;
        });
        if (it == list.begin()) {
            return false;
        }
        const GapOverlay& gap = gaps[*(it - 1)];
        if (double(gap.startNs + gap.durationNs) + tol < t) {
            return false;
        }
        hit.kind = HitResult::Kind::Gap;
        hit.gap = *(it - 1);
        return true;
    };

    switch (row.kind) {
        case RowKind::Track: {
            const model::Track& track = trace.track(row.track);
            const int inRow = contentY - row.yPx - TimelineLayout::kRowPaddingPx;
            const int depth = inRow < 0 ? 0 : inRow / TimelineLayout::kLaneHeightPx;
            if (depth < int(row.lanesShown) && std::uint32_t(depth) < track.laneCount()) {
                const auto lane = track.lane(std::uint32_t(depth));
                const std::int64_t i = nearestInLane(lane, t, tol);
                if (i >= 0) {
                    hit.kind = HitResult::Kind::Slice;
                    hit.slice = {row.track, track.laneBegin[std::size_t(depth)] + std::uint32_t(i)};
                    return hit;
                }
            }
            if (overlays && track.kind == model::TrackKind::GpuStream) {
                gapAt(overlays->gapsFor(track.deviceId, track.streamId));
            }
            return hit;
        }
        case RowKind::DeviceGaps:
            if (overlays) {
                gapAt(overlays->gapsFor(row.deviceId, -1));
            }
            return hit;
        case RowKind::Counter: {
            const auto& samples = trace.counters()[row.counter].samples;
            auto it = std::partition_point(
                samples.begin(), samples.end(),
                [t](const model::CounterSample& c) { return double(c.timestampNs) <= t; });
            if (it != samples.begin() && t <= double(trace.spanNs())) {
                hit.kind = HitResult::Kind::Counter;
                hit.counterValue = (it - 1)->value;
            }
            return hit;
        }
        case RowKind::Process:
            return hit;
    }
    return hit;
}

}  // namespace wl::ui
