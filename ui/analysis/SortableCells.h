#pragma once

#include <QVariant>
#include <cstdint>

#include "model/Time.h"
#include "ui/common/Units.h"

namespace wl::ui::cells {

// The role the analysis tables' sort proxies sort by: every model returns the raw value there.
inline constexpr int kSortRole = Qt::UserRole + 1;

// Cells of the analysis tables that sort by number: the formatted text for display, the raw
// value when `raw` (the models' sort role, which a QSortFilterProxyModel sorts by, so "10.0 µs"
// comes after "9.0 µs").
inline QVariant duration(model::TimeNs ns, bool raw) {
    return raw ? QVariant::fromValue<qlonglong>(ns) : QVariant(units::duration(ns));
}
inline QVariant count(std::uint64_t n, bool raw) {
    return raw ? QVariant::fromValue<qulonglong>(n)
               : QVariant(units::grouped(static_cast<std::int64_t>(n)));
}

}  // namespace wl::ui::cells
