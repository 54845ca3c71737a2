#include "cupti/DeferredMetrics.h"

#include <utility>

namespace wl::cupti {

DeferredMetrics::DeferredMetrics(std::int64_t intervalNs, std::function<void()> onStarted,
                                 SamplerFactory makeSampler)
    : m_intervalNs(intervalNs),
      m_onStarted(std::move(onStarted)),
      m_makeSampler(std::move(makeSampler)),
      m_thread([this] { run(); }) {}

DeferredMetrics::~DeferredMetrics() {
    std::vector<std::string> ignored;
    (void)stop(ignored);
}

void DeferredMetrics::noteDevice(int deviceId) {
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping || !m_seen.insert(deviceId).second) {
            return;
        }
        m_queue.push_back(deviceId);
        m_pending.fetch_add(1, std::memory_order_acq_rel);
    }
    m_wake.notify_one();
}

void DeferredMetrics::run() {
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty()) {
            return;  // stopping, and every device noted so far was tried
        }
        const int device = m_queue.front();
        m_queue.pop_front();
        lock.unlock();
        auto sampler = m_makeSampler();
        const model::Status status = sampler->start(device, m_intervalNs);
        if (status.ok() && m_onStarted) {
            m_onStarted();
        }
        lock.lock();
        if (status.ok()) {
            m_samplers.push_back(std::move(sampler));
        } else {
            m_warnings.push_back(status.error().message);  // names GPU metrics and the device
        }
        m_pending.fetch_sub(1, std::memory_order_acq_rel);
        m_idle.notify_all();
    }
}

bool DeferredMetrics::waitForStarts(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    if (m_idle.wait_for(lock, timeout, [this] { return m_pending.load() == 0; })) {
        return true;
    }
    ++m_waitTimeouts;
    return false;
}

std::vector<std::unique_ptr<PmSampler>> DeferredMetrics::stop(std::vector<std::string>& warnings) {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
    std::lock_guard lock(m_mutex);
    if (m_waitTimeouts > 0) {
        warnings.push_back("GPU metrics: kernels were launched before sampling had started (" +
                           std::to_string(m_waitTimeouts) +
                           " launch(es) gave up waiting for it); the first samples come later");
        m_waitTimeouts = 0;
    }
    warnings.insert(warnings.end(), m_warnings.begin(), m_warnings.end());
    m_warnings.clear();
    return std::exchange(m_samplers, {});
}

}  // namespace wl::cupti
