#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "model/Time.h"

namespace wl::ui {

// A named mark at one time, dropped by the user (a click on the ruler with Ctrl, key M at the
// pointer or at a time selection's edges). Times in trace ns.
struct Flag {
    int id = 0;
    model::TimeNs timeNs = 0;
    QString name;
};

// The flags of one trace, in time order, with the questions the timeline asks of them: the next
// and the previous flag from a time (jumping between flags), and the time between two of them.
// One of them may be the reference the ruler reads times from. Plain value; GUI thread only.
class FlagSet {
public:
    // Adds a flag; an unnamed one is called "Flag N". Returns its id.
    int add(model::TimeNs timeNs, QString name = {});
    bool remove(int id);
    bool rename(int id, const QString& name);
    void clear();

    const std::vector<Flag>& flags() const { return m_flags; }  // by time, then by id
    const Flag* find(int id) const;
    // The first flag after `timeNs` / the last before it (strictly), for jumping.
    const Flag* next(model::TimeNs timeNs) const;
    const Flag* previous(model::TimeNs timeNs) const;
    // The flag nearest `timeNs` within `toleranceNs` (a click near a flag picks it).
    const Flag* nearest(model::TimeNs timeNs, model::TimeNs toleranceNs) const;

    // The flag times are read relative to (nullopt: from the trace's start).
    void setReference(std::optional<int> id);
    std::optional<int> reference() const { return m_reference; }
    const Flag* referenceFlag() const { return m_reference ? find(*m_reference) : nullptr; }
    model::TimeNs referenceNs() const;  // 0 without a reference

private:
    std::vector<Flag> m_flags;
    int m_nextId = 1;
    std::optional<int> m_reference;
};

// "Flag 1 → Flag 2: 12.40 ms" — the measure between two times, for the status line and tests.
QString measureText(const QString& from, model::TimeNs fromNs, const QString& to,
                    model::TimeNs toNs);

}  // namespace wl::ui
