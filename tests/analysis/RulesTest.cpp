#include <gtest/gtest.h>

#include <set>
#include <string>

#include "HandTrace.h"
#include "analysis/Analysis.h"
#include "analysis/ApiNames.h"
#include "analysis/Rules.h"
#include "support/TraceFactory.h"

namespace wl::analysis {
namespace {

using model::CopyKind;
using model::MemoryKind;

// The one diagnostic of a rule, by value (results are often temporaries here).
Diagnostic only(const AnalysisResult& r, RuleId rule) {
    const auto found = r.findings(rule);
    EXPECT_EQ(found.size(), 1u) << toString(rule);
    return found.empty() ? Diagnostic{} : *found.front();
}

TEST(RuleIds, EveryRuleHasItsOwnIdAndReadsBack) {
    // Every name in RuleId up to Count: one added without registering its rule reads "unknown".
    std::set<std::string> ids;
    for (int i = 0; i < static_cast<int>(RuleId::Count); ++i) {
        const auto rule = static_cast<RuleId>(i);
        const std::string id = toString(rule);
        EXPECT_NE(id, "unknown") << "rule " << i;
        EXPECT_TRUE(ids.insert(id).second) << id << " is the id of two rules";
        EXPECT_EQ(id.find_first_not_of("abcdefghijklmnopqrstuvwxyz-"), std::string::npos) << id;
        EXPECT_EQ(ruleFromString(id), rule) << id;
    }
    EXPECT_STREQ(toString(RuleId::Count), "unknown");
    EXPECT_EQ(std::string(toString(RuleId::SyncApiInLoop)), "sync-api-in-loop");
    EXPECT_EQ(ruleFromString("collective-wait"), RuleId::CollectiveWait);
    EXPECT_FALSE(ruleFromString("no-such-rule").has_value());
    EXPECT_FALSE(ruleFromString("unknown").has_value());
}

TEST(RuleIds, EveryNameHasOneRegisteredRuleWithACheck) {
    // The registry holds each RuleId once, in order; a rule without a check of its own is found
    // by a check of its file (library kernels by the low-occupancy pass).
    const std::span<const Rule> rules = allRules();
    ASSERT_EQ(rules.size(), static_cast<std::size_t>(RuleId::Count));
    for (std::size_t i = 0; i < rules.size(); ++i) {
        EXPECT_EQ(rules[i].rule, static_cast<RuleId>(i)) << rules[i].id;
        EXPECT_TRUE(rules[i].check != nullptr || rules[i].rule == RuleId::LibraryKernels)
            << rules[i].id << " has no check";
    }
}

TEST(PageableMemcpy, FiresOnPageableOnly) {
    test::HandTrace t;
    t.copy(1, 0, 1'000'000, CopyKind::HostToDevice, 4'000'000, 0, 1'000'000, "cudaMemcpyAsync",
           MemoryKind::Pageable);
    t.copy(1, 2'000'000, 2'500'000, CopyKind::DeviceToHost, 4'000'000, 2'000'000, 2'500'000,
           "cudaMemcpyAsync");
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::PageableMemcpy);
    EXPECT_EQ(d.count, 1u);
    EXPECT_EQ(d.costNs, 1'000'000);
    ASSERT_EQ(d.evidence.size(), 1u);
    EXPECT_EQ(trace->slice(d.evidence[0]).startNs, 0);
    EXPECT_NE(d.message.find("4.0 MB"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("4.0 GB/s"), std::string::npos) << d.message;
    EXPECT_FALSE(d.fix.empty());

    test::HandTrace pinned;
    pinned.copy(1, 0, 1000, CopyKind::HostToDevice, 4000, 0, 1000);
    EXPECT_FALSE(analyzeTrace(*pinned.finish()).fired(RuleId::PageableMemcpy));

    // A scalar read back from pageable memory (CuPy's float(x)) is not worth a finding.
    test::HandTrace scalar;
    scalar.copy(1, 0, 1500, CopyKind::DeviceToHost, 8, 0, 1600, "cudaMemcpyAsync",
                MemoryKind::Pageable);
    EXPECT_FALSE(analyzeTrace(*scalar.finish()).fired(RuleId::PageableMemcpy));
}

TEST(SyncApiInLoop, AOneOffLongGapAfterAWaitIsNotTheLoopsCost) {
    // Three waits that drain the GPU for 720 ns each, then one after which the host spends
    // 200 ms elsewhere (start-up, imports): the loop's cost is the three short gaps.
    test::HandTrace t;
    model::TimeNs at = 0;
    for (int i = 0; i < 4; ++i) {
        t.kernel(1, at + 20, at + 300, at);
        t.api("cudaStreamSynchronize_v3020", at + 10, at + 310);
        at += i == 0 ? 200'000'000 : 1'000;
    }
    t.kernel(1, at + 20, at + 300, at);
    AnalysisOptions o;
    o.minIdleAfterSyncNs = 100;
    o.gapThresholdNs = 100;
    const AnalysisResult r = analyzeTrace(*t.finish(), o);
    const Diagnostic d = only(r, RuleId::SyncApiInLoop);
    EXPECT_EQ(d.count, 3u);
    EXPECT_EQ(d.costNs, 3 * 720);
}

TEST(SyncApiInLoop, AGraphLaunchIsNeverTheBlockingCallEvenWhenANodeFinishesInsideIt) {
    // A graph relaunch loop (NVIDIA's jacobiCudaGraphs): each iteration updates a node of the
    // executable graph, launches it (25 us: the update is applied then, and the graph's memset
    // node is done before the call returns), then waits in cudaStreamSynchronize.
    test::HandTrace t;
    const model::TrackIndex stream = t.stream(1);
    constexpr int kIterations = 10;
    constexpr model::TimeNs kPeriodNs = 100'000;
    for (int i = 0; i < kIterations; ++i) {
        const model::TimeNs at = i * kPeriodNs;
        t.api("cudaGraphExecKernelNodeSetParams_v10010", at, at + 3'000);
        const std::uint64_t launch = t.api("cudaGraphLaunch_v10000", at + 3'000, at + 28'000);
        t.builder().addMemset(stream, at + 8'000, at + 9'000, "Memset", launch, {});
        t.builder().addKernel(stream, at + 30'000, at + 60'000, "jacobi", launch, {});
        t.api("cudaStreamSynchronize_v3020", at + 28'500, at + 60'500);
    }
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::SyncApiInLoop);
    // The waits that drained the queue: from each iteration's kernel end to the next memset.
    EXPECT_EQ(d.count, static_cast<std::uint64_t>(kIterations - 1));
    EXPECT_EQ(d.costNs, (kIterations - 1) * 48'000);
    EXPECT_NE(d.message.find("cudaStreamSynchronize x9"), std::string::npos) << d.message;
    EXPECT_EQ(d.message.find("cudaGraphLaunch"), std::string::npos) << d.message;
    // The hole between the memset node and the kernel node, while cudaGraphLaunch still ran and
    // after it returned, is launch overhead: the host's.
    std::size_t hostGaps = 0;
    for (const IdleGap& g : r.utilization.gaps) {
        if (g.streamId != -1) {
            continue;
        }
        if (g.reason.valid()) {
            EXPECT_EQ(baseApiName(trace->str(trace->slice(g.reason).nameId)),
                      "cudaStreamSynchronize");
        }
        if (g.cause == GapCause::Host) {
            ++hostGaps;
            EXPECT_EQ(g.durationNs, 21'000);
        }
    }
    EXPECT_EQ(hostGaps, static_cast<std::size_t>(kIterations));
    EXPECT_EQ(r.utilization.attribution[0].ns(GapCause::Host), kIterations * 21'000);
}

TEST(SyncApiInLoop, AGraphLaunchWaitsForItsCopyToPageableMemory) {
    // The same loop as jacobiCudaGraphs really runs it: the graph ends with a copy of a sum into a
    // pageable host variable, which the driver performs before cudaGraphLaunch returns, so the
    // launch call spans the whole graph (measured on an H200: 130 us of a 135 us iteration) and
    // the GPU runs dry while the host is still inside it.
    test::HandTrace t;
    const model::TrackIndex stream = t.stream(1);
    constexpr int kIterations = 10;
    constexpr model::TimeNs kPeriodNs = 146'000;
    for (int i = 0; i < kIterations; ++i) {
        const model::TimeNs at = i * kPeriodNs;
        t.api("cudaGraphExecKernelNodeSetParams_v10010", at, at + 2'000);
        const std::uint64_t launch = t.api("cudaGraphLaunch_v10000", at + 2'000, at + 132'000);
        t.builder().addMemset(stream, at + 10'000, at + 11'000, "Memset", launch, {});
        t.builder().addKernel(stream, at + 12'000, at + 128'000, "relax", launch, {});
        t.builder().addMemcpy(stream, at + 129'000, at + 131'000, "Memcpy DtoH", launch,
                              {8, model::CopyKind::DeviceToHost, model::MemoryKind::Device,
                               model::MemoryKind::Pageable});
        t.api("cudaStreamSynchronize_v3020", at + 132'200, at + 134'000);
    }
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::SyncApiInLoop);
    // From each iteration's copy to the next iteration's memset: 25 us, inside cudaGraphLaunch.
    EXPECT_EQ(d.count, static_cast<std::uint64_t>(kIterations - 1));
    EXPECT_EQ(d.costNs, (kIterations - 1) * 25'000);
    EXPECT_NE(d.message.find("cudaGraphLaunch x9"), std::string::npos) << d.message;
    EXPECT_EQ(r.utilization.attribution[0].ns(GapCause::AfterBlockingCall),
              (kIterations - 1) * 25'000);
    // The 1 us holes between the graph's own nodes, while the launch still submits them, are
    // launch overhead.
    EXPECT_EQ(r.utilization.attribution[0].ns(GapCause::Host), kIterations * 2'000);
}

TEST(SyncMemcpy, BlockingCopiesExceptDeviceToDeviceAndSmallUploads) {
    test::HandTrace t;
    t.copy(1, 10, 100, CopyKind::DeviceToHost, 1 << 20, 0, 110, "cudaMemcpy_v3020");       // yes
    t.copy(1, 200, 300, CopyKind::HostToDevice, 64 * 1024, 190, 310, "cudaMemcpy_v3020");  // small
    t.copy(1, 400, 500, CopyKind::HostToDevice, 64 * 1024 + 1, 390, 510, "cudaMemcpy_v3020");
    t.copy(1, 600, 700, CopyKind::DeviceToDevice, 1 << 20, 590, 600, "cudaMemcpy_v3020");
    t.copy(1, 800, 900, CopyKind::DeviceToHost, 1 << 20, 790, 795, "cudaMemcpyAsync_v3020");
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::SyncMemcpy);
    EXPECT_EQ(d.count, 2u);
    EXPECT_EQ(d.costNs, 110 + 120);    // host time in the two blocking calls
    EXPECT_EQ(d.evidence.size(), 4u);  // call + copy each
    EXPECT_EQ(d.startNs, 0);
    EXPECT_EQ(d.endNs, 510);

    test::HandTrace async;
    async.copy(1, 800, 900, CopyKind::DeviceToHost, 1 << 20, 790, 795, "cudaMemcpyAsync_v3020");
    EXPECT_FALSE(analyzeTrace(*async.finish()).fired(RuleId::SyncMemcpy));
}

// The power-iteration baseline in miniature: launch, wait, host work, launch again.
model::TracePtr syncLoop(int iterations, bool queueAhead) {
    test::HandTrace t;
    for (int i = 0; i < iterations; ++i) {
        const model::TimeNs base = 1000 * i;
        if (queueAhead) {
            // Async: the next kernel is queued before waiting, so the GPU never drains.
            t.kernel(1, base + 20, base + 1020, base);
            t.streamSync(base + 15, base + 310, /*record=*/false);
        } else {
            t.kernel(1, base + 20, base + 300, base);
            t.streamSync(base + 15, base + 310, /*record=*/false);
        }
    }
    t.kernel(1, 1000 * iterations + 20, 1000 * iterations + 300, 1000 * iterations);
    return t.finish();
}

TEST(SyncApiInLoop, FiresWithCountAndIdleTime) {
    const auto trace = syncLoop(3, false);
    AnalysisOptions o;
    o.gapThresholdNs = 100;
    o.minIdleAfterSyncNs = 100;  // the hand-built trace is in ns, not us
    const AnalysisResult r = analyzeTrace(*trace, o);
    const Diagnostic d = only(r, RuleId::SyncApiInLoop);
    EXPECT_EQ(d.count, 3u);
    // Each wait returns at 1000i+310 into the hole [1000i+300, 1000(i+1)+20): 720 idle, 3 times.
    EXPECT_EQ(d.costNs, 3 * 720);
    EXPECT_EQ(d.evidence.size(), 3u);
    EXPECT_NE(d.message.find("cudaStreamSynchronize x3"), std::string::npos) << d.message;

    // The same gaps, seen from the GPU: 720 ns each, all after a host wait.
    const Diagnostic gaps = only(r, RuleId::GpuGap);
    EXPECT_EQ(gaps.count, 3u);
    EXPECT_EQ(gaps.costNs, 3 * 720);
    EXPECT_NE(gaps.message.find("100.0% after a blocking call"), std::string::npos) << gaps.message;
}

// A loop that waits for each of its one-block kernels; the GPU idles `idleNs` of every 10 us.
model::TracePtr busySyncLoop(model::TimeNs idleNs) {
    test::HandTrace t;
    t.addH100();
    for (int i = 0; i < 10; ++i) {
        const model::TimeNs base = 10'000 * i;
        t.kernel(1, base + idleNs, base + 10'000, base, "serial_sum", test::launchConfig(1, 1));
        t.streamSync(base + 5, base + 10'010, /*record=*/false);
    }
    return t.finish();
}

TEST(SyncApiInLoop, AFewPercentOfABusyWindowIsInformationAndNotTheHeadline) {
    AnalysisOptions o;
    o.minIdleAfterSyncNs = 100;
    o.gapThresholdNs = 100;
    // 300 ns of every 10 us: the GPU is 97% busy, and all its idle time follows the waits.
    const AnalysisResult busy = analyzeTrace(*busySyncLoop(300), o);
    EXPECT_DOUBLE_EQ(busy.gpuBusyPct(), 100.0 * 97'000 / 99'700);
    const Diagnostic d = only(busy, RuleId::SyncApiInLoop);
    EXPECT_EQ(d.severity, Severity::Info);
    ASSERT_FALSE(busy.diagnostics.empty());
    EXPECT_EQ(busy.diagnostics.front().rule, RuleId::LowOccupancyKernel);
    EXPECT_EQ(busy.diagnostics.front().severity, Severity::Warning);
    EXPECT_EQ(busy.diagnostics.back().rule, RuleId::SyncApiInLoop);
    // 2 us of every 10 us is worth a warning. The one-thread kernel's 8 us of every 10 us is still
    // more at stake than the waits' 2 us, and leads; the waits come before the information.
    const AnalysisResult idle = analyzeTrace(*busySyncLoop(2'000), o);
    EXPECT_EQ(only(idle, RuleId::SyncApiInLoop).severity, Severity::Warning);
    ASSERT_GE(idle.diagnostics.size(), 2u);
    EXPECT_EQ(idle.diagnostics.front().rule, RuleId::LowOccupancyKernel);
    EXPECT_EQ(idle.diagnostics.front().costNs, 10 * 8'000);
    EXPECT_EQ(idle.diagnostics[1].rule, RuleId::SyncApiInLoop);
}

// Findings come in the order of the time at stake, the most first, warnings before information.
TEST(FindingOrder, WarningsByTimeAtStakeThenInformation) {
    AnalysisOptions o;
    o.minIdleAfterSyncNs = 100;
    o.gapThresholdNs = 100;
    for (const model::TimeNs idleNs : {300, 2'000, 6'000}) {
        const AnalysisResult r = analyzeTrace(*busySyncLoop(idleNs), o);
        ASSERT_GE(r.diagnostics.size(), 2u);
        for (std::size_t i = 1; i < r.diagnostics.size(); ++i) {
            const Diagnostic& a = r.diagnostics[i - 1];
            const Diagnostic& b = r.diagnostics[i];
            EXPECT_TRUE(a.severity > b.severity ||
                        (a.severity == b.severity && a.costNs >= b.costNs))
                << idleNs << ": " << a.message << " before " << b.message;
        }
    }
    // With 6 us of every 10 idle, the waits cost more than the 4 us kernels and lead.
    const AnalysisResult idle = analyzeTrace(*busySyncLoop(6'000), o);
    EXPECT_NE(idle.diagnostics.front().rule, RuleId::LowOccupancyKernel);
    EXPECT_EQ(idle.diagnostics.front().costNs, only(idle, RuleId::GpuGap).costNs);
}

TEST(SyncApiInLoop, NotForTwoWaitsOrWhenWorkIsQueuedAhead) {
    AnalysisOptions o;
    o.minIdleAfterSyncNs = 100;
    EXPECT_FALSE(analyzeTrace(*syncLoop(2, false), o).fired(RuleId::SyncApiInLoop));
    EXPECT_FALSE(analyzeTrace(*syncLoop(5, true), o).fired(RuleId::SyncApiInLoop));
    // Idle shorter than the minimum does not count.
    o.minIdleAfterSyncNs = 721;
    EXPECT_FALSE(analyzeTrace(*syncLoop(3, false), o).fired(RuleId::SyncApiInLoop));
    // Three different waits (setup, not a loop) do not fire either.
    test::HandTrace setup;
    setup.kernel(1, 20, 300, 0);
    setup.api("cudaDeviceSynchronize_v3020", 15, 310);
    setup.kernel(1, 1020, 1300, 1000);
    setup.api("cudaStreamSynchronize_v3020", 1015, 1310);
    setup.kernel(1, 2020, 2300, 2000);
    setup.api("cudaEventSynchronize_v3020", 2015, 2310);
    setup.kernel(1, 3020, 3300, 3000);
    o.minIdleAfterSyncNs = 100;
    EXPECT_FALSE(analyzeTrace(*setup.finish(), o).fired(RuleId::SyncApiInLoop));
    AnalysisOptions strict = o;
    strict.minIdleAfterSyncNs = 100;
    strict.syncInLoopMinCount = 4;
    EXPECT_FALSE(analyzeTrace(*syncLoop(3, false), strict).fired(RuleId::SyncApiInLoop));
}

TEST(SyncApiInLoop, NotWhenTheWaitsReturnWhileWorkIsQueued) {
    // The notebook's async loop in miniature: each batch is queued, the host waits briefly for the
    // previous one (work still queued), then spends 2870 ns in "I/O i" while 1000 ns of GPU work
    // runs: the GPU idles in the I/O, not after a wait.
    test::HandTrace t;
    for (int i = 0; i < 3; ++i) {
        const model::TimeNs base = 3000 * i;
        t.kernel(1, base + 20, base + 1020, base);
        t.streamSync(base + 10, base + 25, /*record=*/false);
        t.nvtx("I/O " + std::to_string(i), base + 30, base + 2900);
    }
    t.kernel(1, 9'020, 9'300, 9'000);
    AnalysisOptions o;
    o.gapThresholdNs = 10;
    o.minIdleAfterSyncNs = 10;
    const AnalysisResult r = analyzeTrace(*t.finish(), o);
    EXPECT_FALSE(r.fired(RuleId::SyncApiInLoop)) << r.diagnostics.front().message;
    ASSERT_EQ(r.utilization.attribution.size(), 1u);
    EXPECT_EQ(r.utilization.attribution[0].ns(GapCause::AfterBlockingCall), 0);
    EXPECT_EQ(r.utilization.attribution[0].ns(GapCause::Host), 3 * 2000);
    // The I/O is what stalls the GPU: 1880 ns of each 2000 ns gap, with 990 ns of work queued.
    const Diagnostic io = only(r, RuleId::HostRangeStallsGpu);
    EXPECT_NE(io.message.find("'I/O #' (3 times)"), std::string::npos) << io.message;
    EXPECT_NE(io.message.find("990 ns of GPU work was queued"), std::string::npos) << io.message;
    EXPECT_EQ(io.costNs, 3 * 1880);
    EXPECT_NE(io.fix.find("Queue more GPU work before 'I/O #'"), std::string::npos);
}

TEST(HostRangeStallsGpu, SaysHowMuchWorkWasQueuedWhenTheRangeBegan) {
    // Each batch queues 1000 ns of work, then the host enters "Write" for 3000 ns: the GPU runs
    // 1000 ns of the range's time and idles the rest.
    test::HandTrace t;
    for (int i = 0; i < 4; ++i) {
        const model::TimeNs base = 5000 * i;
        t.kernel(1, base + 100, base + 1100, base);
        t.nvtx("Write", base + 100, base + 3100);
    }
    t.kernel(1, 20'100, 20'200, 20'000);
    AnalysisOptions o;
    o.gapThresholdNs = 10;
    const AnalysisResult r = analyzeTrace(*t.finish(), o);
    const Diagnostic d = only(r, RuleId::HostRangeStallsGpu);
    EXPECT_EQ(d.count, 4u);
    EXPECT_EQ(d.costNs, 4 * 2000);
    EXPECT_NE(d.message.find("1.0 µs of GPU work was queued when each began"), std::string::npos)
        << d.message;
}

TEST(LaunchBound, ManyTinyOpsWithHostGapsFire) {
    // 200 kernels of 2 us, one every 10 us, each launched just before it runs: GPU busy 20 %.
    test::HandTrace t;
    for (int i = 0; i < 200; ++i) {
        const model::TimeNs base = 10'000 * i;
        t.kernel(1, base + 6'000, base + 8'000, base + 4'000);
    }
    const AnalysisResult r = analyzeTrace(*t.finish());
    const Diagnostic d = only(r, RuleId::LaunchBound);
    EXPECT_NE(d.message.find("one GPU op every 10.0 µs"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("they ran 2.0 µs on average"), std::string::npos) << d.message;
    EXPECT_NE(d.fix.find("CUDA graph"), std::string::npos);
}

TEST(LaunchBound, NotWhenOneLongHostTaskIsTheIdleTime) {
    test::HandTrace t;
    for (int i = 0; i < 50; ++i) {
        t.kernel(1, 1'000 * i + 100, 1'000 * i + 900, 1'000 * i);
    }
    t.kernel(1, 5'000'000, 5'000'800, 4'999'000);  // after ~5 ms of host work (I/O, say)
    EXPECT_FALSE(analyzeTrace(*t.finish()).fired(RuleId::LaunchBound));
}

TEST(LaunchBound, FrameworkDispatchBetweenOpsFires) {
    // A PyTorch step in miniature: ops of 10 us, each dispatched after 150 us of Python, inside
    // "step N" ranges that launch them. Launch-bound names it; the step ranges are the launch path,
    // not a host task that stalls the GPU.
    test::HandTrace t;
    for (int step = 0; step < 20; ++step) {
        const model::TimeNs base = 1'000'000 * step;
        t.nvtx("step " + std::to_string(step), base, base + 999'000);
        for (int op = 0; op < 6; ++op) {
            const model::TimeNs launch = base + 160'000 * op + 150'000;
            t.kernel(1, launch + 5'000, launch + 15'000, launch);
        }
    }
    const AnalysisResult r = analyzeTrace(*t.finish());
    EXPECT_TRUE(r.fired(RuleId::LaunchBound));
    EXPECT_FALSE(r.fired(RuleId::HostRangeStallsGpu))
        << r.findings(RuleId::HostRangeStallsGpu).front()->message;
    ASSERT_FALSE(r.utilization.idleByHostRange.empty());
    const HostRangeIdle& steps = r.utilization.idleByHostRange.front();
    EXPECT_EQ(steps.name, "step #");
    EXPECT_GT(steps.launchingNs, steps.idleNs / 2);
}

TEST(HostRangeStallsGpu, NotForAnOuterRangeThatLaunchesTheWork) {
    // Host work between batches under no range of its own, inside one outer "Loop" that also
    // launches every batch: the outer range frames the work and names no culprit.
    test::HandTrace t;
    t.nvtx("Loop", 0, 100'000);
    for (int i = 0; i < 5; ++i) {
        const model::TimeNs base = 20'000 * i;
        t.kernel(1, base + 1'000, base + 3'000, base + 500);
    }
    AnalysisOptions o;
    o.gapThresholdNs = 10;
    const AnalysisResult r = analyzeTrace(*t.finish(), o);
    EXPECT_FALSE(r.fired(RuleId::HostRangeStallsGpu));
    ASSERT_EQ(r.utilization.idleByHostRange.size(), 1u);
    EXPECT_EQ(r.utilization.idleByHostRange[0].name, "Loop");  // still reported, not a finding
}

TEST(GpuGap, NotForAGpuBusyNearlyAllTheWindow) {
    // 30 ns idle of 1000 (3 %): below the 5 % that makes a finding; at 2 % it is one.
    test::HandTrace t;
    t.kernel(1, 0, 500, -1);
    t.kernel(1, 530, 1000, -1);
    const auto trace = t.finish();
    AnalysisOptions o;
    o.gapThresholdNs = 10;
    EXPECT_FALSE(analyzeTrace(*trace, o).fired(RuleId::GpuGap));
    o.minGpuGapIdlePct = 2.0;
    EXPECT_TRUE(analyzeTrace(*trace, o).fired(RuleId::GpuGap));
}

TEST(GpuGap, ThresholdDecides) {
    test::HandTrace t;
    t.kernel(1, 0, 100, -1);
    t.kernel(1, 150, 200, -1);  // 50 ns gap
    t.kernel(1, 400, 500, -1);  // 200 ns gap
    const auto trace = t.finish();
    AnalysisOptions o;
    o.gapThresholdNs = 100;
    const Diagnostic d = only(analyzeTrace(*trace, o), RuleId::GpuGap);
    EXPECT_EQ(d.count, 1u);
    EXPECT_EQ(d.costNs, 200);
    EXPECT_EQ(d.startNs, 200);
    EXPECT_EQ(d.endNs, 400);
    EXPECT_EQ(d.evidence.size(), 2u);
    o.gapThresholdNs = 40;
    EXPECT_EQ(only(analyzeTrace(*trace, o), RuleId::GpuGap).count, 2u);
    o.gapThresholdNs = 201;
    EXPECT_FALSE(analyzeTrace(*trace, o).fired(RuleId::GpuGap));
}

TEST(LowUtilization, WindowsBelowTheThreshold) {
    // Span [0, 1 ms) in 20 windows of 50 us. Busy: [0,10us), [400us,450us), [990us,1ms).
    test::HandTrace t;
    t.kernel(1, 0, 10'000, -1);
    t.kernel(1, 400'000, 450'000, -1);
    t.kernel(1, 990'000, 1'000'000, -1);
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::LowUtilization);
    EXPECT_EQ(d.count, 19u);  // all but [400us,450us), which is 100% busy
    EXPECT_EQ(d.costNs, 19 * 50'000 - 20'000);
    EXPECT_EQ(d.startNs, 0);
    EXPECT_EQ(d.endNs, 1'000'000);
    EXPECT_EQ(d.severity, Severity::Info);

    test::HandTrace busy;
    for (int i = 0; i < 10; ++i) {
        busy.kernel(1, i * 100'000, i * 100'000 + 95'000, -1);
    }
    EXPECT_FALSE(analyzeTrace(*busy.finish()).fired(RuleId::LowUtilization));
}

TEST(LowOccupancyKernel, SingleThreadSumFiresPartialReduceDoesNot) {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 1000, -1, "partial_reduce", test::launchConfig(1280, 256, 32, 1024));
    t.kernel(1, 1000, 5000, -1, "single_thread_sum", test::launchConfig(1, 1, 16));
    t.kernel(1, 6000, 9000, -1, "single_thread_sum", test::launchConfig(1, 1, 16));
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::LowOccupancyKernel);
    EXPECT_EQ(d.count, 2u);
    EXPECT_EQ(d.costNs, 7000);
    EXPECT_EQ(d.evidence.size(), 2u);
    EXPECT_EQ(d.message.rfind("single_thread_sum", 0), 0u) << d.message;
    EXPECT_NE(d.message.find("1 warp using 1 of 32 lanes"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("on 1 SM of 132"), std::string::npos) << d.message;
    EXPECT_NE(d.fix.find("parallel reduction"), std::string::npos) << d.fix;
}

TEST(LowOccupancyKernel, NotForKernelsThatTakeAlmostNoTime) {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 1'000'000, -1, "partial_reduce", test::launchConfig(1280, 256, 32, 1024));
    t.kernel(1, 1'000'000, 1'004'000, -1, "tiny", test::launchConfig(1, 1, 16));  // 0.4%
    const auto trace = t.finish();
    EXPECT_FALSE(analyzeTrace(*trace).fired(RuleId::LowOccupancyKernel));
    AnalysisOptions all;
    all.minKernelSharePct = 0.0;
    EXPECT_TRUE(analyzeTrace(*trace, all).fired(RuleId::LowOccupancyKernel));
}

TEST(LowOccupancyKernel, NotWhenTheDeviceIsUnknown) {
    test::HandTrace t;
    t.kernel(1, 1000, 5000, -1, "single_thread_sum", test::launchConfig(1, 1, 16));
    EXPECT_FALSE(analyzeTrace(*t.finish()).fired(RuleId::LowOccupancyKernel));
}

TEST(LowOccupancyKernel, RegisterHeavyKernelFires) {
    test::HandTrace t;
    t.addH100();
    // 1024 blocks of 256 threads with 255 registers: 1 block per SM = 12.5%.
    t.kernel(1, 0, 1000, -1, "heavy", test::launchConfig(1024, 256, 255));
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::LowOccupancyKernel);
    EXPECT_NE(d.message.find("limited by registers"), std::string::npos) << d.message;
    EXPECT_NE(d.fix.find("registers"), std::string::npos);
}

TEST(StreamsSerialized, MetadataAskedForStreamsButOneDidTheWork) {
    test::HandTrace t;
    t.builder().setMetadata("streams", "4");
    t.builder().setMetadata("mode", "async");
    t.copy(7, 0, 10, CopyKind::HostToDevice, 4, -1, -1);  // a little on the default stream
    for (int i = 0; i < 4; ++i) {
        t.kernel(13, 100 + 1000 * i, 1000 + 1000 * i, -1);
    }
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::StreamsSerialized);
    EXPECT_EQ(d.count, 2u);  // streams used
    // 3.6 us of work on one stream, spread over the 4 asked for, could take 0.9 us at best.
    EXPECT_EQ(d.costNs, 3600 - 900);
    EXPECT_EQ(d.evidence.size(), 4u);
    EXPECT_NE(d.message.find("4 streams requested"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("stream 13"), std::string::npos) << d.message;
}

TEST(StreamsSerialized, NotWhenWorkIsSpreadOrTheRunIsABaseline) {
    test::HandTrace spread;
    spread.builder().setMetadata("streams", "4");
    spread.builder().setMetadata("mode", "async");
    for (int i = 0; i < 4; ++i) {
        spread.kernel(10 + i, 0, 1000, -1);
    }
    EXPECT_FALSE(analyzeTrace(*spread.finish()).fired(RuleId::StreamsSerialized));

    // Two streams asked for, two used, even if one does most of the work (a copy stream).
    test::HandTrace twoOfTwo;
    twoOfTwo.builder().setMetadata("streams", "2");
    twoOfTwo.builder().setMetadata("mode", "async");
    twoOfTwo.kernel(10, 0, 10'000, -1);
    twoOfTwo.copy(11, 0, 100, CopyKind::DeviceToHost, 8, -1, -1);
    EXPECT_FALSE(analyzeTrace(*twoOfTwo.finish()).fired(RuleId::StreamsSerialized));

    test::HandTrace baseline;
    baseline.builder().setMetadata("streams", "4");
    baseline.builder().setMetadata("mode", "baseline");
    baseline.kernel(13, 0, 1000, -1);
    EXPECT_FALSE(analyzeTrace(*baseline.finish()).fired(RuleId::StreamsSerialized));
}

TEST(StreamsSerialized, NvtxNamesWithoutMetadata) {
    test::HandTrace t;
    for (int i = 0; i < 3; ++i) {
        t.nvtx("H2D Memory Stream " + std::to_string(i), 1000 * i, 1000 * i + 500);
        t.kernel(13, 1000 * i + 100, 1000 * i + 400, -1);
    }
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::StreamsSerialized);
    EXPECT_NE(d.message.find("NVTX ranges name 3 streams"), std::string::npos) << d.message;

    test::HandTrace one;
    one.nvtx("H2D Memory Stream 0", 0, 500);
    one.kernel(13, 100, 400, -1);
    EXPECT_FALSE(analyzeTrace(*one.finish()).fired(RuleId::StreamsSerialized));
}

TEST(MissedCopyOverlap, SerialCopyComputeCopyFires) {
    test::HandTrace t;
    t.copy(1, 0, 1000, CopyKind::HostToDevice, 1 << 20, -1, -1);
    t.kernel(1, 1000, 2000, -1);
    t.copy(1, 2000, 4000, CopyKind::DeviceToHost, 1 << 20, -1, -1);
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::MissedCopyOverlap);
    EXPECT_EQ(d.count, 2u);
    EXPECT_EQ(d.costNs, 1000);  // min(copies 3000, kernels 1000) - 0 overlapped
    ASSERT_EQ(d.evidence.size(), 2u);
    EXPECT_EQ(trace->slice(d.evidence[0]).startNs, 2000);  // the longest copy first
}

TEST(MissedCopyOverlap, NotWhenChunksOverlap) {
    test::HandTrace t;
    for (int i = 0; i < 4; ++i) {
        const model::TimeNs b = 500 * i;
        t.copy(10 + i, b, b + 500, CopyKind::HostToDevice, 1 << 20, -1, -1);
        t.kernel(10 + i, b + 500, b + 1000, -1);
    }
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_GT(r.overlap.copyComputePct(), 50.0);
    EXPECT_FALSE(r.fired(RuleId::MissedCopyOverlap));
}

// cuBLAS's DGEMV as the power sample has it, and a CUB scan: library kernels.
constexpr std::string_view kGemv =
    "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, double, double, "
    "double, double, false, true, true, false, 7, false, cublasGemvParamsEx<int, "
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const>, "
    "cublasGemvTensorStridedBatched<double>, double> >(cublasGemvParamsEx<int, "
    "cublasGemvTensorStridedBatched<double const>, cublasGemvTensorStridedBatched<double const>, "
    "cublasGemvTensorStridedBatched<double>, double>)";
constexpr std::string_view kScan =
    "void cub::DeviceScanKernel<cub::DeviceScanPolicy<int>::Policy600, int*, int*, "
    "cub::ScanTileState<int, true>, cub::Sum, cub::NullType, int>(int*, int*, "
    "cub::ScanTileState<int, true>, int, cub::Sum, cub::NullType, int)";

TEST(LibraryKernels, GroupedIntoOneInformationalFinding) {
    test::HandTrace t;
    t.addH100();
    // gemv: 2048 blocks of 128 threads with 164 registers = 18.8% occupancy, every SM filled.
    t.kernel(1, 0, 3000, -1, kGemv, test::launchConfig(2048, 128, 164));
    t.kernel(1, 3000, 6000, -1, kGemv, test::launchConfig(2048, 128, 164));
    // The scan as one block: low fill.
    t.kernel(1, 6000, 8000, -1, kScan, test::launchConfig(1, 128, 32));
    // The user's own, well-shaped kernel takes the rest (64%).
    t.kernel(1, 8000, 22'000, -1, "void my::(anonymous namespace)::step<float>(float*)",
             test::launchConfig(1280, 256, 32));
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_FALSE(r.fired(RuleId::LowOccupancyKernel));
    const Diagnostic d = only(r, RuleId::LibraryKernels);
    EXPECT_EQ(d.severity, Severity::Info);
    EXPECT_EQ(d.count, 3u);
    EXPECT_EQ(d.costNs, 8000);
    EXPECT_EQ(d.evidence.size(), 3u);
    EXPECT_EQ(d.deviceId, 0);
    // Short names with their libraries, the longest first; what is low, in words.
    EXPECT_EQ(d.message.rfind("2 library kernels (cuBLAS gemvx::kernel, CUB DeviceScanKernel)", 0),
              0u)
        << d.message;
    EXPECT_NE(d.message.find("low theoretical occupancy, low GPU fill"), std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find("not code you can change"), std::string::npos) << d.message;
    EXPECT_EQ(d.message.find("cublasGemvParamsEx"), std::string::npos) << d.message;
}

TEST(LibraryKernels, DominantLibraryKernelIsReportedOnItsOwn) {
    test::HandTrace t;
    t.addH100();
    // gemv holds 90% of the kernel time, as in the power-iteration samples.
    t.kernel(1, 0, 9000, -1, kGemv, test::launchConfig(2048, 128, 164));
    t.kernel(1, 9000, 10'000, -1, "normalize", test::launchConfig(1280, 256, 32));
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_FALSE(r.fired(RuleId::LibraryKernels));
    const Diagnostic d = only(r, RuleId::LowOccupancyKernel);
    EXPECT_EQ(d.message.rfind("cuBLAS kernel gemvx::kernel (1 launch, 9.0 µs, 90.0% of kernel time)"
                              ": low theoretical occupancy: ",
                              0),
              0u)
        << d.message;
    // It fills the GPU: the finding is about occupancy, never about fill.
    EXPECT_EQ(d.message.find("low GPU fill"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("theoretical occupancy 18.8%"), std::string::npos) << d.message;
    // Not the kernel's registers (the library's choice) but how it is called.
    EXPECT_NE(d.fix.find("cuBLAS's kernel"), std::string::npos) << d.fix;
    EXPECT_EQ(d.fix.find("__launch_bounds__"), std::string::npos) << d.fix;

    // Below the dominant share it joins the group.
    AnalysisOptions options;
    options.libraryKernelDominantPct = 95.0;
    const AnalysisResult grouped = analyzeTrace(*trace, options);
    EXPECT_FALSE(grouped.fired(RuleId::LowOccupancyKernel));
    EXPECT_EQ(only(grouped, RuleId::LibraryKernels).message.rfind("1 library kernel (", 0), 0u);
}

TEST(LibraryKernels, InstantiationsOfOneTemplateAreListedOnce) {
    test::HandTrace t;
    t.addH100();
    // Two instantiations of PyTorch's elementwise kernel, one block each (low fill).
    t.kernel(1, 0, 1000, -1,
             "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
             "at::detail::Array<char*, 1>)",
             test::launchConfig(1, 128, 32));
    t.kernel(1, 1000, 2000, -1,
             "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, "
             "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<long>, "
             "at::detail::Array<char*, 1>)",
             test::launchConfig(1, 128, 32));
    t.kernel(1, 2000, 9000, -1, "step", test::launchConfig(1280, 256, 32));
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::LibraryKernels);
    EXPECT_EQ(d.message.rfind("2 library kernels (PyTorch vectorized_elementwise_kernel (2 "
                              "variants)) ran with low GPU fill (2 launches, 2.0 µs)",
                              0),
              0u)
        << d.message;
}

TEST(LibraryKernels, ALaunchBoundLoopsElementwiseKernelIsNamedOnceAfterTheLaunchBoundFinding) {
    // A loop of tiny PyTorch ops, one every 10 us: two instantiations of the elementwise kernel
    // (one block each), 60% and 25% of the kernel time, and a user kernel. Per instantiation only
    // the first dominated, so it was warned of on its own and the other named again in the
    // library finding; and that warning came before launch-bound, the finding that explains it.
    test::HandTrace t;
    t.addH100();
    const std::string fill =
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1>)";
    const std::string fillLong =
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<long>, "
        "at::detail::Array<char*, 1>)";
    for (int i = 0; i < 200; ++i) {
        const model::TimeNs base = 10'000 * i;
        const int which = i % 20;
        const std::string& name = which < 12 ? fill : which < 17 ? fillLong : std::string("step");
        t.kernel(
            1, base + 6'000, base + 8'000, base + 4'000, name,
            name == "step" ? test::launchConfig(1280, 256, 32) : test::launchConfig(1, 128, 32));
    }
    const AnalysisResult r = analyzeTrace(*t.finish());
    const auto describe = [](const AnalysisResult& result) {
        std::string s;
        for (const Diagnostic& d : result.diagnostics) {
            s += std::string(toString(d.rule)) + ": " + d.message + "\n";
        }
        return s;
    };
    ASSERT_TRUE(r.fired(RuleId::LaunchBound)) << describe(r);
    const auto occupancy = r.findings(RuleId::LowOccupancyKernel);
    ASSERT_EQ(occupancy.size(), 2u) << describe(r);
    EXPECT_FALSE(r.fired(RuleId::LibraryKernels)) << describe(r);
    std::size_t launchBoundAt = 0;
    for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
        if (r.diagnostics[i].rule == RuleId::LaunchBound) {
            launchBoundAt = i;
        }
    }
    for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
        if (r.diagnostics[i].rule == RuleId::LowOccupancyKernel) {
            EXPECT_GT(i, launchBoundAt) << describe(r);
        }
    }
}

TEST(LowOccupancyKernel, UserKernelsAreNamedByTheirShortNames) {
    test::HandTrace t;
    t.addH100();
    t.kernel(1, 0, 1000, -1,
             "void wl::workloads::(anonymous namespace)::heavy<float, 4>(float const*, float*, "
             "long)",
             test::launchConfig(1024, 256, 255));
    const auto trace = t.finish();
    const Diagnostic d = only(analyzeTrace(*trace), RuleId::LowOccupancyKernel);
    EXPECT_EQ(d.severity, Severity::Warning);
    EXPECT_EQ(d.message.rfind("heavy (1 launch, 1.0 µs): low theoretical occupancy: ", 0), 0u)
        << d.message;
    EXPECT_NE(d.fix.find("__launch_bounds__"), std::string::npos) << d.fix;
}

}  // namespace
}  // namespace wl::analysis

namespace wl::analysis {
namespace {

// Five iterations of: cudaMalloc, a 100 us kernel, cudaFree (which waits for the kernel), the
// next iteration launched 30 us after the free returns.
// With `kernelNs` longer, the calls become a small share of the window.
model::TracePtr allocLoopTrace(std::string_view malloc, std::string_view free,
                               model::TimeNs kernelNs = 100'000) {
    test::HandTrace t;
    model::TimeNs at = 0;
    for (int i = 0; i < 5; ++i) {
        t.api(malloc, at, at + 10'000);
        t.kernel(1, at + 20'000, at + 20'000 + kernelNs, at + 12'000, "step");
        t.api(free, at + 18'000, at + 21'000 + kernelNs);  // returns when the kernel is done
        at += 51'000 + kernelNs;
    }
    return t.finish();
}

TEST(AllocInLoop, CudaFreeInALoopIsNamedAndIsABlockingCall) {
    const auto trace = allocLoopTrace("cudaMalloc_v3020", "cudaFree_v3020");
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::AllocInLoop);
    // The window runs from the first kernel's start: the first iteration's calls lie before it.
    EXPECT_EQ(d.count, 8u);
    // The GPU idles 51 us after each of the 4 frees before the last kernel; 4 mallocs of 10 us.
    EXPECT_EQ(d.costNs, 4 * 51'000 + 4 * 10'000);
    EXPECT_NE(d.message.find("cudaFree x4, cudaMalloc x4"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("waited for every stream"), std::string::npos) << d.message;
    EXPECT_NE(d.fix.find("cudaMallocAsync"), std::string::npos);
    // The GPU idles after each free until the next kernel: the host drained it in a wait.
    bool sawFreeWait = false;
    for (const IdleGap& g : r.utilization.gaps) {
        if (g.streamId == -1 && g.reason.valid()) {
            EXPECT_EQ(trace->str(trace->slice(g.reason).nameId), "cudaFree_v3020");
            EXPECT_EQ(g.cause, GapCause::AfterBlockingCall);
            sawFreeWait = true;
        }
    }
    EXPECT_TRUE(sawFreeWait);
}

TEST(AllocInLoop, StreamOrderedAllocationIsNotFlagged) {
    const auto trace = allocLoopTrace("cudaMallocAsync_v11020", "cudaFreeAsync_v11020");
    EXPECT_FALSE(analyzeTrace(*trace).fired(RuleId::AllocInLoop));
}

TEST(AllocInLoop, CallsThatCostNextToNothingAreNotFlagged) {
    // The same loop around 100 ms kernels: the calls' 10 us are 0.01 % of the window (a caching
    // allocator growing while a program warms up looks like this).
    const auto trace = allocLoopTrace("cudaMalloc_v3020", "cudaFree_v3020", 100 * model::kNsPerMs);
    const AnalysisResult r = analyzeTrace(*trace);
    EXPECT_FALSE(r.fired(RuleId::AllocInLoop));
}

TEST(CollectiveWait, ARankWaitingInsideItsAllReducesIsNamed) {
    // Three steps: 20 us of compute, then an all-reduce that costs 10 us when nobody is late but
    // took 10, 60 and 110 us here (the rank waited for another), over a 300 us window.
    constexpr const char* kAllReduce =
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    test::HandTrace t;
    t.kernel(7, 0, 20, -1, "forward");
    t.kernel(9, 20, 30, -1, kAllReduce);
    t.kernel(7, 30, 50, -1, "forward");
    t.kernel(9, 50, 110, -1, kAllReduce);
    t.kernel(7, 110, 130, -1, "forward");
    t.kernel(9, 130, 240, -1, kAllReduce);
    t.kernel(7, 240, 300, -1, "forward");
    const auto trace = t.finish();
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::CollectiveWait);
    EXPECT_EQ(d.count, 3u);
    EXPECT_EQ(d.costNs, 150);  // 180 ns of collectives, 3 x 10 ns of it their own cost
    EXPECT_EQ(d.deviceId, 0);
    EXPECT_EQ(d.message,
              "GPU 0 spent 180 ns (60.0% of the window) in 3 NCCL collectives; the shortest "
              "took 10 ns, so about 150 ns of it was this rank waiting for the other ranks to "
              "join (the longest 110 ns, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL')");
    ASSERT_FALSE(d.evidence.empty());
    EXPECT_EQ(trace->slice(d.evidence.front()).startNs, 130);  // the longest first

    // Collectives that are a small share of the window: nothing to say.
    test::HandTrace quiet;
    quiet.kernel(7, 0, 1'000, -1, "forward");
    quiet.kernel(9, 1'000, 1'010, -1, kAllReduce);
    quiet.kernel(9, 1'010, 1'030, -1, kAllReduce);
    quiet.kernel(7, 1'030, 2'000, -1, "forward");
    EXPECT_TRUE(analyzeTrace(*quiet.finish()).findings(RuleId::CollectiveWait).empty());
}

TEST(DevicesWait, AGpuWaitingForAnotherGpusResultIsNamed) {
    const auto trace = wl::test::makeCrossDeviceWaitTrace();
    // The wait crosses devices: GPU 1's producer to GPU 0's consumer.
    ASSERT_EQ(trace->dependencies().size(), 1u);
    const model::Dependency& dep = trace->dependencies()[0];
    EXPECT_EQ(trace->str(trace->slice(dep.from).nameId), "producer");
    EXPECT_EQ(trace->str(trace->slice(dep.to).nameId), "consumer");
    const AnalysisResult r = analyzeTrace(*trace);
    const Diagnostic d = only(r, RuleId::DevicesWait);
    EXPECT_EQ(d.deviceId, 0);
    EXPECT_EQ(d.costNs, 810'000);
    EXPECT_EQ(d.count, 1u);
    EXPECT_EQ(d.message,
              "GPU 0 idled 810.0 µs (81.0% of the window) waiting for work on GPU 1: 1 wait, the "
              "longest 810.0 µs for 'producer' on stream 27 of GPU 1");
    ASSERT_EQ(d.evidence.size(), 1u);
    EXPECT_EQ(d.evidence[0], dep.from);
    // Waits inside one GPU are not this finding.
    EXPECT_FALSE(analyzeTrace(*wl::test::makeEventWaitTrace()).fired(RuleId::DevicesWait));
}

}  // namespace
}  // namespace wl::analysis
