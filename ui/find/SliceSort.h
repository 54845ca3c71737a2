#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include <QtGlobal>

#include "model/Slice.h"
#include "model/Time.h"
#include "model/Trace.h"
#include "ui/find/SliceTableModel.h"

namespace wl::ui {

// The rows of the events table: which slices (all, or those overlapping a time window) and in
// what order (by any column of SliceTableModel, either way). Sorting is a stable radix sort on a
// 64-bit key per row (the duration, the bytes, the rank of the row's or name's text), so ten
// million rows sort in a fraction of a second on one core, and ties keep time order. Pure; any
// thread; `cancel` stops early (the result is then empty).
class SliceSort {
public:
    // Every slice of `trace` (but the NVTX-on-the-GPU rows, copies of the host's ranges) that
    // overlaps `window` (all when nullopt), in time order: start, then track, then index.
    static SliceList collect(const model::Trace& trace, std::optional<model::TimeRange> window,
                             const std::atomic<bool>* cancel = nullptr);

    // `rows` (in time order, as collect() gives them) ordered by `column`. Start ascending is time
    // order itself; every other order keeps time order among equal keys.
    static SliceList sorted(const model::Trace& trace, const SliceList& rows,
                            SliceTableModel::Column column, Qt::SortOrder order,
                            const std::atomic<bool>* cancel = nullptr);
};

}  // namespace wl::ui
