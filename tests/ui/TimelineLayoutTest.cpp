#include "ui/timeline/TimelineLayout.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "model/TraceMerge.h"
#include "support/ProcessTraceFactory.h"
#include "ui/common/TrackTitles.h"
#include "ui/timeline/DenseSpan.h"

namespace wl::ui {
namespace {

TEST(TimelineLayout, EachProcessesGpuGroupOfAMergedRecordingSaysWhoseItIs) {
    test::ProcessTraceSpec first;
    first.pid = 4242;
    test::ProcessTraceSpec second;
    second.pid = 4300;
    second.originNs = 5'000;
    auto merged = model::mergeTraces(
        {{test::makeProcessTrace(first), ""}, {test::makeProcessTrace(second), ""}});
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    const model::Trace& trace = *merged.value();
    std::set<QString> gpuTitles;
    for (model::ProcessIndex p = 0; p < trace.processes().size(); ++p) {
        if (trace.processes()[p].deviceId >= 0) {
            gpuTitles.insert(processTitle(trace, p));
        }
    }
    ASSERT_EQ(gpuTitles.size(), 2u) << "two groups on GPU 0, told apart";
    EXPECT_TRUE(gpuTitles.begin()->contains(QStringLiteral("pid 4242")))
        << gpuTitles.begin()->toStdString();
    EXPECT_TRUE(std::next(gpuTitles.begin())->contains(QStringLiteral("pid 4300")));
}

TEST(TimelineLayout, AProcessNameThatSaysItsPidIsNotGivenItTwice) {
    model::TraceBuilder b;
    const auto named = b.hostProcess(1054, "python3 (pid 1054)");
    const auto plain = b.hostProcess(77, "trainer");
    b.addApi(b.hostApiTrack(named, 1), 0, 10, "cudaLaunchKernel", 1, {});
    b.addApi(b.hostApiTrack(plain, 2), 0, 10, "cudaLaunchKernel", 2, {});
    const auto trace = b.finalize();
    std::set<QString> titles;  // processes are reordered by finalize(): compare as a set
    for (model::ProcessIndex p = 0; p < trace->processes().size(); ++p) {
        titles.insert(processTitle(*trace, p));
    }
    EXPECT_EQ(titles, (std::set<QString>{QStringLiteral("python3 (pid 1054)"),
                                         QStringLiteral("trainer (pid 77)")}));
}

// A Kineto trace: a host process with many threads, GPU 0, and the profiler's bookkeeping
// processes written with names for pids ("Spans", and "" for its record-window mark).
TEST(TimelineLayout, GpuFirstThenHostsThenFoldedBookkeepingProcesses) {
    model::TraceBuilder b;
    const auto spans = b.hostProcess(model::kSyntheticIdBase, "Spans");
    const auto unnamed = b.hostProcess(model::kSyntheticIdBase + 1);
    const auto host = b.hostProcess(2910249, "python3.10");
    const auto gpu = b.gpuProcess(0);
    b.addSlice(b.hostTrack(spans, model::kSyntheticIdBase + 2), 0, 100, "PyTorch Profiler (0)",
               model::SliceKind::Other);
    b.addSlice(b.hostTrack(unnamed, model::kSyntheticIdBase + 3), 100, 100, "Record Window End",
               model::SliceKind::Other);
    for (int tid = 1; tid <= 20; ++tid) {
        b.addSlice(b.hostTrack(host, tid), 0, 50, "aten::mm", model::SliceKind::Other);
    }
    b.addApi(b.hostApiTrack(host, -549452224), 0, 10, "cudaLaunchKernel", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 20, 40, "gemm", 1, {});
    const auto trace = b.finalize();

    std::vector<QString> order;
    for (model::ProcessIndex p : TimelineLayout::processOrder(*trace)) {
        order.push_back(processTitle(*trace, p));
    }
    ASSERT_EQ(order.size(), 4u);
    EXPECT_TRUE(order[0].startsWith(QStringLiteral("GPU 0"))) << order[0].toStdString();
    EXPECT_EQ(order[1], QStringLiteral("python3.10 (pid 2910249)"));
    // Names only: no "(pid 1099511627776)" for a pid the file wrote as a name.
    EXPECT_EQ((std::set<QString>{order[2], order[3]}),
              (std::set<QString>{QStringLiteral("Spans"), QStringLiteral("(unnamed process)")}));

    std::set<QString> folded;
    for (model::ProcessIndex p : TimelineLayout::foldedAtOpen(*trace)) {
        folded.insert(processTitle(*trace, p));
    }
    EXPECT_EQ(folded,
              (std::set<QString>{QStringLiteral("Spans"), QStringLiteral("(unnamed process)")}));

    std::set<QString> tracks;
    for (const model::Track& t : trace->tracks()) {
        tracks.insert(trackTitle(*trace, t));
    }
    EXPECT_TRUE(tracks.count(QStringLiteral("CUDA API (thread 3745515072)")))
        << "Kineto's negative 32-bit thread id shown as the unsigned id";
    EXPECT_TRUE(tracks.count(QStringLiteral("Thread")));
    for (const QString& t : tracks) {
        EXPECT_FALSE(t.contains(QStringLiteral("1099511627"))) << t.toStdString();
    }
}

TEST(TimelineLayout, AJobsRanksAreShownOneAfterAnother) {
    // Two ranks on GPUs 0 and 1 of two hosts, given GPUs first: each rank's GPU then its host.
    model::TraceBuilder b;
    const auto gpu1 = b.gpuProcess(1, "rank 1 GPU 1", 20, 1);
    const auto gpu0 = b.gpuProcess(0, "rank 0 GPU 0", 10, 0);
    const auto host1 = b.hostProcess(20, "rank 1 host", 1);
    const auto host0 = b.hostProcess(10, "rank 0 host", 0);
    b.addKernel(b.gpuStreamTrack(gpu1, 7), 0, 10, "k", 0, {});
    b.addKernel(b.gpuStreamTrack(gpu0, 7), 0, 10, "k", 0, {});
    b.addApi(b.hostApiTrack(host1, 1), 0, 5, "cudaLaunchKernel", 0, {});
    b.addApi(b.hostApiTrack(host0, 1), 0, 5, "cudaLaunchKernel", 0, {});
    const auto trace = b.finalize();
    std::vector<std::int32_t> ranks;
    std::vector<bool> onGpu;
    for (model::ProcessIndex p : TimelineLayout::processOrder(*trace)) {
        ranks.push_back(trace->processes()[p].rank);
        onGpu.push_back(trace->processes()[p].deviceId >= 0);
    }
    EXPECT_EQ(ranks, (std::vector<std::int32_t>{0, 0, 1, 1}));
    EXPECT_EQ(onGpu, (std::vector<bool>{true, false, true, false}));
}

// A DDP job's rank 1 made a CUDA context (and allocations) on GPU 0, where rank 0 works: that
// group holds nothing of rank 1's own work. It says so, and shows no idle gaps (those of GPU 0
// are rank 0's).
TEST(TimelineLayout, AGpuThatHoldsNoWorkOfItsOwnSaysSoAndShowsNoIdleGaps) {
    model::TraceBuilder b;
    const auto rank0Gpu0 = b.gpuProcess(0, "rank 0 GPU 0", 10, 0);
    const auto rank1Gpu0 = b.gpuProcess(0, "rank 1 GPU 0", 20, 1);
    const auto rank1Gpu1 = b.gpuProcess(1, "rank 1 GPU 1", 20, 1);
    b.addKernel(b.gpuStreamTrack(rank0Gpu0, 7), 0, 10, "k", 0, {});
    b.addKernel(b.gpuStreamTrack(rank1Gpu1, 7), 0, 10, "k", 0, {});
    model::MemoryDetail alloc;
    alloc.bytes = 4;
    b.addMemory(b.memoryTrack(rank1Gpu0), 5, "Allocate (Device)", 0, alloc);
    const auto trace = b.finalize();

    TimelineLayout layout;
    layout.build(trace.get(), {}, {0, 1}, {});
    std::map<QString, int> gapRows;  // group title -> its idle-gap rows
    QString group;
    for (const TimelineRow& row : layout.rows()) {
        if (row.kind == RowKind::Process) {
            group = row.title;
            gapRows[group] = 0;
            EXPECT_EQ(row.quiet, row.title.endsWith(QStringLiteral("no GPU work")))  // dimmed
                << row.title.toStdString();
        } else if (row.kind == RowKind::DeviceGaps) {
            ++gapRows[group];
        }
    }
    EXPECT_EQ(gapRows, (std::map<QString, int>{{QStringLiteral("rank 0 GPU 0"), 1},
                                               {QStringLiteral("rank 1 GPU 0 · no GPU work"), 0},
                                               {QStringLiteral("rank 1 GPU 1"), 1}}));
}

// A group is shown for what it holds: a process whose rows hold nothing (a row made and never
// filled) is no group.
TEST(TimelineLayout, AGroupThatHoldsNothingIsNotShown) {
    model::TraceBuilder b;
    const auto used = b.hostProcess(1, "python3");
    const auto empty = b.hostProcess(2, "helper");
    b.addSlice(b.hostTrack(used, 1), 0, 10, "aten::mm", model::SliceKind::CpuOp);
    b.hostTrack(empty, 2);
    b.counterTrack(empty, "memory", "in use", "B");
    const auto trace = b.finalize();

    TimelineLayout layout;
    layout.build(trace.get(), {}, {}, {});
    QStringList groups;
    for (const TimelineRow& row : layout.rows()) {
        if (row.kind == RowKind::Process)
            groups << row.title;
    }
    EXPECT_EQ(groups, QStringList{QStringLiteral("python3 (pid 1)")});
}

TEST(DenseSpan, StrayEarlyEventDoesNotSetTheView) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1, "app");
    const auto track = b.hostTrack(host, 1);
    b.addSlice(track, 0, 10, "stray", model::SliceKind::Other);  // 13 days before the rest
    const model::TimeNs rest = 13 * 24 * 3600 * model::kNsPerSecond;
    for (int i = 0; i < 500; ++i) {
        b.addSlice(track, rest + i * 1000, rest + i * 1000 + 600, "work", model::SliceKind::Other);
    }
    const auto trace = b.finalize();
    const model::TimeRange dense = denseSpan(*trace);
    EXPECT_EQ(dense.startNs, rest);
    EXPECT_EQ(dense.endNs, rest + 499 * 1000 + 600);
    EXPECT_EQ(trace->spanNs(), rest + 499 * 1000 + 600) << "fit all still reaches the stray event";
}

TEST(DenseSpan, ATraceWithoutStraysIsShownWhole) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1, "app");
    const auto track = b.hostTrack(host, 1);
    // Sparse at both ends (one slice each, far from the rest), yet more than 1% of the events.
    b.addSlice(track, 0, 10, "first", model::SliceKind::Other);
    for (int i = 0; i < 50; ++i) {
        b.addSlice(track, 1'000'000 + i * 100, 1'000'000 + i * 100 + 50, "work",
                   model::SliceKind::Other);
    }
    b.addSlice(track, 2'000'000, 2'000'010, "last", model::SliceKind::Other);
    const auto trace = b.finalize();
    EXPECT_EQ(denseSpan(*trace), (model::TimeRange{0, trace->spanNs()}));
}

}  // namespace
}  // namespace wl::ui
