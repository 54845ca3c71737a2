#pragma once

#include <QString>

#include "model/Trace.h"

namespace wl::ui {

// The names the timeline's row headers, the tables and the panels give a track ("Stream 7",
// "CUDA API (tid 12)", its recorded name when it has one) and a process ("GPU 0: NVIDIA H100",
// "python3 (pid 4242)"): one wording wherever a row is named.
QString trackTitle(const model::Trace& trace, const model::Track& track);
QString processTitle(const model::Trace& trace, model::ProcessIndex index);

}  // namespace wl::ui
