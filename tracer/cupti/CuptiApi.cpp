#include "cupti/CuptiApi.h"

#include <cuda_runtime_api.h>

#include <cctype>
#include <cstdio>

#include "cupti/CudaDriver.h"

namespace wl::cupti {
namespace {

int attribute(cudaDeviceAttr attr, int device) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, device) != cudaSuccess) {
        return 0;
    }
    return value;
}

// "0000:1b:00.0", as nvidia-smi and the driver write it.
std::string formatPciBusId(int domain, int bus, int device) {
    char text[32];
    std::snprintf(text, sizeof(text), "%04x:%02x:%02x.0", domain, bus, device);
    return text;
}

// Pass-through to libcupti and the CUDA runtime.
class RealCuptiApi final : public CuptiApi {
public:
    model::Result<int> deviceCount() override {
        int count = 0;
        const cudaError_t status = cudaGetDeviceCount(&count);
        if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0)) {
            return model::Error{"no CUDA device found (the driver reports no GPU)"};
        }
        if (status == cudaErrorInsufficientDriver) {
            return model::Error{std::string("no usable CUDA driver: ") +
                                cudaGetErrorString(status)};
        }
        if (status != cudaSuccess) {
            return model::Error{std::string("CUDA is not available: ") +
                                cudaGetErrorString(status)};
        }
        return count;
    }

    std::optional<model::DeviceProperties> deviceProperties(int device) override {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
            return std::nullopt;
        }
        model::DeviceProperties p;
        p.id = device;
        p.name = prop.name;
        p.computeMajor = prop.major;
        p.computeMinor = prop.minor;
        p.smCount = prop.multiProcessorCount;
        p.warpSize = prop.warpSize;
        p.maxThreadsPerBlock = prop.maxThreadsPerBlock;
        p.maxThreadsPerSm = prop.maxThreadsPerMultiProcessor;
        p.maxBlocksPerSm = prop.maxBlocksPerMultiProcessor;
        p.maxWarpsPerSm = prop.warpSize > 0 ? prop.maxThreadsPerMultiProcessor / prop.warpSize : 0;
        p.registersPerSm = prop.regsPerMultiprocessor;
        p.registersPerBlock = prop.regsPerBlock;
        p.sharedMemoryPerSmBytes = static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor);
        p.sharedMemoryPerBlockBytes = static_cast<std::int64_t>(prop.sharedMemPerBlock);
        p.sharedMemoryPerBlockOptinBytes = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
        p.totalMemoryBytes = static_cast<std::int64_t>(prop.totalGlobalMem);
        p.l2CacheBytes = prop.l2CacheSize;
        // Clock rates left cudaDeviceProp in CUDA 13: ask the attributes.
        p.clockRateKHz = attribute(cudaDevAttrClockRate, device);
        p.memoryClockRateKHz = attribute(cudaDevAttrMemoryClockRate, device);
        p.memoryBusWidthBits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
        // Double data rate: two transfers per memory clock.
        p.memoryBandwidthGBps =
            2.0 * p.memoryClockRateKHz * 1e3 * (p.memoryBusWidthBits / 8.0) / 1e9;
        p.pciBusId = formatPciBusId(prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
        return p;
    }

    std::string pciBusId(int device) override {
        // The driver API, which needs no context for this.
        const CudaDriver& cu = cudaDriver();
        CUdevice handle = 0;
        char text[32] = {};
        if (cu.deviceGet == nullptr || cu.deviceGetPciBusId == nullptr ||
            cu.deviceGet(&handle, device) != CUDA_SUCCESS ||
            cu.deviceGetPciBusId(text, sizeof(text) - 1, handle) != CUDA_SUCCESS) {
            return {};
        }
        std::string id = text;
        for (char& c : id) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return id;
    }

    model::Result<DefaultStreams> defaultStreams(int device) override {
        int current = -1;
        const bool haveCurrent = cudaGetDevice(&current) == cudaSuccess;
        if (device < 0) {
            if (!haveCurrent) {
                return model::Error{"no current device"};
            }
            device = current;
        } else if (cudaSetDevice(device) != cudaSuccess) {
            cudaGetLastError();
            return model::Error{"cannot select device " + std::to_string(device)};
        }
        DefaultStreams ids;
        ids.device = device;
        // CUPTI resolves the special stream handles within a context: the device's primary
        // context, current on this thread now. The driver function comes through the runtime so
        // the tracer needs no link to libcuda.
        CUcontext context = nullptr;
        void* getCurrent = nullptr;
        cudaDriverEntryPointQueryResult found{};
        if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &getCurrent, 12000,
                                             cudaEnableDefault, &found) == cudaSuccess &&
            getCurrent != nullptr) {
            reinterpret_cast<CUresult (*)(CUcontext*)>(getCurrent)(&context);
        }
        CUptiResult result = CUPTI_ERROR_INVALID_CONTEXT;
        if (context != nullptr) {
            result = cuptiGetStreamIdEx(context, CU_STREAM_LEGACY, 0, &ids.legacy);
            if (result == CUPTI_SUCCESS) {
                result = cuptiGetStreamIdEx(context, CU_STREAM_PER_THREAD, 1, &ids.perThread);
            }
        }
        if (haveCurrent) {
            cudaSetDevice(current);
        }
        if (result != CUPTI_SUCCESS) {
            return model::Error{"cuptiGetStreamIdEx: " + resultString(result)};
        }
        return ids;
    }

    void synchronizeDevices(const std::vector<int>& devices) override {
        int current = -1;
        const bool haveCurrent = cudaGetDevice(&current) == cudaSuccess;
        for (int device : devices) {
            if (cudaSetDevice(device) == cudaSuccess) {
                cudaDeviceSynchronize();
            }
        }
        if (haveCurrent) {
            cudaSetDevice(current);
        }
        cudaGetLastError();  // a sticky error of the program's own is not ours to report
    }

    CUptiResult subscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                          void* userData) override {
        return cuptiSubscribe(subscriber, callback, userData);
    }
    CUptiResult unsubscribe(CUpti_SubscriberHandle subscriber) override {
        return cuptiUnsubscribe(subscriber);
    }
    CUptiResult enableDomain(bool enable, CUpti_SubscriberHandle subscriber,
                             CUpti_CallbackDomain domain) override {
        return cuptiEnableDomain(enable ? 1u : 0u, subscriber, domain);
    }
    CUptiResult enableCallback(bool enable, CUpti_SubscriberHandle subscriber,
                               CUpti_CallbackDomain domain, CUpti_CallbackId id) override {
        return cuptiEnableCallback(enable ? 1u : 0u, subscriber, domain, id);
    }
    CUptiResult registerCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                  CUpti_BuffersCallbackCompleteFunc complete) override {
        return cuptiActivityRegisterCallbacks(request, complete);
    }
    CUptiResult enable(CUpti_ActivityKind kind) override { return cuptiActivityEnable(kind); }
    CUptiResult enableApiRecords(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 bool enable) override {
        const std::uint8_t on = enable ? 1 : 0;
        return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? cuptiActivityEnableRuntimeApi(id, on)
                                                     : cuptiActivityEnableDriverApi(id, on);
    }
    CUptiResult disable(CUpti_ActivityKind kind) override { return cuptiActivityDisable(kind); }
    CUptiResult flushAll(std::uint32_t flag) override { return cuptiActivityFlushAll(flag); }
    std::uint64_t timestampNs() override {
        std::uint64_t now = 0;
        return cuptiGetTimestamp(&now) == CUPTI_SUCCESS ? now : 0;
    }
    CUptiResult nextRecord(std::uint8_t* buffer, std::size_t validBytes,
                           CUpti_Activity** record) override {
        return cuptiActivityGetNextRecord(buffer, validBytes, record);
    }
    std::size_t droppedRecords(CUcontext context, std::uint32_t streamId) override {
        std::size_t dropped = 0;
        if (cuptiActivityGetNumDroppedRecords(context, streamId, &dropped) != CUPTI_SUCCESS) {
            return 0;
        }
        return dropped;
    }
    CUptiResult useSystemThreadIds() override {
        return cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    }
    CUptiResult setAttribute(CUpti_ActivityAttribute attr, std::size_t* valueSize,
                             void* value) override {
        return cuptiActivitySetAttribute(attr, valueSize, value);
    }
    CUptiResult configureUnifiedMemoryCounters(
        std::vector<CUpti_ActivityUnifiedMemoryCounterConfig>& configs) override {
        return cuptiActivityConfigureUnifiedMemoryCounter(
            configs.data(), static_cast<std::uint32_t>(configs.size()));
    }
    std::string callbackName(CUpti_CallbackDomain domain, CUpti_CallbackId id) override {
        const char* name = nullptr;
        if (cuptiGetCallbackName(domain, id, &name) != CUPTI_SUCCESS || name == nullptr) {
            return {};
        }
        return name;
    }
    std::string resultString(CUptiResult result) override {
        const char* text = nullptr;
        if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
            return "CUPTI error " + std::to_string(static_cast<int>(result));
        }
        return text;
    }
};

}  // namespace

std::shared_ptr<CuptiApi> makeRealCuptiApi() {
    return std::make_shared<RealCuptiApi>();
}

}  // namespace wl::cupti
