// `warpline record` of a C++ program that uses every NVTX form around thrust/CUB work and
// kernels (programs/NvtxGpuProbe.cu): every name, domain, category, colour and payload arrives,
// thrust/CUB's own CCCL ranges too, on the clock of the CUDA records, and the device, streams and
// thread the program named carry those names. Skips without a device.
//
// WARPLINE_RECORD_COMMAND overrides how warpline is started (as in RecordGpuTest.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <cuda_runtime_api.h>

#include "GpuTestSupport.h"

#include "cupti/programs/NvtxProbeForms.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl {
namespace {

using model::TrackKind;

using test::haveGpu;
using test::warpline;

struct Found {
    const model::Track* track = nullptr;
    const model::Slice* slice = nullptr;
    const model::NvtxDetail* detail = nullptr;
};

Found findNvtx(const model::Trace& trace, const std::string& name) {
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != TrackKind::Nvtx && track.kind != TrackKind::NvtxAsync) {
            continue;
        }
        for (const model::Slice& slice : track.slices) {
            if (trace.str(slice.nameId) == name) {
                return {&track, &slice, trace.nvtx(slice)};
            }
        }
    }
    return {};
}

class NvtxRecordGpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!haveGpu()) {
            GTEST_SKIP() << "no CUDA device";
        }
        m_dir = test::makeTempDir("warpline-nvtx-gpu");
    }
    void TearDown() override {
        if (!m_dir.empty()) {
            std::filesystem::remove_all(m_dir);
        }
    }
    std::string m_dir;
};

TEST_F(NvtxRecordGpuTest, EveryNvtxFormOfACudaProgramIsRecorded) {
    using namespace nvtx_probe;
    const std::string log = m_dir + "/record.log";
    const std::string command = "cd '" + m_dir + "' && " + warpline() +
                                " record -o nvtx.json -- '" + NVTX_GPU_PROBE_EXE + "' > '" + log +
                                "' 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << test::readFile(log);
    auto loaded = io::loadTrace(m_dir + "/nvtx.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    EXPECT_GT(trace.counts().kernel, 0u);

    for (const ExpectedForm& e : kExpectedForms) {
        const Found found = findNvtx(trace, e.name);
        ASSERT_NE(found.slice, nullptr) << e.name << "\n" << test::readFile(log);
        ASSERT_NE(found.detail, nullptr) << e.name;
        EXPECT_EQ(std::string(trace.str(found.detail->domainId)), e.domain) << e.name;
        EXPECT_EQ(found.track->kind, e.startEnd ? TrackKind::NvtxAsync : TrackKind::Nvtx) << e.name;
        if (e.mark) {
            EXPECT_EQ(found.slice->durationNs, 0) << e.name;
        }
    }
    const Found pushEx = findNvtx(trace, kPushEx);
    EXPECT_EQ(pushEx.detail->colorArgb, kPushExColor);
    EXPECT_EQ(std::string(trace.str(pushEx.detail->categoryNameId)), kPushExCategoryName);
    EXPECT_EQ(pushEx.detail->payload, kPushExPayload);
    const Found attributed = findNvtx(trace, kAttributed);
    EXPECT_EQ(attributed.detail->colorArgb, kAttributedColor);
    EXPECT_EQ(std::string(trace.str(attributed.detail->categoryNameId)), ProbeCategory::name);
    EXPECT_EQ(attributed.detail->payload, kAttributedPayload);
    EXPECT_EQ(findNvtx(trace, kDefaultDomainEx).detail->payload,
              static_cast<double>(kDefaultDomainExPayload));
    EXPECT_EQ(findNvtx(trace, kUint32Payload).detail->payload,
              static_cast<double>(kUint32PayloadValue));
    EXPECT_EQ(findNvtx(trace, kInt64Payload).detail->payload,
              static_cast<double>(kInt64PayloadValue));
    EXPECT_EQ(findNvtx(trace, kStartEx).detail->payload, static_cast<double>(kStartExPayload));

    // thrust and CUB annotate their calls in the CCCL domain.
    bool ccclRow = false;
    for (const model::Track& track : trace.tracks()) {
        ccclRow |= track.kind == TrackKind::Nvtx && trace.str(track.domainId) == "CCCL" &&
                   !track.slices.empty();
    }
    EXPECT_TRUE(ccclRow);

    // Ranges around GPU work last as long as its launches and synchronisations.
    for (const char* name : {kPushA, kScopedLiteral, kScopedInDomain, kAttributed}) {
        EXPECT_GT(findNvtx(trace, name).slice->durationNs, 1000) << name;
    }

    // One clock: the CUDA calls the program made inside "push A" lie inside it.
    const Found pushA = findNvtx(trace, kPushA);
    const model::TimeNs begin = pushA.slice->startNs;
    const model::TimeNs end = begin + pushA.slice->durationNs;
    int callsInside = 0;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != TrackKind::HostApi || track.threadId != pushA.track->threadId) {
            continue;
        }
        for (const model::Slice& slice : track.slices) {
            if (slice.startNs >= begin && slice.startNs + slice.durationNs <= end) {
                ++callsInside;
            }
        }
    }
    EXPECT_GE(callsInside, 4) << "the probe's work launches, records and synchronises";

    // The rows the program named.
    const std::string threadRow(trace.str(pushA.track->nameId));
    EXPECT_NE(threadRow.find(kThreadName), std::string::npos) << threadRow;
    bool streamNamed = false;
    bool cuStreamNamed = false;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind == TrackKind::GpuStream) {
            const std::string name(trace.str(track.nameId));
            streamNamed |= name.rfind(std::string(kStreamName) + " (stream ", 0) == 0;
            cuStreamNamed |= name.rfind(std::string(kCuStreamName) + " (stream ", 0) == 0;
        }
    }
    EXPECT_TRUE(streamNamed);
    EXPECT_TRUE(cuStreamNamed);
    bool deviceNamed = false;
    for (const model::Process& process : trace.processes()) {
        deviceNamed |=
            std::string(trace.str(process.nameId)).rfind(std::string("GPU 0: ") + kDeviceName, 0) ==
            0;
    }
    EXPECT_TRUE(deviceNamed);
    EXPECT_NE(trace.metadataValue("nvtx resource names").find(kEventName), std::string::npos);

    // The unbalanced calls are counted warnings.
    EXPECT_EQ(trace.diagnostics().unmatchedEnds, 3u);
}

// torchrun's shape: a launcher that initialises CUDA only to count devices and starts the ranks.
// Its ranks' traces and the merged one sit together under the -o pattern's names; the launcher
// leaves no trace (none under the fallback name in the working folder either).
TEST_F(NvtxRecordGpuTest, ALauncherLeavesNoTraceAndTheMergedOneGoesBesideTheRanks) {
    const std::string log = m_dir + "/record.log";
    const std::string command = "cd '" + m_dir + "' && " + warpline() +
                                " record -o 'ranks/job-%q{RANK}.json' -- '" + NVTX_GPU_PROBE_EXE +
                                "' --launcher > '" + log + "' 2>&1";
    std::filesystem::create_directory(m_dir + "/ranks");
    const int status = std::system(command.c_str());
    const std::string output = test::readFile(log);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(m_dir)) {
        if (entry.is_regular_file() && entry.path().filename() != "record.log") {
            files.insert(std::filesystem::relative(entry.path(), m_dir).string());
        }
    }
    EXPECT_EQ(files, (std::set<std::string>{"ranks/job-0.json", "ranks/job-1.json",
                                            "ranks/job.merged.json"}))
        << output;
    EXPECT_NE(output.find("no trace of process"), std::string::npos) << output;
    auto merged = io::loadTrace(m_dir + "/ranks/job.merged.json");
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    EXPECT_GT(merged.value()->counts().kernel, 0u);
    // The ranks stay ranks: each process of the merged trace carries its rank.
    std::set<std::int32_t> ranks;
    for (const model::Process& process : merged.value()->processes()) {
        ranks.insert(process.rank);
    }
    EXPECT_EQ(ranks, (std::set<std::int32_t>{0, 1})) << output;
    EXPECT_EQ(merged.value()->metadataValue("rank alignment mode"), "one_clock");
}

}  // namespace
}  // namespace wl
