#include "ui/timeline/TimelineFlagsController.h"

#include <QFontMetrics>
#include <QInputDialog>
#include <QMenu>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ui/common/Units.h"
#include "ui/style/Palette.h"

namespace wl::ui {

using namespace timeline_geometry;

namespace {

constexpr int kMaxFlagNamePx = 120;
constexpr int kPennantHeightPx = 13;

QFont flagFont(const QFont& viewFont) {
    QFont f = viewFont;
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

TimelineFlagsController::TimelineFlagsController(TimeViewport& viewport,
                                                 const TimelineSelection& selection,
                                                 PointerTime pointerNs, QObject* parent)
    : QObject(parent),
      m_viewport(viewport),
      m_selection(selection),
      m_pointerNs(std::move(pointerNs)) {}

void TimelineFlagsController::setTrace(const model::Trace* trace) {
    m_trace = trace;
    m_flags.clear();  // times of the previous trace
    m_jumpedFlag.reset();
}

void TimelineFlagsController::changedNow() {
    updateMeasure();
    emit changed();
}

int TimelineFlagsController::drop(model::TimeNs timeNs, QString name) {
    const int id = m_flags.add(timeNs, std::move(name));
    changedNow();
    return id;
}

void TimelineFlagsController::mark() {
    if (!m_trace)
        return;
    if (m_selection.time && !m_selection.time->empty()) {
        drop(m_selection.time->startNs, tr("Selection start"));
        drop(m_selection.time->endNs, tr("Selection end"));
    } else if (const std::optional<model::TimeNs> pointer = m_pointerNs()) {
        drop(*pointer);
    } else if (m_selection.slice.valid()) {
        drop(m_trace->slice(m_selection.slice).startNs);
    } else {
        drop((m_viewport.startNs() + m_viewport.endNs()) / 2);
    }
}

bool TimelineFlagsController::rename(int id, const QString& name) {
    if (name.trimmed().isEmpty() || !m_flags.rename(id, name.trimmed()))
        return false;
    changedNow();
    return true;
}

bool TimelineFlagsController::remove(int id) {
    if (!m_flags.remove(id))
        return false;
    changedNow();
    return true;
}

void TimelineFlagsController::clear() {
    m_flags.clear();
    m_jumpedFlag.reset();
    changedNow();
}

void TimelineFlagsController::setReference(std::optional<int> id) {
    m_flags.setReference(id);
    changedNow();
}

bool TimelineFlagsController::jump(bool forward) {
    const model::TimeNs start = m_viewport.startNs();
    const model::TimeNs end = m_viewport.endNs();
    model::TimeNs fromNs = (start + end) / 2;
    const Flag* last = m_jumpedFlag ? m_flags.find(*m_jumpedFlag) : nullptr;
    if (last && m_jumpedViewNs == std::pair(start, end))
        fromNs = last->timeNs;
    const Flag* target = forward ? m_flags.next(fromNs) : m_flags.previous(fromNs);
    if (!target)
        return false;
    const model::TimeNs half = (end - start) / 2;
    m_viewport.setRange(target->timeNs - half, target->timeNs - half + (end - start));
    m_jumpedFlag = target->id;
    m_jumpedViewNs = {m_viewport.startNs(), m_viewport.endNs()};
    updateMeasure();  // the view moved: its scale's signal repaints
    return true;
}

bool TimelineFlagsController::handleKey(int key) {
    switch (key) {
        case Qt::Key_M:
            mark();
            return true;
        case Qt::Key_Period:
            jump(true);
            return true;
        case Qt::Key_Comma:
            jump(false);
            return true;
        default:
            return false;
    }
}

QString TimelineFlagsController::measureText() const {
    QStringList parts;
    if (m_flags.flags().size() >= 2) {
        // The flags either side of the pointer, else the last two dropped (the highest ids).
        const Flag* from = nullptr;
        const Flag* to = nullptr;
        if (const std::optional<model::TimeNs> t = m_pointerNs()) {
            from = m_flags.previous(*t + 1);
            to = m_flags.next(*t);
        }
        if (!from || !to) {
            std::vector<const Flag*> byId;
            for (const Flag& f : m_flags.flags())
                byId.push_back(&f);
            std::partial_sort(byId.begin(), byId.begin() + 2, byId.end(),
                              [](const Flag* a, const Flag* b) { return a->id > b->id; });
            from = byId[0]->timeNs <= byId[1]->timeNs ? byId[0] : byId[1];
            to = from == byId[0] ? byId[1] : byId[0];
        }
        parts << ui::measureText(from->name, from->timeNs, to->name, to->timeNs);
    }
    if (m_selection.time && !m_selection.time->empty()) {
        const model::TimeRange& r = *m_selection.time;
        if (const Flag* reference = m_flags.referenceFlag()) {
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

void TimelineFlagsController::updateMeasure() {
    QString text = measureText();
    if (text != m_measure) {
        m_measure = std::move(text);
        emit measureChanged(m_measure);
    }
}

// ---- the ruler ---------------------------------------------------------------------------------

RulerTicks TimelineFlagsController::rulerTicks(const TimeMapper& map) const {
    // Counting from a reference flag, ticks stand on round offsets from it.
    return computeRulerTicks(map, 90.0, m_flags.referenceNs());
}

RulerOrigin TimelineFlagsController::rulerOrigin(const TimeMapper& map,
                                                 const RulerTicks& ticks) const {
    if (const Flag* reference = m_flags.referenceFlag())
        return rulerOriginAt(reference->timeNs, reference->name);
    return ui::rulerOrigin(map.startNs(), map.endNs(), ticks.stepNs);
}

const Flag* TimelineFlagsController::flagAt(QPoint widgetPos, const TimelineFrame& frame) const {
    if (!m_trace || widgetPos.y() < 0 || widgetPos.y() >= kRulerHeightPx ||
        widgetPos.x() < kHeaderWidthPx)
        return nullptr;
    const QFontMetrics fm(flagFont(frame.font));
    const auto& all = m_flags.flags();
    const std::vector<int> xs = flagXs(m_flags, frame.map);
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

QString TimelineFlagsController::toolTipAt(QPoint widgetPos, const TimelineFrame& frame) const {
    const Flag* flag = flagAt(widgetPos, frame);
    if (!flag)
        return {};
    const Flag* reference = m_flags.referenceFlag();
    QString text = QStringLiteral("<b>%1</b><br>").arg(flag->name.toHtmlEscaped());
    if (reference == flag)
        text += tr("at %1 (times count from here)").arg(units::duration(flag->timeNs));
    else if (reference)
        text += tr("at %1 from %2")
                    .arg(signedDuration(flag->timeNs - reference->timeNs),
                         reference->name.toHtmlEscaped());
    else
        text += tr("at %1").arg(units::duration(flag->timeNs));
    if (const Flag* before = m_flags.previous(flag->timeNs))
        text += QStringLiteral("<br>") + tr("%1 after %2")
                                             .arg(units::duration(flag->timeNs - before->timeNs),
                                                  before->name.toHtmlEscaped());
    return text;
}

void TimelineFlagsController::promptRename(int id, QWidget* parent) {
    const Flag* flag = m_flags.find(id);
    if (!flag)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(parent, tr("Rename Flag"), tr("Name:"),
                                               QLineEdit::Normal, flag->name, &ok);
    if (ok)
        rename(id, name);
}

bool TimelineFlagsController::showRulerMenu(QPoint widgetPos, QPoint globalPos,
                                            const TimelineFrame& frame, QWidget* parent) {
    if (!m_trace || widgetPos.y() >= kRulerHeightPx || widgetPos.x() < kHeaderWidthPx)
        return false;
    QMenu menu(parent);
    if (const Flag* flag = flagAt(widgetPos, frame)) {
        const int id = flag->id;
        menu.addAction(tr("Rename…"), this, [this, id, parent] { promptRename(id, parent); });
        menu.addAction(tr("Remove"), this, [this, id] { remove(id); });
        QAction* reference = menu.addAction(tr("Times Relative to This Flag"), this, [this, id] {
            setReference(m_flags.reference() == id ? std::nullopt : std::optional(id));
        });
        reference->setCheckable(true);
        reference->setChecked(m_flags.reference() == id);
    } else {
        const model::TimeNs t = frame.timeAtX(widgetPos.x());
        menu.addAction(tr("Drop a Flag Here"), this, [this, t] { drop(t); });
    }
    QAction* removeAll = menu.addAction(tr("Remove All Flags"), this, [this] { clear(); });
    removeAll->setEnabled(!m_flags.flags().empty());
    menu.exec(globalPos);
    return true;
}

// ---- painting ----------------------------------------------------------------------------------

void TimelineFlagsController::paint(QPainter& p, const TimelineFrame& frame) const {
    if (m_flags.flags().empty())
        return;
    const QRect& area = frame.timeArea;
    const TimeMapper& map = frame.map;
    p.save();
    p.setClipRect(QRect(area.left(), 0, area.width(), area.bottom() + 1));
    p.setFont(flagFont(frame.font));
    const QFontMetrics fm(p.font());
    const std::vector<int> xs = flagXs(m_flags, map);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const Flag& flag = m_flags.flags()[i];
        if (flag.timeNs < map.startNs() - map.durationNs() || flag.timeNs > map.endNs())
            continue;  // its pennant may reach in from just left of the view
        const int x = xs[i];
        QColor color = QColor::fromRgb(m_flags.reference() == flag.id ? Palette::kReferenceFlag
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
