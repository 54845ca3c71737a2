// unified-memory-stalls-kernel: kernels that ran while the driver serviced their GPU's page
// faults or migrated managed memory there, as in NVIDIA's UnifiedMemoryPerf sample: a kernel
// over memory filled on the host faults every page in; the same kernel after
// cudaMemPrefetchAsync does not.
#include <gtest/gtest.h>

#include <algorithm>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/UnifiedMemoryStalls.h"

namespace wl::analysis {
namespace {

using model::UnifiedMemoryKind;

constexpr std::uint64_t kMiB = 1 << 20;

// GPU page faults (a batch of `faults`) and migrations on GPU `device`'s rows.
void gpuFaults(test::HandTrace& t, model::TimeNs startNs, model::TimeNs endNs, std::uint64_t faults,
               std::int32_t device = 0) {
    model::UnifiedMemoryDetail d;
    d.kind = UnifiedMemoryKind::GpuPageFault;
    d.faultCount = faults;
    d.srcDevice = device;
    auto& b = t.builder();
    b.addUnifiedMemory(b.unifiedMemoryTrack(b.gpuProcess(device), d.kind), startNs, endNs,
                       "GPU page fault", d);
}

void migration(test::HandTrace& t, model::TimeNs startNs, model::TimeNs endNs, std::uint64_t bytes,
               model::UnifiedMemoryCause cause,
               UnifiedMemoryKind kind = UnifiedMemoryKind::MigrationHtoD) {
    model::UnifiedMemoryDetail d;
    d.kind = kind;
    d.bytes = bytes;
    d.cause = cause;
    auto& b = t.builder();
    b.addUnifiedMemory(b.unifiedMemoryTrack(b.gpuProcess(0), d.kind), startNs, endNs,
                       model::unifiedMemoryEventName(kind), d);
}

// Phase 1: a 100 us kernel whose first 80 us are four batches of 100 faults each, with the
// 1 MiB migrations that serve them. Phase 2: a 4 MiB prefetch, then a 10 us kernel (with one
// stray fault of 200 ns).
void noPrefetchPhase(test::HandTrace& t) {
    t.kernel(7, 1'000, 101'000, 500, "scale");
    for (const model::TimeNs at : {1'000, 21'000, 41'000, 61'000}) {
        gpuFaults(t, at, at + 20'000, 100);
        migration(t, at + 1'000, at + 19'000, kMiB, model::UnifiedMemoryCause::Coherence);
    }
}
void prefetchPhase(test::HandTrace& t, bool strayFault) {
    migration(t, 110'000, 130'000, 4 * kMiB, model::UnifiedMemoryCause::User);
    t.kernel(7, 131'000, 141'000, 109'000, "scale");
    if (strayFault)
        gpuFaults(t, 131'000, 131'200, 1);
}

AnalysisResult analyzeWhole(const model::Trace& trace) {
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    auto window = resolveWindow(trace, whole);
    EXPECT_TRUE(window.ok());
    return analyzeTrace(trace, {}, window.value());
}

TEST(UnifiedMemoryStalls, TheKernelThatFaultsItsPagesInIsNamedNotThePrefetchedOne) {
    test::HandTrace t;
    noPrefetchPhase(t);
    prefetchPhase(t, true);
    const auto trace = t.finish();
    const AnalysisResult r = analyzeWhole(*trace);
    const auto found = r.findings(RuleId::UnifiedMemoryStallsKernel);
    ASSERT_EQ(found.size(), 1u);
    const Diagnostic& d = *found.front();
    EXPECT_EQ(d.count, 1u);
    EXPECT_EQ(d.deviceId, 0);
    EXPECT_EQ(d.costNs, 80'000);
    EXPECT_EQ(d.startNs, 1'000);
    EXPECT_EQ(d.endNs, 101'000);
    EXPECT_EQ(d.message,
              "1 kernel run(s) on GPU 0 waited for unified memory: 80.0 µs (80.0%) of their "
              "100.0 µs ran while the driver serviced 400 GPU page faults and 4.2 MB migrated "
              "(4.2 MB to the GPU); most: scale (80.0% of 100.0 µs)");
    for (const char* fix : {"cudaMemPrefetchAsync", "cudaMemAdvise",
                            "cudaMemAdviseSetPreferredLocation", "cudaMemAdviseSetAccessedBy"})
        EXPECT_NE(d.fix.find(fix), std::string::npos) << fix;
    EXPECT_EQ(d.fix.find("--cuda-um-gpu-page-faults"), std::string::npos);
    // The kernel first, then the faults and migrations that held it up; nothing of phase 2.
    ASSERT_EQ(d.evidence.size(), 9u);
    EXPECT_EQ(trace->slice(d.evidence[0]).kind, model::SliceKind::Kernel);
    EXPECT_EQ(trace->slice(d.evidence[0]).startNs, 1'000);
    for (std::size_t i = 1; i < d.evidence.size(); ++i) {
        const model::Slice& s = trace->slice(d.evidence[i]);
        EXPECT_EQ(s.kind, model::SliceKind::UnifiedMemory);
        EXPECT_LT(s.startNs, 101'000);
    }
}

TEST(UnifiedMemoryStalls, APrefetchedProgramIsNotFlagged) {
    test::HandTrace t;
    prefetchPhase(t, true);
    t.kernel(7, 150'000, 160'000, 149'000, "scale");
    const auto trace = t.finish();
    EXPECT_FALSE(analyzeWhole(*trace).fired(RuleId::UnifiedMemoryStallsKernel));
    // The prefetch itself is no stall, whatever overlaps it.
    const auto kernels = kernelsUnderUnifiedMemory(*trace, GpuOps(*trace));
    ASSERT_EQ(kernels.size(), 1u);  // only the stray fault
    EXPECT_EQ(kernels[0].coveredNs, 200);
    EXPECT_EQ(kernels[0].faults, 1u);
    EXPECT_EQ(kernels[0].migratedBytes, 0u);
}

// A recording of migrations without page faults (--cuda-um-migrations=true alone): the rule still
// sees the stall, and says how to see the faults.
TEST(UnifiedMemoryStalls, MigrationsAloneShowTheStall) {
    test::HandTrace t;
    t.kernel(7, 1'000, 101'000, 500, "scale");
    migration(t, 1'000, 60'000, 32 * kMiB, model::UnifiedMemoryCause::Coherence);
    migration(t, 60'000, 61'000, 64 << 10, model::UnifiedMemoryCause::Eviction,
              UnifiedMemoryKind::MigrationDtoH);
    const auto trace = t.finish();
    const AnalysisResult r = analyzeWhole(*trace);
    const auto found = r.findings(RuleId::UnifiedMemoryStallsKernel);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.front()->costNs, 60'000);
    EXPECT_NE(found.front()->message.find("33.6 MB migrated (33.6 MB to the GPU)"),
              std::string::npos)
        << found.front()->message;
    EXPECT_NE(found.front()->fix.find("--cuda-um-gpu-page-faults=true"), std::string::npos);
}

// Another GPU's faults do not hold this GPU's kernel up; a kernel only a little under faults is
// not flagged either.
TEST(UnifiedMemoryStalls, OnlyTheKernelsOwnGpuAndAShareOfItsTimeCount) {
    test::HandTrace t;
    t.kernel(7, 1'000, 101'000, 500, "scale");
    gpuFaults(t, 1'000, 90'000, 500, /*device=*/1);
    gpuFaults(t, 95'000, 100'000, 3);  // 5% of the kernel
    const auto trace = t.finish();
    EXPECT_FALSE(analyzeWhole(*trace).fired(RuleId::UnifiedMemoryStallsKernel));
    AnalysisOptions lenient;
    lenient.unifiedMemoryStallKernelPct = 5.0;
    WindowRequest whole;
    whole.kind = WindowRequest::Kind::WholeTrace;
    const auto r = analyzeTrace(*trace, lenient, resolveWindow(*trace, whole).value());
    const auto found = r.findings(RuleId::UnifiedMemoryStallsKernel);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found.front()->costNs, 5'000);  // GPU 1's faults are not counted
}

}  // namespace
}  // namespace wl::analysis
