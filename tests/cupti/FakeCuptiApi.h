#pragma once

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cupti/CuptiApi.h"

namespace wl::cupti::test {

// CUPTI without a GPU: records queued by the test are delivered through the tracer's buffer
// callbacks when the tracer flushes, laid out at 8-byte aligned offsets like CUPTI does.
class FakeCuptiApi final : public CuptiApi {
public:
    model::Result<int> deviceCountResult = 1;
    CUptiResult subscribeResult = CUPTI_SUCCESS;
    std::map<CUpti_ActivityKind, CUptiResult> enableResults;
    std::size_t dropped = 0;
    std::set<CUpti_ActivityKind> enabledKinds;
    std::vector<CUpti_ActivityKind> everEnabled;
    // API functions whose records are turned off, as (domain, id).
    std::set<std::pair<int, CUpti_CallbackId>> apiRecordsOff;
    CUptiResult enableApiRecordsResult = CUPTI_SUCCESS;
    std::set<std::pair<int, CUpti_CallbackId>> callbacksOn;  // single functions' callbacks
    int subscriptions = 0;
    int flushes = 0;
    int synchronizations = 0;

    template <class T>
    void queue(const T& record) {
        std::vector<std::uint8_t> bytes(sizeof(T));
        std::memcpy(bytes.data(), &record, sizeof(T));
        m_pending.push_back(std::move(bytes));
    }

    model::Result<int> deviceCount() override { return deviceCountResult; }
    std::optional<model::DeviceProperties> deviceProperties(int device) override {
        model::DeviceProperties p;
        p.id = device;
        p.name = "Fake GPU";
        return p;
    }
    model::Result<DefaultStreams> defaultStreams(int device) override {
        return DefaultStreams{device < 0 ? 0 : device, 7, 9};
    }
    void synchronizeDevices(const std::vector<int>&) override { ++synchronizations; }
    CUptiResult subscribe(CUpti_SubscriberHandle* s, CUpti_CallbackFunc callback,
                          void* userData) override {
        if (subscribeResult != CUPTI_SUCCESS) {
            return subscribeResult;
        }
        m_callback = callback;
        m_userData = userData;
        ++subscriptions;
        *s = reinterpret_cast<CUpti_SubscriberHandle>(0x1);
        return CUPTI_SUCCESS;
    }
    CUptiResult unsubscribe(CUpti_SubscriberHandle) override {
        --subscriptions;
        m_callback = nullptr;
        return CUPTI_SUCCESS;
    }
    // The program creates its first CUDA context: the subscriber's resource callback, as CUPTI
    // calls it (no context object: none exists without a GPU).
    void createContext() {
        if (m_callback == nullptr) {
            return;
        }
        CUpti_ResourceData data{};
        m_callback(m_userData, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                   &data);
    }
    CUptiResult enableDomain(bool, CUpti_SubscriberHandle, CUpti_CallbackDomain) override {
        return CUPTI_SUCCESS;
    }
    CUptiResult enableCallback(bool enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain,
                               CUpti_CallbackId id) override {
        if (enable) {
            callbacksOn.insert({domain, id});
        } else {
            callbacksOn.erase({domain, id});
        }
        return CUPTI_SUCCESS;
    }
    CUptiResult registerCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                  CUpti_BuffersCallbackCompleteFunc complete) override {
        m_request = request;
        m_complete = complete;
        return CUPTI_SUCCESS;
    }
    CUptiResult enable(CUpti_ActivityKind kind) override {
        auto it = enableResults.find(kind);
        if (it != enableResults.end() && it->second != CUPTI_SUCCESS) {
            return it->second;
        }
        // As CUPTI does: enabling an API kind records every function of its domain again.
        const int domain = kind == CUPTI_ACTIVITY_KIND_RUNTIME  ? CUPTI_CB_DOMAIN_RUNTIME_API
                           : kind == CUPTI_ACTIVITY_KIND_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API
                                                                : -1;
        std::erase_if(apiRecordsOff, [&](const auto& off) { return off.first == domain; });
        enabledKinds.insert(kind);
        everEnabled.push_back(kind);
        return CUPTI_SUCCESS;
    }
    CUptiResult enableApiRecords(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 bool enable) override {
        if (enableApiRecordsResult != CUPTI_SUCCESS) {
            return enableApiRecordsResult;
        }
        if (enable) {
            apiRecordsOff.erase({domain, id});
        } else {
            apiRecordsOff.insert({domain, id});
        }
        return CUPTI_SUCCESS;
    }
    CUptiResult disable(CUpti_ActivityKind kind) override {
        enabledKinds.erase(kind);
        return CUPTI_SUCCESS;
    }
    CUptiResult flushAll(std::uint32_t) override {
        ++flushes;
        if (m_pending.empty() || m_request == nullptr) {
            return CUPTI_SUCCESS;
        }
        std::uint8_t* buffer = nullptr;
        std::size_t size = 0;
        std::size_t maxRecords = 0;
        m_request(&buffer, &size, &maxRecords);
        if (buffer == nullptr || reinterpret_cast<std::uintptr_t>(buffer) % 8 != 0) {
            misalignedOrMissingBuffer = true;
            return CUPTI_ERROR_UNKNOWN;
        }
        std::size_t offset = 0;
        m_offsets.clear();
        for (const auto& record : m_pending) {
            if (offset + record.size() > size) {
                break;
            }
            std::memcpy(buffer + offset, record.data(), record.size());
            m_offsets.push_back(offset);
            offset += (record.size() + 7) / 8 * 8;
        }
        m_pending.clear();
        m_complete(nullptr, 0, buffer, size, offset);
        return CUPTI_SUCCESS;
    }
    CUptiResult nextRecord(std::uint8_t* buffer, std::size_t, CUpti_Activity** record) override {
        std::size_t next = 0;
        if (*record != nullptr) {
            const std::size_t current = reinterpret_cast<std::uint8_t*>(*record) - buffer;
            while (next < m_offsets.size() && m_offsets[next] <= current) {
                ++next;
            }
        }
        if (next >= m_offsets.size()) {
            return CUPTI_ERROR_MAX_LIMIT_REACHED;
        }
        *record = reinterpret_cast<CUpti_Activity*>(buffer + m_offsets[next]);
        return CUPTI_SUCCESS;
    }
    std::size_t droppedRecords(CUcontext, std::uint32_t) override {
        const std::size_t count = dropped;
        dropped = 0;  // CUPTI resets the count when read
        return count;
    }
    CUptiResult useSystemThreadIds() override { return CUPTI_SUCCESS; }
    CUptiResult setAttribute(CUpti_ActivityAttribute, std::size_t*, void*) override {
        return CUPTI_SUCCESS;
    }
    // Unified-memory counters: the kinds of each configuration call, in order; CUPTI's answer
    // to every call (umResult) or to a call holding a kind (umRefused); and, as CUPTI replaces
    // the configuration with each call that succeeds, the kinds configured last.
    using UmKind = CUpti_ActivityUnifiedMemoryCounterKind;
    std::vector<std::vector<UmKind>> umCalls;
    CUptiResult umResult = CUPTI_SUCCESS;
    std::map<UmKind, CUptiResult> umRefused;
    std::set<UmKind> umConfigured;
    CUptiResult configureUnifiedMemoryCounters(
        std::vector<CUpti_ActivityUnifiedMemoryCounterConfig>& configs) override {
        std::vector<UmKind> kinds;
        for (const auto& c : configs) {
            kinds.push_back(c.kind);
        }
        umCalls.push_back(kinds);
        if (umResult != CUPTI_SUCCESS) {
            return umResult;
        }
        for (UmKind k : kinds) {
            if (auto it = umRefused.find(k); it != umRefused.end()) {
                return it->second;
            }
        }
        umConfigured = std::set<UmKind>(kinds.begin(), kinds.end());
        return CUPTI_SUCCESS;
    }
    std::string callbackName(CUpti_CallbackDomain domain, CUpti_CallbackId id) override {
        // Two state queries (analysis::isStateQueryApi) and a driver launch, with CUPTI's ids.
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
            id == CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020) {
            return "cudaGetDevice_v3020";
        }
        if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
            switch (id) {
                case CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent:
                    return "cuCtxGetCurrent";
                case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
                    return "cuLaunchKernel";
                default:
                    return "";
            }
        }
        switch (id) {
            case 211:
                return "cudaLaunchKernel";
            case 171:
                return "cudaProfilerStart_v4000";
            case 172:
                return "cudaProfilerStop_v4000";
            default:
                return "";
        }
    }
    std::string resultString(CUptiResult result) override {
        return "CUPTI result " + std::to_string(static_cast<int>(result));
    }

    std::uint64_t timestampNs() override { return clockNs; }

    bool misalignedOrMissingBuffer = false;
    std::uint64_t clockNs = 0;

private:
    CUpti_CallbackFunc m_callback = nullptr;
    void* m_userData = nullptr;
    CUpti_BuffersCallbackRequestFunc m_request = nullptr;
    CUpti_BuffersCallbackCompleteFunc m_complete = nullptr;
    std::vector<std::vector<std::uint8_t>> m_pending;
    std::vector<std::size_t> m_offsets;
};

}  // namespace wl::cupti::test
