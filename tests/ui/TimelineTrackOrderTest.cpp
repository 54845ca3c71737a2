#include <gtest/gtest.h>

#include <vector>

#include "model/TraceBuilder.h"
#include "model/TrackOrder.h"
#include "ui/timeline/TimelineLayout.h"

namespace wl::ui {
namespace {

// The rows of a process's tracks follow the model's track order, the one finalize() lists tracks
// in: the timeline and the trace's track list never disagree.
TEST(TimelineTrackOrder, RowsFollowTheModelsTrackOrder) {
    model::TraceBuilder b;
    const auto host = b.hostProcess(1);
    const auto gpu = b.gpuProcess(0);
    const auto api = b.hostApiTrack(host, 1);
    const auto nvtx = b.nvtxTrack(host, 1);
    b.addSlice(b.hostTrack(host, 1), 0, 5, "python", model::SliceKind::Other);
    b.addNvtx(nvtx, 0, 100, "step", {});
    b.addApi(api, 0, 10, "cudaGraphLaunch", 1, {});
    model::KernelDetail node;
    node.graph = {3, 1};
    b.addKernel(b.gpuStreamTrack(gpu, 20), 20, 30, "node", 1, node);
    b.addKernel(b.gpuStreamTrack(gpu, 7), 40, 50, "k", 0, {});
    b.addSync(b.syncTrack(gpu), 40, 45, "wait", 0, {});
    const auto trace = b.finalize();

    TimelineLayout layout;
    layout.build(trace.get(), {}, {});
    std::vector<model::TrackIndex> shown;
    for (const TimelineRow& row : layout.rows()) {
        if (row.kind == RowKind::Track)
            shown.push_back(row.track);
    }
    ASSERT_EQ(shown.size(), trace->tracks().size());
    std::vector<model::TrackKind> kinds;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const model::Track& t = trace->track(shown[i]);
        kinds.push_back(t.kind);
        if (i > 0 && trace->track(shown[i - 1]).process == t.process) {
            EXPECT_TRUE(model::trackOrderLess(*trace, trace->track(shown[i - 1]), t)) << i;
        }
    }
    using K = model::TrackKind;
    // GPU first (the layout's process order), a graph-launch row under its stream; then the host.
    EXPECT_EQ(kinds, (std::vector<K>{K::GpuStream, K::GpuStream, K::GraphLaunches, K::Sync,
                                     K::NvtxProjection, K::HostApi, K::Host, K::Nvtx}));
    // The recorded tracks are shown in the order the trace lists them (each process's block).
    std::vector<model::TrackIndex> recorded;
    for (model::TrackIndex t : shown) {
        if (!model::isDerived(trace->track(t).kind) && trace->track(t).process == 0)
            recorded.push_back(t);
    }
    EXPECT_EQ(recorded, (std::vector<model::TrackIndex>{0, 1, 2}));
}

}  // namespace
}  // namespace wl::ui
