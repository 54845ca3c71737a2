#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cupti/PmSampler.h"

namespace wl::cupti {

// GPU metrics for a tracer that starts before any CUDA context exists (`record`'s injection
// starts inside cuInit): PM sampling of a device begins on a thread of its own as soon as the
// program's first context on that device appears (the tracer's CUPTI callback calls noteDevice),
// never on the program's thread, so only the GPUs the program uses are sampled. stop() hands over
// the samplers that started. One per run.
class DeferredMetrics {
public:
    using SamplerFactory = std::function<std::unique_ptr<PmSampler>()>;
    // `onStarted` runs on the starter thread after each device's sampling started (record
    // registers its at-exit writer again there: see TracerOptions::onExitHandlersAdded).
    DeferredMetrics(
        std::int64_t intervalNs, std::function<void()> onStarted,
        SamplerFactory makeSampler = [] { return std::make_unique<PmSampler>(); });
    ~DeferredMetrics();
    DeferredMetrics(const DeferredMetrics&) = delete;
    DeferredMetrics& operator=(const DeferredMetrics&) = delete;

    // Safe from a CUPTI callback: queues the device (once) and wakes the starter thread.
    void noteDevice(int deviceId);
    // Waits (at most `timeout`) until every device noted so far was tried. The tracer calls it
    // on the program's thread at each kernel launch, so that the samples cover the program's
    // kernels from the first, and so that no start is still running when the program exits (a
    // start overtaken by the program's exit crashed inside CUPTI's host library). Returns false
    // on a timeout, which stop() reports.
    bool waitForStarts(std::chrono::milliseconds timeout);
    // Whether a start is queued or running (cheap: for each launch).
    bool startsPending() const { return m_pending.load(std::memory_order_acquire) > 0; }
    // Ends the starter thread once every device noted so far was tried (so what a test or a short
    // program noted is never dropped); returns the samplers that are running and adds to
    // `warnings` why any device's sampling could not start.
    std::vector<std::unique_ptr<PmSampler>> stop(std::vector<std::string>& warnings);

private:
    void run();

    std::int64_t m_intervalNs;
    std::function<void()> m_onStarted;
    SamplerFactory m_makeSampler;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;  // a start ended
    std::atomic<int> m_pending{0};   // devices queued or starting
    int m_waitTimeouts = 0;
    std::deque<int> m_queue;
    std::set<int> m_seen;
    bool m_stopping = false;
    std::vector<std::unique_ptr<PmSampler>> m_samplers;
    std::vector<std::string> m_warnings;
    std::thread m_thread;  // last: starts once the members above exist
};

}  // namespace wl::cupti
