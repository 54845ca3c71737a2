#include <gtest/gtest.h>

#include "support/RunPasses.h"

using namespace wl::model;

namespace {

// cudaEventRecord (correlation 2) after "producer" on stream 7, then `wait` (correlation 3)
// for it, then "consumer" (4) on stream 9.
void addRecordAndWait(TraceBuilder& b, SyncKind kind) {
    const auto api = b.hostApiTrack(b.hostProcess(100), 100);
    const auto gpu = b.gpuProcess(0);
    b.addApi(api, 0, 10, "cudaLaunchKernel", 1, {});
    b.addApi(api, 20, 30, "cudaEventRecord", 2, {});
    b.addApi(api, 40, 50, "the wait", 3, {});
    b.addApi(api, 60, 70, "cudaLaunchKernel", 4, {});
    b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 500, "producer", 1, {});
    b.addKernel(b.gpuStreamTrack(gpu, 9), 510, 900, "consumer", 4, {});
    SyncDetail wait;
    wait.syncKind = kind;
    wait.streamId = 9;
    wait.recordStreamId = 7;
    wait.recordCorrelationId = 2;
    b.addSync(b.syncTrack(gpu), 40, 50, "Wait", 3, wait);
}

}  // namespace

TEST(DependenciesPass, AStreamWaitsForTheLastOpQueuedBeforeTheRecord) {
    TraceBuilder b;
    addRecordAndWait(b, SyncKind::StreamWaitEvent);
    const auto trace = wl::test::runPasses(b, {"lane assignment", "dependencies"});
    ASSERT_EQ(trace->dependencies().size(), 1u);
    const Dependency& d = trace->dependencies()[0];
    EXPECT_EQ(trace->str(trace->slice(d.from).nameId), "producer");
    EXPECT_EQ(trace->str(trace->slice(d.to).nameId), "consumer");
    EXPECT_EQ(trace->str(trace->slice(d.via).nameId), "Wait");
}

TEST(DependenciesPass, AHostThatSynchronisesOnTheEventWaitsInItsCall) {
    TraceBuilder b;
    addRecordAndWait(b, SyncKind::EventSynchronize);
    const auto trace = wl::test::runPasses(b, {"lane assignment", "dependencies"});
    ASSERT_EQ(trace->dependencies().size(), 1u);
    const Dependency& d = trace->dependencies()[0];
    EXPECT_EQ(trace->str(trace->slice(d.from).nameId), "producer");
    EXPECT_EQ(trace->str(trace->slice(d.to).nameId), "the wait");
}

TEST(DependenciesPass, AHostWaitIsFoundAmongTheCallsOfItsOwnProcess) {
    // Two ranks of a merged job run the same program, so their correlation ids coincide: each
    // rank's cudaEventSynchronize (id 3) is the wait of that rank's GPU, not the other's.
    TraceBuilder b;
    for (int rank : {1, 0}) {
        const auto api = b.hostApiTrack(b.hostProcess(42, {}, rank), 42);
        const auto gpu = b.gpuProcess(0, {}, -1, rank);
        const std::string suffix = " of rank " + std::to_string(rank);
        b.addApi(api, 0, 10, "cudaLaunchKernel", 1, {});
        b.addApi(api, 20, 30, "cudaEventRecord", 2, {});
        b.addApi(api, 40, 600, "cudaEventSynchronize" + suffix, 3, {});
        b.addKernel(b.gpuStreamTrack(gpu, 7), 100, 500, "producer" + suffix, 1, {});
        SyncDetail wait;
        wait.syncKind = SyncKind::EventSynchronize;
        wait.recordStreamId = 7;
        wait.recordCorrelationId = 2;
        b.addSync(b.syncTrack(gpu), 40, 600, "Wait", 3, wait);
    }
    const auto trace = wl::test::runPasses(b, {"lane assignment", "dependencies"});
    ASSERT_EQ(trace->dependencies().size(), 2u);
    for (const Dependency& d : trace->dependencies()) {
        const std::string from{trace->str(trace->slice(d.from).nameId)};
        const std::string to{trace->str(trace->slice(d.to).nameId)};
        EXPECT_EQ(from.substr(from.size() - 6), to.substr(to.size() - 6)) << from << " -> " << to;
    }
}
