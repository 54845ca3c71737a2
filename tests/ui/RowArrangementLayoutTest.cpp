// Row identities and the layout of a trace as the user arranged its rows (RowArrangement).
#include <gtest/gtest.h>

#include "TimelineTestTraces.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {
namespace {

using test::identities;

// A host process with an API thread and two plain threads, and GPU 0 with two streams; pid and
// thread ids are given, as a new recording of one program would change them.
model::TracePtr recording(std::int64_t pid, std::int64_t tid, std::int32_t rank = -1) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(pid, "python", rank);
    const auto gpu = b.gpuProcess(0, "GPU 0", -1, rank);
    b.addApi(b.hostApiTrack(host, tid), 0, 10, "cudaLaunchKernel", 1, {});
    b.addSlice(b.hostTrack(host, tid + 1), 0, 10, "a", model::SliceKind::Other);
    b.addSlice(b.hostTrack(host, tid + 2), 0, 10, "b", model::SliceKind::Other);
    b.addKernel(b.gpuStreamTrack(gpu, 7), 20, 40, "k", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 13), 20, 40, "k", 1, {});
    return b.finalize();
}

std::string joined(const QStringList& list) {
    return list.join(QLatin1Char('|')).toStdString();
}

TimelineLayout laidOut(const model::Trace& trace, const RowArrangement& arrangement,
                       const std::unordered_set<std::uint64_t>& collapsed = {}) {
    TimelineLayout layout;
    layout.build(&trace, collapsed, {}, arrangement);
    return layout;
}

TEST(RowIdentity, NamesRowsByWhatTheyShowNotByPidsOrThreadIds) {
    const auto trace = recording(4242, 100);
    EXPECT_EQ(identities(laidOut(*trace, {})),
              joined({"gpu 0", "gpu 0/Stream 7", "gpu 0/Stream 13", "gpu 0/Launch queue",
                      "host python", "host python/CUDA API (thread #)", "host python/Thread #",
                      "host python/Thread ##2"}));
    // rowIdentity itself: the group's and the row's, before repeats are numbered.
    const TimelineLayout layout = laidOut(*trace, {});
    const RowIdentity api = rowIdentity(*trace, layout.rows()[5]);
    EXPECT_EQ(api.group, QStringLiteral("host python"));
    EXPECT_EQ(api.row, QStringLiteral("host python/CUDA API (thread #)"));
    EXPECT_EQ(rowIdentity(*trace, layout.rows()[0]).row, QStringLiteral("gpu 0"));
}

// Unified-memory rows are named by what they hold, under their GPU or (CPU page faults) under
// their host process, whatever its pid: a pinned or hidden one is found again in a new recording.
TEST(RowIdentity, UnifiedMemoryRowsAreNamedByTheirKind) {
    const auto withUnifiedMemory = [](std::int64_t pid) {
        model::TraceBuilder b;
        const auto host = b.hostProcess(pid, "python");
        const auto gpu = b.gpuProcess(0, "GPU 0");
        b.addKernel(b.gpuStreamTrack(gpu, 7), 20, 40, "k", 0, {});
        model::UnifiedMemoryDetail d;
        d.kind = model::UnifiedMemoryKind::MigrationHtoD;
        b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, d.kind), 10, 30, "Migration HtoD", d);
        d.kind = model::UnifiedMemoryKind::CpuPageFault;
        b.addUnifiedMemory(b.unifiedMemoryTrack(host, d.kind), 5, 5, "CPU page fault", d);
        return b.finalize();
    };
    const auto first = withUnifiedMemory(4242);
    EXPECT_EQ(identities(laidOut(*first, {})),
              joined({"gpu 0", "gpu 0/Stream 7", "gpu 0/Unified memory HtoD", "host python",
                      "host python/CPU page faults"}));
    RowArrangement hideFaults;
    hideFaults.hide(QStringLiteral("host python/CPU page faults"));
    const TimelineLayout layout = laidOut(*withUnifiedMemory(977), hideFaults);
    ASSERT_EQ(layout.hiddenRows().size(), 1u);
    EXPECT_EQ(layout.hiddenRows()[0].first, QStringLiteral("host python/CPU page faults"));
}

TEST(RowIdentity, ANewRecordingReadsTheSame) {
    EXPECT_EQ(identities(laidOut(*recording(4242, 100), {})),
              identities(laidOut(*recording(977, 5123), {})));
}

TEST(RowIdentity, APidInTheProcessNameIsLeftOut) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1054, "python3 (pid 1054)");
    b.addApi(b.hostApiTrack(host, 1055), 0, 10, "cudaLaunchKernel", 1, {});
    const auto trace = b.finalize();
    EXPECT_EQ(identities(laidOut(*trace, {})),
              joined({"host python3", "host python3/CUDA API (thread #)"}));
}

TEST(RowIdentity, AThreadKnownByNoNumberKeepsItsName) {
    // Kineto's bookkeeping rows: pid and tid written as names (synthetic ids, no number).
    model::TraceBuilder b;
    const auto spans = b.hostProcess(model::kSyntheticIdBase, "Spans");
    b.addSlice(b.hostTrack(spans, model::kSyntheticIdBase + 2), 0, 100, "PyTorch Profiler (0)",
               model::SliceKind::Other);
    const auto trace = b.finalize();
    RowArrangement a;
    a.hide(QStringLiteral("elsewhere"));  // the folded group's rows are named too
    const TimelineLayout layout = laidOut(*trace, a, {TimelineLayout::processKey(0)});
    ASSERT_EQ(layout.rows().size(), 1u);
    EXPECT_EQ(identities(layout), "host Spans");
}

TEST(RowIdentity, RanksOfAJobAreNamed) {
    const std::string ids = identities(laidOut(*recording(4242, 100, 1), {}));
    EXPECT_NE(ids.find("rank 1/gpu 0|"), std::string::npos) << ids;
    EXPECT_NE(ids.find("|rank 1/host python/CUDA API (thread #)|"), std::string::npos) << ids;
}

TEST(RowArrangementLayout, HiddenRowsAndGroupsAreLeftOutAndListed) {
    const auto trace = recording(4242, 100);
    RowArrangement a;
    a.hide(QStringLiteral("gpu 0/Stream 7"));
    a.hide(QStringLiteral("host python"));
    const TimelineLayout layout = laidOut(*trace, a);
    EXPECT_EQ(identities(layout), joined({"gpu 0", "gpu 0/Stream 13", "gpu 0/Launch queue"}));
    ASSERT_EQ(layout.hiddenRows().size(), 2u);
    EXPECT_EQ(layout.hiddenRows()[0].first, QStringLiteral("gpu 0/Stream 7"));
    EXPECT_TRUE(layout.hiddenRows()[0].second.startsWith(QStringLiteral("Stream 7 \u00b7 GPU 0")));
    // Heights follow: no gap where the hidden row was.
    EXPECT_EQ(layout.rows()[1].yPx, layout.rows()[0].heightPx);
    EXPECT_EQ(layout.totalHeightPx(), layout.rows()[2].yPx + layout.rows()[2].heightPx);
}

TEST(RowArrangementLayout, PinnedRowsComeFirstNamedWithTheirGroupEvenWhenItIsFolded) {
    const auto trace = recording(4242, 100);
    RowArrangement a;
    a.pin(QStringLiteral("host python/CUDA API (thread #)"));
    a.pin(QStringLiteral("gpu 0/Stream 13"));
    // The host group folded: its pinned row stays in the band.
    model::ProcessIndex host = 0;
    for (model::ProcessIndex p = 0; p < trace->processes().size(); ++p)
        if (trace->processes()[p].deviceId < 0)
            host = p;
    const TimelineLayout layout = laidOut(*trace, a, {TimelineLayout::processKey(host)});
    EXPECT_EQ(identities(layout),
              joined({"host python/CUDA API (thread #)", "gpu 0/Stream 13", "gpu 0",
                      "gpu 0/Stream 7", "gpu 0/Launch queue", "host python"}));
    EXPECT_TRUE(layout.rows()[0].pinned);
    EXPECT_TRUE(layout.rows()[0].title.endsWith(QStringLiteral(" \u00b7 python (pid 4242)")))
        << layout.rows()[0].title.toStdString();
    EXPECT_EQ(layout.rowOfTrack(layout.rows()[1].track), 1);
    EXPECT_EQ(layout.rows()[3].groupRow, 2);
}

TEST(RowArrangementLayout, GroupsAndRowsKeepTheUsersOrder) {
    const auto trace = recording(4242, 100);
    RowArrangement a;
    a.order = QStringList{"host python", "gpu 0/Stream 13"};
    EXPECT_EQ(identities(laidOut(*trace, a)),
              joined({"host python", "host python/CUDA API (thread #)", "host python/Thread #",
                      "host python/Thread ##2", "gpu 0", "gpu 0/Stream 13", "gpu 0/Stream 7",
                      "gpu 0/Launch queue"}));
}

}  // namespace
}  // namespace wl::ui
