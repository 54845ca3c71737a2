#pragma once

#include <cupti.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/DeviceProperties.h"
#include "model/Result.h"

namespace wl::cupti {

// The seam between the tracer and the CUPTI library (plus the few CUDA runtime queries the tracer
// makes): CuptiTracer only talks to CUPTI through this interface, so unit tests substitute a fake
// that delivers synthetic activity buffers without a GPU. Implementations must be callable from
// any thread; the real one is a thin pass-through and holds no state.
class CuptiApi {
public:
    virtual ~CuptiApi() = default;

    // Number of CUDA devices, or an Error saying why there are none (no driver, no GPU).
    virtual model::Result<int> deviceCount() = 0;
    // Properties of one device from the CUDA runtime; nullopt when the query fails.
    virtual std::optional<model::DeviceProperties> deviceProperties(int device) = 0;
    // CUPTI stream ids of a device's legacy default stream and of the calling thread's per-thread
    // default stream (they may have been created before tracing began, so no STREAM record names
    // them). `device` < 0: the calling thread's current device, whose context must exist already.
    struct DefaultStreams {
        int device = 0;
        std::uint32_t legacy = 0;
        std::uint32_t perThread = 0;
    };
    virtual model::Result<DefaultStreams> defaultStreams(int device) = 0;
    // Waits for all work on the given devices to finish (before the final flush).
    virtual void synchronizeDevices(const std::vector<int>& devices) = 0;

    virtual CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                  void* userData) = 0;
    virtual CUptiResult unsubscribe(CUpti_SubscriberHandle subscriber) = 0;
    virtual CUptiResult enableDomain(bool enable, CUpti_SubscriberHandle subscriber,
                                     CUpti_CallbackDomain domain) = 0;
    // One function's callbacks only (a domain's others stay off).
    virtual CUptiResult enableCallback(bool enable, CUpti_SubscriberHandle subscriber,
                                       CUpti_CallbackDomain domain, CUpti_CallbackId id) = 0;

    virtual CUptiResult registerCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                          CUpti_BuffersCallbackCompleteFunc complete) = 0;
    virtual CUptiResult enable(CUpti_ActivityKind kind) = 0;
    // Whether calls of one runtime or driver API function are recorded while its domain's kind
    // is enabled (enabling the kind again records them all).
    virtual CUptiResult enableApiRecords(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                         bool enable) = 0;
    virtual CUptiResult disable(CUpti_ActivityKind kind) = 0;
    virtual CUptiResult flushAll(std::uint32_t flag) = 0;
    virtual CUptiResult nextRecord(std::uint8_t* buffer, std::size_t validBytes,
                                   CUpti_Activity** record) = 0;
    virtual std::size_t droppedRecords(CUcontext context, std::uint32_t streamId) = 0;
    // Thread ids in records: the OS thread id (gettid), so they match other tools and /proc.
    virtual CUptiResult useSystemThreadIds() = 0;
    virtual CUptiResult setAttribute(CUpti_ActivityAttribute attribute, std::size_t* valueSize,
                                     void* value) = 0;
    // Which unified-memory counters CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER records
    // (cuptiActivityConfigureUnifiedMemoryCounter), called before that kind is enabled.
    virtual CUptiResult configureUnifiedMemoryCounters(
        std::vector<CUpti_ActivityUnifiedMemoryCounterConfig>& configs) = 0;

    // Name of a runtime/driver API function from its callback id ("cudaLaunchKernel"); empty when
    // CUPTI does not know it.
    virtual std::string callbackName(CUpti_CallbackDomain domain, CUpti_CallbackId id) = 0;
    virtual std::string resultString(CUptiResult result) = 0;
    // The PCI bus id of a device ("0000:1b:00.0") from the driver, without a context; empty
    // when unknown. Not pure: fakes need not know one.
    virtual std::string pciBusId(int /*device*/) { return {}; }
    // CUPTI's clock now (the clock of every record's timestamps); 0 when it cannot be read. Not
    // pure: fakes need not have a clock.
    virtual std::uint64_t timestampNs() { return 0; }
};

// The real CUPTI and CUDA runtime behind the seam.
std::shared_ptr<CuptiApi> makeRealCuptiApi();

}  // namespace wl::cupti
