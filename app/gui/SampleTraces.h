#pragma once

#include <QString>
#include <QStringList>

#include "model/Trace.h"

namespace wl::app {

// Makes the icons, the .desktop file and the samples of resources.qrc available as ":/...".
// Idempotent; the window calls it.
void registerResources();

// Traces bundled with the application (resources/samples/*.json.gz, recorded on a real GPU by
// `warpline run`), as ":/samples/..." resource paths, best first (reduce async first).
QStringList bundledSamples();

// A small hand-made trace shaped like a reduce async run on 4 streams (host API calls, NVTX
// ranges, per-stream copies and kernels, a synchronisation, launch flows). Shown when no GPU is
// available and no recorded sample is bundled; also a fixture for tests. Times are exact.
model::TracePtr syntheticSampleTrace();

}  // namespace wl::app
