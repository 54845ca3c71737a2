#include "ui/timeline/DrawListBuilder.h"

#include <algorithm>
#include <cmath>

#include "ui/style/Palette.h"
#include "ui/timeline/RowTypes.h"

namespace wl::ui {

std::size_t DrawListBuilder::gallopToStart(std::span<const model::Slice> lane, std::size_t from,
                                           double t) {
    const std::size_t n = lane.size();
    if (from >= n || double(lane[from].startNs) >= t) {
        return from;
    }
    // lane[lo] < t; grow the step until lane[hi] >= t or the end.
    std::size_t lo = from;
    std::size_t step = 1;
    std::size_t hi = from + 1;
    while (hi < n && double(lane[hi].startNs) < t) {
        lo = hi;
        step *= 2;
        hi = from + step;
    }
    hi = std::min(hi, n);
    auto it = std::partition_point(lane.begin() + std::ptrdiff_t(lo) + 1,
                                   lane.begin() + std::ptrdiff_t(hi),
                                   [t](const model::Slice& s) { return double(s.startNs) < t; });
    return std::size_t(it - lane.begin());
}

// One build: the request, the list being filled and the colour-batch lookup.
class DrawListBuilder::Builder final : public RowCanvas {
public:
    Builder(const DrawListRequest& r, const QFontMetrics& metrics)
        : m_r(r), m_trace(*r.trace), m_map(r.mapper), m_metrics(metrics) {}

    DrawList run() {
        const TimelineLayout& layout = *m_r.layout;
        const int top = m_r.scrollYPx;
        const int bottom = top + m_r.viewportHeightPx;
        // Each row draws as its kind does (RowTypes.cpp), with the primitives below.
        for (int ri = std::max(0, layout.rowAt(top)); ri >= 0 && ri < int(layout.rows().size());
             ++ri) {
            const TimelineRow& row = layout.rows()[ri];
            if (row.yPx >= bottom) {
                break;
            }
            rowType(row.kind).draw(*this, row);
        }
        return std::move(m_list);
    }

    DrawList runRow(int rowIndex) {
        const TimelineRow& row = m_r.layout->rows()[std::size_t(rowIndex)];
        rowType(row.kind).draw(*this, row);
        return std::move(m_list);
    }

private:
    struct Pending {
        int x0;
        int x1;
        std::uint32_t count;
        QRgb color;
        std::uint32_t firstIndex;  // within the track
    };

    DrawBatch& batch(std::vector<DrawBatch>& batches, QRgb color) {
        // Few colours per frame: a linear scan beats hashing.
        for (DrawBatch& b : batches) {
            if (b.color == color) {
                return b;
            }
        }
        batches.push_back(DrawBatch{color, {}});
        return batches.back();
    }

public:
    // RowCanvas: what the kinds of row draw with.
    const DrawListRequest& request() const override { return m_r; }

    void lane(model::TrackIndex trackIndex, std::uint32_t depth, int y, int h,
              bool decorated) override {
        m_summary = !decorated;
        const model::Track& track = m_trace.track(trackIndex);
        const std::span<const model::Slice> slices = track.lane(depth);
        const std::uint32_t base = track.laneBegin[depth];
        const int width = m_map.widthPx();
        const model::TimeNs startNs = m_map.startNs();
        const model::TimeNs endNs = m_map.endNs();
        ++m_list.lanesDrawn;

        // Ends are sorted within a lane (no overlaps), so the first visible slice is a binary
        // search away.
        std::size_t i = std::size_t(
            std::partition_point(slices.begin(), slices.end(),
                                 [&](const model::Slice& s) { return s.endNs() < startNs; }) -
            slices.begin());
        const std::size_t firstVisible = i;
        m_pending.clear();
        int nextFreePx = 0;

        auto add = [&](int x0, int x1, std::uint32_t count, QRgb color, std::uint32_t index,
                       bool merged) {
            x0 = std::max(x0, nextFreePx);
            if (x1 <= x0) {
                // Entirely inside pixels already drawn: it joins the previous item's count.
                m_pending.back().count += count;
                return;
            }
            if (merged && !m_pending.empty() && m_pending.back().count > 1 &&
                m_pending.back().x1 == x0 && m_pending.back().color == color) {
                m_pending.back().x1 = x1;
                m_pending.back().count += count;
            } else {
                m_pending.push_back(Pending{x0, x1, count, color, index});
            }
            nextFreePx = x1;
        };

        const std::span<const model::TimeNs> coarse =
            m_r.lanes ? m_r.lanes->coarseStarts(trackIndex, depth)
                      : std::span<const model::TimeNs>{};
        const std::size_t n = slices.size();
        while (i < n && slices[i].startNs < endNs) {
            const model::Slice& s = slices[i];
            const double xs = m_map.xForNs(s.startNs);
            const double xe = m_map.xForNs(s.endNs());
            const int px0 = std::max(0, int(std::floor(std::max(xs, -1.0))));
            if (px0 >= width) {
                break;
            }
            if (xe - xs >= kMinSinglePx) {
                const int px1 = std::min(width, int(std::ceil(std::min(xe, double(width)))));
                add(px0, std::max(px1, px0 + 1), 1, Palette::sliceColor(m_trace, s),
                    base + std::uint32_t(i), false);
                ++i;
                continue;
            }
            // A thin slice: merge every slice that starts before the next pixel boundary.
            std::size_t j = nextRunEnd(slices, coarse, i, px0);
            // The last of them may be wide; it is drawn (and labelled) on its own instead.
            if (j - 1 > i) {
                const model::Slice& last = slices[j - 1];
                if (m_map.xForNs(last.endNs()) - m_map.xForNs(last.startNs) >= kMinSinglePx) {
                    --j;
                }
            }
            const double lastEnd = m_map.xForNs(slices[j - 1].endNs());
            const int px1 = std::min(width, std::max(px0 + 1, int(std::ceil(lastEnd))));
            const std::uint32_t count = std::uint32_t(j - i);
            add(px0, px1, count,
                count > 1 ? Palette::mergedColor(Palette::sliceColor(m_trace, s))
                          : Palette::sliceColor(m_trace, s),
                base + std::uint32_t(i), count > 1);
            i = j;
        }
        const std::size_t lastVisible = i;

        for (const Pending& p : m_pending) {
            DrawItem item{p.x0, y, p.x1 - p.x0, h, p.count, {trackIndex, p.firstIndex}};
            m_list.visibleSlices += p.count;
            if (p.count > 1) {
                ++m_list.mergedItems;
            } else if (!m_summary) {
                decorateSingle(item, p.color);
            }
            batch(m_list.sliceBatches, p.color).items.push_back(item);
        }
        if (m_r.overlays && !m_summary) {
            lowFillMarks(trackIndex, slices, base, firstVisible, lastVisible, y);
        }
    }

private:
    // End of the merged run that starts with thin slice i in pixel px0: the first slice starting
    // at or after the next pixel boundary. Where the lane is so dense that a whole group of the
    // coarse index starts before the pixel after next, the run ends at that group boundary
    // instead (counts stay exact; the block just reaches into the next pixel), which needs no
    // probe of the slices themselves.
    std::size_t nextRunEnd(std::span<const model::Slice> slices,
                           std::span<const model::TimeNs> coarse, std::size_t i, int px0) const {
        const double boundary = m_map.pixelStartNs(px0 + 1);
        constexpr std::size_t K = LaneIndex::kGroup;
        if (coarse.empty()) {
            return gallopToStart(slices, i + 1, boundary);
        }
        const std::size_t n = slices.size();
        const std::size_t gFrom = (i + 1 + K - 1) / K;
        // First group at or after gFrom whose first slice starts at or after the boundary.
        std::size_t g = gFrom;
        std::size_t step = 1;
        std::size_t lo = gFrom;
        while (g < coarse.size() && double(coarse[g]) < boundary) {
            lo = g + 1;
            g = gFrom + step;
            step *= 2;
        }
        g = std::size_t(
            std::partition_point(coarse.begin() + std::ptrdiff_t(lo),
                                 coarse.begin() + std::ptrdiff_t(std::min(g, coarse.size())),
                                 [boundary](model::TimeNs t) { return double(t) < boundary; }) -
            coarse.begin());
        // (Only inside the range: a run may not take in slices that start after its end.)
        if (g < coarse.size() && m_map.xForNs(coarse[g]) < px0 + 2 && coarse[g] <= m_map.endNs()) {
            return g * K;  // dense: stop at the group boundary
        }
        // Exact: the boundary lies within group g-1 (or before gFrom's first slice).
        const std::size_t first = std::max(i + 1, g > 0 ? (g - 1) * K : 0);
        const std::size_t last = std::min(g * K, n);
        if (first >= last) {
            return first;
        }
        return std::size_t(
            std::partition_point(
                slices.begin() + std::ptrdiff_t(first), slices.begin() + std::ptrdiff_t(last),
                [boundary](const model::Slice& s) { return double(s.startNs) < boundary; }) -
            slices.begin());
    }

    // Name label and occupancy gauge of a slice drawn on its own.
    void decorateSingle(const DrawItem& item, QRgb color) {
        const model::Slice& s = m_trace.slice(item.first);
        if (item.w >= kMinLabelPx) {
            // Kernels by their short names, cached per name by the overlay index.
            QString name;
            if (m_r.overlays) {
                name = m_r.overlays->label(s);
            } else {
                const std::string_view full = m_trace.str(s.nameId);
                name = QString::fromUtf8(full.data(), qsizetype(full.size()));
            }
            const QString text = m_metrics.elidedText(name, Qt::ElideRight, item.w - 6);
            if (!text.isEmpty() && text != QStringLiteral("…")) {
                m_list.labels.push_back(DrawLabel{QRect(item.x + 3, item.y, item.w - 6, item.h),
                                                  text, Palette::textColorOn(color)});
            }
        }
        if (s.kind == model::SliceKind::Kernel && m_r.overlays && item.w >= 4) {
            if (const KernelBadge* badge = m_r.overlays->badge(item.first)) {
                const auto pct = float(std::clamp(badge->occupancyPct, 0.0, 100.0));
                const int gaugeW = std::max(1, int(std::lround(item.w * pct / 100.0f)));
                batch(m_list.fillBatches, Palette::kOccupancyGauge)
                    .items.push_back(
                        DrawItem{item.x, item.y + item.h - 4, gaugeW, 4, 0, item.first});
            }
        }
    }

    // Warning marks on low-fill kernels in [first, last) of a lane, at most one per few pixels.
    void lowFillMarks(model::TrackIndex trackIndex, std::span<const model::Slice> slices,
                      std::uint32_t base, std::size_t first, std::size_t last, int y) {
        const std::vector<std::uint32_t>& low = m_r.overlays->lowFillOf(trackIndex);
        if (low.empty() || first >= last) {
            return;
        }
        auto k = std::lower_bound(low.begin(), low.end(), base + std::uint32_t(first));
        while (k != low.end() && *k < base + last) {
            const std::size_t local = *k - base;
            const int x = std::max(0, int(std::floor(m_map.xForNs(slices[local].startNs))));
            m_list.lowFillMarks.push_back(QPoint(x, y));
            // Skip every low-fill kernel that would land on the same mark.
            const std::size_t next =
                gallopToStart(slices, local + 1, m_map.pixelStartNs(x + kMarkSpacingPx));
            k = std::lower_bound(k + 1, low.end(), base + std::uint32_t(next));
        }
    }

public:
    DrawBatch& fills(QRgb color) override { return batch(m_list.fillBatches, color); }

    void gaps(const std::vector<std::uint32_t>& list, int y, int h) override {
        if (list.empty()) {
            return;
        }
        const auto& all = m_r.overlays->overlays().gaps;
        auto it = std::partition_point(list.begin(), list.end(), [&](std::uint32_t g) {
            return all[g].startNs + all[g].durationNs < m_map.startNs();
        });
        int lastX1 = -1;
        while (it != list.end()) {
            const GapOverlay& gap = all[*it];
            if (gap.startNs >= m_map.endNs()) {
                break;
            }
            const int x0 = std::max(0, int(std::floor(m_map.xForNs(gap.startNs))));
            const int x1 = std::min(
                m_map.widthPx(),
                std::max(x0 + 1, int(std::ceil(m_map.xForNs(gap.startNs + gap.durationNs)))));
            const QRgb color = Palette::gapColor(gap.cause);
            if (!m_list.hatches.empty() && x0 < lastX1 && m_list.hatches.back().color == color) {
                QRect& r = m_list.hatches.back().rect;
                r.setRight(std::max(r.right(), x1 - 1));
            } else {
                m_list.hatches.push_back(DrawHatch{QRect(x0, y, x1 - x0, h), color});
            }
            lastX1 = std::max(lastX1, x1);
            ++it;
            // Gaps starting inside pixels already covered can only widen what is drawn: a short
            // gap and a long one that starts in the same pixel must still show the long one.
            // (At most one gap per threshold's worth of time, so this pass stays short.)
            for (; it != list.end() && m_map.xForNs(all[*it].startNs) < lastX1; ++it) {
                const GapOverlay& next = all[*it];
                const int nextX1 = std::min(
                    m_map.widthPx(), int(std::ceil(m_map.xForNs(next.startNs + next.durationNs))));
                if (nextX1 <= lastX1) {
                    continue;
                }
                const QRgb nextColor = Palette::gapColor(next.cause);
                if (m_list.hatches.back().color == nextColor) {
                    m_list.hatches.back().rect.setRight(nextX1 - 1);
                } else {
                    m_list.hatches.push_back(
                        DrawHatch{QRect(lastX1, y, nextX1 - lastX1, h), nextColor});
                }
                lastX1 = nextX1;
            }
        }
    }

private:
    const DrawListRequest& m_r;
    const model::Trace& m_trace;
    const TimeMapper m_map;
    const QFontMetrics& m_metrics;
    DrawList m_list;
    std::vector<Pending> m_pending;
    bool m_summary = false;  // drawing a collapsed process's strip: no labels or marks
};

DrawListBuilder::DrawListBuilder(const QFont& labelFont) : m_metrics(labelFont) {}

DrawList DrawListBuilder::build(const DrawListRequest& request) const {
    if (!request.trace || !request.layout) {
        return {};
    }
    return Builder(request, m_metrics).run();
}

DrawList DrawListBuilder::buildRow(const DrawListRequest& request, int rowIndex) const {
    if (!request.trace || !request.layout || rowIndex < 0 ||
        rowIndex >= int(request.layout->rows().size())) {
        return {};
    }
    // The rows' kinds draw in time-area coordinates, content y minus the scroll: a scroll of the
    // row's top and a height of the row give row coordinates and every lane of it.
    const TimelineRow& row = request.layout->rows()[std::size_t(rowIndex)];
    DrawListRequest rowRequest = request;
    rowRequest.scrollYPx = row.yPx;
    rowRequest.viewportHeightPx = row.heightPx;
    return Builder(rowRequest, m_metrics).runRow(rowIndex);
}

}  // namespace wl::ui
