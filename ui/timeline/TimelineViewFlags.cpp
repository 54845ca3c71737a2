// TimelineView's flags: dropping, naming, jumping to and measuring between them, the ruler
// counting from a reference flag, and their pennants on the ruler (see the class comment).
#include "ui/timeline/TimelineView.h"

#include <QInputDialog>
#include <QMenu>
#include <limits>

#include "ui/timeline/TimelineViewState.h"

namespace wl::ui {

using namespace timeline_view;  // the view's constants and geometry

namespace {

constexpr int kMaxFlagNamePx = 120;
constexpr int kPennantHeightPx = 13;

QFont flagFont(const QWidget* w) {
    QFont f = w->font();
    f.setPointSizeF(8.0);
    return f;
}

// A flag's pennant on the ruler: a box with its (elided) name, its left edge on the flag's time,
// cut short before the next flag's pole (`nextX`) so that close flags do not cover each other.
QRect pennantRect(const QFontMetrics& fm, const QString& name, int x, int nextX) {
    const int textW = std::min(kMaxFlagNamePx, fm.horizontalAdvance(name));
    return QRect(x, 1, std::min(textW + 8, std::max(6, nextX - x - 1)), kPennantHeightPx);
}

// The widget x of each flag, in time order.
std::vector<int> flagXs(const FlagSet& flags, const TimeMapper& map) {
    std::vector<int> xs;
    for (const Flag& f : flags.flags())
        xs.push_back(kHeaderWidthPx +
                     int(std::lround(std::clamp(map.xForNs(f.timeNs), -1e5, 1e5))));
    return xs;
}

int nextXOf(const std::vector<int>& xs, std::size_t i) {
    return i + 1 < xs.size() ? xs[i + 1] : std::numeric_limits<int>::max() / 2;
}

// "+3.2 ms" / "-850 ns": a time against another.
QString signedDuration(model::TimeNs ns) {
    return (ns < 0 ? QStringLiteral("-") : QStringLiteral("+")) + units::duration(std::llabs(ns));
}

}  // namespace

const FlagSet& TimelineView::flags() const {
    return m_state->flags;
}

int TimelineView::dropFlag(model::TimeNs timeNs, QString name) {
    const int id = m_state->flags.add(timeNs, std::move(name));
    updateMeasure();
    update();
    return id;
}

void TimelineView::markFlags() {
    const State& s = *m_state;
    if (!s.trace)
        return;
    if (s.selection.time && !s.selection.time->empty()) {
        dropFlag(s.selection.time->startNs, tr("Selection start"));
        dropFlag(s.selection.time->endNs, tr("Selection end"));
    } else if (timeAreaOf(this, s.vbar).contains(s.mousePos)) {
        dropFlag(nsAtX(s.mousePos.x()));
    } else if (s.selection.slice.valid()) {
        dropFlag(s.trace->slice(s.selection.slice).startNs);
    } else {
        dropFlag((visibleStartNs() + visibleEndNs()) / 2);
    }
}

bool TimelineView::renameFlag(int id, const QString& name) {
    if (name.trimmed().isEmpty() || !m_state->flags.rename(id, name.trimmed()))
        return false;
    updateMeasure();
    update();
    return true;
}

bool TimelineView::removeFlag(int id) {
    if (!m_state->flags.remove(id))
        return false;
    updateMeasure();
    update();
    return true;
}

void TimelineView::clearFlags() {
    m_state->flags.clear();
    m_state->jumpedFlag.reset();
    updateMeasure();
    update();
}

void TimelineView::setReferenceFlag(std::optional<int> id) {
    m_state->flags.setReference(id);
    updateMeasure();
    update();
}

bool TimelineView::jumpToFlag(bool forward) {
    State& s = *m_state;
    const model::TimeNs start = visibleStartNs();
    const model::TimeNs end = visibleEndNs();
    // From the flag last jumped to while the view is still where that left it (clamped at the
    // trace's ends the middle is not the flag), else from the view's middle.
    model::TimeNs fromNs = (start + end) / 2;
    const Flag* last = s.jumpedFlag ? s.flags.find(*s.jumpedFlag) : nullptr;
    if (last && s.jumpedView == std::pair(start, end))
        fromNs = last->timeNs;
    const Flag* target = forward ? s.flags.next(fromNs) : s.flags.previous(fromNs);
    if (!target)
        return false;
    const model::TimeNs half = (end - start) / 2;
    setVisibleRange(target->timeNs - half, target->timeNs - half + (end - start));
    s.jumpedFlag = target->id;
    s.jumpedView = {visibleStartNs(), visibleEndNs()};
    updateMeasure();
    return true;
}

QString TimelineView::measureText() const {
    const State& s = *m_state;
    QStringList parts;
    const FlagSet& flags = s.flags;
    if (flags.flags().size() >= 2) {
        // The flags either side of the pointer, else the last two dropped (the highest ids).
        const Flag* from = nullptr;
        const Flag* to = nullptr;
        if (timeAreaOf(this, s.vbar).contains(s.mousePos)) {
            const model::TimeNs t = nsAtX(s.mousePos.x());
            from = flags.previous(t + 1);
            to = flags.next(t);
        }
        if (!from || !to) {
            std::vector<const Flag*> byId;
            for (const Flag& f : flags.flags())
                byId.push_back(&f);
            std::partial_sort(byId.begin(), byId.begin() + 2, byId.end(),
                              [](const Flag* a, const Flag* b) { return a->id > b->id; });
            from = byId[0]->timeNs <= byId[1]->timeNs ? byId[0] : byId[1];
            to = from == byId[0] ? byId[1] : byId[0];
        }
        parts << ui::measureText(from->name, from->timeNs, to->name, to->timeNs);
    }
    if (s.selection.time && !s.selection.time->empty()) {
        const model::TimeRange& r = *s.selection.time;
        const Flag* reference = flags.referenceFlag();
        if (reference) {
            const model::TimeNs ref = reference->timeNs;
            parts << tr("Selection %1: %2 to %3 from %4")
                         .arg(units::duration(r.durationNs()), signedDuration(r.startNs - ref),
                              signedDuration(r.endNs - ref), reference->name);
        } else {
            parts << tr("Selection %1: %2 to %3")
                         .arg(units::duration(r.durationNs()), units::duration(r.startNs),
                              units::duration(r.endNs));
        }
    }
    return parts.join(QStringLiteral("   ·   "));
}

bool TimelineView::handleFlagKey(int key) {
    switch (key) {
        case Qt::Key_M:
            markFlags();
            return true;
        case Qt::Key_Period:
            jumpToFlag(true);
            return true;
        case Qt::Key_Comma:
            jumpToFlag(false);
            return true;
        default:
            return false;
    }
}

void TimelineView::updateMeasureAfter(QEvent::Type type) {
    switch (type) {
        case QEvent::MouseMove:
        case QEvent::MouseButtonRelease:
        case QEvent::Leave:
        case QEvent::KeyPress:
            updateMeasure();
            break;
        default:
            break;
    }
}

void TimelineView::updateMeasure() {
    QString text = measureText();
    if (text != m_state->measure) {
        m_state->measure = std::move(text);
        emit measureChanged(m_state->measure);
    }
}

// ---- the ruler ---------------------------------------------------------------------------------

RulerTicks TimelineView::rulerTicks(const TimeMapper& map) const {
    // Counting from a reference flag, ticks stand on round offsets from it.
    return computeRulerTicks(map, 90.0, m_state->flags.referenceNs());
}

RulerOrigin TimelineView::rulerOriginFor(const TimeMapper& map, const RulerTicks& ticks) const {
    const FlagSet& flags = m_state->flags;
    if (const Flag* reference = flags.referenceFlag())
        return rulerOriginAt(reference->timeNs, reference->name);
    return rulerOrigin(map.startNs(), map.endNs(), ticks.stepNs);
}

RulerOrigin TimelineView::currentRulerOrigin() const {
    const TimeMapper map = mapper();
    return rulerOriginFor(map, rulerTicks(map));
}

const Flag* TimelineView::flagAt(QPoint widgetPos) const {
    const State& s = *m_state;
    if (!s.trace || widgetPos.y() < 0 || widgetPos.y() >= kRulerHeightPx ||
        widgetPos.x() < kHeaderWidthPx)
        return nullptr;
    const QFontMetrics fm(flagFont(this));
    const auto& all = s.flags.flags();
    const std::vector<int> xs = flagXs(s.flags, mapper());
    // The last painted (the latest in time) is on top.
    for (std::size_t i = all.size(); i-- > 0;) {
        // The pennant, and the pole below it a few pixels either side.
        if (pennantRect(fm, all[i].name, xs[i], nextXOf(xs, i))
                .adjusted(-3, 0, 0, 0)
                .contains(widgetPos) ||
            std::abs(widgetPos.x() - xs[i]) <= 3)
            return &all[i];
    }
    return nullptr;
}

QString TimelineView::flagTooltipAt(QPoint widgetPos) const {
    const Flag* flag = flagAt(widgetPos);
    if (!flag)
        return {};
    const FlagSet& flags = m_state->flags;
    const Flag* reference = flags.referenceFlag();
    QString text = QStringLiteral("<b>%1</b><br>").arg(flag->name.toHtmlEscaped());
    if (reference == flag)
        text += tr("at %1 (times count from here)").arg(units::duration(flag->timeNs));
    else if (reference)
        text += tr("at %1 from %2")
                    .arg(signedDuration(flag->timeNs - reference->timeNs),
                         reference->name.toHtmlEscaped());
    else
        text += tr("at %1").arg(units::duration(flag->timeNs));
    if (const Flag* before = flags.previous(flag->timeNs))
        text += QStringLiteral("<br>") + tr("%1 after %2")
                                             .arg(units::duration(flag->timeNs - before->timeNs),
                                                  before->name.toHtmlEscaped());
    return text;
}

void TimelineView::promptRenameFlag(int id) {
    const Flag* flag = m_state->flags.find(id);
    if (!flag)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename Flag"), tr("Name:"),
                                               QLineEdit::Normal, flag->name, &ok);
    if (ok)
        renameFlag(id, name);
}

bool TimelineView::showRulerMenu(QPoint widgetPos, QPoint globalPos) {
    const State& s = *m_state;
    if (!s.trace || widgetPos.y() >= kRulerHeightPx || widgetPos.x() < kHeaderWidthPx)
        return false;
    QMenu menu(this);
    if (const Flag* flag = flagAt(widgetPos)) {
        const int id = flag->id;
        menu.addAction(tr("Rename…"), this, [this, id] { promptRenameFlag(id); });
        menu.addAction(tr("Remove"), this, [this, id] { removeFlag(id); });
        QAction* reference = menu.addAction(tr("Times Relative to This Flag"), this, [this, id] {
            setReferenceFlag(m_state->flags.reference() == id ? std::nullopt : std::optional(id));
        });
        reference->setCheckable(true);
        reference->setChecked(s.flags.reference() == id);
    } else {
        const model::TimeNs t = nsAtX(widgetPos.x());
        menu.addAction(tr("Drop a Flag Here"), this, [this, t] { dropFlag(t); });
    }
    QAction* removeAll = menu.addAction(tr("Remove All Flags"), this, [this] { clearFlags(); });
    removeAll->setEnabled(!s.flags.flags().empty());
    menu.exec(globalPos);
    return true;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const Flag* flag =
        event->button() == Qt::LeftButton ? flagAt(event->position().toPoint()) : nullptr;
    if (!flag) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    m_state->pressed = false;  // the second press is the dialog's, not a drag's
    promptRenameFlag(flag->id);
    event->accept();
}

// ---- painting ----------------------------------------------------------------------------------

void TimelineView::paintFlags(QPainter& p, const QRect& area, const TimeMapper& map) const {
    const FlagSet& flags = m_state->flags;
    if (flags.flags().empty())
        return;
    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), area.bottom() + 1));
    p.setFont(flagFont(this));
    const QFontMetrics fm(p.font());
    const std::vector<int> xs = flagXs(flags, map);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const Flag& flag = flags.flags()[i];
        if (flag.timeNs < map.startNs() - map.durationNs() || flag.timeNs > map.endNs())
            continue;  // its pennant may reach in from just left of the view
        const int x = xs[i];
        QColor color = QColor::fromRgb(flags.reference() == flag.id ? Palette::kReferenceFlag
                                                                    : Palette::kFlag);
        // A thin line through the rows and a pole down the ruler.
        QColor line = color;
        line.setAlpha(150);
        p.setPen(QPen(line, 1, Qt::DashLine));
        p.drawLine(x, kRulerHeightPx, x, area.bottom());
        p.setPen(QPen(color, 1));
        p.drawLine(x, 1, x, kRulerHeightPx - 1);
        const QRect pennant = pennantRect(fm, flag.name, x, nextXOf(xs, i));
        p.fillRect(pennant, color);
        p.setPen(Qt::white);
        if (pennant.width() > 16)
            p.drawText(pennant.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(flag.name, Qt::ElideRight, pennant.width() - 8));
    }
    p.restore();
}

}  // namespace wl::ui
