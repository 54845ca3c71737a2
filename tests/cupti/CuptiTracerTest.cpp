#include "cupti/CuptiTracer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "CuptiRecords.h"
#include "FakeCuptiApi.h"
#include "cupti/BufferPool.h"
#include "cupti/NvtxInjection.h"

namespace wl::cupti {
namespace {

using namespace wl::cupti::test;

TEST(CuptiTracerTest, NoGpuIsAClearErrorAndNothingStays) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->deviceCountResult = model::Error{"no CUDA device found (the driver reports no GPU)"};
    CuptiTracer tracer(api);
    const model::Status status = tracer.start();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("no CUDA device"), std::string::npos);
    EXPECT_FALSE(tracer.running());
    EXPECT_EQ(api->subscriptions, 0);
    EXPECT_TRUE(api->enabledKinds.empty());
    EXPECT_FALSE(tracer.stop().ok());
}

TEST(CuptiTracerTest, AnotherProfilerIsReportedAsSuch) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->subscribeResult = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    api->enableResults[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] =
        CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    CuptiTracer tracer(api);
    const model::Status status = tracer.start();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("another profiler"), std::string::npos);
    EXPECT_NE(status.error().message.find("concurrent kernels"), std::string::npos);
    EXPECT_FALSE(tracer.running());
}

TEST(CuptiTracerTest, CallbackApiHeldElsewhereStillTracesActivity) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->subscribeResult = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    api->queue(kernelRecord("k", 200, 400, 5));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->counts().kernel, 1u);
    bool warned = false;
    for (const auto& w : trace.value()->diagnostics().warnings) {
        warned |= w.find("callback API") != std::string::npos;
    }
    EXPECT_TRUE(warned);
}

TEST(CuptiTracerTest, RefusalWhileEnablingRollsBack) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->enableResults[CUPTI_ACTIVITY_KIND_MEMCPY] = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    CuptiTracer tracer(api);
    const model::Status status = tracer.start();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find("another profiler"), std::string::npos);
    EXPECT_TRUE(api->enabledKinds.empty());
    EXPECT_EQ(api->subscriptions, 0);
    EXPECT_FALSE(tracer.running());
}

TEST(CuptiTracerTest, EnablesConcurrentKernelsFirstAndNeverSerialisingKernels) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    ASSERT_FALSE(api->everEnabled.empty());
    EXPECT_EQ(api->everEnabled.front(), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_KERNEL), 0u);
    for (auto kind :
         {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET,
          CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_RUNTIME,
          CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_CUDA_EVENT, CUPTI_ACTIVITY_KIND_OVERHEAD,
          CUPTI_ACTIVITY_KIND_STREAM, CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_NAME}) {
        EXPECT_EQ(api->enabledKinds.count(kind), 1u) << "kind " << kind;
    }
    // NVTX is recorded by Warpline's own NVTX tool, not through CUPTI's records.
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_MARKER), 0u);
    ASSERT_TRUE(tracer.stop().ok());
    EXPECT_TRUE(api->enabledKinds.empty());
}

TEST(CuptiTracerTest, StateQueriesAreNotRecordedUnlessAsked) {
    using Off = std::pair<int, CUpti_CallbackId>;
    const Off getDevice{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020};
    const Off ctxGetCurrent{CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent};
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    // The fake names two queries and three other calls: only the queries are off.
    EXPECT_EQ(api->apiRecordsOff, (std::set<Off>{getDevice, ctxGetCurrent}));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_NE(
        trace.value()->metadataValue("CUDA state queries").find("(API functions left out: 2)"),
        std::string::npos)
        << trace.value()->metadataValue("CUDA state queries");

    TracerOptions runtimeOnly;
    runtimeOnly.traceDriverApi = false;
    ASSERT_TRUE(tracer.start(runtimeOnly).ok());
    EXPECT_EQ(api->apiRecordsOff.count(getDevice), 1u);
    ASSERT_TRUE(tracer.stop().ok());

    TracerOptions everything;
    everything.recordStateQueries = true;
    ASSERT_TRUE(tracer.start(everything).ok());  // enabling the kinds again records them all
    EXPECT_TRUE(api->apiRecordsOff.empty());
    trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->metadataValue("CUDA state queries"), "");
}

TEST(CuptiTracerTest, DeferredGpuMetricsHoldLaunchesUntilSamplingStarts) {
    // As `record` traces: no context yet, so GPU metrics start with each device's first context,
    // and kernel launches (only they) are reported so they can wait for that start.
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    TracerOptions options;
    options.checkDevices = false;
    options.queryDeviceProperties = false;
    options.synchronizeAtStop = false;
    options.gpuMetrics = true;
    ASSERT_TRUE(tracer.start(options).ok());
    using On = std::pair<int, CUpti_CallbackId>;
    EXPECT_EQ(api->callbacksOn,
              (std::set<On>{{CUPTI_CB_DOMAIN_RUNTIME_API, 211},
                            {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel}}));
    ASSERT_TRUE(tracer.stop().ok());
}

TEST(CuptiTracerTest, ACuptiThatCannotLeaveQueriesOutRecordsThemAndSaysSo) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->enableApiRecordsResult = CUPTI_ERROR_NOT_SUPPORTED;
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(
        trace.value()->metadataValue("CUDA state queries").rfind("recorded (CUPTI could not", 0),
        0u)
        << trace.value()->metadataValue("CUDA state queries");
}

TEST(CuptiTracerTest, StopFlushesTranslatesAndCountsDroppedRecords) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    EXPECT_TRUE(tracer.running());
    EXPECT_FALSE(tracer.start().ok());  // one run at a time
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 100, 150, 5));
    api->queue(kernelRecord("k", 200, 400, 5));
    api->queue(memsetRecord(64, 0, 500, 520, 6));
    api->dropped = 3;
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    EXPECT_FALSE(tracer.running());
    EXPECT_EQ(api->synchronizations, 1);
    EXPECT_GE(api->flushes, 1);
    EXPECT_FALSE(api->misalignedOrMissingBuffer);
    const auto& t = *trace.value();
    EXPECT_EQ(t.counts().kernel, 1u);
    EXPECT_EQ(t.counts().api, 1u);
    EXPECT_EQ(t.counts().memset, 1u);
    EXPECT_EQ(t.counts().flows, 1u);
    EXPECT_EQ(t.diagnostics().droppedRecords, 3u);
    ASSERT_NE(t.device(0), nullptr);  // runtime properties of the device that ran work
    EXPECT_EQ(t.device(0)->name, "Fake GPU");
    ASSERT_EQ(t.tracks().empty(), false);
    for (const auto& track : t.tracks()) {
        if (track.kind == model::TrackKind::GpuStream) {
            EXPECT_EQ(t.str(track.nameId), "Default stream (legacy, 7)");  // told by CUPTI at stop
        }
    }
    EXPECT_EQ(api->subscriptions, 0);
    EXPECT_EQ(BufferPool::instance().outstanding(), 0u);
}

TEST(CuptiTracerTest, RunMetadataReachesTheTrace) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    TracerOptions options;
    options.metadata = {{"producer", "warpline run"}, {"workload", "reduce"}};
    ASSERT_TRUE(tracer.start(options).ok());
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->metadataValue("producer"), "warpline run");
    EXPECT_EQ(trace.value()->metadataValue("workload"), "reduce");
}

TEST(CuptiTracerTest, StartStopRepeatsWithIndependentTraces) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    for (int run = 1; run <= 3; ++run) {
        ASSERT_TRUE(tracer.start().ok()) << "run " << run;
        for (int i = 0; i < run; ++i) {
            api->queue(kernelRecord("k", 1000 + 100 * i, 1050 + 100 * i, 0));
        }
        auto trace = tracer.stop();
        ASSERT_TRUE(trace.ok());
        EXPECT_EQ(trace.value()->counts().kernel, static_cast<std::uint64_t>(run));
    }
}

TEST(CuptiTracerTest, TwoTracersCannotRunAtOnce) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer first(api);
    CuptiTracer second(api);
    ASSERT_TRUE(first.start().ok());
    const model::Status status = second.start();
    EXPECT_FALSE(status.ok());
    EXPECT_TRUE(first.stop().ok());
    EXPECT_TRUE(second.start().ok());
    EXPECT_TRUE(second.stop().ok());
}

TEST(CuptiTracerTest, NvtxIsLeftToWarplinesRecorderUnlessTheUserChoseATool) {
    const std::string path = CuptiTracer::loadedCuptiPath();
    ASSERT_FALSE(path.empty());
    EXPECT_NE(path.find("libcupti"), std::string::npos);

    // A libcupti left there would get NVTX and record nothing of it.
    setenv("NVTX_INJECTION64_PATH", path.c_str(), 1);
    CuptiTracer::ensureNvtxInjection();
    EXPECT_EQ(std::getenv("NVTX_INJECTION64_PATH"), nullptr);

    setenv("NVTX_INJECTION64_PATH", "/opt/user/choice.so", 1);
    CuptiTracer::ensureNvtxInjection();
    EXPECT_EQ(std::string(std::getenv("NVTX_INJECTION64_PATH")), "/opt/user/choice.so");
    unsetenv("NVTX_INJECTION64_PATH");
}

TEST(CuptiTracerTest, AnotherNvtxToolIsNamedInTheTrace) {
    if (nvtxInjectionInstalled()) {
        GTEST_SKIP() << "NVTX attached to Warpline already in this process";
    }
    auto traceWith = [](const char* tool) {
        setenv("NVTX_INJECTION64_PATH", tool, 1);
        auto api = std::make_shared<FakeCuptiApi>();
        CuptiTracer tracer(api);
        EXPECT_TRUE(tracer.start().ok());
        auto trace = tracer.stop();
        unsetenv("NVTX_INJECTION64_PATH");
        std::string warnings;
        for (const auto& w : trace.value()->diagnostics().warnings) {
            warnings += w;
        }
        return warnings;
    };
    EXPECT_NE(traceWith("/bin/sh").find("names another NVTX tool (/bin/sh)"), std::string::npos);
    // This program itself (where the tracer lives, as warpline_inject does under `record`).
    EXPECT_EQ(traceWith("/proc/self/exe").find("another NVTX tool"), std::string::npos);
}

using UmKind = CUpti_ActivityUnifiedMemoryCounterKind;
constexpr UmKind kHtoD = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD;
constexpr UmKind kDtoH = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH;
constexpr UmKind kGpuFaults = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT;
constexpr UmKind kCpuFaults = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT;
constexpr UmKind kThrashing = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING;

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const std::string& line : lines) {
        all += line + "\n";
    }
    return all;
}

TEST(CuptiTracerUnifiedMemoryTest, CountersAreConfiguredOnlyWhenAsked) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start().ok());
    EXPECT_TRUE(api->umCalls.empty());
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);
    ASSERT_TRUE(tracer.stop().ok());

    TracerOptions options;
    options.unifiedMemory = {.migrations = true, .cpuPageFaults = true, .gpuPageFaults = true};
    ASSERT_TRUE(tracer.start(options).ok());
    // One call with every counter: the options' and those that explain migrations.
    ASSERT_EQ(api->umCalls.size(), 1u);
    for (UmKind k : {kHtoD, kDtoH, kGpuFaults, kCpuFaults, kThrashing}) {
        EXPECT_EQ(api->umConfigured.count(k), 1u) << k;
    }
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 1u);
    api->queue(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
                                   4096, 100, 200, 0x1000, CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID, 0));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->counts().unifiedMemory, 1u);
    EXPECT_EQ(trace.value()->metadataValue(kUnifiedMemoryCountersKey),
              "migrations, CPU page faults, GPU page faults");
    EXPECT_TRUE(trace.value()->diagnostics().warnings.empty())
        << joined(trace.value()->diagnostics().warnings);
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);
}

// A platform without unified memory profiling: what was asked for is said, at once and in the
// trace, and the rest of the run is recorded.
TEST(CuptiTracerUnifiedMemoryTest, ARefusalIsSaidAndTracingGoesOn) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->umResult = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED;
    std::vector<std::string> told;
    TracerOptions options;
    options.unifiedMemory = {.migrations = true, .gpuPageFaults = true};
    options.onSettingRefused = [&](const std::string& w) { told.push_back(w); };
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(options).ok());
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);
    ASSERT_EQ(told.size(), 2u);  // one per option
    EXPECT_NE(told[0].find("unified memory migrations are not recorded (--cuda-um-migrations)"),
              std::string::npos)
        << told[0];
    EXPECT_NE(told[0].find("this platform (OS or architecture) has no unified memory profiling"),
              std::string::npos)
        << told[0];
    EXPECT_NE(told[1].find("GPU page faults are not recorded (--cuda-um-gpu-page-faults)"),
              std::string::npos)
        << told[1];
    api->queue(kernelRecord("k", 200, 400, 5));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->counts().kernel, 1u);
    const std::string warnings = joined(trace.value()->diagnostics().warnings);
    EXPECT_NE(warnings.find(told[0]), std::string::npos) << warnings;
    EXPECT_NE(warnings.find(told[1]), std::string::npos) << warnings;
}

// A GPU without page-fault counters (compute capability below 6.0) still records migrations;
// counters that only explain them are noted when the GPU lacks them.
TEST(CuptiTracerUnifiedMemoryTest, WhatTheGpuRefusesAloneLeavesTheRest) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->umRefused[kGpuFaults] = CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE;
    api->umRefused[kThrashing] = CUPTI_ERROR_NOT_SUPPORTED;
    TracerOptions options;
    options.unifiedMemory = {.migrations = true, .gpuPageFaults = true};
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(options).ok());
    EXPECT_EQ(api->umConfigured, (std::set<UmKind>{kHtoD, kDtoH}));
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 1u);
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    const auto& diag = trace.value()->diagnostics();
    ASSERT_EQ(diag.warnings.size(), 1u) << joined(diag.warnings);
    EXPECT_NE(diag.warnings[0].find("GPU page faults are not recorded"), std::string::npos);
    EXPECT_NE(diag.warnings[0].find("compute capability 6.0"), std::string::npos);
    EXPECT_NE(joined(diag.notes).find("no thrashing, throttling, remote maps"), std::string::npos)
        << joined(diag.notes);
}

// `record` starts inside cuInit, before CUPTI takes this configuration: it is made at the
// program's first CUDA context instead, before the program can allocate managed memory.
TEST(CuptiTracerUnifiedMemoryTest, TooEarlyAtStartIsDoneAtTheFirstContext) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->umResult = CUPTI_ERROR_NOT_INITIALIZED;
    std::vector<std::string> told;
    TracerOptions options;
    options.unifiedMemory = {.migrations = true};
    options.onSettingRefused = [&](const std::string& w) { told.push_back(w); };
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(options).ok());
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);
    EXPECT_TRUE(told.empty());
    api->umResult = CUPTI_SUCCESS;
    api->createContext();
    EXPECT_EQ(api->umConfigured.count(kHtoD), 1u);
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 1u);
    const std::size_t calls = api->umCalls.size();
    api->createContext();  // a second context configures nothing again
    EXPECT_EQ(api->umCalls.size(), calls);
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_TRUE(trace.value()->diagnostics().warnings.empty());
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);

    // Still too early at the context: said, not lost.
    api->umResult = CUPTI_ERROR_NOT_INITIALIZED;
    ASSERT_TRUE(tracer.start(options).ok());
    api->createContext();
    ASSERT_EQ(told.size(), 1u);
    EXPECT_NE(told[0].find("still not initialised"), std::string::npos) << told[0];
    auto second = tracer.stop();
    ASSERT_TRUE(second.ok());
    EXPECT_NE(joined(second.value()->diagnostics().warnings).find("still not initialised"),
              std::string::npos);
}

// Inside cuInit (record: no device checks) any refusal may be CUPTI not being ready yet: tried
// again at the first context, and what CUPTI says then is what the user is told.
TEST(CuptiTracerUnifiedMemoryTest, InsideCuInitARefusalIsTriedAgainAtTheFirstContext) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->umResult = CUPTI_ERROR_UNKNOWN;
    std::vector<std::string> told;
    TracerOptions options;
    options.checkDevices = false;
    options.synchronizeAtStop = false;
    options.queryDeviceProperties = false;
    options.unifiedMemory = {.migrations = true};
    options.onSettingRefused = [&](const std::string& w) { told.push_back(w); };
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(options).ok());
    EXPECT_TRUE(told.empty());
    api->createContext();  // the platform has none: refused again, and now said
    ASSERT_EQ(told.size(), 1u);
    EXPECT_NE(told[0].find("unified memory migrations are not recorded"), std::string::npos);
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_NE(joined(trace.value()->diagnostics().warnings).find(told[0]), std::string::npos);
    EXPECT_EQ(api->enabledKinds.count(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER), 0u);
}

TEST(BufferPoolTest, BuffersAreAlignedRecycledAndGrowWhenDry) {
    BufferPool pool(1 << 16);
    pool.reserve(2, 1 << 16);
    EXPECT_EQ(pool.freeCount(), 2u);
    std::uint8_t* a = pool.acquire();
    std::uint8_t* b = pool.acquire();
    std::uint8_t* c = pool.acquire();  // pool dry: one more is allocated, never a null buffer
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(c, nullptr);
    for (auto* buffer : {a, b, c}) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer) % 8, 0u);
    }
    EXPECT_EQ(pool.outstanding(), 3u);
    EXPECT_EQ(pool.allocatedCount(), 3u);
    pool.release(a);
    EXPECT_EQ(pool.acquire(), a);  // recycled, not reallocated
    pool.release(a);
    pool.release(b);
    pool.release(c);
    EXPECT_EQ(pool.outstanding(), 0u);
    EXPECT_EQ(pool.allocatedCount(), 3u);
    EXPECT_EQ(pool.bufferBytes(), std::size_t{1} << 16);
}

}  // namespace
}  // namespace wl::cupti

namespace wl::cupti {
namespace {

// On a machine without a driver or GPU (CI) the real tracer must refuse with a message; where
// there is a GPU it simply traces an empty run. Either way nothing crashes.
TEST(CuptiTracerRealTest, StartsOrRefusesCleanly) {
    CuptiTracer tracer;
    const model::Status status = tracer.start();
    if (!status.ok()) {
        EXPECT_FALSE(status.error().message.empty());
        EXPECT_NE(status.error().message.find("cannot trace"), std::string::npos)
            << status.error().message;
        EXPECT_FALSE(tracer.running());
        return;
    }
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    EXPECT_EQ(trace.value()->diagnostics().droppedRecords, 0u);
}

}  // namespace
}  // namespace wl::cupti
