// `warpline record` of programs/ManagedMemory.cu, NVIDIA's UnifiedMemoryPerf in small: an array
// filled on the host, then a kernel over it, first without a prefetch ("no prefetch") and then
// with cudaMemPrefetchAsync ("prefetch"), each inside an NVTX range of its name. With the
// unified-memory counters on, the first phase has the migrations and GPU page faults, the second
// far fewer; at least the array moves to the GPU; unified-memory-stalls-kernel names the first
// phase's kernel and not the second's. Expectations come from the sizes the program prints.
// Skips without a device.
//
// Run on a GPU machine (from the build folder):
//   ctest -R UnifiedMemoryGpuTest --output-on-failure
// WARPLINE_RECORD_COMMAND overrides how warpline is started (as in RecordGpuTest.cpp);
// MANAGED_MEMORY_MIB (default 64) the array's size.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include <cuda_runtime_api.h>

#include "GpuTestSupport.h"

#include "analysis/Analysis.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl {
namespace {

using model::UnifiedMemoryKind;

using test::haveGpu;
using test::warpline;

std::string arrayMib() {
    const char* mib = std::getenv("MANAGED_MEMORY_MIB");
    return mib != nullptr && mib[0] != '\0' ? mib : "64";
}

// "key=value" of the program's first line.
std::optional<std::uint64_t> printed(const std::string& log, const std::string& key) {
    const auto at = log.find(key + "=");
    if (at == std::string::npos)
        return std::nullopt;
    return std::stoull(log.substr(at + key.size() + 1));
}

// One NVTX range of the trace by name.
std::optional<model::TimeRange> phase(const model::Trace& trace, const std::string& name) {
    for (const model::Track& t : trace.tracks()) {
        if (t.kind != model::TrackKind::Nvtx)
            continue;
        for (const model::Slice& s : t.slices) {
            if (trace.str(s.nameId) == name)
                return model::TimeRange{s.startNs, s.endNs()};
        }
    }
    return std::nullopt;
}

// What happened inside one phase on the unified-memory rows.
struct PhaseTraffic {
    std::uint64_t gpuFaults = 0;       // page faults (each event counts its batch)
    std::uint64_t toGpuBytes = 0;      // migrated host to device, any cause
    std::uint64_t faultedInBytes = 0;  // of which not asked for (not cudaMemPrefetchAsync)
    std::uint64_t kernels = 0;
};

PhaseTraffic trafficIn(const model::Trace& trace, const model::TimeRange& range) {
    PhaseTraffic p;
    for (const model::Track& t : trace.tracks()) {
        for (const model::Slice& s : t.slices) {
            if (s.startNs < range.startNs || s.startNs >= range.endNs)
                continue;
            if (s.kind == model::SliceKind::Kernel)
                ++p.kernels;
            const model::UnifiedMemoryDetail* d = trace.unifiedMemory(s);
            if (d == nullptr)
                continue;
            if (d->kind == UnifiedMemoryKind::GpuPageFault)
                p.gpuFaults += d->faultCount;
            if (d->kind == UnifiedMemoryKind::MigrationHtoD) {
                p.toGpuBytes += d->bytes;
                if (d->cause != model::UnifiedMemoryCause::User)
                    p.faultedInBytes += d->bytes;
            }
        }
    }
    return p;
}

class UnifiedMemoryGpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!haveGpu()) {
            GTEST_SKIP() << "no CUDA device";
        }
        m_dir = test::makeTempDir("warpline-um-gpu");
    }
    void TearDown() override {
        if (!m_dir.empty()) {
            std::filesystem::remove_all(m_dir);
        }
    }

    // `warpline record OPTIONS -o um.json.gz -- managed_memory --mib N`: the trace, or null
    // (with the log in the failure).
    model::TracePtr record(const std::string& options) {
        const std::string logPath = m_dir + "/record.log";
        const std::string command = "cd '" + m_dir + "' && " + warpline() +
                                    " record --force-overwrite " + options + " -o um.json.gz -- '" +
                                    MANAGED_MEMORY_EXE + "' --mib " + arrayMib() + " > '" +
                                    logPath + "' 2>&1";
        const int status = std::system(command.c_str());
        m_log = test::readFile(logPath);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << m_log;
        auto loaded = io::loadTrace(m_dir + "/um.json.gz");
        EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().describe()) << m_log;
        return loaded.ok() ? loaded.value() : nullptr;
    }

    std::string m_dir;
    std::string m_log;
};

TEST_F(UnifiedMemoryGpuTest, PageFaultsAndMigrationsAreThoseOfTheUnprefetchedPhase) {
    const auto trace = record(
        "--cuda-um-migrations=true --cuda-um-gpu-page-faults=true --cuda-um-cpu-page-faults=true");
    ASSERT_TRUE(trace);
    const auto bytes = printed(m_log, "bytes");
    const auto concurrent = printed(m_log, "concurrent_managed_access");
    ASSERT_TRUE(bytes && concurrent) << m_log;
    // Nothing asked for was refused: a refusal is a warning on stderr and in the trace.
    EXPECT_EQ(m_log.find("are not recorded"), std::string::npos) << m_log;
    EXPECT_EQ(trace->metadataValue("unified memory counters"),
              "migrations, CPU page faults, GPU page faults");

    const auto noPrefetch = phase(*trace, "no prefetch");
    const auto prefetch = phase(*trace, "prefetch");
    ASSERT_TRUE(noPrefetch && prefetch) << "NVTX ranges missing";
    const PhaseTraffic first = trafficIn(*trace, *noPrefetch);
    const PhaseTraffic second = trafficIn(*trace, *prefetch);
    EXPECT_EQ(first.kernels, 1u);
    EXPECT_EQ(second.kernels, 1u);
    // The whole array moved to the GPU in each phase: by faults in the first, by the prefetch in
    // the second.
    EXPECT_GE(first.toGpuBytes, *bytes);
    EXPECT_GE(first.faultedInBytes, *bytes);
    EXPECT_GE(second.toGpuBytes, *bytes);
    EXPECT_LE(second.faultedInBytes, *bytes / 10);
    // Filling the array on the host faulted on the host.
    EXPECT_GT(trace->counts().unifiedMemory, 0u);
    bool cpuFaults = false;
    for (const model::Track& t : trace->tracks())
        cpuFaults |= t.unifiedMemoryKind == UnifiedMemoryKind::CpuPageFault && !t.slices.empty();
    EXPECT_TRUE(cpuFaults);
    if (*concurrent == 0) {
        GTEST_SKIP() << "this GPU cannot fault on managed memory (concurrentManagedAccess 0): "
                        "the driver moved it at the launch; no GPU page faults to compare";
    }
    // At least one fault per 2 MiB the kernel touched; far fewer after the prefetch.
    EXPECT_GE(first.gpuFaults, *bytes / (2u << 20));
    EXPECT_LE(second.gpuFaults * 10, first.gpuFaults);

    // The rule names the first phase's kernel, and no kernel of the second.
    analysis::WindowRequest whole;
    whole.kind = analysis::WindowRequest::Kind::WholeTrace;
    const auto window = analysis::resolveWindow(*trace, whole);
    ASSERT_TRUE(window.ok());
    const auto result = analysis::analyzeTrace(*trace, {}, window.value());
    const auto found = result.findings(analysis::RuleId::UnifiedMemoryStallsKernel);
    ASSERT_EQ(found.size(), 1u);
    std::size_t inFirst = 0;
    for (const model::SliceRef ref : found.front()->evidence) {
        const model::Slice& s = trace->slice(ref);
        if (s.kind != model::SliceKind::Kernel)
            continue;
        EXPECT_FALSE(s.startNs >= prefetch->startNs && s.startNs < prefetch->endNs)
            << "a prefetched kernel was named: " << found.front()->message;
        inFirst += s.startNs >= noPrefetch->startNs && s.startNs < noPrefetch->endNs;
    }
    EXPECT_EQ(inFirst, 1u) << found.front()->message;
}

// Unified memory only when asked (any of its counters slows the whole recording); migrations
// alone have no page-fault rows.
TEST_F(UnifiedMemoryGpuTest, MigrationsAreRecordedWhenAskedAndFaultsOnlyWhenAsked) {
    const auto trace = record("--cuda-um-migrations=true");
    ASSERT_TRUE(trace);
    const auto bytes = printed(m_log, "bytes");
    ASSERT_TRUE(bytes) << m_log;
    EXPECT_EQ(m_log.find("are not recorded"), std::string::npos) << m_log;
    const auto noPrefetch = phase(*trace, "no prefetch");
    ASSERT_TRUE(noPrefetch);
    EXPECT_GE(trafficIn(*trace, *noPrefetch).toGpuBytes, *bytes);
    for (const model::Track& t : trace->tracks()) {
        EXPECT_FALSE(t.kind == model::TrackKind::UnifiedMemory &&
                     model::isPageFault(t.unifiedMemoryKind))
            << trace->str(t.nameId);
    }

    const auto off = record("");
    ASSERT_TRUE(off);
    EXPECT_EQ(off->counts().unifiedMemory, 0u);
    EXPECT_EQ(off->metadataValue("unified memory counters"), "");
}

}  // namespace
}  // namespace wl
