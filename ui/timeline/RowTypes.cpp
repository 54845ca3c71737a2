#include "ui/timeline/RowTypes.h"

#include <algorithm>
#include <cmath>

#include "ui/style/Palette.h"

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

// The gap of `list` under the probe, if any, into `hit`.
void hitGap(const RowProbe& probe, const std::vector<std::uint32_t>& list, HitResult& hit) {
    const auto& gaps = probe.overlays->overlays().gaps;
    auto it = std::partition_point(list.begin(), list.end(), [&](std::uint32_t g) {
        return double(gaps[g].startNs) <= probe.t;
    });
    if (it == list.begin()) {
        return;
    }
    const GapOverlay& gap = gaps[*(it - 1)];
    if (double(gap.startNs + gap.durationNs) + probe.tol < probe.t) {
        return;
    }
    hit.kind = HitResult::Kind::Gap;
    hit.gap = *(it - 1);
}

// A track's lanes that are in view, over its stream's idle gaps (hatched).
class TrackRowType final : public RowType {
public:
    void draw(RowCanvas& canvas, const TimelineRow& row) const override {
        const DrawListRequest& r = canvas.request();
        const model::Track& track = r.trace->track(row.track);
        const int top = r.scrollYPx;
        const int bottom = top + r.viewportHeightPx;
        if (track.kind == model::TrackKind::GpuStream && r.overlays) {
            canvas.gaps(r.overlays->gapsFor(track.deviceId, track.streamId),
                        row.yPx - top + TimelineLayout::kRowPaddingPx,
                        row.heightPx - 2 * TimelineLayout::kRowPaddingPx);
        }
        for (std::uint32_t d = 0; d < row.lanesShown && d < track.laneCount(); ++d) {
            const int laneTop =
                row.yPx + TimelineLayout::kRowPaddingPx + int(d) * TimelineLayout::kLaneHeightPx;
            if (laneTop + TimelineLayout::kLaneHeightPx <= top || laneTop >= bottom) {
                continue;
            }
            canvas.lane(row.track, d, laneTop - top + 1, TimelineLayout::kLaneHeightPx - 2, true);
        }
    }

    void hit(const RowProbe& probe, const TimelineRow& row, HitResult& hit) const override {
        const model::Track& track = probe.trace.track(row.track);
        const int inRow = probe.contentY - row.yPx - TimelineLayout::kRowPaddingPx;
        const int depth = inRow < 0 ? 0 : inRow / TimelineLayout::kLaneHeightPx;
        if (depth < int(row.lanesShown) && std::uint32_t(depth) < track.laneCount()) {
            const auto lane = track.lane(std::uint32_t(depth));
            const std::int64_t i = nearestInLane(lane, probe.t, probe.tol);
            if (i >= 0) {
                hit.kind = HitResult::Kind::Slice;
                hit.slice = {row.track, track.laneBegin[std::size_t(depth)] + std::uint32_t(i)};
                return;
            }
        }
        if (probe.overlays && track.kind == model::TrackKind::GpuStream) {
            hitGap(probe, probe.overlays->gapsFor(track.deviceId, track.streamId), hit);
        }
    }
};

// A unified-memory track: its lanes drawn over one another in one band, the first lane last so
// its labels stay on top; what lies under a point is the nearest event of any lane. Lanes are
// few (the model counts a batch of GPU faults as one event), and each is pixel-bounded.
class UnifiedMemoryRowType final : public RowType {
public:
    void draw(RowCanvas& canvas, const TimelineRow& row) const override {
        const DrawListRequest& r = canvas.request();
        const model::Track& track = r.trace->track(row.track);
        const int top = row.yPx - r.scrollYPx + TimelineLayout::kRowPaddingPx;
        for (std::uint32_t d = track.laneCount(); d-- > 0;) {
            canvas.lane(row.track, d, top + 1, TimelineLayout::kLaneHeightPx - 2, d == 0);
        }
    }

    void hit(const RowProbe& probe, const TimelineRow& row, HitResult& hit) const override {
        const model::Track& track = probe.trace.track(row.track);
        double bestDist = probe.tol;
        for (std::uint32_t d = 0; d < track.laneCount(); ++d) {
            const auto lane = track.lane(d);
            const std::int64_t i = nearestInLane(lane, probe.t, bestDist);
            if (i < 0) {
                continue;
            }
            const model::Slice& s = lane[std::size_t(i)];
            const double dist = probe.t < double(s.startNs)   ? double(s.startNs) - probe.t
                                : probe.t > double(s.endNs()) ? probe.t - double(s.endNs())
                                                              : 0.0;
            // A later lane wins only when nearer: the first lane's event is the one drawn on top.
            if (hit.kind == HitResult::Kind::Slice && dist >= bestDist) {
                continue;
            }
            bestDist = dist;
            hit.kind = HitResult::Kind::Slice;
            hit.slice = {row.track, track.laneBegin[d] + std::uint32_t(i)};
        }
    }
};

// A whole device's idle gaps, hatched.
class DeviceGapsRowType final : public RowType {
public:
    void draw(RowCanvas& canvas, const TimelineRow& row) const override {
        const DrawListRequest& r = canvas.request();
        if (r.overlays) {
            canvas.gaps(r.overlays->gapsFor(row.deviceId, -1), row.yPx - r.scrollYPx + 2,
                        row.heightPx - 4);
        }
    }

    void hit(const RowProbe& probe, const TimelineRow& row, HitResult& hit) const override {
        if (probe.overlays) {
            hitGap(probe, probe.overlays->gapsFor(row.deviceId, -1), hit);
        }
    }
};

// A counter as a filled area (each pixel up to its highest sample) with the band of its lowest
// to highest sample, from the counter summary, so a pixel costs O(log n) however dense.
class CounterRowType final : public RowType {
public:
    void draw(RowCanvas& canvas, const TimelineRow& row) const override {
        const DrawListRequest& r = canvas.request();
        if (!r.counters) {
            return;
        }
        const model::Trace& trace = *r.trace;
        const TimeMapper& map = r.mapper;
        const model::CounterTrack& counter = trace.counters()[row.counter];
        const auto& samples = counter.samples;
        if (samples.empty()) {
            return;
        }
        const int plotTop = row.yPx - r.scrollYPx + 3;
        const int plotH = row.heightPx - 6;
        const int bottom = plotTop + plotH;
        const double lo = r.counters->minValue(row.counter);
        const double span = std::max(r.counters->scaleMax(row.counter) - lo, 1e-12);
        auto yOf = [&](double v) {
            return bottom - int(std::lround(std::clamp((v - lo) / span, 0.0, 1.0) * plotH));
        };
        // Both batches exist before either is held: adding one may move the other.
        canvas.fills(Palette::kCounterFill);
        canvas.fills(Palette::kCounterRange);
        DrawBatch& fill = canvas.fills(Palette::kCounterFill);
        DrawBatch& band = canvas.fills(Palette::kCounterRange);
        // Samples hold until the next one; the last holds until the end of the trace.
        const model::TimeNs holdEnd = std::max(trace.spanNs(), samples.back().timestampNs + 1);
        std::size_t a = 0;  // first sample at or after the current pixel's start
        int runX = -1;
        int runTop = 0;
        auto flushRun = [&](int xEnd) {
            if (runX >= 0 && xEnd > runX && runTop < bottom) {
                fill.items.push_back(DrawItem{runX, runTop, xEnd - runX, bottom - runTop, 0, {}});
            }
            runX = -1;
        };
        for (int px = 0; px < map.widthPx(); ++px) {
            const double t0 = map.pixelStartNs(px);
            const double t1 = map.pixelStartNs(px + 1);
            if (t1 <= double(samples.front().timestampNs) || t0 >= double(holdEnd)) {
                flushRun(px);
                continue;
            }
            // Samples [first, b): the one holding at t0 and every one starting inside the pixel.
            // Both searches gallop on from the previous pixel, so a row costs O(width log n).
            a = gallopSamples(samples, a, t0);
            const std::size_t b = gallopSamples(samples, a, t1);
            const std::size_t first =
                (a > 0 && (a == samples.size() || double(samples[a].timestampNs) > t0)) ? a - 1 : a;
            const CounterSummary::Range range =
                r.counters->range(row.counter, first, std::max(b, first + 1));
            // At least a one-pixel baseline wherever there is data, so zero reads as zero.
            const int yMax = std::min(yOf(range.maxValue), bottom - 1);
            const int yMin = yOf(range.minValue);
            if (runX >= 0 && yMax != runTop) {
                flushRun(px);
            }
            if (runX < 0) {
                runX = px;
                runTop = yMax;
            }
            if (yMin - yMax >= 1) {
                band.items.push_back(DrawItem{px, yMax, 1, yMin - yMax + 1, 0, {}});
            }
        }
        flushRun(map.widthPx());
    }

    void hit(const RowProbe& probe, const TimelineRow& row, HitResult& hit) const override {
        const auto& samples = probe.trace.counters()[row.counter].samples;
        const double t = probe.t;
        auto it = std::partition_point(
            samples.begin(), samples.end(),
            [t](const model::CounterSample& c) { return double(c.timestampNs) <= t; });
        if (it != samples.begin() && t <= double(probe.trace.spanNs())) {
            hit.kind = HitResult::Kind::Counter;
            hit.counterValue = (it - 1)->value;
        }
    }

private:
    static std::size_t gallopSamples(const std::vector<model::CounterSample>& s, std::size_t from,
                                     double t) {
        // First index >= from with time >= t.
        std::size_t lo = from;
        std::size_t step = 1;
        std::size_t hi = from;
        while (hi < s.size() && double(s[hi].timestampNs) < t) {
            lo = hi + 1;
            hi = from + step;
            step *= 2;
        }
        hi = std::min(hi, s.size());
        return std::size_t(
            std::partition_point(
                s.begin() + std::ptrdiff_t(lo), s.begin() + std::ptrdiff_t(hi),
                [t](const model::CounterSample& c) { return double(c.timestampNs) < t; }) -
            s.begin());
    }
};

// A process's or GPU's title band. Folded, it still shows what it holds: the top-level slices of
// its streams and threads in one thin strip, undecorated (no labels or marks), so that where its
// work is (and is not) reads without opening it. Bounded by pixels per track.
class ProcessRowType final : public RowType {
public:
    void draw(RowCanvas& canvas, const TimelineRow& row) const override {
        if (!row.collapsed) {
            return;
        }
        const DrawListRequest& r = canvas.request();
        const int y = row.yPx - r.scrollYPx + DrawListBuilder::kSummaryTopPx;
        const auto tracks = r.trace->tracks();
        for (model::TrackIndex t = 0; t < tracks.size(); ++t) {
            const model::Track& track = tracks[t];
            const bool shown = track.kind == model::TrackKind::GpuStream ||
                               track.kind == model::TrackKind::HostApi ||
                               track.kind == model::TrackKind::Host;
            if (track.process == row.process && shown && track.laneCount() > 0)
                canvas.lane(t, 0, y, DrawListBuilder::kSummaryHeightPx, false);
        }
    }

    void hit(const RowProbe&, const TimelineRow&, HitResult&) const override {}
};

const ProcessRowType kProcessRow;
const TrackRowType kTrackRow;
const DeviceGapsRowType kDeviceGapsRow;
const CounterRowType kCounterRow;
const UnifiedMemoryRowType kUnifiedMemoryRow;

}  // namespace

const RowType& rowType(RowKind kind) {
    // A kind missing here is a -Wswitch warning.
    switch (kind) {
        case RowKind::Process:
            return kProcessRow;
        case RowKind::Track:
            return kTrackRow;
        case RowKind::DeviceGaps:
            return kDeviceGapsRow;
        case RowKind::Counter:
            return kCounterRow;
        case RowKind::UnifiedMemory:
            return kUnifiedMemoryRow;
    }
    return kProcessRow;  // not reached
}

}  // namespace wl::ui
