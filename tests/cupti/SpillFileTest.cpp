// The spill file: what a recorded process traced so far, written as CUPTI hands buffers over and
// turned back into a trace after the process was killed without warning.
#include "cupti/SpillFile.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "CuptiRecords.h"
#include "FakeCuptiApi.h"
#include "cupti/CuptiTracer.h"
#include "cupti/NvtxRecorder.h"
#include "cupti/SpillRecovery.h"
#include "support/TestData.h"

namespace wl::cupti {
namespace {

using namespace wl::cupti::test;

constexpr std::uint32_t kLaunch = 211;
constexpr std::uint32_t kProfilerStart = 171;
constexpr std::uint32_t kProfilerStop = 172;

RecordTranslator::ApiNameFn fakeNames(std::shared_ptr<FakeCuptiApi> api) {
    return [api](CUpti_CallbackDomain domain, CUpti_CallbackId id) {
        return api->callbackName(domain, id);
    };
}

bool exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

std::vector<std::string> kernelNames(const model::Trace& trace) {
    std::vector<std::string> names;
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& s : track.slices) {
            if (s.kind == model::SliceKind::Kernel) {
                names.emplace_back(trace.str(s.nameId));
            }
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

class SpillFileTest : public ::testing::Test {
protected:
    void SetUp() override { m_dir = wl::test::makeTempDir("warpline-spill"); }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    TracerOptions spilling() {
        TracerOptions options;
        options.spillPath = m_dir + "/4242.spill";
        options.spillMetadata = {{"pid", "4242"},
                                 {"command", "python3 train.py"},
                                 {kSpillOutputKey, m_dir + "/train.json.gz"},
                                 {kSpillProcessNameKey, "python3"}};
        return options;
    }

    // Two buffers' worth of launches, then a flush (what CUPTI does when a buffer fills).
    void queueLaunches(FakeCuptiApi& api, std::uint32_t firstCorrelation, std::uint64_t at) {
        for (std::uint32_t i = 0; i < 3; ++i) {
            const std::uint32_t c = firstCorrelation + i;
            const std::uint64_t t = at + i * 1000;
            api.queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunch, t, t + 100, c));
            api.queue(kernelRecord(i % 2 == 0 ? "reduce_kernel" : "normalize_kernel", t + 200,
                                   t + 900, c));
        }
    }

    std::string m_dir;
};

TEST_F(SpillFileTest, AKilledProcessesBuffersComeBackAsTheSameTrace) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(spilling()).ok());
    queueLaunches(*api, 1, 10'000);
    api->queue(deviceRecord(0, "Fake H200"));
    // A migration of managed memory: unified-memory records come back too.
    api->queue(unifiedMemoryRecord(CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
                                   1 << 20, 10'500, 11'500, 0x7f0000000000,
                                   CUPTI_UNIFIED_MEMORY_CPU_DEVICE_ID, 0));
    api->flushAll(0);  // buffer 1 handed over
    queueLaunches(*api, 10, 20'000);
    api->flushAll(0);  // buffer 2
    // The process is "killed" here: what the spill file holds is all a recorder would have.
    auto recovered = recoverSpilledTrace(m_dir + "/4242.spill", fakeNames(api));
    ASSERT_TRUE(recovered.ok()) << recovered.error().message;
    const model::Trace& r = *recovered.value().trace;
    EXPECT_EQ(recovered.value().outputPath, m_dir + "/train.json.gz");
    EXPECT_EQ(r.counts().kernel, 6u);
    EXPECT_EQ(r.counts().api, 6u);
    EXPECT_EQ(r.flows().size(), 6u);  // every launch joined to its kernel, as live
    EXPECT_EQ(r.counts().unifiedMemory, 1u);
    EXPECT_EQ(r.metadataValue("pid"), "4242");
    EXPECT_EQ(r.metadataValue("command"), "python3 train.py");
    EXPECT_TRUE(r.metadataValue("spill.output").empty()) << "recovery keys stay out of the trace";
    ASSERT_EQ(r.devices().size(), 1u);
    EXPECT_EQ(r.devices()[0].name, "Fake H200");
    bool saysRecovered = false;
    for (const std::string& w : r.diagnostics().warnings) {
        saysRecovered |= w.find("recovered from 2 activity buffers") != std::string::npos &&
                         w.find("NVTX calls") != std::string::npos;
    }
    EXPECT_TRUE(saysRecovered);

    // The live trace of the same records says the same.
    auto live = tracer.stop();
    ASSERT_TRUE(live.ok());
    EXPECT_EQ(kernelNames(*live.value()), kernelNames(r));
    EXPECT_EQ(live.value()->spanNs(), r.spanNs());
    EXPECT_EQ(live.value()->counts().unifiedMemory, r.counts().unifiedMemory);
    EXPECT_TRUE(exists(m_dir + "/4242.spill")) << "kept until the trace is written";
    tracer.discardSpill();
    EXPECT_FALSE(exists(m_dir + "/4242.spill"));
}

TEST_F(SpillFileTest, AKilledProcessesNvtxComesBackFromTheSpill) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    TracerOptions options = spilling();
    options.flushPeriodMs = 5;
    ASSERT_TRUE(tracer.start(options).ok());
    NvtxRecorder& nvtx = NvtxRecorder::instance();
    ASSERT_TRUE(nvtx.recording());
    NvtxDomain* domain = nvtx.createDomain("train");
    nvtx.nameCategory(domain, 4, "I/O");
    nvtx.nameOsThread(static_cast<std::uint32_t>(gettid()), "loader");
    NvtxAttributes step;
    step.message = "step 0";
    step.category = 4;
    step.hasPayload = true;
    step.payload = 42;
    nvtx.push(domain, step);
    NvtxAttributes mark;
    mark.message = "checkpoint";
    nvtx.mark(nullptr, mark);
    nvtx.pop(domain);
    NvtxAttributes open;
    open.message = "epoch";
    nvtx.push(nullptr, open);  // still open when the process is "killed"
    api->queue(deviceRecord(0, "Fake H200"));
    // The flusher writes NVTX every period; wait for a spill that holds the calls above.
    std::shared_ptr<const model::Trace> recovered;
    for (int attempt = 0; attempt < 200 && !recovered; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        auto r = recoverSpilledTrace(m_dir + "/4242.spill", fakeNames(api));
        ASSERT_TRUE(r.ok()) << r.error().message;
        if (r.value().trace->counts().nvtx >= 2) {
            recovered = r.value().trace;
        }
    }
    ASSERT_TRUE(recovered) << "the NVTX calls never reached the spill file";
    const model::Trace& t = *recovered;
    EXPECT_EQ(t.counts().nvtx, 2u);
    bool stepFound = false;
    for (const auto& track : t.tracks()) {
        for (const auto& slice : track.slices) {
            if (t.str(slice.nameId) != "step 0") {
                continue;
            }
            stepFound = true;
            const auto* d = t.nvtx(slice);
            ASSERT_NE(d, nullptr);
            EXPECT_EQ(t.str(d->domainId), "train");
            EXPECT_EQ(t.str(d->categoryNameId), "I/O");
            EXPECT_EQ(d->payload, 42.0);
            EXPECT_NE(std::string(t.str(track.nameId)).find("loader"), std::string::npos);
        }
    }
    EXPECT_TRUE(stepFound);
    EXPECT_EQ(t.diagnostics().unmatchedEnds, 1u) << "\"epoch\" was open at the kill";
    auto live = tracer.stop();
    ASSERT_TRUE(live.ok());
    EXPECT_EQ(live.value()->counts().nvtx, 2u);
}

TEST_F(SpillFileTest, ABlockCutShortByTheKillIsLeftOutAndSaid) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    ASSERT_TRUE(tracer.start(spilling()).ok());
    queueLaunches(*api, 1, 10'000);
    api->flushAll(0);
    const auto wholeBytes = std::filesystem::file_size(m_dir + "/4242.spill");
    queueLaunches(*api, 10, 20'000);
    api->flushAll(0);
    // The process died while writing the second buffer.
    const auto bothBytes = std::filesystem::file_size(m_dir + "/4242.spill");
    std::filesystem::resize_file(m_dir + "/4242.spill", (wholeBytes + bothBytes) / 2);
    auto recovered = recoverSpilledTrace(m_dir + "/4242.spill", fakeNames(api));
    ASSERT_TRUE(recovered.ok()) << recovered.error().message;
    EXPECT_EQ(recovered.value().trace->counts().kernel, 3u);
    bool saysCut = false;
    for (const std::string& w : recovered.value().trace->diagnostics().warnings) {
        saysCut |= w.find("cut short") != std::string::npos;
    }
    EXPECT_TRUE(saysCut);
    (void)tracer.stop();
}

TEST_F(SpillFileTest, NotASpillFileIsAnError) {
    const std::string path = m_dir + "/junk.spill";
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("{\"traceEvents\": []}", f);
    std::fclose(f);
    auto api = std::make_shared<FakeCuptiApi>();
    auto recovered = recoverSpilledTrace(path, fakeNames(api));
    ASSERT_FALSE(recovered.ok());
    EXPECT_NE(recovered.error().message.find("not a warpline spill file"), std::string::npos);
    EXPECT_FALSE(recoverSpilledTrace(m_dir + "/missing.spill", fakeNames(api)).ok());
}

TEST_F(SpillFileTest, RecoveryKeepsTheProcessesCaptureRange) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    TracerOptions options = spilling();
    options.spillMetadata[kSpillCaptureRangeKey] = "cudaProfilerApi";
    ASSERT_TRUE(tracer.start(options).ok());
    queueLaunches(*api, 1, 10'000);  // warm-up: outside
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStart, 15'000, 15'100, 50));
    queueLaunches(*api, 10, 20'000);  // profiled
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStop, 23'000, 23'100, 51));
    queueLaunches(*api, 20, 30'000);  // after: outside
    api->flushAll(0);
    auto recovered = recoverSpilledTrace(m_dir + "/4242.spill", fakeNames(api));
    ASSERT_TRUE(recovered.ok()) << recovered.error().message;
    const model::Trace& r = *recovered.value().trace;
    EXPECT_EQ(r.counts().kernel, 3u);
    ASSERT_EQ(r.captureWindows().size(), 1u);
    EXPECT_EQ(r.metadataValue("capture windows"), "1");
    (void)tracer.stop();
}

TEST(CaptureRangeTracerTest, OnlyTheProfiledPartIsKeptAndTheRestCounted) {
    auto api = std::make_shared<FakeCuptiApi>();
    api->clockNs = 1'000;
    CuptiTracer tracer(api);
    TracerOptions options;
    options.capture.trigger = analysis::CaptureRange::Trigger::ProfilerApi;
    options.capture.repeat = true;
    ASSERT_TRUE(tracer.start(options).ok());
    const auto launch = [&](std::uint32_t c, std::uint64_t t, std::uint64_t kernelEnd) {
        api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunch, t, t + 100, c));
        api->queue(kernelRecord("k", t + 200, kernelEnd, c));
    };
    launch(1, 10'000, 11'000);  // before
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStart, 20'000, 20'100, 2));
    launch(3, 21'000, 40'000);  // launched inside, runs past the stop: kept, window reaches it
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStop, 22'000, 22'100, 4));
    launch(5, 50'000, 51'000);  // between
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStart, 60'000, 60'100, 6));
    launch(7, 61'000, 62'000);
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kProfilerStop, 63'000, 63'100, 8));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    const model::Trace& t = *trace.value();
    EXPECT_EQ(t.counts().kernel, 2u);
    ASSERT_EQ(t.captureWindows().size(), 2u);
    // The first window runs from cudaProfilerStart's return to the end of the kernel it launched.
    EXPECT_EQ(t.captureWindows()[0].startNs + t.originNs(), 20'100);
    EXPECT_EQ(t.captureWindows()[0].endNs + t.originNs(), 40'000);
    EXPECT_EQ(t.metadataValue("capture removed"), "4");  // 2 launches + 2 kernels
    EXPECT_EQ(t.metadataValue("capture windows"), "2");
}

TEST(CaptureRangeTracerTest, ARangeThatNeverBeganKeepsNothingAndSaysWhy) {
    auto api = std::make_shared<FakeCuptiApi>();
    CuptiTracer tracer(api);
    TracerOptions options;
    options.capture.trigger = analysis::CaptureRange::Trigger::ProfilerApi;
    ASSERT_TRUE(tracer.start(options).ok());
    api->queue(apiRecord(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunch, 100, 200, 1));
    api->queue(kernelRecord("k", 300, 400, 1));
    auto trace = tracer.stop();
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->counts().kernel, 0u);
    bool said = false;
    for (const std::string& w : trace.value()->diagnostics().warnings) {
        said |= w.find("never called cudaProfilerStart") != std::string::npos;
    }
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace wl::cupti
