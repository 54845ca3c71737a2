#include "ui/timeline/TimelineLayout.h"

#include <gtest/gtest.h>

#include <set>

#include "model/TraceMerge.h"
#include "support/ProcessTraceFactory.h"

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
            gpuTitles.insert(TimelineLayout::processTitle(trace, p));
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
        titles.insert(TimelineLayout::processTitle(*trace, p));
    }
    EXPECT_EQ(titles, (std::set<QString>{QStringLiteral("python3 (pid 1054)"),
                                         QStringLiteral("trainer (pid 77)")}));
}

}  // namespace
}  // namespace wl::ui
