#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "analysis/CaptureRange.h"
#include "cupti/UnifiedMemoryCounters.h"
#include "model/Result.h"
#include "model/Trace.h"

namespace wl::cupti {

struct TracerOptions {
    bool traceApi = true;  // CUDA API calls (needed for launch flows), as chosen below
    bool traceRuntimeApi = true;
    bool traceDriverApi = true;  // each runtime launch makes a driver call too
    bool traceNvtx = true;       // NVTX ranges and marks (NvtxRecorder), from start() to stop()
    // Calls that only read state (cudaGetDevice, cudaGetLastError, cuPointerGetAttribute: see
    // analysis::isStateQueryApi) are not recorded unless this is set: PyTorch makes tens of them
    // per kernel, and CUPTI's cost per recorded call falls on the program's thread.
    bool recordStateQueries = false;
    // PM sampling: warp occupancy % and SM active % (locks clocks; opt-in). With checkDevices,
    // every device from start(); without it (`record`), each device the program opens, from
    // its first context there.
    bool gpuMetrics = false;
    std::int64_t gpuMetricsIntervalNs = 100'000;  // PmSampler::kDefaultIntervalNs
    // CUPTI's unified-memory counters (migrations, page faults of managed memory). What CUPTI
    // refuses is a warning in the trace and goes to onSettingRefused; tracing goes on without it.
    UnifiedMemoryOptions unifiedMemory;
    // Called with each warning about a setting the tracer could not apply (unified-memory
    // counters CUPTI refused), when it is found: `record` prints them while the program runs.
    // May run on the program's thread (at its first CUDA context).
    std::function<void(const std::string&)> onSettingRefused;
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
    // Only this part of the run is kept (`record --capture-range`, `--delay`, `--duration`).
    analysis::CaptureRange capture;
    // When set, every activity buffer is also appended to this spill file as CUPTI hands it over
    // (cupti/SpillFile.h), headed by spillMetadata, so a process killed without warning leaves
    // its records; and CUPTI is asked for its buffers every flushPeriodMs (0: only when full), so
    // what a kill loses is at most that period's records.
    std::string spillPath;
    std::map<std::string, std::string> spillMetadata;
    std::uint32_t flushPeriodMs = 0;
    // Called when exit handlers have just been registered that would break the trace if they ran
    // before it is written: on the program's thread at its first CUDA context (the CUDA
    // runtime's teardown), and after a device's deferred GPU metrics started (what CUPTI's
    // profiler host library registered; the last decode at exit needs it). `record` registers
    // its at-exit trace writer again each time: handlers run newest first, so the trace is then
    // written while all of them still work.
    std::function<void()> onExitHandlersAdded;
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
    // A fact for the trace's metadata learnt while running (it joins TracerOptions::metadata).
    void setMetadata(const std::string& key, const std::string& value);
    // The trace was written: its spill file (TracerOptions::spillPath) is removed. Call after
    // stop().
    void discardSpill();

    // Makes this process's NVTX calls reach Warpline's NVTX recorder (NvtxInjection.h, through
    // NVTX's static injection hook): an NVTX_INJECTION64_PATH that names a libcupti (left by
    // another CUPTI tool) is cleared, as CUPTI's own NVTX records are not what the trace is made
    // of; any other tool the user set wins. Must run before the process's first NVTX call;
    // start() calls it too.
    static void ensureNvtxInjection();
    // CUPTI's clock now: the clock of every record's timestamps (0 when it cannot be read).
    static std::uint64_t clockNs();
    // Path of the libcupti this process loaded (empty when it cannot be found).
    static std::string loadedCuptiPath();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace wl::cupti
