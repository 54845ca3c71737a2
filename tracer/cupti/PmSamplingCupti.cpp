// PmSamplingApi over libcupti: the call sequence of the reference PM sampling probe, one step per
// method, each object released by its teardown method.
#include <cuda.h>
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <mutex>
#include <string>

#include "cupti/CudaDriver.h"
#include "cupti/PmSamplingApi.h"

namespace wl::cupti {
namespace {

// cuptiProfilerInitialize is process-wide; samplers of several devices and runs share it.
std::mutex g_profilerMutex;
bool g_profilerInitialized = false;

// Makes the sampled device's primary context current for the calls that need it (as in the
// probe, where it was current), and gives the caller's thread its own context back after.
class ScopedContext {
public:
    explicit ScopedContext(CUcontext context) {
        m_pushed = context != nullptr && cudaDriver().ctxPushCurrent(context) == CUDA_SUCCESS;
    }
    ~ScopedContext() {
        if (m_pushed) {
            CUcontext ignored = nullptr;
            cudaDriver().ctxPopCurrent(&ignored);
        }
    }
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;

private:
    bool m_pushed = false;
};

class CuptiPmSamplingApi final : public PmSamplingApi {
public:
    ~CuptiPmSamplingApi() override {
        disable();
        hostDeinitialize();
        closeDevice();
    }

    model::Status openDevice(int deviceId) override {
        const CudaDriver& cu = cudaDriver();
        if (!cu.usable()) {
            return model::Error{"GPU metrics: the CUDA driver (libcuda.so.1) is not usable"};
        }
        CUresult error = cu.init(0);
        int count = 0;
        if (error == CUDA_SUCCESS) {
            error = cu.deviceGetCount(&count);
        }
        if (error == CUDA_ERROR_NO_DEVICE || (error == CUDA_SUCCESS && count == 0)) {
            return model::Error{"GPU metrics: no CUDA device is present"};
        }
        if (error != CUDA_SUCCESS) {
            return model::Error{"GPU metrics: the CUDA driver is not usable (" +
                                cu.errorText(error) + ")"};
        }
        if (deviceId < 0 || deviceId >= count) {
            return model::Error{"GPU metrics: there is no CUDA device " + std::to_string(deviceId) +
                                " (" + std::to_string(count) + " present)"};
        }
        // PM sampling is enabled through the device's primary context: retained here (created
        // if the program has not yet) until closeDevice.
        CUdevice device = 0;
        error = cu.deviceGet(&device, deviceId);
        if (error == CUDA_SUCCESS) {
            error = cu.primaryCtxRetain(&m_context, device);
        }
        if (error != CUDA_SUCCESS) {
            m_context = nullptr;
            return model::Error{"GPU metrics: cannot open CUDA device " + std::to_string(deviceId) +
                                " (" + cu.errorText(error) + ")"};
        }
        m_device = device;
        m_deviceId = deviceId;
        return model::Status::success();
    }

    void closeDevice() override {
        if (m_context != nullptr) {
            cudaDriver().primaryCtxRelease(m_device);
            m_context = nullptr;
        }
        m_deviceId = -1;
    }

    // Initialised once per process and never deinitialised: CUPTI does not count
    // initialisations, and a deinitialisation followed by another session (or a second
    // deinitialisation) is where other PM sampling users have seen crashes. Staying initialised
    // costs nothing measurable and keeps any number of start/stop cycles safe.
    CUptiResult profilerInitialize() override {
        std::lock_guard lock(g_profilerMutex);
        if (!g_profilerInitialized) {
            CUpti_Profiler_Initialize_Params params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
            const CUptiResult result = cuptiProfilerInitialize(&params);
            if (result != CUPTI_SUCCESS) {
                return result;
            }
            g_profilerInitialized = true;
        }
        return CUPTI_SUCCESS;
    }

    void profilerDeinitialize() override {}

    CUptiResult chipName(int deviceId, std::string& chip) override {
        CUpti_Device_GetChipName_Params params{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
        params.deviceIndex = static_cast<std::size_t>(deviceId);
        const CUptiResult result = cuptiDeviceGetChipName(&params);
        if (result == CUPTI_SUCCESS) {
            chip = params.pChipName ? params.pChipName : "";
        }
        return result;
    }

    CUptiResult counterAvailability(int deviceId, std::vector<std::uint8_t>& image) override {
        ScopedContext current(m_context);
        CUpti_PmSampling_GetCounterAvailability_Params params{
            CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
        params.deviceIndex = static_cast<std::size_t>(deviceId);
        CUptiResult result = cuptiPmSamplingGetCounterAvailability(&params);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        image.assign(params.counterAvailabilityImageSize, 0);
        params.pCounterAvailabilityImage = image.data();
        return cuptiPmSamplingGetCounterAvailability(&params);
    }

    CUptiResult hostInitialize(const std::string& chip,
                               const std::vector<std::uint8_t>& availability) override {
        m_chip = chip;
        m_availability = availability;  // the host object may keep pointers into it
        CUpti_Profiler_Host_Initialize_Params params{
            CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
        params.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
        params.pChipName = m_chip.c_str();
        params.pCounterAvailabilityImage = m_availability.data();
        const CUptiResult result = cuptiProfilerHostInitialize(&params);
        if (result == CUPTI_SUCCESS) {
            m_host = params.pHostObject;
        }
        return result;
    }

    void hostDeinitialize() override {
        if (!m_host) {
            return;
        }
        CUpti_Profiler_Host_Deinitialize_Params params{
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        params.pHostObject = m_host;
        cuptiProfilerHostDeinitialize(&params);
        m_host = nullptr;
    }

    CUptiResult configure(const std::vector<std::string>& metrics,
                          std::vector<std::uint8_t>& configImage, std::size_t& passes) override {
        m_metricNames = metrics;
        m_metricPointers.clear();
        for (const auto& name : m_metricNames) {
            m_metricPointers.push_back(name.c_str());
        }
        CUpti_Profiler_Host_ConfigAddMetrics_Params add{
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject = m_host;
        add.ppMetricNames = m_metricPointers.data();
        add.numMetrics = m_metricPointers.size();
        CUptiResult result = cuptiProfilerHostConfigAddMetrics(&add);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        CUpti_Profiler_Host_GetConfigImageSize_Params size{
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
        size.pHostObject = m_host;
        result = cuptiProfilerHostGetConfigImageSize(&size);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        configImage.assign(size.configImageSize, 0);
        CUpti_Profiler_Host_GetConfigImage_Params image{
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
        image.pHostObject = m_host;
        image.pConfigImage = configImage.data();
        image.configImageSize = configImage.size();
        result = cuptiProfilerHostGetConfigImage(&image);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        CUpti_Profiler_Host_GetNumOfPasses_Params count{
            CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
        count.pConfigImage = configImage.data();
        count.configImageSize = configImage.size();
        result = cuptiProfilerHostGetNumOfPasses(&count);
        if (result == CUPTI_SUCCESS) {
            passes = count.numOfPasses;
        }
        return result;
    }

    CUptiResult enable(int deviceId) override {
        ScopedContext current(m_context);
        CUpti_PmSampling_Enable_Params params{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
        params.deviceIndex = static_cast<std::size_t>(deviceId);
        const CUptiResult result = cuptiPmSamplingEnable(&params);
        if (result == CUPTI_SUCCESS) {
            m_sampling = params.pPmSamplingObject;
        }
        return result;
    }

    void disable() override {
        if (!m_sampling) {
            return;
        }
        ScopedContext current(m_context);
        CUpti_PmSampling_Disable_Params params{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
        params.pPmSamplingObject = m_sampling;
        cuptiPmSamplingDisable(&params);
        m_sampling = nullptr;
        m_counterData.clear();
        m_config.clear();
    }

    CUptiResult setConfig(const std::vector<std::uint8_t>& configImage,
                          std::size_t hardwareBufferBytes, std::uint64_t intervalNs) override {
        ScopedContext current(m_context);
        CUpti_PmSampling_SetConfig_Params params{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
        // CUPTI keeps pConfig, not a copy: the image must outlive the PM sampling object.
        m_config = configImage;
        params.pPmSamplingObject = m_sampling;
        params.configSize = m_config.size();
        params.pConfig = m_config.data();
        params.hardwareBufferSize = hardwareBufferBytes;
        params.samplingInterval = intervalNs;
        // Nanoseconds of a fixed clock (not SYSCLK cycles, which vary with the clock).
        params.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
        // Overflow is reported rather than silently overwriting: the decode thread should keep up.
        params.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
        return cuptiPmSamplingSetConfig(&params);
    }

    CUptiResult createCounterData(std::uint32_t maxSamples) override {
        ScopedContext current(m_context);
        CUpti_PmSampling_GetCounterDataSize_Params size{
            CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
        size.pPmSamplingObject = m_sampling;
        size.pMetricNames = m_metricPointers.data();
        size.numMetrics = m_metricPointers.size();
        size.maxSamples = maxSamples;
        const CUptiResult result = cuptiPmSamplingGetCounterDataSize(&size);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        m_counterData.assign(size.counterDataSize, 0);
        return resetCounterData();
    }

    CUptiResult startSampling() override {
        ScopedContext current(m_context);
        CUpti_PmSampling_Start_Params params{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
        params.pPmSamplingObject = m_sampling;
        return cuptiPmSamplingStart(&params);
    }

    CUptiResult stopSampling() override {
        ScopedContext current(m_context);
        CUpti_PmSampling_Stop_Params params{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
        params.pPmSamplingObject = m_sampling;
        return cuptiPmSamplingStop(&params);
    }

    DecodeResult decode() override {
        DecodeResult out;
        CUpti_PmSampling_DecodeData_Params params{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
        params.pPmSamplingObject = m_sampling;
        params.pCounterDataImage = m_counterData.data();
        params.counterDataImageSize = m_counterData.size();
        out.status = cuptiPmSamplingDecodeData(&params);
        out.overflow = params.overflow != 0;
        out.counterDataFull =
            params.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
        if (out.status != CUPTI_SUCCESS && out.status != CUPTI_ERROR_OUT_OF_MEMORY) {
            return out;
        }
        CUpti_PmSampling_GetCounterDataInfo_Params info{
            CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
        info.pCounterDataImage = m_counterData.data();
        info.counterDataImageSize = m_counterData.size();
        if (cuptiPmSamplingGetCounterDataInfo(&info) == CUPTI_SUCCESS) {
            out.completedSamples = info.numCompletedSamples;
        }
        return out;
    }

    CUptiResult readSample(std::size_t index, RawSample& sample) override {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params info{
            CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
        info.pPmSamplingObject = m_sampling;
        info.pCounterDataImage = m_counterData.data();
        info.counterDataImageSize = m_counterData.size();
        info.sampleIndex = index;
        CUptiResult result = cuptiPmSamplingCounterDataGetSampleInfo(&info);
        if (result != CUPTI_SUCCESS) {
            return result;
        }
        sample.startNs = info.startTimestamp;
        sample.endNs = info.endTimestamp;
        sample.values.assign(m_metricPointers.size(), 0.0);
        CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{
            CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        evaluate.pHostObject = m_host;
        evaluate.pCounterDataImage = m_counterData.data();
        evaluate.counterDataImageSize = m_counterData.size();
        evaluate.ppMetricNames = m_metricPointers.data();
        evaluate.numMetrics = m_metricPointers.size();
        evaluate.rangeIndex = index;
        evaluate.pMetricValues = sample.values.data();
        return cuptiProfilerHostEvaluateToGpuValues(&evaluate);
    }

    CUptiResult resetCounterData() override {
        CUpti_PmSampling_CounterDataImage_Initialize_Params params{
            CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        params.pPmSamplingObject = m_sampling;
        params.counterDataSize = m_counterData.size();
        params.pCounterData = m_counterData.data();
        return cuptiPmSamplingCounterDataImageInitialize(&params);
    }

    std::string resultName(CUptiResult result) override {
        const char* text = nullptr;
        if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text) {
            return text;
        }
        return "CUPTI error " + std::to_string(static_cast<int>(result));
    }

private:
    int m_deviceId = -1;
    CUdevice m_device = 0;
    CUcontext m_context = nullptr;  // the device's primary context, retained while open
    std::string m_chip;
    std::vector<std::uint8_t> m_availability;
    CUpti_Profiler_Host_Object* m_host = nullptr;
    CUpti_PmSampling_Object* m_sampling = nullptr;
    std::vector<std::string> m_metricNames;
    std::vector<const char*> m_metricPointers;
    std::vector<std::uint8_t> m_config;
    std::vector<std::uint8_t> m_counterData;
};

}  // namespace

std::unique_ptr<PmSamplingApi> makeCuptiPmSamplingApi() {
    return std::make_unique<CuptiPmSamplingApi>();
}

}  // namespace wl::cupti
