#include "cupti/CuptiTracer.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "analysis/ApiNames.h"
#include "cupti/BufferPool.h"
#include "cupti/CaptureFilter.h"
#include "cupti/CuptiApi.h"
#include "cupti/DeferredMetrics.h"
#include "cupti/NvtxInjection.h"
#include "cupti/NvtxRecorder.h"
#include "cupti/PmSampler.h"
#include "cupti/RecordTranslator.h"
#include "cupti/SpillFile.h"
#include "cupti/SpillRecovery.h"
#include "cupti/UnifiedMemoryCounters.h"

namespace wl::cupti {
namespace {

// Kinds in the order they are enabled: concurrent kernels first, so CUPTI instruments modules as
// they load rather than patching them on the first launch.
struct KindSpec {
    CUpti_ActivityKind kind;
    const char* name;
    bool essential;  // failing to enable it fails start()
};
constexpr KindSpec kCoreKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent kernels", true},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy", true},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, "peer memcpy", false},
    {CUPTI_ACTIVITY_KIND_MEMSET, "memset", true},
    // Allocations and releases (cudaMalloc, cudaFree, cudaMallocAsync, ...): the device memory row.
    {CUPTI_ACTIVITY_KIND_MEMORY2, "memory", false},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization", false},
    {CUPTI_ACTIVITY_KIND_CUDA_EVENT, "CUDA events", false},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, "overhead", false},
    {CUPTI_ACTIVITY_KIND_STREAM, "streams", false},
    {CUPTI_ACTIVITY_KIND_DEVICE, "devices", false},
    {CUPTI_ACTIVITY_KIND_CONTEXT, "contexts", false},
    {CUPTI_ACTIVITY_KIND_NAME, "names", false},
};
constexpr KindSpec kRuntimeKinds[] = {
    {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime API", true},
};
constexpr KindSpec kDriverKinds[] = {
    {CUPTI_ACTIVITY_KIND_DRIVER, "driver API", false},
};

bool isRefusal(CUptiResult result) {
    return result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
}

std::string refusalMessage(const std::string& step) {
    return "CUPTI refused to trace this process: another profiler is already attached (Nsight "
           "Systems, Nsight Compute, the PyTorch profiler or another CUPTI client). Only one CUPTI "
           "client may trace a process; run without the other profiler (CUPTI said so when asked "
           "to " +
           step + ")";
}

class ActiveRun;

// The run CUPTI's buffer callbacks deliver to. CUPTI's callbacks are plain functions, so the
// tracer that is running registers itself here; g_runMutex also serialises translation.
std::mutex g_runMutex;
ActiveRun* g_run = nullptr;

// What the running tracer does when a context is created: TracerOptions::onExitHandlersAdded
// until the first one appears, and GPU metrics that start with each device's first context
// (TracerOptions::gpuMetrics without checkDevices).
std::mutex g_contextMutex;
std::function<void()> g_onFirstContext;
std::shared_ptr<DeferredMetrics> g_deferredMetrics;
// Unified-memory counters that CUPTI would not configure at start (inside cuInit, before the
// driver is initialised): configured at the program's first CUDA context, on its thread, before
// it can allocate managed memory. Shared with the tracer, which reads the outcome at stop().
struct PendingUnifiedMemory {
    std::shared_ptr<CuptiApi> api;
    UnifiedMemoryOptions options;
    std::function<void(const std::string&)> onRefused;
    std::mutex mutex;
    std::optional<UnifiedMemorySetup> setup;  // set once tried

    void run() {
        UnifiedMemorySetup tried = configureUnifiedMemory(*api, options);
        if (tried.tooEarly) {
            tried.warnings.push_back(
                "unified memory counters are not recorded: CUPTI was still not initialised at "
                "the program's first CUDA context");
        }
        if (onRefused) {
            for (const std::string& warning : tried.warnings)
                onRefused(warning);
        }
        std::lock_guard lock(mutex);
        setup = std::move(tried);
    }
};
std::shared_ptr<PendingUnifiedMemory> g_pendingUnifiedMemory;  // under g_contextMutex
// How long a launch waits for GPU metrics to start before it goes on without them.
constexpr std::chrono::milliseconds kLaunchWaitForMetrics{10'000};

}  // namespace

namespace {

// One traced run: the translator and what CUPTI needs to hand buffers back.
class ActiveRun {
public:
    ActiveRun(std::shared_ptr<CuptiApi> api, std::unique_ptr<RecordTranslator> translator)
        : m_api(std::move(api)), m_translator(std::move(translator)) {}

    void consume(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer,
                 std::size_t validBytes) {
        CUpti_Activity* record = nullptr;
        m_spilled.clear();
        while (validBytes > 0 && m_api->nextRecord(buffer, validBytes, &record) == CUPTI_SUCCESS) {
            m_translator->translate(*record);
            if (m_spill) {
                m_spilled.push_back(record);
            }
        }
        const std::size_t dropped = m_api->droppedRecords(context, streamId);
        m_translator->addDroppedRecords(dropped);
        if (m_spill) {
            m_spill->appendBuffer(buffer, validBytes, m_spilled, dropped);
        }
    }

    RecordTranslator& translator() { return *m_translator; }
    CuptiApi& api() { return *m_api; }
    void setSpill(std::unique_ptr<SpillWriter> spill) { m_spill = std::move(spill); }
    SpillWriter* spill() { return m_spill.get(); }
    std::unique_ptr<SpillWriter> takeSpill() { return std::move(m_spill); }

private:
    std::shared_ptr<CuptiApi> m_api;
    std::unique_ptr<RecordTranslator> m_translator;
    std::unique_ptr<SpillWriter> m_spill;
    std::vector<const CUpti_Activity*> m_spilled;  // the records of the buffer being consumed
};

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size,
                              std::size_t* maxNumRecords) {
    BufferPool& pool = BufferPool::instance();
    *buffer = pool.acquire();
    *size = *buffer != nullptr ? pool.bufferBytes() : 0;
    *maxNumRecords = 0;  // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer,
                              std::size_t /*size*/, std::size_t validBytes) {
    {
        std::lock_guard lock(g_runMutex);
        if (g_run != nullptr) {
            g_run->consume(context, streamId, buffer, validBytes);
        }
    }
    BufferPool::instance().release(buffer);
}

void CUPTIAPI tracerCallback(void* /*userData*/, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                             const void* data) {
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED &&
        data != nullptr) {
        const auto* resource = static_cast<const CUpti_ResourceData*>(data);
        std::uint32_t device = 0;
        const bool known = cuptiGetDeviceId(resource->context, &device) == CUPTI_SUCCESS;
        std::function<void()> first;
        std::shared_ptr<PendingUnifiedMemory> unifiedMemory;
        {
            std::lock_guard lock(g_contextMutex);
            first = std::exchange(g_onFirstContext, nullptr);
            unifiedMemory = std::exchange(g_pendingUnifiedMemory, nullptr);
            if (known && g_deferredMetrics != nullptr) {
                g_deferredMetrics->noteDevice(static_cast<int>(device));
            }
        }
        if (unifiedMemory) {
            unifiedMemory->run();
        }
        if (first) {
            first();
        }
        return;
    }
    if ((domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) &&
        data != nullptr) {
        // A launch (only launches are enabled, and only with deferred GPU metrics): it waits
        // until sampling of the devices seen so far has started.
        if (static_cast<const CUpti_CallbackData*>(data)->callbackSite != CUPTI_API_ENTER) {
            return;
        }
        std::shared_ptr<DeferredMetrics> metrics;
        {
            std::lock_guard lock(g_contextMutex);
            if (g_deferredMetrics != nullptr && g_deferredMetrics->startsPending()) {
                metrics = g_deferredMetrics;  // kept alive while this launch waits
            }
        }
        if (metrics) {
            (void)metrics->waitForStarts(kLaunchWaitForMetrics);
        }
        return;
    }
}

// Whether `path` is the file this code was loaded from (`record`: warpline_inject, which NVTX
// loads as its tool too).
bool isThisModule(const char* path) {
    Dl_info info{};
    struct stat self {};
    struct stat named {};
    return dladdr(reinterpret_cast<void*>(&isThisModule), &info) != 0 &&
           info.dli_fname != nullptr && stat(info.dli_fname, &self) == 0 &&
           stat(path, &named) == 0 && self.st_dev == named.st_dev && self.st_ino == named.st_ino;
}

std::string processName() {
    char buffer[256] = {};
    FILE* file = std::fopen("/proc/self/comm", "r");
    if (file == nullptr) {
        return {};
    }
    const bool ok = std::fgets(buffer, sizeof(buffer), file) != nullptr;
    std::fclose(file);
    if (!ok) {
        return {};
    }
    std::string name = buffer;
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) {
        name.pop_back();
    }
    return name;
}

}  // namespace

struct CuptiTracer::Impl {
    std::shared_ptr<CuptiApi> api;
    TracerOptions options;
    bool running = false;
    std::unique_ptr<ActiveRun> run;
    CUpti_SubscriberHandle subscriber = nullptr;
    std::vector<CUpti_ActivityKind> enabled;
    std::vector<std::string> warnings;
    std::vector<std::string> notes;
    std::shared_ptr<PendingUnifiedMemory> pendingUnifiedMemory;  // configured at a first context
    int deviceCount = 0;
    std::map<int, CuptiApi::DefaultStreams> defaultStreams;
    std::string defaultStreamsNote;
    std::vector<std::unique_ptr<PmSampler>> samplers;
    std::shared_ptr<DeferredMetrics> deferredMetrics;  // shared with the callbacks
    std::uint64_t tracingStartNs = 0;  // CUPTI's clock at start() (for --delay / --duration)
    std::unique_ptr<SpillWriter> finishedSpill;  // kept after stop() until the trace is written
    // start() turned NVTX recording on (in-process runs); stop() turns it off again. `record`
    // keeps it on from the program's first NVTX call.
    bool nvtxTurnedOn = false;
    std::size_t spilledNvtxNames = 0;  // names in the spill file (flusher thread only)

    // Periodic flushing (TracerOptions::flushPeriodMs) on a thread of its own. A forked child
    // inherits the tracer but not the thread: only the process that started it joins it.
    std::thread flusher;
    pid_t flusherOwner = 0;
    std::mutex flusherMutex;
    std::condition_variable flusherWake;
    bool flusherStop = false;

    void startFlusher(std::uint32_t periodMs) {
        flusherStop = false;
        flusherOwner = getpid();
        spilledNvtxNames = 0;
        flusher = std::thread([this, periodMs] {
            std::unique_lock lock(flusherMutex);
            while (!flusherWake.wait_for(lock, std::chrono::milliseconds(periodMs),
                                         [this] { return flusherStop; })) {
                lock.unlock();
                // Hands over every buffer whose records are complete, full or not.
                api->flushAll(0);
                spillNvtx();
                lock.lock();
            }
        });
    }

    // The NVTX calls since the last time, and the names given, to the spill file: NVTX lives in
    // the process's memory only until the trace is written.
    void spillNvtx() {
        if (!options.traceNvtx) {
            return;
        }
        NvtxRecorder& recorder = NvtxRecorder::instance();
        const std::vector<NvtxSpilledEvent> events = recorder.takeForSpill();
        const NvtxSpilledNames names = recorder.namesForSpill();
        const std::size_t nameCount = names.categories.size() + names.threadNames.size() +
                                      names.streamNames.size() + names.deviceNames.size() +
                                      names.otherNames.size();
        if (events.empty() && nameCount == spilledNvtxNames) {
            return;
        }
        spilledNvtxNames = nameCount;
        std::lock_guard lock(g_runMutex);
        if (run && run->spill() != nullptr) {
            run->spill()->appendNvtx(events, names);
        }
    }

    void stopFlusher() {
        if (!flusher.joinable()) {
            return;
        }
        if (getpid() != flusherOwner) {
            flusher.detach();  // the thread lives on only in the parent process
            return;
        }
        {
            std::lock_guard lock(flusherMutex);
            flusherStop = true;
        }
        flusherWake.notify_all();
        flusher.join();
    }

    // Without TracerOptions::recordStateQueries: CUPTI is told not to record the state queries
    // of the API domains whose kinds were just enabled (enabling a kind again resets that
    // choice). What was left out goes into the trace's metadata.
    void leaveOutStateQueries() {
        std::size_t leftOut = 0;
        for (const CUpti_CallbackDomain domain :
             {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
            const bool recorded = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? options.traceRuntimeApi
                                                                        : options.traceDriverApi;
            if (!recorded) {
                continue;
            }
            for (CUpti_CallbackId id : apiFunctions(domain, &analysis::isStateQueryApi)) {
                if (const CUptiResult r = api->enableApiRecords(domain, id, false);
                    r != CUPTI_SUCCESS) {
                    options.metadata["CUDA state queries"] =
                        "recorded (CUPTI could not leave them out: " + api->resultString(r) + ")";
                    return;
                }
                ++leftOut;
            }
        }
        options.metadata["CUDA state queries"] =
            "not recorded: calls that only read state, such as cudaGetDevice and "
            "cudaGetLastError (API functions left out: " +
            std::to_string(leftOut) + ")";
    }

    // The callback ids of one API domain's functions whose names match.
    std::vector<CUpti_CallbackId> apiFunctions(CUpti_CallbackDomain domain,
                                               bool (*matches)(std::string_view)) {
        const auto count = domain == CUPTI_CB_DOMAIN_RUNTIME_API
                               ? CUpti_CallbackId{CUPTI_RUNTIME_TRACE_CBID_SIZE}
                               : CUpti_CallbackId{CUPTI_DRIVER_TRACE_CBID_SIZE};
        std::vector<CUpti_CallbackId> ids;
        for (CUpti_CallbackId id = 1; id < count; ++id) {
            const std::string name = api->callbackName(domain, id);
            if (!name.empty() && matches(name)) {
                ids.push_back(id);
            }
        }
        return ids;
    }

    model::Status fail(std::string message) {
        rollBack();
        return model::Error{std::move(message)};
    }

    model::Status cuptiFailure(const char* what, CUptiResult result) {
        if (isRefusal(result)) {
            return fail(refusalMessage(what));
        }
        return fail(std::string("CUPTI could not ") + what + ": " + api->resultString(result));
    }

    void disableKinds() {
        for (auto it = enabled.rbegin(); it != enabled.rend(); ++it) {
            api->disable(*it);
        }
        enabled.clear();
    }

    void detach() {
        std::lock_guard lock(g_runMutex);
        if (g_run == run.get()) {
            g_run = nullptr;
        }
    }

    // Ends deferred GPU metrics; the samplers that started join `samplers`.
    void endDeferredMetrics() {
        if (!deferredMetrics) {
            return;
        }
        {
            std::lock_guard lock(g_contextMutex);
            g_deferredMetrics = nullptr;
        }
        for (auto& sampler : deferredMetrics->stop(warnings)) {
            samplers.push_back(std::move(sampler));
        }
        deferredMetrics.reset();
    }

    // GPU metrics of each device the program opens, from its first context there (no context
    // exists yet: `record` starts inside cuInit).
    void deferMetrics() {
        if (subscriber == nullptr) {
            warnings.push_back(
                "GPU metrics: not recorded, another CUPTI client holds the callback API");
            return;
        }
        if (const CUptiResult r = api->enableDomain(true, subscriber, CUPTI_CB_DOMAIN_RESOURCE);
            r != CUPTI_SUCCESS) {
            warnings.push_back("GPU metrics: not recorded, CUPTI could not report contexts: " +
                               api->resultString(r));
            return;
        }
        deferredMetrics = std::make_shared<DeferredMetrics>(options.gpuMetricsIntervalNs,
                                                            options.onExitHandlersAdded);
        {
            std::lock_guard lock(g_contextMutex);
            g_deferredMetrics = deferredMetrics;
        }
        // Launches wait for sampling to start (DeferredMetrics::waitForStarts).
        for (const CUpti_CallbackDomain domain :
             {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
            for (CUpti_CallbackId id : apiFunctions(domain, &analysis::isLaunchApi)) {
                api->enableCallback(true, subscriber, domain, id);
            }
        }
    }

    // A unified-memory setup's outcome into the run: its kind to disable at the end, its
    // messages into the trace (and to the caller at once, when they are found now).
    void takeUnifiedMemory(const UnifiedMemorySetup& setup, bool report) {
        if (setup.enabled) {
            enabled.push_back(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
        }
        for (const std::string& warning : setup.warnings) {
            warnings.push_back(warning);
            if (report && options.onSettingRefused) {
                options.onSettingRefused(warning);
            }
        }
        notes.insert(notes.end(), setup.notes.begin(), setup.notes.end());
    }

    void startUnifiedMemory() {
        if (!options.unifiedMemory.any()) {
            return;
        }
        const UnifiedMemorySetup setup = configureUnifiedMemory(*api, options.unifiedMemory);
        // `record` starts inside cuInit, and CUPTI wants the configuration after the driver is
        // initialised: when nothing could be configured there ("not initialised", or another
        // refusal that may be the same cause), it is tried again at the program's first
        // context, and what CUPTI says then is reported.
        const bool retry = setup.tooEarly || (!options.checkDevices && !setup.enabled);
        if (!retry) {
            takeUnifiedMemory(setup, true);
            return;
        }
        if (subscriber == nullptr ||
            api->enableDomain(true, subscriber, CUPTI_CB_DOMAIN_RESOURCE) != CUPTI_SUCCESS) {
            if (!setup.tooEarly) {
                takeUnifiedMemory(setup, true);  // CUPTI's own reason
                return;
            }
            UnifiedMemorySetup refused;
            refused.warnings.push_back(
                "unified memory counters are not recorded: CUPTI was not initialised when "
                "tracing started, and the creation of CUDA contexts, where they would be "
                "configured, is not reported to Warpline (another CUPTI client holds the "
                "callback API)");
            takeUnifiedMemory(refused, true);
            return;
        }
        pendingUnifiedMemory = std::make_shared<PendingUnifiedMemory>();
        pendingUnifiedMemory->api = api;
        pendingUnifiedMemory->options = options.unifiedMemory;
        pendingUnifiedMemory->onRefused = options.onSettingRefused;
        std::lock_guard lock(g_contextMutex);
        g_pendingUnifiedMemory = pendingUnifiedMemory;
    }

    // The deferred unified-memory setup's outcome (none when the program made no context).
    void endUnifiedMemory() {
        if (!pendingUnifiedMemory) {
            return;
        }
        {
            std::lock_guard lock(g_contextMutex);
            if (g_pendingUnifiedMemory == pendingUnifiedMemory) {
                g_pendingUnifiedMemory = nullptr;
            }
        }
        std::lock_guard lock(pendingUnifiedMemory->mutex);  // waits for a run under way
        if (pendingUnifiedMemory->setup) {
            takeUnifiedMemory(*pendingUnifiedMemory->setup, false);  // reported when found
        }
        pendingUnifiedMemory.reset();
    }

    void rollBack() {
        if (std::exchange(nvtxTurnedOn, false)) {
            // What this failed start recorded must not reach the next run's trace.
            NvtxRecorder::instance().setRecording(false);
            (void)NvtxRecorder::instance().collect();
        }
        stopFlusher();
        endDeferredMetrics();
        endUnifiedMemory();
        for (auto& sampler : samplers) {
            if (sampler->running()) {
                (void)sampler->stop();
            }
        }
        samplers.clear();
        disableKinds();
        if (run) {
            api->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            detach();
            run.reset();
        }
        if (subscriber != nullptr) {
            api->unsubscribe(subscriber);
            subscriber = nullptr;
        }
        running = false;
    }

    model::Status enableKinds(const KindSpec* begin, const KindSpec* end) {
        for (const KindSpec* spec = begin; spec != end; ++spec) {
            const CUptiResult result = api->enable(spec->kind);
            if (result == CUPTI_SUCCESS) {
                enabled.push_back(spec->kind);
                continue;
            }
            if (isRefusal(result)) {
                return fail(refusalMessage(std::string("record ") + spec->name));
            }
            if (spec->essential) {
                return fail(std::string("CUPTI could not enable ") + spec->name +
                            " tracing: " + api->resultString(result));
            }
            warnings.push_back(std::string("CUPTI could not enable ") + spec->name +
                               " records: " + api->resultString(result));
        }
        return {};
    }

    model::Status startMetrics() {
        // Integration with PmSampler (tracer/cupti/PmSampler.h): one sampler per device.
        if (deviceCount <= 0) {
            return fail("GPU metrics need the device count; they are not available in this mode");
        }
        for (int device = 0; device < deviceCount; ++device) {
            auto sampler = std::make_unique<PmSampler>();
            model::Status status = sampler->start(device, options.gpuMetricsIntervalNs);
            if (!status.ok()) {
                return fail(status.error().message);  // already names GPU metrics and the GPU
            }
            samplers.push_back(std::move(sampler));
        }
        return {};
    }

    void addMetrics(RecordTranslator& translator) {
        auto& builder = translator.builder();
        for (auto& sampler : samplers) {
            const int device = sampler->deviceId();
            auto series = sampler->stop();
            const PmSamplingStats stats = sampler->stats();
            for (const std::string& warning : stats.warnings) {
                builder.diagnostics().warn("GPU metrics on device " + std::to_string(device) +
                                           ": " + warning);
            }
            if (!series.ok()) {
                builder.diagnostics().warn(series.error().message);
                continue;
            }
            if (!translator.ranWorkOn(device)) {
                // Sampled (in-process runs sample every device) but never used: its metrics
                // would make a group of flat rows for a GPU the program did not touch.
                builder.diagnostics().note("GPU metrics of GPU " + std::to_string(device) +
                                           " left out: the program ran no GPU work there");
                continue;
            }
            const auto process = translator.gpuProcess(device);
            for (const MetricSeries& s : series.value()) {
                const auto counter = builder.counterTrack(process, "GPU metrics", s.name, s.unit);
                for (const model::CounterSample& sample : s.samples) {
                    builder.addCounterSample(counter, sample.timestampNs, sample.value);
                }
            }
        }
        samplers.clear();
    }
};

CuptiTracer::CuptiTracer() : CuptiTracer(makeRealCuptiApi()) {}

CuptiTracer::CuptiTracer(std::shared_ptr<CuptiApi> api) : m_impl(std::make_unique<Impl>()) {
    m_impl->api = std::move(api);
}

CuptiTracer::~CuptiTracer() {
    if (m_impl->running) {
        m_impl->rollBack();
    }
}

bool CuptiTracer::running() const {
    return m_impl->running;
}

model::Status CuptiTracer::start(const TracerOptions& options) {
    Impl& d = *m_impl;
    if (d.running) {
        return model::Error{"the tracer is already running"};
    }
    {
        std::lock_guard lock(g_runMutex);
        if (g_run != nullptr) {
            return model::Error{"another trace is already running in this process"};
        }
    }
    d.options = options;
    d.warnings.clear();
    d.notes.clear();
    d.deviceCount = 0;
    if (options.checkDevices) {
        auto count = d.api->deviceCount();
        if (!count.ok()) {
            return model::Error{"cannot trace: " + count.error().message};
        }
        d.deviceCount = count.value();
    }
    if (options.traceNvtx) {
        ensureNvtxInjection();
        // NVTX reaches the recorder through NVTX's injection (NvtxInjection.h): the program's
        // calls from now on are kept.
        d.nvtxTurnedOn = !NvtxRecorder::instance().recording();
        NvtxRecorder::instance().setRecording(true);
        const char* tool = std::getenv("NVTX_INJECTION64_PATH");
        if (tool != nullptr && tool[0] != '\0' && !nvtxInjectionInstalled() &&
            !isThisModule(tool)) {
            d.warnings.push_back(std::string("NVTX_INJECTION64_PATH names another NVTX tool (") +
                                 tool + "): NVTX ranges of this process go there, not here");
        }
    }

    BufferPool::instance().reserve(std::min(options.preallocatedBuffers, options.maxBuffers),
                                   options.bufferBytes);
    // Subscribing is how CUPTI tells us another profiler already owns the process.
    // The callback API only serves the hooks at context creation and the launches that wait for
    // GPU metrics. Another CUPTI client may hold it (a framework's profiler that subscribed at
    // load time) while the activity API stays free: then trace without it; enabling the activity
    // kinds below is what decides whether CUPTI refuses this process.
    CUptiResult result = d.api->subscribe(&d.subscriber, &tracerCallback, nullptr);
    if (result != CUPTI_SUCCESS) {
        d.subscriber = nullptr;
        if (!isRefusal(result)) {
            return d.cuptiFailure("start", result);
        }
        d.warnings.push_back(
            "another CUPTI client holds the callback API: the creation of CUDA contexts is not "
            "reported to Warpline (GPU metrics, and the exit hooks that run at a first context)");
    }

    auto api = d.api;
    auto translator =
        std::make_unique<RecordTranslator>([api](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
            return api->callbackName(domain, id);
        });
    translator->setHostProcessName(options.hostName.empty() ? processName() : options.hostName);
    d.run = std::make_unique<ActiveRun>(d.api, std::move(translator));
    d.tracingStartNs = d.api->timestampNs();
    d.finishedSpill.reset();
    if (!options.spillPath.empty()) {
        auto metadata = options.spillMetadata;
        metadata[kSpillStartKey] = std::to_string(d.tracingStartNs);
        auto spill = SpillWriter::create(options.spillPath, metadata);
        if (spill.ok()) {
            d.run->setSpill(std::move(spill.value()));
        } else {
            // Tracing goes on; only a kill without warning would now lose the trace.
            d.warnings.push_back(spill.error().message);
        }
    }
    {
        std::lock_guard lock(g_runMutex);
        g_run = d.run.get();
    }
    d.api->useSystemThreadIds();
    result = d.api->registerCallbacks(&bufferRequested, &bufferCompleted);
    if (result != CUPTI_SUCCESS) {
        return d.cuptiFailure("register its buffer callbacks", result);
    }
    d.running = true;
    if (auto status = d.enableKinds(std::begin(kCoreKinds), std::end(kCoreKinds)); !status.ok()) {
        return status;
    }
    if (options.traceApi) {
        if (options.traceRuntimeApi) {
            if (auto status = d.enableKinds(std::begin(kRuntimeKinds), std::end(kRuntimeKinds));
                !status.ok()) {
                return status;
            }
        }
        if (options.traceDriverApi) {
            if (auto status = d.enableKinds(std::begin(kDriverKinds), std::end(kDriverKinds));
                !status.ok()) {
                return status;
            }
        }
        if (!options.recordStateQueries) {
            d.leaveOutStateQueries();
        }
    }
    d.startUnifiedMemory();
    d.defaultStreams.clear();
    d.defaultStreamsNote.clear();
    if (options.queryDeviceProperties) {
        // The current device's default streams may predate this run (no STREAM record then): ask
        // CUPTI for their ids. Other devices are not touched (that would create contexts); their
        // default streams are named by the STREAM records of contexts created during the run.
        auto streams = d.api->defaultStreams(-1);
        if (streams.ok()) {
            d.defaultStreams[streams.value().device] = streams.value();
        } else {
            d.defaultStreamsNote = "not identified at start: " + streams.error().message;
        }
    }
    if (options.gpuMetrics && options.checkDevices) {
        if (auto status = d.startMetrics(); !status.ok()) {
            return status;
        }
    } else if (options.gpuMetrics) {
        d.deferMetrics();
    }
    if (options.onExitHandlersAdded) {
        // Context creation is reported only for these hooks.
        if (d.subscriber != nullptr &&
            d.api->enableDomain(true, d.subscriber, CUPTI_CB_DOMAIN_RESOURCE) == CUPTI_SUCCESS) {
            std::lock_guard lock(g_contextMutex);
            g_onFirstContext = options.onExitHandlersAdded;
        }
    }
    if (options.flushPeriodMs > 0) {
        d.startFlusher(options.flushPeriodMs);
    }
    return {};
}

void CuptiTracer::setMetadata(const std::string& key, const std::string& value) {
    m_impl->options.metadata[key] = value;
}

void CuptiTracer::discardSpill() {
    if (m_impl->finishedSpill) {
        m_impl->finishedSpill->remove();
        m_impl->finishedSpill.reset();
    }
}

model::Result<model::TracePtr> CuptiTracer::stop() {
    Impl& d = *m_impl;
    if (!d.running) {
        return model::Error{"the tracer is not running"};
    }
    d.stopFlusher();
    d.endDeferredMetrics();
    d.endUnifiedMemory();
    if (d.options.synchronizeAtStop && d.deviceCount > 0) {
        std::vector<int> devices(static_cast<std::size_t>(d.deviceCount));
        for (int i = 0; i < d.deviceCount; ++i) {
            devices[static_cast<std::size_t>(i)] = i;
        }
        d.api->synchronizeDevices(devices);
    }
    // Forced: also hands back buffers that are not full, and records of work still in flight.
    d.api->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    d.disableKinds();
    d.api->flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    d.detach();
    if (d.subscriber != nullptr) {
        d.api->unsubscribe(d.subscriber);
        d.subscriber = nullptr;
    }
    d.running = false;

    std::unique_ptr<ActiveRun> run = std::move(d.run);
    d.finishedSpill = run->takeSpill();
    RecordTranslator& translator = run->translator();
    if (d.finishedSpill && !d.finishedSpill->ok()) {
        d.warnings.push_back(d.finishedSpill->error() +
                             " (the trace is complete; only recovery after a kill was at risk)");
    }
    translator.addDroppedRecords(d.api->droppedRecords(nullptr, 0));  // the global queue
    if (d.options.traceNvtx) {
        translator.addNvtx(NvtxRecorder::instance().collect());
        if (std::exchange(d.nvtxTurnedOn, false)) {
            NvtxRecorder::instance().setRecording(false);
        }
    }
    if (!d.options.queryDeviceProperties) {
        // Only which physical GPU each ordinal was: traces of a job's processes and hosts are
        // matched by it.
        for (int device : translator.devices()) {
            model::DeviceProperties known;
            known.id = device;
            known.pciBusId = d.api->pciBusId(device);
            if (!known.pciBusId.empty()) {
                translator.addRuntimeDeviceProperties(known);
            }
        }
    }
    if (d.options.queryDeviceProperties) {
        for (int device : translator.devices()) {
            if (auto properties = d.api->deviceProperties(device)) {
                translator.addRuntimeDeviceProperties(*properties);
            }
            // Asked at start(), for the device current then.
            auto known = d.defaultStreams.find(device);
            if (known != d.defaultStreams.end()) {
                translator.noteDefaultStreams(device, known->second.legacy,
                                              known->second.perThread);
            }
        }
    }
    translator.complete();
    keepCaptured(translator.builder(), d.options.capture,
                 static_cast<model::TimeNs>(d.tracingStartNs));
    for (const std::string& warning : d.warnings) {
        translator.builder().diagnostics().warn(warning);
    }
    for (const std::string& note : d.notes) {
        translator.builder().diagnostics().note(note);
    }
    if (const std::string counters = unifiedMemoryCountersText(d.options.unifiedMemory);
        !counters.empty()) {
        translator.builder().setMetadata(kUnifiedMemoryCountersKey, counters);
    }
    d.addMetrics(translator);
    if (!d.defaultStreamsNote.empty()) {
        translator.builder().setMetadata("default streams", d.defaultStreamsNote);
    }
    for (const auto& [key, value] : d.options.metadata) {
        translator.builder().setMetadata(key, value);
    }
    return translator.builder().finalize();
}

std::uint64_t CuptiTracer::clockNs() {
    return makeRealCuptiApi()->timestampNs();
}

void CuptiTracer::ensureNvtxInjection() {
    const char* current = std::getenv("NVTX_INJECTION64_PATH");
    if (current != nullptr && std::strstr(current, "libcupti") != nullptr) {
        unsetenv("NVTX_INJECTION64_PATH");
    }
}

std::string CuptiTracer::loadedCuptiPath() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiActivityEnable), &info) == 0 ||
        info.dli_fname == nullptr) {
        return {};
    }
    return info.dli_fname;
}

}  // namespace wl::cupti
