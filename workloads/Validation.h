#pragma once

#include <cstdint>
#include <string>

#include "model/Result.h"
#include "workloads/catalog/RunCatalog.h"  // the limits (kMaxStreams, kMaxReduceElements, ...)

namespace wl::workloads {

// "--streams must be between 1 and 64 (got 0)": the catalog's range and message.
model::Status checkStreams(std::int64_t streams);
// "1.6 GB" for messages.
std::string formatBytes(std::int64_t bytes);

}  // namespace wl::workloads
