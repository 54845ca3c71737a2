#include "cupti/DeferredMetrics.h"

namespace wl::cupti {

DeferredMetrics::DeferredMetrics(std::int64_t intervalNs)
    : m_intervalNs(intervalNs), m_thread([this] { run(); }) {}

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
    }
    m_wake.notify_one();
}

void DeferredMetrics::run() {
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_stopping) {
            return;
        }
        const int device = m_queue.front();
        m_queue.pop_front();
        lock.unlock();
        auto sampler = std::make_unique<PmSampler>();
        model::Status status = sampler->start(device, m_intervalNs);
        lock.lock();
        if (status.ok()) {
            m_samplers.push_back(std::move(sampler));
        } else {
            m_warnings.push_back(status.error().message);  // names GPU metrics and the device
        }
    }
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
    warnings.insert(warnings.end(), m_warnings.begin(), m_warnings.end());
    m_warnings.clear();
    return std::move(m_samplers);
}

}  // namespace wl::cupti
