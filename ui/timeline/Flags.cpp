#include "ui/timeline/Flags.h"
#include "ui/common/Units.h"

#include <QObject>
#include <algorithm>
#include <cstdlib>

#include "ui/timeline/TimeFormat.h"

namespace wl::ui {

int FlagSet::add(model::TimeNs timeNs, QString name) {
    const int id = m_nextId++;
    if (name.isEmpty())
        name = QObject::tr("Flag %1").arg(id);
    Flag flag{id, timeNs, std::move(name)};
    const auto at =
        std::upper_bound(m_flags.begin(), m_flags.end(), flag, [](const Flag& a, const Flag& b) {
            return a.timeNs != b.timeNs ? a.timeNs < b.timeNs : a.id < b.id;
        });
    m_flags.insert(at, std::move(flag));
    return id;
}

bool FlagSet::remove(int id) {
    const auto it =
        std::find_if(m_flags.begin(), m_flags.end(), [id](const Flag& f) { return f.id == id; });
    if (it == m_flags.end())
        return false;
    m_flags.erase(it);
    if (m_reference == id)
        m_reference.reset();
    return true;
}

bool FlagSet::rename(int id, const QString& name) {
    for (Flag& f : m_flags) {
        if (f.id == id) {
            f.name = name;
            return true;
        }
    }
    return false;
}

void FlagSet::clear() {
    m_flags.clear();
    m_reference.reset();
}

const Flag* FlagSet::find(int id) const {
    const auto it =
        std::find_if(m_flags.begin(), m_flags.end(), [id](const Flag& f) { return f.id == id; });
    return it == m_flags.end() ? nullptr : &*it;
}

const Flag* FlagSet::next(model::TimeNs timeNs) const {
    const auto it = std::find_if(m_flags.begin(), m_flags.end(),
                                 [timeNs](const Flag& f) { return f.timeNs > timeNs; });
    return it == m_flags.end() ? nullptr : &*it;
}

const Flag* FlagSet::previous(model::TimeNs timeNs) const {
    const auto it = std::find_if(m_flags.rbegin(), m_flags.rend(),
                                 [timeNs](const Flag& f) { return f.timeNs < timeNs; });
    return it == m_flags.rend() ? nullptr : &*it;
}

const Flag* FlagSet::nearest(model::TimeNs timeNs, model::TimeNs toleranceNs) const {
    const Flag* best = nullptr;
    for (const Flag& f : m_flags) {
        const model::TimeNs d = std::llabs(f.timeNs - timeNs);
        if (d <= toleranceNs && (!best || d < std::llabs(best->timeNs - timeNs)))
            best = &f;
    }
    return best;
}

void FlagSet::setReference(std::optional<int> id) {
    m_reference = id && find(*id) ? id : std::nullopt;
}

model::TimeNs FlagSet::referenceNs() const {
    const Flag* f = referenceFlag();
    return f ? f->timeNs : 0;
}

QString measureText(const QString& from, model::TimeNs fromNs, const QString& to,
                    model::TimeNs toNs) {
    return QObject::tr("%1 → %2: %3").arg(from, to, units::duration(std::llabs(toNs - fromNs)));
}

}  // namespace wl::ui
