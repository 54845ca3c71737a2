#include "ui/timeline/TimelineContent.h"

#include <QPainter>

#include "ui/timeline/TimelineToolTips.h"

namespace wl::ui {

using namespace timeline_geometry;

TimelineContent::TimelineContent(const QFont& labelFont)
    : m_labelFont(labelFont), m_drawLists(m_labelFont), m_rowPainter(m_labelFont) {}

void TimelineContent::setTrace(model::TracePtr trace) {
    m_trace = std::move(trace);
    m_rows.setTrace(m_trace.get());
    m_overlays.build(m_trace.get(), {});
    ++m_overlayVersion;
    m_counters.build(m_trace.get());
    m_lanes.build(m_trace.get());
    m_drawLists.invalidate();  // nothing drawn from the previous trace is kept
    relayout();
}

bool TimelineContent::isValidRef(model::SliceRef ref) const {
    const model::Trace* trace = m_trace.get();
    return trace && ref.valid() && ref.track < trace->tracks().size() &&
           ref.index < trace->track(ref.track).slices.size();
}

void TimelineContent::setOverlays(TimelineOverlays overlays) {
    m_overlays.build(m_trace.get(), std::move(overlays));
    ++m_overlayVersion;
    relayout();  // the device idle-gap rows depend on the overlays
}

bool TimelineContent::setFullKernelNames(bool full) {
    if (full == m_overlays.fullKernelNames()) {
        return false;
    }
    m_overlays.setFullKernelNames(full);
    m_drawLists.invalidate();  // the labels change, which the key does not name
    return true;
}

bool TimelineContent::setShowDependencies(bool show) {
    if (show == m_showDependencies) {
        return false;
    }
    m_showDependencies = show;
    return true;
}

void TimelineContent::relayout() {
    m_rows.rebuild(m_overlays.devicesWithGaps());
}

HitResult TimelineContent::hitAt(const TimelineFrame& frame, QPoint widgetPos) const {
    const QRect& area = frame.timeArea;
    if (!m_trace || !area.contains(widgetPos)) {
        return {};
    }
    return hitTest(*m_trace, layout(), &m_overlays, frame.map, widgetPos.x() - area.left(),
                   widgetPos.y() - area.top() + frame.scrollPx);
}

QString TimelineContent::toolTipAt(const TimelineFrame& frame, QPoint widgetPos) const {
    if (!m_trace) {
        return {};
    }
    if (widgetPos.x() < kHeaderWidthPx && widgetPos.y() >= kRulerHeightPx) {
        const int row = layout().rowAt(frame.contentYAt(widgetPos.y()));
        return row >= 0 ? rowHeaderTooltip(layout().rows()[std::size_t(row)]) : QString();
    }
    const HitResult hit = hitAt(frame, widgetPos);
    return hit.kind == HitResult::Kind::None ? QString()
                                             : hitTooltip(*m_trace, layout(), m_overlays, hit);
}

DrawListCache& TimelineContent::drawListsFor(const TimelineFrame& frame) const {
    DrawListRequest request;
    request.trace = m_trace.get();
    request.layout = &layout();
    request.overlays = &m_overlays;
    request.counters = &m_counters;
    request.lanes = &m_lanes;
    request.mapper = frame.map;
    m_drawLists.setInputs(request,
                          {m_trace.get(), m_rows.version(), m_overlayVersion, frame.map.startNs(),
                           frame.map.endNs(), frame.timeArea.width()});
    return m_drawLists;
}

DrawList TimelineContent::drawList(const TimelineFrame& frame) const {
    return drawListsFor(frame).frame(frame.scrollPx, frame.timeArea.height());
}

void TimelineContent::paintRows(QPainter& p, const TimelineFrame& frame) const {
    DrawListCache& lists = drawListsFor(frame);
    const auto [first, last] = lists.rowsIn(frame.scrollPx, frame.timeArea.height());
    for (int r = first; r < last; ++r) {
        const DrawList& list = lists.row(r);
        if (list.empty()) {
            continue;
        }
        const int dy = layout().rows()[std::size_t(r)].yPx - frame.scrollPx;
        p.translate(0, dy);
        m_rowPainter.paint(p, list);
        p.translate(0, -dy);
    }
}

}  // namespace wl::ui
