#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
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
// never on the program's thread. stop() hands over the samplers that started. One per run.
class DeferredMetrics {
public:
    explicit DeferredMetrics(std::int64_t intervalNs);
    ~DeferredMetrics();
    DeferredMetrics(const DeferredMetrics&) = delete;
    DeferredMetrics& operator=(const DeferredMetrics&) = delete;

    // Safe from a CUPTI callback: queues the device and wakes the starter thread.
    void noteDevice(int deviceId);
    // Ends the starter thread; returns the samplers that are running and adds to `warnings` why
    // any device's sampling could not start.
    std::vector<std::unique_ptr<PmSampler>> stop(std::vector<std::string>& warnings);

private:
    void run();

    std::int64_t m_intervalNs;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<int> m_queue;
    std::set<int> m_seen;
    bool m_stopping = false;
    std::vector<std::unique_ptr<PmSampler>> m_samplers;
    std::vector<std::string> m_warnings;
    std::thread m_thread;
};

}  // namespace wl::cupti
