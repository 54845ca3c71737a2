#include "ui/timeline/TimelineFramePainter.h"

#include <QPainter>
#include <QPolygon>
#include <algorithm>
#include <cmath>

#include "ui/common/Units.h"
#include "ui/style/Palette.h"
#include "ui/timeline/Arrows.h"
#include "ui/timeline/TimelinePainter.h"

namespace wl::ui {

using namespace timeline_geometry;

TimelineFramePainter::TimelineFramePainter(const TimelineSelection& selection,
                                           const CounterSummary& counters)
    : m_selection(selection), m_counters(counters) {}

void TimelineFramePainter::paintRowBackgrounds(QPainter& p, const TimelineFrame& frame,
                                               const RulerTicks& ticks) const {
    const QRect& area = frame.timeArea;
    const TimelineLayout& layout = *frame.layout;
    const int scroll = frame.scrollPx;
    for (int ri = std::max(0, layout.rowAt(scroll)); ri < int(layout.rows().size()); ++ri) {
        const TimelineRow& row = layout.rows()[std::size_t(ri)];
        const int y = area.top() + row.yPx - scroll;
        if (y > area.bottom()) {
            break;
        }
        const QRect band(0, y, area.right() + 1, row.heightPx);
        if (row.kind == RowKind::Process) {
            p.fillRect(band, QColor::fromRgb(Palette::kProcessBand));
        } else if (ri % 2 == 0) {  // by row index, so stripes do not swap while scrolling
            p.fillRect(band.adjusted(kHeaderWidthPx, 0, 0, 0),
                       QColor::fromRgb(Palette::kRowStripe));
        }
    }
    // Faint grid lines at the ruler's ticks, under the slices.
    p.setPen(QColor::fromRgb(Palette::kGridLine));
    for (model::TimeNs t : ticks.ticksNs) {
        const int x = area.left() + int(std::lround(frame.map.xForNs(t)));
        p.drawLine(x, area.top(), x, area.bottom());
    }
}

std::vector<QRect> TimelineFramePainter::searchMatchRects(const TimelineFrame& frame) const {
    std::vector<QRect> out;
    if (!frame.trace || !m_selection.search || m_selection.search->empty()) {
        return out;
    }
    const QRect& area = frame.timeArea;
    const TimeMapper& map = frame.map;
    const int scroll = frame.scrollPx;
    for (const SearchMatches::Lane& lane : m_selection.search->lanes()) {
        const int row = frame.layout->rowOfTrack(lane.track);
        const std::optional<int> y = row >= 0 ? frame.layout->laneY(row, lane.depth) : std::nullopt;
        if (!y || *y - scroll + TimelineLayout::kLaneHeightPx < 0 || *y - scroll > area.height()) {
            continue;
        }
        const int top = *y - scroll;
        const std::vector<model::Slice>& slices = frame.trace->track(lane.track).slices;
        // A lane's slices do not overlap: their ends are sorted like their starts.
        auto it = std::partition_point(lane.indices.begin(), lane.indices.end(),
                                       [&](auto i) { return slices[i].endNs() < map.startNs(); });
        // At most one outline per pixel: pixel-bounded like the rest of the frame.
        while (it != lane.indices.end() && slices[*it].startNs <= map.endNs()) {
            const model::Slice& slice = slices[*it];
            const double x0 = std::clamp(map.xForNs(slice.startNs), -4.0, area.width() + 4.0);
            const double x1 = std::clamp(map.xForNs(slice.endNs()), -4.0, area.width() + 4.0);
            const int left = int(std::floor(x0));
            const int widthPx = std::max(3, int(std::ceil(x1)) - left);
            out.emplace_back(left, top + 1, widthPx, TimelineLayout::kLaneHeightPx - 2);
            const model::TimeNs nextNs = map.nsForX(left + widthPx + 1);
            it = std::partition_point(it + 1, lane.indices.end(),
                                      [&](auto i) { return slices[i].startNs < nextNs; });
        }
    }
    return out;
}

void TimelineFramePainter::paintOverRows(QPainter& p, const TimelineFrame& frame,
                                         bool allDependencies) const {
    const std::vector<QRect> rects = searchMatchRects(frame);
    if (!rects.empty()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor::fromRgb(Palette::kSearchMatch), 2));
        for (const QRect& r : rects) {
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
    }
    paintDependencies(p, frame, allDependencies);
    paintSelection(p, frame);
}

TimelineFramePainter::HeaderFonts TimelineFramePainter::headerFonts(const QFont& font) {
    QFont bold = font;
    bold.setBold(true);
    return {font, bold, QFontMetrics(font), QFontMetrics(bold)};
}

void TimelineFramePainter::paintRowHeader(QPainter& p, const TimelineFrame& frame,
                                          const TimelineRow& row, int y,
                                          const HeaderFonts& fonts) const {
    const bool process = row.kind == RowKind::Process;
    if (process) {
        p.fillRect(QRect(0, y, kHeaderWidthPx, row.heightPx),
                   QColor::fromRgb(Palette::kProcessBand));
    }
    int x = 6 + row.indent * 14;
    const int lineH = process ? row.heightPx
                              : std::min(row.heightPx, TimelineLayout::kLaneHeightPx +
                                                           2 * TimelineLayout::kRowPaddingPx);
    if (row.collapsible) {
        // A small triangle: pointing right when collapsed, down when open.
        const int cx = x + 4;
        const int cy = y + lineH / 2;
        QPolygon arrow;
        if (row.collapsed) {
            arrow << QPoint(cx - 3, cy - 5) << QPoint(cx + 3, cy) << QPoint(cx - 3, cy + 5);
        } else {
            arrow << QPoint(cx - 5, cy - 3) << QPoint(cx + 5, cy - 3) << QPoint(cx, cy + 3);
        }
        p.setPen(Qt::NoPen);
        p.setBrush(QColor::fromRgb(Palette::kHeaderText));
        p.drawPolygon(arrow);
    }
    x += 14;
    QString title = row.title;
    if (row.kind == RowKind::Track && row.laneCount > 1 && row.collapsed) {
        title += QStringLiteral("  (%1 lanes)").arg(row.laneCount);
    }
    const QFontMetrics& fm = process ? fonts.boldMetrics : fonts.normalMetrics;
    p.setFont(process ? fonts.bold : fonts.normal);
    p.setPen(QColor::fromRgb(row.quiet ? Palette::kQuietHeaderText : Palette::kHeaderText));
    p.drawText(QRect(x, y, kHeaderWidthPx - x - 6, lineH), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(title, Qt::ElideRight, kHeaderWidthPx - x - 6));
    if (row.kind == RowKind::Counter) {
        // The row's scale, top right of its header: what a full-height column means.
        const model::CounterTrack& c = frame.trace->counters()[row.counter];
        const std::string_view unit = frame.trace->str(c.unitId);
        QFont small = frame.font;
        small.setPointSizeF(7.5);
        p.setFont(small);
        p.setPen(QColor(0x6a, 0x75, 0x80));
        p.drawText(QRect(x, y + lineH - 4, kHeaderWidthPx - x - 8, row.heightPx - lineH),
                   Qt::AlignTop | Qt::AlignLeft,
                   unit == "B"
                       ? tr("scale %1 – %2")
                             .arg(units::counterValue(m_counters.minValue(row.counter), unit, 0))
                             .arg(units::counterValue(m_counters.scaleMax(row.counter), unit, 0))
                       : tr("scale %1 – %2 %3")
                             .arg(m_counters.minValue(row.counter), 0, 'g', 3)
                             .arg(m_counters.scaleMax(row.counter), 0, 'g', 4)
                             .arg(QString::fromUtf8(unit.data(), qsizetype(unit.size()))));
    }
    // Separator under each row.
    p.setPen(QColor::fromRgb(Palette::kGridLine));
    p.drawLine(0, y + row.heightPx - 1, kHeaderWidthPx, y + row.heightPx - 1);
}

void TimelineFramePainter::paintHeaders(QPainter& p, const TimelineFrame& frame) const {
    const QRect& area = frame.timeArea;
    const TimelineLayout& layout = *frame.layout;
    const int scroll = frame.scrollPx;
    p.save();
    p.setClipRect(QRect(0, area.top(), kHeaderWidthPx, area.height()));
    p.fillRect(QRect(0, area.top(), kHeaderWidthPx, area.height()),
               QColor::fromRgb(Palette::kHeaderBackground));
    const HeaderFonts fonts = headerFonts(frame.font);
    for (int ri = std::max(0, layout.rowAt(scroll)); ri < int(layout.rows().size()); ++ri) {
        const TimelineRow& row = layout.rows()[std::size_t(ri)];
        const int y = area.top() + row.yPx - scroll;
        if (y > area.bottom()) {
            break;
        }
        paintRowHeader(p, frame, row, y, fonts);
    }
    p.restore();
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(kHeaderWidthPx - 1, area.top(), kHeaderWidthPx - 1, area.bottom());
}

void TimelineFramePainter::paintRowArrangement(QPainter& p, const TimelineFrame& frame,
                                               int stickyRow, int stickyTopPx,
                                               int dropLineYPx) const {
    const QRect& area = frame.timeArea;
    const int scroll = frame.scrollPx;
    p.save();
    p.setClipRect(QRect(0, area.top(), area.right() + 1, area.height()));
    // The pinned band ends with a firm line.
    const std::vector<TimelineRow>& rows = frame.layout->rows();
    if (!rows.empty() && rows.front().pinned) {
        int end = 0;
        for (std::size_t i = 0; i < rows.size() && rows[i].pinned; ++i) {
            end = rows[i].yPx + rows[i].heightPx;
        }
        p.setPen(QPen(QColor::fromRgb(Palette::kHeaderText), 2));
        p.drawLine(0, area.top() + end - scroll - 1, area.right(), area.top() + end - scroll - 1);
    }
    // The sticky title of the group whose rows fill the top, over them.
    if (stickyRow >= 0) {
        const int top = stickyTopPx;
        const TimelineRow& row = rows[std::size_t(stickyRow)];
        p.fillRect(QRect(0, top, area.right() + 1, row.heightPx),
                   QColor::fromRgb(Palette::kProcessBand));
        p.setClipRect(QRect(0, area.top(), kHeaderWidthPx, area.height()));
        paintRowHeader(p, frame, row, top, headerFonts(frame.font));
        p.setClipRect(QRect(0, area.top(), area.right() + 1, area.height()));
        p.setPen(QColor::fromRgb(Palette::kGridLine));
        p.drawLine(0, top + row.heightPx - 1, area.right(), top + row.heightPx - 1);
    }
    // Where a dragged header would go.
    if (dropLineYPx >= 0) {
        p.setPen(QPen(QColor::fromRgb(Palette::kSearchMatch), 2));
        const int y = area.top() + dropLineYPx - scroll;
        p.drawLine(0, y, area.right(), y);
    }
    p.restore();
}

void TimelineFramePainter::paintRuler(QPainter& p, const TimelineFrame& frame,
                                      const RulerTicks& ticks, const RulerOrigin& origin) const {
    const TimeMapper& map = frame.map;
    const int width = frame.sizePx.width();
    const QRect ruler(0, 0, width, kRulerHeightPx);
    p.fillRect(ruler, QColor::fromRgb(Palette::kRulerBackground));
    p.setFont(frame.font);
    p.setPen(QColor::fromRgb(Palette::kRulerText));
    // Over the header column: the visible duration, and where the ticks count from when they
    // count from an anchor.
    // No trace: no time to show ("Visible: 1 ns" and a "0 ns" tick read as a trace of nothing).
    if (frame.trace == nullptr) {
        p.setPen(QColor(0xb8, 0xc0, 0xca));
        p.drawLine(0, kRulerHeightPx - 1, width, kRulerHeightPx - 1);
        return;
    }
    QString header = tr("Visible: %1").arg(units::duration(map.durationNs()));
    if (origin.relative)
        header += QLatin1Char('\n') + rulerAnchorText(origin);
    p.drawText(QRect(8, 0, kHeaderWidthPx - 16, kRulerHeightPx), Qt::AlignVCenter | Qt::AlignLeft,
               header);
    p.save();
    p.setClipRect(QRect(kHeaderWidthPx, 0, map.widthPx(), kRulerHeightPx));
    for (model::TimeNs t : ticks.ticksNs) {
        const int x = kHeaderWidthPx + int(std::lround(map.xForNs(t)));
        p.drawLine(x, kRulerHeightPx - 10, x, kRulerHeightPx - 1);
        // Minor ticks at fifths of the step.
        for (int k = 1; k < 5; ++k) {
            const int xm = kHeaderWidthPx + int(std::lround(map.xForNs(t + ticks.stepNs * k / 5)));
            p.drawLine(xm, kRulerHeightPx - 4, xm, kRulerHeightPx - 1);
        }
        p.drawText(QRect(x + 3, 2, 200, kRulerHeightPx - 12), Qt::AlignLeft | Qt::AlignVCenter,
                   rulerLabel(origin, t, ticks.stepNs, map.startNs(), map.endNs()));
    }
    if (!ticks.ticksNs.empty()) {
        // Minor ticks before the first major tick.
        const model::TimeNs t = ticks.ticksNs.front() - ticks.stepNs;
        for (int k = 1; k < 5; ++k) {
            const int xm = kHeaderWidthPx + int(std::lround(map.xForNs(t + ticks.stepNs * k / 5)));
            p.drawLine(xm, kRulerHeightPx - 4, xm, kRulerHeightPx - 1);
        }
    }
    p.restore();
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(0, kRulerHeightPx - 1, width, kRulerHeightPx - 1);
}

void TimelineFramePainter::paintLegend(QPainter& p, const TimelineFrame& frame) const {
    const int width = frame.sizePx.width();
    const int heightPx = legendHeightPx(frame.font, width);
    const QRect legend(0, frame.sizePx.height() - heightPx, width, heightPx);
    p.fillRect(legend, QColor::fromRgb(Palette::kRulerBackground));
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(legend.topLeft(), legend.topRight());
    p.setFont(legendFont(frame.font));
    const QFontMetrics fm(p.font());
    for (const LegendItem& item : legendItems(frame.font, width)) {
        const Palette::LegendEntry& e = *item.entry;
        const int x = item.x;
        const int cy = legend.top() + kLegendPadPx / 2 + item.line * kLegendLineHeightPx +
                       kLegendLineHeightPx / 2;
        const QRect swatch(x, cy - 6, 12, 12);
        if (e.color == Palette::kLowFillMark) {
            TimelinePainter::paintLowFillMark(p, QPoint(x + 2, cy - 4));
        } else if (e.hatched) {
            p.fillRect(swatch, QBrush(QColor::fromRgb(e.color), Qt::BDiagPattern));
            p.setPen(QColor::fromRgb(e.color));
            p.setBrush(Qt::NoBrush);
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        } else {
            p.fillRect(swatch, QColor::fromRgb(e.color));
        }
        p.setPen(QColor::fromRgb(Palette::kRulerText));
        p.drawText(QPoint(x + 16, cy + fm.ascent() / 2 - 1), e.label);
    }
}

void TimelineFramePainter::paintNoTrace(QPainter& p, const TimelineFrame& frame) const {
    p.setPen(QColor::fromRgb(Palette::kRulerText));
    p.drawText(frame.timeArea, Qt::AlignCenter, tr("No trace loaded"));
}

void TimelineFramePainter::paintTimeRanges(QPainter& p, const TimelineFrame& frame) const {
    const QRect& area = frame.timeArea;
    const TimeMapper& map = frame.map;
    const auto xOf = [&](model::TimeNs t) {
        return area.left() +
               int(std::lround(std::clamp(map.xForNs(t), -1.0, double(area.width() + 1))));
    };
    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), area.bottom() + 1));
    // The analysis window: a bar along the ruler's foot over each part.
    for (const model::TimeRange& part : m_selection.analysisWindow) {
        const int x0 = xOf(part.startNs);
        const int x1 = xOf(part.endNs);
        if (x1 < area.left() || x0 > area.right()) {
            continue;
        }
        p.fillRect(QRect(x0, kRulerHeightPx - 5, std::max(1, x1 - x0), 4),
                   QColor::fromRgb(Palette::kAnalysisWindow));
    }
    // The time selection: a translucent band over the rows, its duration on the ruler.
    if (m_selection.time && !m_selection.time->empty()) {
        const int x0 = xOf(m_selection.time->startNs);
        const int x1 = xOf(m_selection.time->endNs);
        QColor band = QColor::fromRgb(Palette::kAnalysisWindow);
        band.setAlpha(40);
        QRect shaded(x0, area.top(), std::max(1, x1 - x0), area.height());
        if (!m_selection.tracks.empty()) {
            // Only the rows selected with the time, more strongly.
            const int top = area.top() + m_selection.rowsBandYPx.first - frame.scrollPx;
            const int bottom = area.top() + m_selection.rowsBandYPx.second - frame.scrollPx;
            shaded =
                QRect(x0, top, std::max(1, x1 - x0), std::max(1, bottom - top)).intersected(area);
            band.setAlpha(70);
        }
        p.fillRect(shaded, band);
        p.setPen(QColor::fromRgb(Palette::kAnalysisWindow));
        p.drawLine(x0, 0, x0, area.bottom());
        p.drawLine(x1, 0, x1, area.bottom());
        const QString label = units::duration(m_selection.time->durationNs());
        const QFontMetrics fm(frame.font);
        QRect box(0, 2, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 10);
        box.moveLeft(std::clamp((x0 + x1) / 2 - box.width() / 2, area.left(),
                                std::max(area.left(), area.right() - box.width())));
        p.fillRect(box, QColor::fromRgb(Palette::kAnalysisWindow));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

std::optional<QRectF> TimelineFramePainter::sliceRect(const TimelineFrame& frame,
                                                      model::SliceRef ref) {
    const TimeMapper& map = frame.map;
    const model::Slice& slice = frame.trace->slice(ref);
    const std::optional<int> y =
        frame.layout->laneY(frame.layout->rowOfTrack(ref.track), slice.depth);
    if (!y) {
        return std::nullopt;
    }
    // Far-off coordinates are clamped: QPainter works in ints underneath.
    const double x0 = std::clamp(map.xForNs(slice.startNs), -1e5, 1e5);
    const double x1 = std::clamp(map.xForNs(slice.endNs()), -1e5, 1e5);
    return QRectF(x0, *y - frame.scrollPx + 1, std::max(x1 - x0, 2.0),
                  TimelineLayout::kLaneHeightPx - 2);
}

// Waits through CUDA events: from the end of the op waited for to the start of the waiter.
void TimelineFramePainter::paintDependencies(QPainter& p, const TimelineFrame& frame,
                                             bool all) const {
    const model::Trace& trace = *frame.trace;
    auto paintOne = [&](const model::Dependency& d, double widthPx) {
        const std::optional<QRectF> from = sliceRect(frame, d.from);
        const std::optional<QRectF> to = sliceRect(frame, d.to);
        if (from && to) {
            const QRectF fromEnd(from->right(), from->top(), 0, from->height());
            paintArrow(p, fromEnd, *to, QColor::fromRgb(Palette::kDependencyArrow), widthPx);
        }
    };
    if (all) {
        constexpr std::size_t kMaxArrows = 2000;
        for (const model::Dependency& d :
             dependenciesInView(trace, frame.map.startNs(), frame.map.endNs(), kMaxArrows)) {
            paintOne(d, 1.2);
        }
    }
    // The selected op's own waits stand out, shown or not.
    if (m_selection.slice.valid()) {
        for (const model::Dependency& d : trace.dependenciesTo(m_selection.slice))
            paintOne(d, 2.4);
        for (const model::Dependency& d : trace.dependenciesFrom(m_selection.slice))
            paintOne(d, 2.4);
    }
}

void TimelineFramePainter::paintSelection(QPainter& p, const TimelineFrame& frame) const {
    if (!m_selection.slice.valid()) {
        return;
    }
    const std::optional<QRectF> selected = sliceRect(frame, m_selection.slice);
    if (selected) {
        const QRect r = selected->toAlignedRect();
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 1));
        p.drawRect(r.adjusted(-2, -2, 1, 1));
        p.setPen(QPen(QColor::fromRgb(Palette::kSelection), 2));
        p.drawRect(r.adjusted(-1, -1, 0, 0));
    }
    // The launch arrow: from the API call to its GPU work, whichever end is selected.
    const model::Flow* flow = frame.trace->flowTo(m_selection.slice);
    if (!flow) {
        flow = frame.trace->flowFrom(m_selection.slice);
    }
    if (!flow) {
        return;
    }
    const std::optional<QRectF> from = sliceRect(frame, flow->from);
    const std::optional<QRectF> to = sliceRect(frame, flow->to);
    if (from && to) {
        paintArrow(p, *from, *to, QColor::fromRgb(Palette::kFlowArrow), 1.6);
    }
}

void TimelineFramePainter::paintTimeCursor(QPainter& p, const TimelineFrame& frame,
                                           QPoint pointer) const {
    const QRect& area = frame.timeArea;
    if (!area.contains(pointer)) {
        return;
    }
    // A thin line through the rows and the pointer's time in the ruler.
    const int x = pointer.x();
    p.setPen(QColor(0x30, 0x3a, 0x46, 150));
    p.drawLine(x, area.top(), x, area.bottom());
    const QString label = units::duration(frame.map.nsForX(x - area.left()));
    const QFontMetrics fm(frame.font);
    QRect box(0, 3, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 8);
    box.moveLeft(std::min(x + 4, area.right() - box.width()));
    p.fillRect(box, QColor(0x30, 0x3a, 0x46));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

}  // namespace wl::ui
