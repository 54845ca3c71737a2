#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "model/Result.h"
#include "model/Trace.h"

namespace wl::cupti {

struct TracerOptions {
    bool traceApi = true;  // runtime + driver API calls (needed for launch flows)
    // With traceApi: driver calls too (each runtime launch makes one).
    bool traceDriverApi = true;
    bool traceNvtx = true;  // NVTX ranges and marks
    bool gpuMetrics =
        false;  // PM sampling: warp occupancy % and SM active % (locks clocks; opt-in)
    std::int64_t gpuMetricsIntervalNs = 20'000;
    std::size_t bufferBytes = 8u << 20;  // per activity buffer
    std::size_t maxBuffers = 64;         // pool bound; more are allocated only if the pool runs dry
    std::size_t preallocatedBuffers =
        8;  // allocated at start() so the request callback never waits
    // In-process runs: refuse to start without a GPU, synchronise the devices before the final
    // flush and ask the runtime for device properties. The injection library turns these off: it
    // starts inside cuInit (no runtime calls allowed there) and stops during exit().
    bool checkDevices = true;
    bool synchronizeAtStop = true;
    bool queryDeviceProperties = true;
    std::string hostName;  // host process name in the trace (default: "Host")
    // Facts about the run copied into the trace's metadata ("workload", "mode", ...); they
    // override the tracer's own keys ("producer", "cupti records").
    std::map<std::string, std::string> metadata;
};

class CuptiApi;

// In-process CUPTI activity tracer: start() enables the activity kinds, stop() synchronises the
// devices, flushes every buffer and returns the Trace. One per process (CUPTI allows one
// subscriber); start/stop may be repeated for many runs. Errors (no driver, no GPU, CUPTI refused
// because another profiler is attached) come back as values; nothing aborts.
class CuptiTracer {
public:
    CuptiTracer();
    // Tests pass a fake CUPTI.
    explicit CuptiTracer(std::shared_ptr<CuptiApi> api);
    ~CuptiTracer();
    CuptiTracer(const CuptiTracer&) = delete;
    CuptiTracer& operator=(const CuptiTracer&) = delete;

    model::Status start(const TracerOptions& options = {});
    model::Result<model::TracePtr> stop();
    bool running() const;

    // Points NVTX_INJECTION64_PATH at the libcupti this process loaded, unless the user set it.
    // Must run before the process's first NVTX call; start() calls it too.
    static void ensureNvtxInjection();
    // Path of the libcupti this process loaded (empty when it cannot be found).
    static std::string loadedCuptiPath();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace wl::cupti
