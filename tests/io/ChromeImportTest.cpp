#include <gtest/gtest.h>

#include "ImportTestHelpers.h"
#include "io/ChromeTraceReader.h"

namespace wl::io {
namespace {

using testing::findSlice;
using testing::loadOk;

model::TracePtr parse(std::string_view json) {
    auto result = ChromeTraceReader().read(json, "inline.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

TEST(ChromeImport, AllPhasesOfAHandWrittenTrace) {
    const auto trace = loadOk("chrome_phases.json");
    ASSERT_TRUE(trace);
    constexpr model::TimeNs kOrigin = 100'000;  // the earliest event: 100 µs
    EXPECT_EQ(trace->metadataValue("producer"), "Chrome trace JSON");

    // B/E become one slice; X inside it nests one lane down.
    const auto outer = findSlice(*trace, "outer");
    ASSERT_TRUE(outer.valid());
    EXPECT_EQ(trace->slice(outer).startNs, 100'500 - kOrigin);  // from the string "100.5"
    EXPECT_EQ(trace->slice(outer).durationNs, 200'125 - 100'500);
    const auto inner = findSlice(*trace, "inner");
    EXPECT_EQ(inner.track, outer.track);
    EXPECT_EQ(trace->slice(inner).depth, trace->slice(outer).depth + 1);
    EXPECT_EQ(trace->str(trace->track(outer.track).nameId), "Main");
    ASSERT_FALSE(trace->processes().empty());
    EXPECT_EQ(trace->str(trace->processes()[0].nameId), "Renderer");

    // Overlapping X on one thread: spilled to an extra lane, with a diagnostic.
    const auto a = findSlice(*trace, "overlapA");
    const auto b = findSlice(*trace, "overlapB");
    ASSERT_TRUE(a.valid() && b.valid());
    EXPECT_EQ(a.track, b.track);
    EXPECT_TRUE(trace->slice(b).flags & model::kSliceSpilled);
    EXPECT_EQ(trace->diagnostics().spilledOverlaps, 1u);

    // Instants (i and I).
    EXPECT_EQ(trace->slice(findSlice(*trace, "mark")).kind, model::SliceKind::Instant);
    EXPECT_EQ(trace->slice(findSlice(*trace, "Mark2")).durationNs, 0);

    // Counters: one track per args key.
    ASSERT_EQ(trace->counters().size(), 2u);
    for (const auto& c : trace->counters()) {
        EXPECT_EQ(trace->str(c.nameId), "mem");
        ASSERT_EQ(c.samples.size(), 2u);
        if (trace->str(c.seriesId) == "stack") {
            EXPECT_EQ(c.samples[0].value, 2.5);
            EXPECT_EQ(c.samples[1].timestampNs, 300'000 - kOrigin);
        }
    }

    // Async b/e across threads, with an n instant inside.
    const auto req = findSlice(*trace, "req");
    ASSERT_TRUE(req.valid());
    EXPECT_EQ(trace->track(req.track).kind, model::TrackKind::NvtxAsync);
    EXPECT_EQ(trace->slice(req).durationNs, 400'000 - 105'000);
    EXPECT_EQ(trace->slice(findSlice(*trace, "step")).kind, model::SliceKind::Instant);

    // s -> t -> f, written out of order: two arrows.
    EXPECT_EQ(trace->counts().flows, 2u);
    const auto late = findSlice(*trace, "late");
    const auto* toLate = trace->flowTo(late);
    ASSERT_NE(toLate, nullptr);
    EXPECT_EQ(toLate->from.track, a.track);  // the t step: a slice on tid 12 around 125 µs
    const auto* fromInner = trace->flowFrom(inner);
    ASSERT_NE(fromInner, nullptr);
    EXPECT_EQ(fromInner->to, toLate->from);

    // Unknown phase P: skipped and counted.
    EXPECT_EQ(trace->diagnostics().unknownPhases, 1u);

    // Exact microsecond text: 1234567.891 µs is exactly 1234567891 ns, and Kineto-sized absolute
    // values keep every digit (a double would lose the last one).
    EXPECT_EQ(trace->slice(findSlice(*trace, "exact")).startNs, 1'234'567'891 - kOrigin);
    EXPECT_EQ(trace->slice(findSlice(*trace, "exact")).durationNs, 1);
    EXPECT_EQ(trace->slice(findSlice(*trace, "big")).startNs, 4'380'746'527'791'193 - kOrigin);
    EXPECT_EQ(trace->slice(findSlice(*trace, "big")).durationNs, 1'910'929);
    EXPECT_EQ(trace->slice(findSlice(*trace, "sci")).startNs, 1'500'000 - kOrigin);
    EXPECT_EQ(trace->slice(findSlice(*trace, "sci")).durationNs, 2);
}

TEST(ChromeImport, ArrayFormWithIntegerTimestampsAndUnsortedEvents) {
    const auto trace = parse(R"([
        {"ph":"X","name":"b","pid":1,"tid":2,"ts":30,"dur":5},
        {"ph":"X","name":"a","pid":1,"tid":2,"ts":10,"dur":5}
    ])");
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->counts().slices, 2u);
    const auto& track = trace->tracks()[0];
    EXPECT_EQ(trace->str(track.slices[0].nameId), "a");
    EXPECT_EQ(track.slices[1].startNs, 20'000);
}

// A file with no events at all has nothing to show: an error, not an empty window (this test
// once expected an empty trace; the import rules now refuse it as Perfetto-style tolerance does
// not extend to files without events).
TEST(ChromeImport, EmptyEventListIsAnError) {
    for (std::string_view json : {R"({"traceEvents":[]})", "[]", "[{}]"}) {
        const auto result = ChromeTraceReader().read(json, "inline.json");
        ASSERT_FALSE(result.ok()) << json;
        EXPECT_NE(result.error().message.find("no events"), std::string::npos)
            << result.error().describe();
        EXPECT_GE(result.error().byteOffset, 0);
    }
}

TEST(ChromeImport, EscapedStringsAndUnicodeNames) {
    const auto trace =
        parse(R"([{"ph":"X","name":"k\"\\\u00e9\n\ud83d\ude00","pid":1,"tid":1,"ts":1,"dur":1}])");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->str(trace->tracks()[0].slices[0].nameId), "k\"\\\xc3\xa9\n\xf0\x9f\x98\x80");
}

TEST(ChromeImport, UnmatchedAsyncEndIsADiagnosticNotAnError) {
    const auto trace = parse(R"([{"ph":"e","cat":"c","id":1,"name":"x","pid":1,"tid":1,"ts":1},
                                  {"ph":"b","cat":"c","id":2,"name":"y","pid":1,"tid":1,"ts":1}])");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 2u);
}

TEST(ChromeImport, NegativeDurationIsClampedAndCounted) {
    const auto trace = parse(R"([{"ph":"X","name":"x","pid":1,"tid":1,"ts":5,"dur":-2}])");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->tracks()[0].slices[0].durationNs, 0);
    EXPECT_EQ(trace->diagnostics().invalidTimestamps, 1u);
}

TEST(ChromeImport, ByteOrderMarkIsSkippedAndOffsetsStayFileRelative) {
    const auto ok = ChromeTraceReader().read(
        "\xEF\xBB\xBF[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1}]", "bom.json");
    ASSERT_TRUE(ok.ok());
    const auto bad = ChromeTraceReader().read("\xEF\xBB\xBF[1]", "bom.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().byteOffset, 4);
}

TEST(ChromeImport, PaddedInputIsParsedInPlace) {
    std::string json = R"([{"ph":"X","name":"x","pid":1,"tid":1,"ts":1,"dur":1}])";
    const std::size_t size = json.size();
    json.reserve(size + ChromeTraceReader::kPadding);
    const auto trace =
        ChromeTraceReader().read(std::string_view(json.data(), size), "p", json.capacity());
    ASSERT_TRUE(trace.ok());
    EXPECT_EQ(trace.value()->counts().slices, 1u);
}

// String and extreme numeric pids/tids (UBSan once caught the track hash overflowing on these).
TEST(ChromeImport, StringAndExtremeProcessAndThreadIds) {
    const auto trace = parse(R"([
        {"ph":"X","name":"a","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":1},
        {"ph":"X","name":"b","pid":9223372036854775807,"tid":-9223372036854775808,"ts":2,"dur":1},
        {"ph":"X","name":"c","pid":666666666666200,"tid":1099514926310883339,"ts":3,"dur":1},
        {"ph":"X","name":"d","pid":"Spans","tid":"PyTorch Profiler","ts":4,"dur":1}
    ])");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 4u);
    const auto a = findSlice(*trace, "a");
    const auto d = findSlice(*trace, "d");
    EXPECT_EQ(a.track, d.track);  // the same string ids give the same row
    EXPECT_EQ(trace->str(trace->processes()[trace->track(a.track).process].nameId), "Spans");
}

}  // namespace
}  // namespace wl::io
