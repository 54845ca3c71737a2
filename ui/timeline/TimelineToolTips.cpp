#include "ui/timeline/TimelineToolTips.h"

#include <string_view>

#include "ui/common/Units.h"
#include "ui/timeline/SliceText.h"

namespace wl::ui {

QString rowHeaderTooltip(const TimelineRow& r) {
    QString text = r.title.toHtmlEscaped();
    if (r.kind == RowKind::Track && r.laneCount > 1) {
        text += QStringLiteral("<br>%1 lanes%2")
                    .arg(r.laneCount)
                    .arg(r.collapsed ? QStringLiteral(" (collapsed: click to expand)")
                                     : QStringLiteral(" (click to collapse)"));
    }
    return text;
}

QString hitTooltip(const model::Trace& trace, const TimelineLayout& layout,
                   const OverlayIndex& overlays, const HitResult& hit) {
    switch (hit.kind) {
        case HitResult::Kind::Slice:
            return sliceTooltip(trace, hit.slice, overlays.badge(hit.slice));
        case HitResult::Kind::Gap: {
            const TimelineOverlays& o = overlays.overlays();
            const GapOverlay& gap = o.gaps[hit.gap];
            return gapTooltip(gap, o.gapDetails ? o.gapDetails(trace, gap) : gap.tooltip);
        }
        case HitResult::Kind::Counter: {
            const TimelineRow& r = layout.rows()[std::size_t(hit.row)];
            const model::CounterTrack& c = trace.counters()[r.counter];
            QString text = QStringLiteral("<b>%1</b><br>%2 at %3")
                               .arg(r.title.toHtmlEscaped())
                               .arg(units::counterValue(hit.counterValue, trace.str(c.unitId),
                                                        c.derived ? 0 : 2))
                               .arg(units::duration(hit.timeNs));
            if (const std::string_view about = trace.str(c.descriptionId); !about.empty())
                text += QStringLiteral("<br><br>%1")
                            .arg(QString::fromUtf8(about.data(), qsizetype(about.size()))
                                     .toHtmlEscaped());
            return text;
        }
        case HitResult::Kind::None:
            break;
    }
    return {};
}

}  // namespace wl::ui
