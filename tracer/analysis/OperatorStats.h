#pragma once

#include <atomic>
#include <optional>

#include "analysis/Summary.h"
#include "analysis/Window.h"
#include "model/Trace.h"

namespace wl::analysis {

// The operators of the window (Summary::operators): every call that starts inside the window's
// parts, with its host time whole and the GPU ops it launched whole (wherever they ran). The rules
// are in OperatorStats.cpp. Nullopt once `cancel` is set.
std::optional<OperatorTable> operatorTable(const model::Trace& trace, const AnalysisWindow& window,
                                           const std::atomic<bool>* cancel = nullptr);

}  // namespace wl::analysis
