#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "model/Trace.h"

namespace wl::ui {

struct TimelineRow;

// A row's name that survives a new recording of the same program: what the row shows, not the
// pids, thread ids and indices that change from run to run. "gpu 0", "rank 1/gpu 0",
// "host python", "gpu 0/stream 7", "host python/CUDA API (thread #)", and "#2" after a second row
// that would read the same under one parent.
struct RowIdentity {
    QString group;  // the process row's identity
    QString row;    // group + "/" + the row's own part; equal to group for the process row
};

// The identity of a laid-out row (its process's for a process row). The "#2" of a repeat needs the
// row's siblings: TimelineLayout numbers repeats as it lays rows out (TimelineRow::identity).
RowIdentity rowIdentity(const model::Trace& trace, const TimelineRow& row);
// The row's own part of it (after the group's and "/"; empty for a process row): a layout names a
// group's many rows with it without working out the group's identity again for each.
QString rowIdentityPart(const model::Trace& trace, const TimelineRow& row);

// How the user arranged a trace's rows: rows and groups hidden, rows pinned to the top, groups and
// rows within a group put in an order of their own. Identities, so one arrangement serves every
// trace of a kind (kept across sessions per producer: see key()). Plain value.
struct RowArrangement {
    QStringList hidden;  // row or group identities
    QStringList pinned;  // shown first, in this order, above every group
    QStringList order;   // identities in the order the user put them; others keep theirs after

    bool isHidden(const QString& identity) const { return hidden.contains(identity); }
    bool isPinned(const QString& identity) const { return pinned.contains(identity); }
    bool empty() const { return hidden.isEmpty() && pinned.isEmpty() && order.isEmpty(); }

    void hide(const QString& identity);
    void show(const QString& identity);
    void pin(const QString& identity);
    void unpin(const QString& identity);
    // Puts `moved` just before `before` among `siblings` (identities in their current order),
    // recording the siblings' whole order; an empty `before` puts it last.
    void move(const QString& moved, const QString& before, const QStringList& siblings);

    // Sorts `identities` (siblings, in their default order) by the user's order: those it names
    // first, as it names them; the rest after, in their default order. Returns positions into
    // `identities`.
    std::vector<int> arrange(const QStringList& identities) const;

    // For QSettings: one string list per field under a key for the trace's kind.
    static QString key(const model::Trace& trace);  // "rows/<producer>"
    QStringList toStrings() const;
    static RowArrangement fromStrings(const QStringList& strings);
};

}  // namespace wl::ui
