#pragma once

#include <vector>

#include "model/Slice.h"
#include "ui/find/HugePageAllocator.h"

namespace wl::ui {

// A list of slice references as the Find panel and the events table hold them: up to one per
// slice of the trace (80 MB for ten million), so in huge pages (HugePageAllocator).
using SliceList = std::vector<model::SliceRef, HugePageAllocator<model::SliceRef>>;

}  // namespace wl::ui
