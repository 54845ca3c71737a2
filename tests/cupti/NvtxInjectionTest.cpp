// warpline_inject's NVTX tool end to end, without a GPU: a program that calls every NVTX form
// and no CUDA (programs/NvtxProbe.cpp) runs with NVTX_INJECTION64_PATH naming the injection
// library, as `warpline record` starts it, and writes a trace of its NVTX calls at exit.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>

#include "cupti/NvtxInjection.h"
#include "cupti/programs/NvtxProbeForms.h"
#include "io/TraceFile.h"
#include "support/TestData.h"

namespace wl {
namespace {

using model::TrackKind;

struct Found {
    const model::Track* track = nullptr;
    const model::Slice* slice = nullptr;
    const model::NvtxDetail* detail = nullptr;
    std::string domain;
};

Found findSlice(const model::Trace& trace, const std::string& name) {
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& slice : track.slices) {
            if (trace.str(slice.nameId) == name) {
                Found found{&track, &slice, trace.nvtx(slice), {}};
                if (found.detail != nullptr) {
                    found.domain = std::string(trace.str(found.detail->domainId));
                }
                return found;
            }
        }
    }
    return {};
}

class NvtxInjectionTest : public ::testing::Test {
protected:
    void SetUp() override { m_dir = test::makeTempDir("warpline-nvtx-injection"); }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    // Runs the probe as `warpline record` would start a program.
    int runProbe(const std::string& extraEnvironment = {}) {
        const std::string command =
            "cd '" + m_dir + "' && env -u CUDA_INJECTION64_PATH -u WARPLINE_RECORD_ROOT_PID " +
            "NVTX_INJECTION64_PATH='" + WARPLINE_INJECT_LIB + "' WARPLINE_RECORD_OUTPUT='" + m_dir +
            "/nvtx.json' WARPLINE_RECORD_STATUS='" + m_dir + "/status' " + extraEnvironment + " '" +
            NVTX_PROBE_EXE + "' > '" + m_dir + "/log' 2>&1";
        const int status = std::system(command.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    std::string m_dir;
};

TEST_F(NvtxInjectionTest, AProgramThatOnlyUsedNvtxGetsATraceOfEveryForm) {
    using namespace nvtx_probe;
    ASSERT_EQ(runProbe(), 0) << test::readFile(m_dir + "/log");
    const std::string status = test::readFile(m_dir + "/status");
    EXPECT_EQ(status.rfind("ok " + m_dir + "/nvtx.json ", 0), 0u) << status;
    EXPECT_NE(status.find("nvtx_only=1"), std::string::npos) << status;
    auto loaded = io::loadTrace(m_dir + "/nvtx.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    const model::Trace& trace = *loaded.value();
    EXPECT_TRUE(trace.devices().empty());

    // Every name arrives, in its domain, on the row its form belongs to.
    for (const ExpectedForm& e : kExpectedForms) {
        const Found found = findSlice(trace, e.name);
        ASSERT_NE(found.slice, nullptr) << e.name;
        ASSERT_NE(found.detail, nullptr) << e.name;
        EXPECT_EQ(found.domain, e.domain) << e.name;
        EXPECT_EQ(found.track->kind, e.startEnd ? TrackKind::NvtxAsync : TrackKind::Nvtx) << e.name;
        EXPECT_EQ(std::string(trace.str(found.track->domainId)), e.domain) << e.name;
        if (e.mark) {
            EXPECT_EQ(found.slice->durationNs, 0) << e.name << " is an instant";
        }
    }

    // The payload extension: the range popped through it is closed (it has a length), and the
    // range and mark that carry only a payload are kept under one name, in their domain.
    EXPECT_GT(findSlice(trace, kPoppedWithPayload).slice->durationNs, 0);
    std::size_t payloadOnly = 0;
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& slice : track.slices) {
            if (trace.str(slice.nameId) == cupti::kPayloadOnlyName) {
                ++payloadOnly;
                EXPECT_EQ(std::string(trace.str(track.domainId)), ProbeDomain::name);
            }
        }
    }
    EXPECT_EQ(payloadOnly, 2u);

    // Colours, categories (named per domain) and payloads of every type.
    const Found pushEx = findSlice(trace, kPushEx);
    EXPECT_EQ(pushEx.detail->colorArgb, kPushExColor);
    EXPECT_EQ(pushEx.detail->category, static_cast<std::int32_t>(kPushExCategory));
    EXPECT_EQ(std::string(trace.str(pushEx.detail->categoryNameId)), kPushExCategoryName);
    EXPECT_TRUE(pushEx.detail->hasPayload);
    EXPECT_EQ(pushEx.detail->payload, kPushExPayload);
    const Found attributed = findSlice(trace, kAttributed);
    EXPECT_EQ(attributed.detail->colorArgb, kAttributedColor);
    EXPECT_EQ(attributed.detail->category, static_cast<std::int32_t>(ProbeCategory::id));
    EXPECT_EQ(std::string(trace.str(attributed.detail->categoryNameId)), ProbeCategory::name);
    EXPECT_EQ(attributed.detail->payload, kAttributedPayload);
    EXPECT_EQ(findSlice(trace, kDefaultDomainEx).detail->payload,
              static_cast<double>(kDefaultDomainExPayload));
    EXPECT_EQ(findSlice(trace, kUint32Payload).detail->payload,
              static_cast<double>(kUint32PayloadValue));
    EXPECT_EQ(findSlice(trace, kInt64Payload).detail->payload,
              static_cast<double>(kInt64PayloadValue));
    EXPECT_EQ(findSlice(trace, kStartEx).detail->payload, static_cast<double>(kStartExPayload));
    EXPECT_FALSE(findSlice(trace, kPushA).detail->hasPayload);
    EXPECT_EQ(findSlice(trace, kPushA).detail->colorArgb, 0u);

    // Nesting on the thread's row: the scoped range in a named domain is a row of its own.
    EXPECT_NE(findSlice(trace, kScopedInDomain).track, findSlice(trace, kScopedLiteral).track);
    // The thread the program named names its NVTX rows.
    const std::string row(trace.str(findSlice(trace, kPushA).track->nameId));
    EXPECT_NE(row.find(kThreadName), std::string::npos) << row;

    // What could not be paired is counted and named, never dropped in silence.
    EXPECT_EQ(trace.diagnostics().unmatchedEnds, 3u);
    std::string warnings;
    for (const std::string& w : trace.diagnostics().warnings) {
        warnings += w + "\n";
    }
    EXPECT_NE(warnings.find(std::string("\"") + kLeftOpen + "\" was pushed and never popped"),
              std::string::npos)
        << warnings;
    EXPECT_NE(warnings.find(std::string("\"") + kNeverEnded + "\" was started and never ended"),
              std::string::npos)
        << warnings;
    EXPECT_NE(warnings.find("pop without a push"), std::string::npos) << warnings;
}

TEST_F(NvtxInjectionTest, RecordWritesTheTraceOfAProgramThatOnlyUsedNvtx) {
#ifndef WARPLINE_EXE
    GTEST_SKIP() << "built without the warpline executable (WARPLINE_BUILD_GUI=OFF)";
#else
    const std::string command = "cd '" + m_dir + "' && env -u NVTX_INJECTION64_PATH '" +
                                WARPLINE_EXE + "' record -o probe.json -- '" + NVTX_PROBE_EXE +
                                "' > '" + m_dir + "/log' 2>&1";
    const int status = std::system(command.c_str());
    const std::string log = test::readFile(m_dir + "/log");
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << log;
    EXPECT_NE(log.find("trace written to probe.json"), std::string::npos) << log;
    auto loaded = io::loadTrace(m_dir + "/probe.json");
    ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
    // Every form, and the payload extension's range and mark that carry only a payload.
    EXPECT_EQ(loaded.value()->counts().nvtx, std::size(nvtx_probe::kExpectedForms) + 2);
    EXPECT_EQ(loaded.value()->metadataValue("producer"), "warpline record");
#endif
}

TEST_F(NvtxInjectionTest, NothingIsRecordedWhenOnlyCudaIsTraced) {
    // `record --trace cuda`: NVTX gets no tool, and a process without CUDA writes no trace.
    ASSERT_EQ(runProbe("WARPLINE_RECORD_NVTX=0"), 0) << test::readFile(m_dir + "/log");
    EXPECT_FALSE(std::filesystem::exists(m_dir + "/nvtx.json"));
}

}  // namespace
}  // namespace wl
