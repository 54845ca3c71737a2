#pragma once

#include <utility>
#include <vector>

#include <QString>

#include "model/Details.h"
#include "model/Time.h"

namespace wl::ui {

// A unified-memory event's facts as (field, value) lines, in the order people ask them: what it
// was, how much, where from and to, why, and what it points at. The one wording of the tooltip
// and the details panel.
std::vector<std::pair<QString, QString>> unifiedMemoryFields(const model::UnifiedMemoryDetail& d,
                                                             model::TimeNs durationNs);
// "GPU 1", "host", or "" (not said).
QString unifiedMemoryProcessor(std::int32_t device);
// Why a region moved, in words ("page fault", "cudaMemPrefetchAsync", ...).
QString unifiedMemoryCauseText(model::UnifiedMemoryCause cause);

}  // namespace wl::ui
