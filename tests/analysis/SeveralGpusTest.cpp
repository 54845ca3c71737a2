// Findings of a trace of several GPUs say which GPU they are about.
#include <gtest/gtest.h>

#include "HandTrace.h"
#include "analysis/Analysis.h"

namespace wl::analysis {
namespace {

using model::CopyKind;

// Copy, kernel, copy one after the other on each GPU that `devices` lists (cudaOpenMP's shape:
// one host thread per GPU doing the same work).
model::TracePtr serialWorkOn(std::initializer_list<std::int32_t> devices) {
    test::HandTrace t;
    auto& b = t.builder();
    for (const std::int32_t device : devices) {
        const auto stream = b.gpuStreamTrack(b.gpuProcess(device, {}), 7);
        model::MemcpyDetail copy;
        copy.bytes = 1 << 20;
        copy.copyKind = CopyKind::HostToDevice;
        b.addMemcpy(stream, 0, 1000, "Memcpy HtoD", 0, copy);
        b.addKernel(stream, 1000, 2000, "kernelAddConstant", 0, {});
        copy.copyKind = CopyKind::DeviceToHost;
        b.addMemcpy(stream, 2000, 4000, "Memcpy DtoH", 0, copy);
    }
    return t.finish();
}

std::vector<std::string> messagesOf(const AnalysisResult& r, RuleId rule) {
    std::vector<std::string> out;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.rule == rule) {
            out.push_back(d.message);
        }
    }
    return out;
}

TEST(SeveralGpus, AFindingAboutOneGpuOfSeveralSaysWhich) {
    const auto two = messagesOf(analyzeTrace(*serialWorkOn({0, 1})), RuleId::MissedCopyOverlap);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].rfind("GPU 0: Copies (", 0), 0u) << two[0];
    EXPECT_EQ(two[1].rfind("GPU 1: Copies (", 0), 0u) << two[1];
    // One GPU: nothing to tell apart.
    const auto one = messagesOf(analyzeTrace(*serialWorkOn({0})), RuleId::MissedCopyOverlap);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].rfind("Copies (", 0), 0u) << one[0];
}

TEST(SeveralGpus, AFindingThatNamesItsGpuIsLeftAsItIs) {
    // Each GPU idles 2 ms between two kernels.
    test::HandTrace t;
    auto& b = t.builder();
    for (const std::int32_t device : {0, 1}) {
        const auto stream = b.gpuStreamTrack(b.gpuProcess(device, {}), 7);
        b.addKernel(stream, 0, 1 * model::kNsPerMs, "k", 0, {});
        b.addKernel(stream, 3 * model::kNsPerMs, 4 * model::kNsPerMs, "k", 0, {});
    }
    const auto gaps = messagesOf(analyzeTrace(*t.finish()), RuleId::GpuGap);
    ASSERT_EQ(gaps.size(), 2u);
    EXPECT_EQ(gaps[0].rfind("GPU 0 idled", 0), 0u) << gaps[0];
    EXPECT_EQ(gaps[1].rfind("GPU 1 idled", 0), 0u) << gaps[1];
}

}  // namespace
}  // namespace wl::analysis

namespace wl::analysis {
namespace {

// GPU 0 busy [0, 1000), GPU 1 busy [1000, 2000): one after the other.
model::TracePtr oneAfterTheOther() {
    test::HandTrace t;
    auto& b = t.builder();
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(0, {}), 7), 0, 1000, "first", 0, {});
    b.addKernel(b.gpuStreamTrack(b.gpuProcess(1, {}), 7), 1000, 2000, "second", 0, {});
    return t.finish();
}

TEST(SeveralGpus, BusyIsTheMeanOverTheGpusAndAnyGpuBusyApart) {
    const auto trace = oneAfterTheOther();
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::Time;
    whole.time = {0, 2000};
    const AnalysisResult r = analyzeTrace(*trace, {}, resolveWindow(*trace, whole).value());
    const GpuBusy busy = r.gpuBusy();
    EXPECT_EQ(busy.gpus, 2u);
    EXPECT_DOUBLE_EQ(busy.meanPct(), 50.0);  // each GPU half of the window
    EXPECT_DOUBLE_EQ(busy.anyPct(), 100.0);  // one of them all the time
    EXPECT_DOUBLE_EQ(r.gpuBusyPct(), busy.meanPct());
    EXPECT_EQ(busy.anyBusyNs, r.statistics.rows.gpuTotal.busyNs);
    EXPECT_EQ(meanOverGpusLabel(busy), "mean over 2 GPUs");
    EXPECT_EQ(anyGpuBusyLabel(busy), "any GPU busy");
}

TEST(SeveralGpus, OnOneGpuTheFiguresAgreeAndNeedNoLabel) {
    const auto trace = serialWorkOn({0});
    const AnalysisResult r = analyzeTrace(*trace);
    const GpuBusy busy = r.gpuBusy();
    EXPECT_EQ(busy.gpus, 1u);
    EXPECT_DOUBLE_EQ(busy.meanPct(), busy.anyPct());
    EXPECT_EQ(meanOverGpusLabel(busy), "");
}

}  // namespace
}  // namespace wl::analysis
