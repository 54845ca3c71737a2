// The Chrome trace writer's parts on their own: where tracks go (writer::computeLayout) and the
// file's header (writer::HeaderWriter). The whole file's shape is WriterShapeTest's.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <set>
#include <string>

#include "RichTrace.h"
#include "io/writer/HeaderWriter.h"
#include "io/writer/RowLayout.h"

namespace wl::io::writer {
namespace {

const model::Track* trackOf(const model::Trace& t, model::TrackKind kind, std::int64_t stream,
                            std::size_t* index) {
    for (std::size_t i = 0; i < t.tracks().size(); ++i) {
        const auto& track = t.tracks()[i];
        if (track.kind == kind &&
            (kind != model::TrackKind::GpuStream || track.streamId == stream)) {
            *index = i;
            return &track;
        }
    }
    return nullptr;
}

TEST(RowLayout, KinetosRowsAndATidPerLaneThatDoesNotNest) {
    const auto trace = io::testing::richTrace();
    const Layout layout = computeLayout(*trace);
    ASSERT_EQ(layout.pidOf.size(), trace->processes().size());
    ASSERT_EQ(layout.tracks.size(), trace->tracks().size());
    // A GPU's pid is its device ordinal, a host's its OS pid.
    for (std::size_t p = 0; p < trace->processes().size(); ++p) {
        const auto& process = trace->processes()[p];
        EXPECT_EQ(layout.pidOf[p], process.deviceId >= 0 ? process.deviceId : process.pid);
    }
    std::size_t s7 = 0, s0 = 0, api = 0, nvtx = 0;
    ASSERT_TRUE(trackOf(*trace, model::TrackKind::GpuStream, 7, &s7));
    ASSERT_TRUE(trackOf(*trace, model::TrackKind::GpuStream, 0, &s0));
    ASSERT_TRUE(trackOf(*trace, model::TrackKind::HostApi, 0, &api));
    ASSERT_TRUE(trackOf(*trace, model::TrackKind::Nvtx, 0, &nvtx));
    // A stream's tid is its id; stream 0 never gets tid 0 (Perfetto folds it into the process).
    EXPECT_EQ(layout.tracks[s7].tids.front(), 7);
    EXPECT_NE(layout.tracks[s0].tids.front(), 0);
    // A thread's CUDA calls and NVTX ranges share its row, as in Kineto.
    EXPECT_EQ(layout.tracks[api].tids.front(), 4243);
    EXPECT_EQ(layout.tracks[nvtx].tids.front(), 4243);
    // The kernel that overlaps without nesting is on a tid of its own.
    const TrackLayout& t7 = layout.tracks[s7];
    EXPECT_EQ(t7.tids.size(), 2u);
    EXPECT_NE(t7.tids[1], t7.tids[0]);
    EXPECT_EQ(t7.groupOfLane.back(), 1u);
    std::set<std::int64_t> gpu0Tids;
    for (std::size_t i = 0; i < layout.tracks.size(); ++i) {
        if (layout.tracks[i].pid != layout.tracks[s7].pid || !written(trace->tracks()[i]))
            continue;
        for (auto tid : layout.tracks[i].tids)
            EXPECT_TRUE(gpu0Tids.insert(tid).second) << "tid " << tid << " twice on GPU 0";
    }
}

TEST(HeaderWriter, EverythingBeforeTheEventsAsKinetoWritesIt) {
    const auto trace = io::testing::richTrace();
    const Layout layout = computeLayout(*trace);
    std::string header;
    HeaderWriter(*trace, layout, false, 0).write(header);
    ASSERT_TRUE(header.ends_with(",\n"));
    // Readers find a rank with the pattern "rank":\s+(\d+) (HTA): Kineto's spacing.
    EXPECT_NE(header.find("\"distributedInfo\":{\"rank\": 0, \"world_size\": 1"), std::string::npos)
        << header;
    const std::string json = header + "\"traceEvents\":[]}";
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
    EXPECT_EQ(root["schemaVersion"].get_int64().value(), 1);
    EXPECT_EQ(root["baseTimeNanoseconds"].get_int64().value(), trace->originNs());
    simdjson::dom::array devices;
    ASSERT_EQ(root["deviceProperties"].get(devices), simdjson::SUCCESS);
    EXPECT_EQ(devices.size(), trace->devices().size());
    EXPECT_EQ(root["warplineMetadata"]["workload"].get_string().value(), "reduce");
    // Our rows, for an exact round trip: every process, and every written track with its tids.
    simdjson::dom::element block = root["warpline"];
    EXPECT_EQ(block["processes"].get_array().size(), trace->processes().size());
    EXPECT_EQ(block["diagnostics"]["droppedRecords"].get_int64().value(), 3);
}

}  // namespace
}  // namespace wl::io::writer
