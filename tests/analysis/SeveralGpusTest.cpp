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
