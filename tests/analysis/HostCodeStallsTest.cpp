// host-code-stalls-gpu: the GPU waits while the host runs code that neither CUDA calls nor NVTX
// ranges mark (the tutorials' heat loop writing its grid to a file between steps).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/Window.h"

namespace wl::analysis {
namespace {

constexpr model::TimeNs kMs = model::kNsPerMs;

std::vector<const Diagnostic*> hostCode(const AnalysisResult& r) {
    return r.findings(RuleId::HostCodeStallsGpu);
}

AnalysisResult analyzeWhole(const model::Trace& trace) {
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const auto window = resolveWindow(trace, whole);
    EXPECT_TRUE(window.ok());
    return analyzeTrace(trace, {}, window.value());
}

// `steps` write steps of the copy-overlap exercise: kernels queued for 2 ms, a quick
// cudaStreamSynchronize of the copy stream, the file write (host code) for `writeNs`, a
// cudaStreamSynchronize of the compute stream, then the next step's cudaMemcpy.
model::TracePtr writeSteps(int steps, model::TimeNs writeNs, bool nvtxAroundWrite = false,
                           std::string_view profilerOp = {}) {
    test::HandTrace t;
    auto& b = t.builder();
    const auto cpuOps = b.hostTrack(b.hostProcess(100, "app"), 1);  // the launching thread's
    model::TimeNs at = 0;
    for (int step = 0; step < steps; ++step) {
        t.copy(7, at + 10'000, at + 20'000, model::CopyKind::DeviceToDevice, 1 << 20, at,
               at + 25'000, "cudaMemcpy_v3020");
        t.kernel(14, at + 30'000, at + 2 * kMs, at + 26'000);
        t.api("cudaStreamSynchronize_v3020", at + 40'000, at + 45'000);
        if (nvtxAroundWrite) {
            t.nvtx("write", at + 46'000, at + 46'000 + writeNs);
        }
        if (!profilerOp.empty()) {
            b.addSlice(cpuOps, at + 46'000, at + 46'000 + writeNs, profilerOp,
                       model::SliceKind::CpuOp);
        }
        const model::TimeNs after = at + 46'000 + writeNs;
        t.api("cudaStreamSynchronize_v3020", after, after + 1'000);
        at = after + 2'000;
    }
    t.copy(7, at + 10'000, at + 20'000, model::CopyKind::DeviceToDevice, 1 << 20, at, at + 25'000,
           "cudaMemcpy_v3020");
    return t.finish();
}

TEST(HostCodeStallsGpu, NamesTheCallsAroundTheHostCodeTheGpuWaitedFor) {
    const AnalysisResult r = analyzeWhole(*writeSteps(4, 20 * kMs));
    const auto found = hostCode(r);
    ASSERT_EQ(found.size(), 1u);
    const Diagnostic& d = *found.front();
    EXPECT_EQ(d.count, 4u);
    EXPECT_EQ(d.message.rfind("GPU 0 idled ", 0), 0u) << d.message;
    EXPECT_NE(d.message.find("in 4 gaps while the host ran its own code between "
                             "cudaStreamSynchronize and cudaStreamSynchronize"),
              std::string::npos)
        << d.message;
    EXPECT_NE(d.fix.find("NVTX range"), std::string::npos);
    // Each gap: from the kernel's end to the next step's copy.
    EXPECT_EQ(d.costNs, 4 * (46'000 + 20 * kMs + 2'000 + 10'000 - 2 * kMs));
    ASSERT_EQ(d.evidence.size(), 8u);  // the two calls around each write
}

TEST(HostCodeStallsGpu, NotWhenAnNvtxRangeNamesTheCode) {
    const AnalysisResult r = analyzeWhole(*writeSteps(4, 20 * kMs, true));
    EXPECT_TRUE(hostCode(r).empty()) << hostCode(r).front()->message;
    EXPECT_TRUE(r.fired(RuleId::HostRangeStallsGpu));
}

TEST(HostCodeStallsGpu, NotForTheShortHolesOfTheLaunchPath) {
    // Host code that leaves the GPU 0.5 ms idle between steps: launch overhead's size, for
    // launch-bound to judge.
    const AnalysisResult r = analyzeWhole(*writeSteps(4, 2'442'000));
    EXPECT_FALSE(r.utilization.gaps.empty());
    EXPECT_TRUE(hostCode(r).empty()) << hostCode(r).front()->message;
}

TEST(HostCodeStallsGpu, NamesTheProfilersOwnRangeOverTheCode) {
    // The PyTorch profiler records the data loader's next() on the thread that launches the work
    // (an operator: "cpu_op").
    const std::string_view next = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
    const AnalysisResult r = analyzeWhole(*writeSteps(4, 20 * kMs, false, next));
    const auto found = hostCode(r);
    ASSERT_EQ(found.size(), 1u);
    const Diagnostic& d = *found.front();
    EXPECT_NE(d.message.find("while the host ran '" + std::string(next) +
                             "' between cudaStreamSynchronize and cudaStreamSynchronize, in no "
                             "CUDA call ("),
              std::string::npos)
        << d.message;
    EXPECT_NE(d.fix.find("Queue more GPU work before '" + std::string(next) + "'"),
              std::string::npos)
        << d.fix;
}

TEST(HostCodeStallsGpu, AlsoAfterABlockingCallThatReturnedEarlyInTheGap) {
    // graphMemoryNodes' shape: the GPU runs dry inside a synchronisation, which returns at once;
    // then the host checks the results for 20 ms before it launches again.
    test::HandTrace t;
    for (int i = 0; i < 3; ++i) {
        const model::TimeNs at = i * 21 * kMs;
        t.kernel(1, at + 10'000, at + kMs, at);
        t.streamSync(at + 100'000, at + kMs + 50'000);
    }
    t.kernel(1, 63 * kMs + 10'000, 64 * kMs, 63 * kMs);
    const AnalysisResult r = analyzeWhole(*t.finish());
    ASSERT_FALSE(r.utilization.attribution.empty());
    EXPECT_GT(r.utilization.attribution[0].ns(GapCause::AfterBlockingCall), 0);
    const auto found = hostCode(r);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.front()->count, 3u);
    EXPECT_NE(found.front()->message.find("between cudaStreamSynchronize and cudaLaunchKernel"),
              std::string::npos)
        << found.front()->message;
}

}  // namespace
}  // namespace wl::analysis
