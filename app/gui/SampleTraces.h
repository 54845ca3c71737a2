#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "model/Trace.h"

namespace wl::app {

// Makes the icons, the .desktop file and the samples of resources.qrc available as ":/...".
// Idempotent; the window calls it.
void registerResources();

// Traces bundled with the application (resources/samples/*.json.gz, recorded on a real GPU by
// `warpline run`), as ":/samples/..." resource paths, best first (reduce async first).
QStringList bundledSamples();

// Two bundled samples worth comparing (the lesson between them) as resource paths; only pairs
// whose both traces are bundled.
struct SamplePair {
    QString title;  // "Power iteration: async vs CUDA graphs"
    QString first;
    QString second;
};
std::vector<SamplePair> bundledSamplePairs();

// A small hand-made trace shaped like a reduce async run on 4 streams (host API calls, NVTX
// ranges, per-stream copies and kernels, a synchronisation, launch flows). Shown when no GPU is
// available and no recorded sample is bundled; also a fixture for tests. Times are exact.
model::TracePtr syntheticSampleTrace();

}  // namespace wl::app
