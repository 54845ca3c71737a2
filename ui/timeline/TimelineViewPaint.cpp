// TimelineView's painting: rows, headers, ruler, legend, selection, arrows and the time cursor
// over the draw list of the frame (DrawListBuilder) that TimelinePainter draws.
#include "ui/timeline/TimelineView.h"

#include "ui/timeline/TimelineViewState.h"

namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

void TimelineView::paintSearchMatches(QPainter& p) const {
    const std::vector<QRect> rects = searchMatchRects();
    if (rects.empty()) {
        return;
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor::fromRgb(Palette::kSearchMatch), 2));
    for (const QRect& r : rects) {
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
}

DrawListCache& TimelineView::drawLists() const {
    State& s = *m_state;
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    DrawListRequest request;
    request.trace = s.trace.get();
    request.layout = &s.rows.layout();
    request.overlays = &s.overlays;
    request.counters = &s.counters;
    request.lanes = &s.lanes;
    request.mapper = map;
    s.drawLists.setInputs(request, {s.trace.get(), s.rows.version(), s.overlayVersion,
                                    map.startNs(), map.endNs(), area.width()});
    return s.drawLists;
}

DrawList TimelineView::currentDrawList() const {
    return drawLists().frame(m_state->vbar->value(), timeAreaOf(this, m_state->vbar).height());
}

std::uint64_t TimelineView::drawListBuilds() const {
    return m_state->drawLists.buildCount();
}

// Each visible row's list where its row is now: a scroll moves them, builds none.
void TimelineView::paintDrawLists(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    DrawListCache& lists = drawLists();
    const int scroll = s.vbar->value();
    const auto [first, last] = lists.rowsIn(scroll, area.height());
    for (int r = first; r < last; ++r) {
        const DrawList& list = lists.row(r);
        if (list.empty()) {
            continue;
        }
        const int dy = s.rows.layout().rows()[std::size_t(r)].yPx - scroll;
        p.translate(0, dy);
        s.painter.paint(p, list);
        p.translate(0, -dy);
    }
}

void TimelineView::paintEvent(QPaintEvent*) {
    const State& s = *m_state;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), QColor::fromRgb(Palette::kBackground));
    const QRect area = timeAreaOf(this, s.vbar);
    const TimeMapper map = mapper();
    const RulerTicks ticks = s.flags->rulerTicks(map);

    if (!s.trace) {
        paintRuler(p, map, ticks);
        p.setPen(QColor::fromRgb(Palette::kRulerText));
        p.drawText(area, Qt::AlignCenter, tr("No trace loaded"));
        paintLegend(p);
        return;
    }

    paintRowBackgrounds(p, area);
    // Faint grid lines at the ruler's ticks, under the slices.
    p.setPen(QColor::fromRgb(Palette::kGridLine));
    for (model::TimeNs t : ticks.ticksNs) {
        const int x = area.left() + int(std::lround(map.xForNs(t)));
        p.drawLine(x, area.top(), x, area.bottom());
    }

    p.save();
    p.setClipRect(area);
    p.translate(area.topLeft());
    paintDrawLists(p, area);
    paintSearchMatches(p);
    paintDependencies(p, map);
    paintSelection(p, map);
    p.restore();

    paintHeaders(p, area);
    paintRowArrangement(p, area);
    paintRuler(p, map, ticks);
    s.flags->paint(p, frame());  // under the selection's duration
    paintTimeRanges(p, area, map);
    paintTimeCursor(p, area, map);
    paintLegend(p);
}

void TimelineView::paintRowBackgrounds(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    for (int ri = std::max(0, s.rows.layout().rowAt(scroll));
         ri < int(s.rows.layout().rows().size()); ++ri) {
        const TimelineRow& row = s.rows.layout().rows()[std::size_t(ri)];
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
}

TimelineView::HeaderFonts TimelineView::headerFonts() const {
    QFont bold = font();
    bold.setBold(true);
    return {font(), bold, QFontMetrics(font()), QFontMetrics(bold)};
}

void TimelineView::paintRowHeader(QPainter& p, const TimelineRow& row, int y,
                                  const HeaderFonts& fonts) const {
    const State& s = *m_state;
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
    p.setPen(QColor::fromRgb(Palette::kHeaderText));
    p.drawText(QRect(x, y, kHeaderWidthPx - x - 6, lineH), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(title, Qt::ElideRight, kHeaderWidthPx - x - 6));
    if (row.kind == RowKind::Counter) {
        // The row's scale, top right of its header: what a full-height column means.
        const model::CounterTrack& c = s.trace->counters()[row.counter];
        const std::string_view unit = s.trace->str(c.unitId);
        QFont small = font();
        small.setPointSizeF(7.5);
        p.setFont(small);
        p.setPen(QColor(0x6a, 0x75, 0x80));
        p.drawText(QRect(x, y + lineH - 4, kHeaderWidthPx - x - 8, row.heightPx - lineH),
                   Qt::AlignTop | Qt::AlignLeft,
                   unit == "B"
                       ? tr("scale %1 – %2")
                             .arg(units::counterValue(s.counters.minValue(row.counter), unit, 0))
                             .arg(units::counterValue(s.counters.scaleMax(row.counter), unit, 0))
                       : tr("scale %1 – %2 %3")
                             .arg(s.counters.minValue(row.counter), 0, 'g', 3)
                             .arg(s.counters.scaleMax(row.counter), 0, 'g', 4)
                             .arg(QString::fromUtf8(unit.data(), qsizetype(unit.size()))));
    }
    // Separator under each row.
    p.setPen(QColor::fromRgb(Palette::kGridLine));
    p.drawLine(0, y + row.heightPx - 1, kHeaderWidthPx, y + row.heightPx - 1);
}

void TimelineView::paintHeaders(QPainter& p, const QRect& area) const {
    const State& s = *m_state;
    const int scroll = s.vbar->value();
    p.save();
    p.setClipRect(QRect(0, area.top(), kHeaderWidthPx, area.height()));
    p.fillRect(QRect(0, area.top(), kHeaderWidthPx, area.height()),
               QColor::fromRgb(Palette::kHeaderBackground));
    const HeaderFonts fonts = headerFonts();
    for (int ri = std::max(0, s.rows.layout().rowAt(scroll));
         ri < int(s.rows.layout().rows().size()); ++ri) {
        const TimelineRow& row = s.rows.layout().rows()[std::size_t(ri)];
        const int y = area.top() + row.yPx - scroll;
        if (y > area.bottom()) {
            break;
        }
        paintRowHeader(p, row, y, fonts);
    }
    p.restore();
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(kHeaderWidthPx - 1, area.top(), kHeaderWidthPx - 1, area.bottom());
}

void TimelineView::paintRuler(QPainter& p, const TimeMapper& map, const RulerTicks& ticks) const {
    const QRect ruler(0, 0, width(), kRulerHeightPx);
    p.fillRect(ruler, QColor::fromRgb(Palette::kRulerBackground));
    p.setFont(font());
    p.setPen(QColor::fromRgb(Palette::kRulerText));
    // Over the header column: the visible duration, and where the ticks count from when they
    // count from an anchor.
    const RulerOrigin origin = m_state->flags->rulerOrigin(map, ticks);
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
    p.drawLine(0, kRulerHeightPx - 1, width(), kRulerHeightPx - 1);
}

void TimelineView::paintLegend(QPainter& p) const {
    const int heightPx = legendHeightPx(this);
    const QRect legend(0, height() - heightPx, width(), heightPx);
    p.fillRect(legend, QColor::fromRgb(Palette::kRulerBackground));
    p.setPen(QColor(0xb8, 0xc0, 0xca));
    p.drawLine(legend.topLeft(), legend.topRight());
    p.setFont(legendFont(this));
    const QFontMetrics fm(p.font());
    for (const LegendItem& item : legendItems(this)) {
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

void TimelineView::paintTimeRanges(QPainter& p, const QRect& area, const TimeMapper& map) const {
    const State& s = *m_state;
    const auto xOf = [&](model::TimeNs t) {
        return area.left() +
               int(std::lround(std::clamp(map.xForNs(t), -1.0, double(area.width() + 1))));
    };
    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), area.bottom() + 1));
    // The analysis window: a bar along the ruler's foot over each part.
    for (const model::TimeRange& part : s.selection.analysisWindow) {
        const int x0 = xOf(part.startNs);
        const int x1 = xOf(part.endNs);
        if (x1 < area.left() || x0 > area.right()) {
            continue;
        }
        p.fillRect(QRect(x0, kRulerHeightPx - 5, std::max(1, x1 - x0), 4),
                   QColor::fromRgb(Palette::kAnalysisWindow));
    }
    // The time selection: a translucent band over the rows, its duration on the ruler.
    if (s.selection.time && !s.selection.time->empty()) {
        const int x0 = xOf(s.selection.time->startNs);
        const int x1 = xOf(s.selection.time->endNs);
        QColor band = QColor::fromRgb(Palette::kAnalysisWindow);
        band.setAlpha(40);
        QRect shaded(x0, area.top(), std::max(1, x1 - x0), area.height());
        if (!s.selection.tracks.empty()) {
            // Only the rows selected with the time, more strongly.
            const int top = area.top() + s.selection.rowsBandYPx.first - s.vbar->value();
            const int bottom = area.top() + s.selection.rowsBandYPx.second - s.vbar->value();
            shaded =
                QRect(x0, top, std::max(1, x1 - x0), std::max(1, bottom - top)).intersected(area);
            band.setAlpha(70);
        }
        p.fillRect(shaded, band);
        p.setPen(QColor::fromRgb(Palette::kAnalysisWindow));
        p.drawLine(x0, 0, x0, area.bottom());
        p.drawLine(x1, 0, x1, area.bottom());
        const QString label = units::duration(s.selection.time->durationNs());
        const QFontMetrics fm(font());
        QRect box(0, 2, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 10);
        box.moveLeft(std::clamp((x0 + x1) / 2 - box.width() / 2, area.left(),
                                std::max(area.left(), area.right() - box.width())));
        p.fillRect(box, QColor::fromRgb(Palette::kAnalysisWindow));
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

std::optional<QRectF> TimelineView::sliceRect(model::SliceRef ref, const TimeMapper& map) const {
    const State& s = *m_state;
    const model::Slice& slice = s.trace->slice(ref);
    const std::optional<int> y =
        s.rows.layout().laneY(s.rows.layout().rowOfTrack(ref.track), slice.depth);
    if (!y) {
        return std::nullopt;
    }
    // Far-off coordinates are clamped: QPainter works in ints underneath.
    const double x0 = std::clamp(map.xForNs(slice.startNs), -1e5, 1e5);
    const double x1 = std::clamp(map.xForNs(slice.endNs()), -1e5, 1e5);
    return QRectF(x0, *y - s.vbar->value() + 1, std::max(x1 - x0, 2.0),
                  TimelineLayout::kLaneHeightPx - 2);
}

// Waits through CUDA events: from the end of the op waited for to the start of the waiter.
void TimelineView::paintDependencies(QPainter& p, const TimeMapper& map) const {
    const State& s = *m_state;
    auto paintOne = [&](const model::Dependency& d, double widthPx) {
        const std::optional<QRectF> from = sliceRect(d.from, map);
        const std::optional<QRectF> to = sliceRect(d.to, map);
        if (from && to) {
            const QRectF fromEnd(from->right(), from->top(), 0, from->height());
            paintArrow(p, fromEnd, *to, QColor::fromRgb(Palette::kDependencyArrow), widthPx);
        }
    };
    if (s.showDependencies) {
        constexpr std::size_t kMaxArrows = 2000;
        for (const model::Dependency& d :
             dependenciesInView(*s.trace, visibleStartNs(), visibleEndNs(), kMaxArrows)) {
            paintOne(d, 1.2);
        }
    }
    // The selected op's own waits stand out, shown or not.
    if (s.selection.slice.valid()) {
        for (const model::Dependency& d : s.trace->dependenciesTo(s.selection.slice))
            paintOne(d, 2.4);
        for (const model::Dependency& d : s.trace->dependenciesFrom(s.selection.slice))
            paintOne(d, 2.4);
    }
}

void TimelineView::paintSelection(QPainter& p, const TimeMapper& map) const {
    const State& s = *m_state;
    if (!s.selection.slice.valid()) {
        return;
    }
    const std::optional<QRectF> selected = sliceRect(s.selection.slice, map);
    if (selected) {
        const QRect r = selected->toAlignedRect();
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 1));
        p.drawRect(r.adjusted(-2, -2, 1, 1));
        p.setPen(QPen(QColor::fromRgb(Palette::kSelection), 2));
        p.drawRect(r.adjusted(-1, -1, 0, 0));
    }
    // The launch arrow: from the API call to its GPU work, whichever end is selected.
    const model::Flow* flow = s.trace->flowTo(s.selection.slice);
    if (!flow) {
        flow = s.trace->flowFrom(s.selection.slice);
    }
    if (!flow) {
        return;
    }
    const std::optional<QRectF> from = sliceRect(flow->from, map);
    const std::optional<QRectF> to = sliceRect(flow->to, map);
    if (from && to) {
        paintArrow(p, *from, *to, QColor::fromRgb(Palette::kFlowArrow), 1.6);
    }
}

void TimelineView::paintTimeCursor(QPainter& p, const QRect& area, const TimeMapper& map) const {
    const State& s = *m_state;
    const QPoint pointer = s.input->pointerPx();
    if (s.input->dragging() || !area.contains(pointer)) {
        return;
    }
    // A thin line through the rows and the pointer's time in the ruler.
    const int x = pointer.x();
    p.setPen(QColor(0x30, 0x3a, 0x46, 150));
    p.drawLine(x, area.top(), x, area.bottom());
    const QString label = units::duration(map.nsForX(x - area.left()));
    const QFontMetrics fm(font());
    QRect box(0, 3, fm.horizontalAdvance(label) + 10, kRulerHeightPx - 8);
    box.moveLeft(std::min(x + 4, area.right() - box.width()));
    p.fillRect(box, QColor(0x30, 0x3a, 0x46));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

}  // namespace wl::ui
