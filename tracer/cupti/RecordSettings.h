#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "cupti/CuptiTracer.h"
#include "model/Result.h"

namespace wl::cupti {

// What `warpline record` asks of the tracer in each traced process. The recorder checks it
// (fromOptions), hands it to the program through the environment (exportToEnvironment) and the
// injection library turns it into TracerOptions there (fromEnvironment, applyTo): the spellings
// are checked once, in the recorder, before the program starts.
struct RecordSettings {
    // analysis::parseCaptureRange's spellings, as given on the command line.
    std::string captureRange;
    std::string captureEnd;
    std::string delaySeconds;
    std::string durationSeconds;
    bool traceNvtx = true;
    std::string cudaApi = "both";  // runtime | driver | both | none
    bool cudaApiQueries = false;   // also record calls that only read state (cudaGetDevice, ...)
    std::size_t bufferMiB = 8;
    bool forceOverwrite = false;
    bool gpuMetrics = false;  // PM sampling of each GPU the program uses
    // CUPTI's unified-memory counters (--cuda-um-migrations, --cuda-um-cpu-page-faults,
    // --cuda-um-gpu-page-faults). All off: with any of them on, CUPTI slowed the recording of a
    // program that uses no managed memory (graph_relaunch) 3.6 times on an H200
    // (scripts/bench-unified-memory.sh, docs/PERFORMANCE.md), a price every recording would pay.
    UnifiedMemoryOptions unifiedMemory{};

    // Checks every field: an error names the option and what it accepts.
    model::Status check() const;
    // --trace LIST: "cuda" and "nvtx", comma-separated ("cuda" is always traced).
    model::Status setTrace(std::string_view list);
    // --buffer-size MIB: 1..256.
    model::Status setBufferSize(std::string_view mib);
    // --cuda-um-migrations, --cuda-um-cpu-page-faults, --cuda-um-gpu-page-faults: `option` is one
    // of those names, `value` true or false (Nsight Systems' spelling).
    model::Status setUnifiedMemory(std::string_view option, std::string_view value);

    void exportToEnvironment() const;  // setenv, in the recorder's child before exec
    static RecordSettings fromEnvironment();
    // The tracer options these settings stand for (on top of `options`).
    model::Status applyTo(TracerOptions& options) const;

private:
    // check()'s work, giving the parsed capture range too.
    model::Result<analysis::CaptureRange> checked() const;
};

}  // namespace wl::cupti
