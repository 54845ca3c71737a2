#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "model/TraceMerge.h"
#include "support/ProcessTraceFactory.h"

namespace wl::io {
namespace {

using model::TimeNs;

constexpr TimeNs kClock = 1'790'857'026'123'456'789;

// Three processes of one run, all on device 0, with colliding correlation ids 1..N.
model::TracePtr mergedRun() {
    std::vector<model::MergeInput> inputs;
    for (const auto& [pid, offsetNs, launches] : std::vector<std::tuple<std::int64_t, TimeNs, int>>{
             {4242, 5'000, 3}, {4300, 0, 3}, {4311, 123'457, 2}}) {
        test::ProcessTraceSpec spec;
        spec.pid = pid;
        spec.originNs = kClock + offsetNs;
        spec.launches = launches;
        inputs.push_back(
            {test::makeProcessTrace(spec), "python3 (pid " + std::to_string(pid) + ")"});
    }
    auto merged = model::mergeTraces(inputs);
    EXPECT_TRUE(merged.ok()) << (merged.ok() ? "" : merged.error().describe());
    return merged.ok() ? merged.value() : nullptr;
}

model::TracePtr import(const std::string& json) {
    auto result = ChromeTraceReader().read(json, "merged.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

// The pid a process group belongs to: a host's own, a GPU process's owner.
std::int64_t pidOf(const model::Trace& t, model::ProcessIndex p) {
    const model::Process& process = t.processes()[p];
    return process.deviceId >= 0 ? process.ownerPid : process.pid;
}

TEST(MergeRoundTrip, ProcessGroupsCountsAndFlowsSurviveWriteAndRead) {
    const auto merged = mergedRun();
    ASSERT_TRUE(merged);
    const std::string json = ChromeTraceWriter(*merged).toString();
    const auto back = import(json);
    ASSERT_TRUE(back);

    ASSERT_EQ(back->processes().size(), merged->processes().size());
    std::size_t gpuGroups = 0;
    for (std::size_t i = 0; i < merged->processes().size(); ++i) {
        const auto& a = merged->processes()[i];
        const auto& b = back->processes()[i];
        EXPECT_EQ(a.pid, b.pid);
        EXPECT_EQ(a.deviceId, b.deviceId);
        EXPECT_EQ(a.ownerPid, b.ownerPid);
        EXPECT_EQ(merged->str(a.nameId), back->str(b.nameId));
        gpuGroups += b.deviceId == 0 ? 1 : 0;
    }
    EXPECT_EQ(gpuGroups, 3u);  // three processes on device 0: three groups, not one

    const auto& ca = merged->counts();
    const auto& cb = back->counts();
    EXPECT_EQ(cb.kernel, ca.kernel);
    EXPECT_EQ(cb.api, ca.api);
    EXPECT_EQ(cb.nvtx, ca.nvtx);
    EXPECT_EQ(cb.other, ca.other);
    EXPECT_EQ(cb.counterSamples, ca.counterSamples);
    EXPECT_EQ(cb.flows, ca.flows);
    EXPECT_EQ(cb.slices, ca.slices);
    EXPECT_EQ(cb.flows, 11u);  // 8 launches and one explicit flow per process

    // Launch arrows are rebuilt from correlation ids on import: none may cross processes.
    ASSERT_EQ(back->flows().size(), merged->flows().size());
    for (std::size_t f = 0; f < back->flows().size(); ++f) {
        const auto& flow = back->flows()[f];
        EXPECT_EQ(flow.from, merged->flows()[f].from);
        EXPECT_EQ(flow.to, merged->flows()[f].to);
        EXPECT_EQ(pidOf(*back, back->track(flow.from.track).process),
                  pidOf(*back, back->track(flow.to.track).process));
    }

    EXPECT_EQ(back->originNs(), merged->originNs());
    EXPECT_EQ(back->originNs(), kClock);
    EXPECT_EQ(back->spanNs(), merged->spanNs());
    EXPECT_EQ(back->metadata(), merged->metadata());
    ASSERT_EQ(back->captureWindows().size(), merged->captureWindows().size());
    for (std::size_t w = 0; w < back->captureWindows().size(); ++w)
        EXPECT_EQ(back->captureWindows()[w], merged->captureWindows()[w]);
    EXPECT_EQ(back->diagnostics().droppedRecords, merged->diagnostics().droppedRecords);
    EXPECT_EQ(back->diagnostics().spilledOverlaps, merged->diagnostics().spilledOverlaps);
    EXPECT_EQ(back->diagnostics().warningCount, merged->diagnostics().warningCount);
    EXPECT_EQ(back->diagnostics().warnings, merged->diagnostics().warnings);
    for (std::size_t t = 0; t < merged->tracks().size(); ++t) {
        EXPECT_EQ(back->tracks()[t].deviceId, merged->tracks()[t].deviceId);
        EXPECT_EQ(back->tracks()[t].sortIndex, merged->tracks()[t].sortIndex);
        EXPECT_EQ(back->str(back->tracks()[t].nameId), merged->str(merged->tracks()[t].nameId));
    }

    // And the file reads back to the same file.
    EXPECT_EQ(ChromeTraceWriter(*back).toString(), json);
}

TEST(MergeRoundTrip, GpuGroupsOfOneOrdinalGetPidsOfTheirOwn) {
    const auto merged = mergedRun();
    ASSERT_TRUE(merged);
    const std::string json = ChromeTraceWriter(*merged).toString();
    // What Perfetto shows: one process_name per pid.
    const std::regex processName(
        R"re("name":"process_name","ph":"M","ts":0,"pid":(\d+),"tid":0,"args":\{"name":"([^"]*)"\})re");
    std::set<std::string> pids;
    std::set<std::string> gpuNames;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), processName);
         it != std::sregex_iterator(); ++it) {
        EXPECT_TRUE(pids.insert((*it)[1].str()).second) << "pid used twice: " << (*it)[1].str();
        if ((*it)[2].str().find("GPU 0") != std::string::npos)
            gpuNames.insert((*it)[2].str());
    }
    EXPECT_EQ(pids.size(), 6u);
    EXPECT_EQ(gpuNames, (std::set<std::string>{"python3 (pid 4242) · GPU 0 (NVIDIA H200)",
                                               "python3 (pid 4300) · GPU 0 (NVIDIA H200)",
                                               "python3 (pid 4311) · GPU 0 (NVIDIA H200)"}));
}

TEST(MergeRoundTrip, ATraceOfOneProcessIsWrittenWithoutOwners) {
    const auto single = test::makeProcessTrace({});
    const std::string json = ChromeTraceWriter(*single).toString();
    EXPECT_EQ(json.find("\"owner\""), std::string::npos);
    const auto back = import(json);
    ASSERT_TRUE(back);
    for (const auto& p : back->processes())
        EXPECT_EQ(p.ownerPid, -1);
}

}  // namespace
}  // namespace wl::io
