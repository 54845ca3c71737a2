// The bundled sample traces (resources/samples, recorded by `warpline run` on an H200) load and
// show what each one is shipped to show: parameters in the metadata, copy kinds, stream counts,
// the seeds' NVTX names. No GPU needed.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "io/TraceFile.h"
#include "model/Trace.h"

namespace wl::workloads {
namespace {

struct Facts {
    std::map<std::string, std::set<std::int64_t>> kernelStreams;  // short name -> streams
    std::set<std::int64_t> bigCopyStreams;                        // copies of >= 1 MB
    std::set<std::int64_t> vectorCopyStreams;                     // copies of 64 KB (power's x)
    std::multiset<model::MemoryKind> bigCopyHostKinds;
    std::set<std::string> nvtx;
};

model::TracePtr loadSample(const std::string& name) {
    auto trace = io::loadTrace(std::string(WARPLINE_SAMPLES_DIR) + "/" + name);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().describe());
    return trace.ok() ? *trace : nullptr;
}

Facts factsOf(const model::Trace& trace) {
    Facts f;
    for (const model::Track& track : trace.tracks()) {
        for (const model::Slice& s : track.slices) {
            const std::string name(trace.str(s.nameId));
            if (s.kind == model::SliceKind::Nvtx) {
                f.nvtx.insert(name);
            }
            if (track.kind != model::TrackKind::GpuStream) {
                continue;
            }
            if (s.kind == model::SliceKind::Kernel) {
                for (const char* k : {"partial_reduce", "single_thread_sum", "divide_by",
                                      "checkStepKernel", "normalizeKernel"}) {
                    if (name.find(k) != std::string::npos) {
                        f.kernelStreams[k].insert(track.streamId);
                    }
                }
            } else if (s.kind == model::SliceKind::Memcpy) {
                const model::MemcpyDetail* d = trace.memcpy(s);
                if (d != nullptr && d->bytes == 8192 * 8) {
                    f.vectorCopyStreams.insert(track.streamId);
                }
                if (d != nullptr && d->bytes >= 1'000'000) {
                    f.bigCopyStreams.insert(track.streamId);
                    f.bigCopyHostKinds.insert(
                        d->copyKind == model::CopyKind::DeviceToHost ? d->dstKind : d->srcKind);
                }
            }
        }
    }
    return f;
}

void expectMetadata(const model::Trace& trace, const std::map<std::string, std::string>& expected) {
    EXPECT_EQ(trace.metadataValue("producer"), "warpline run");
    for (const auto& [key, value] : expected) {
        EXPECT_EQ(trace.metadataValue(key), value) << key;
    }
    EXPECT_EQ(trace.diagnostics().droppedRecords, 0u);
    ASSERT_FALSE(trace.devices().empty());
}

TEST(SampleTraces, ReduceBaselinePageableAndPinned) {
    for (const auto& [file, kind] :
         {std::pair{"reduce-baseline-pageable.json.gz", model::MemoryKind::Pageable},
          std::pair{"reduce-baseline-pinned.json.gz", model::MemoryKind::Pinned}}) {
        const model::TracePtr trace = loadSample(file);
        ASSERT_NE(trace, nullptr) << file;
        expectMetadata(*trace, {{"workload", "reduce"},
                                {"mode", "baseline"},
                                {"streams", "1"},
                                {"pinned", kind == model::MemoryKind::Pinned ? "true" : "false"}});
        const Facts f = factsOf(*trace);
        EXPECT_EQ(f.bigCopyHostKinds.count(kind), 2u) << file;  // 400 MB in, 400 MB out
        EXPECT_EQ(f.bigCopyStreams.size(), 1u) << file;
        EXPECT_EQ(f.kernelStreams.at("partial_reduce").size(), 1u) << file;
        for (const char* name : {"Compilation", "H2D Memory", "Kernels", "D2H Memory"}) {
            EXPECT_TRUE(f.nvtx.count(name)) << file << ": " << name;
        }
    }
}

TEST(SampleTraces, ReduceAsyncEightStreams) {
    const model::TracePtr trace = loadSample("reduce-async-8streams-repeat50.json.gz");
    ASSERT_NE(trace, nullptr);
    expectMetadata(*trace, {{"workload", "reduce"},
                            {"mode", "async"},
                            {"streams", "8"},
                            {"pinned", "true"},
                            {"repeat", "50"},
                            {"shared_stream", "false"}});
    const Facts f = factsOf(*trace);
    EXPECT_EQ(f.bigCopyStreams.size(), 8u);
    EXPECT_EQ(f.bigCopyHostKinds.count(model::MemoryKind::Pinned), 16u);
    // 8 streams plus the default stream of the warm-up.
    EXPECT_EQ(f.kernelStreams.at("divide_by").size(), 9u);
    for (int i = 0; i < 8; ++i) {
        const std::string n = std::to_string(i);
        for (const std::string& name : {"H2D Memory Stream " + n, "Sum Kernels Stream " + n,
                                        "Divide Kernel Stream " + n, "D2H Memory Stream " + n}) {
            EXPECT_TRUE(f.nvtx.count(name)) << name;
        }
    }
}

TEST(SampleTraces, ReduceSharedStreamBugUsesOneStream) {
    const model::TracePtr trace =
        loadSample("reduce-async-8streams-repeat50-shared-stream-bug.json.gz");
    ASSERT_NE(trace, nullptr);
    expectMetadata(*trace, {{"mode", "async"}, {"streams", "8"}, {"shared_stream", "true"}});
    const Facts f = factsOf(*trace);
    EXPECT_EQ(f.bigCopyStreams.size(), 1u);
    EXPECT_EQ(f.kernelStreams.at("divide_by").size(), 2u);  // the bug's stream + warm-up
    EXPECT_TRUE(f.nvtx.count("Sum Kernels Stream 7"));
}

TEST(SampleTraces, PowerBaselineAndAsync) {
    const model::TracePtr baseline = loadSample("power-baseline-pinned.json.gz");
    const model::TracePtr async = loadSample("power-async-2streams-pinned.json.gz");
    ASSERT_NE(baseline, nullptr);
    ASSERT_NE(async, nullptr);
    expectMetadata(*baseline, {{"workload", "power"}, {"mode", "baseline"}, {"size", "8192"}});
    expectMetadata(*async, {{"workload", "power"}, {"mode", "async"}, {"streams", "2"}});
    // Baseline copies x on the compute stream; async on a copy stream of its own.
    const Facts b = factsOf(*baseline);
    EXPECT_EQ(b.vectorCopyStreams, b.kernelStreams.at("checkStepKernel"));
    const Facts a = factsOf(*async);
    ASSERT_EQ(a.vectorCopyStreams.size(), 1u);
    EXPECT_FALSE(a.kernelStreams.at("checkStepKernel").count(*a.vectorCopyStreams.begin()));
    for (const model::TracePtr& trace : {baseline, async}) {
        const Facts f = factsOf(*trace);
        EXPECT_EQ(f.kernelStreams.at("checkStepKernel").size(), 1u);
        for (const char* name : {"Setup", "Loop", "Step 0 to 14", "Compute Step 0",
                                 "Compute & Residual 14", "Copy 14", "I/O 14"}) {
            EXPECT_TRUE(f.nvtx.count(name)) << name;
        }
    }
}

TEST(SampleTraces, PowerGraphReplaysEachBatchFromOneLaunch) {
    const model::TracePtr graph = loadSample("power-graph-2streams-pinned.json.gz");
    ASSERT_NE(graph, nullptr);
    expectMetadata(*graph, {{"workload", "power"}, {"mode", "async"}, {"graph", "true"}});
    // Every loop kernel ran as a node of a captured graph, tied to its cudaGraphLaunch; each
    // launch ran one batch: the same number of nodes every time.
    std::map<std::uint64_t, int> nodesPerLaunch;  // correlation id of the launch -> nodes
    for (std::uint32_t ti = 0; ti < graph->tracks().size(); ++ti) {
        const model::Track& track = graph->track(ti);
        if (track.kind != model::TrackKind::GpuStream)
            continue;
        for (std::uint32_t si = 0; si < track.slices.size(); ++si) {
            const model::Slice& s = track.slices[si];
            const model::GraphNode* node = graph->graphNode(s);
            if (node == nullptr || node->graphId == 0)
                continue;
            const model::Flow* launch = graph->flowTo({ti, si});
            ASSERT_NE(launch, nullptr);
            EXPECT_EQ(graph->str(graph->slice(launch->from).nameId).rfind("cudaGraphLaunch", 0),
                      0u);
            ++nodesPerLaunch[s.correlationId];
        }
    }
    ASSERT_GE(nodesPerLaunch.size(), 20u);  // 29 batches until convergence
    const int batchNodes = nodesPerLaunch.begin()->second;
    EXPECT_GE(batchNodes, 30);  // 15 steps of at least a matvec and a normalisation
    for (const auto& [launch, nodes] : nodesPerLaunch)
        EXPECT_EQ(nodes, batchNodes) << "launch " << launch;
    std::size_t launchRows = 0;
    for (const model::Track& track : graph->tracks())
        launchRows += track.kind == model::TrackKind::GraphLaunches ? track.slices.size() : 0;
    EXPECT_EQ(launchRows, nodesPerLaunch.size());
    EXPECT_EQ(graph->diagnostics().spilledOverlaps, 0u);
}

}  // namespace
}  // namespace wl::workloads
