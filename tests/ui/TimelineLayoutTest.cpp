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

}  // namespace
}  // namespace wl::ui
