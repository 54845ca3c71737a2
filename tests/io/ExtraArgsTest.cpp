// Lossless import: an event's args that the model has no field for ("External id", "Input Dims",
// a producer's own keys) are kept with its slice as written and written back by export; the
// args the model does have come back from the model, never twice.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

#include "ImportTestHelpers.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "model/TraceBuilder.h"
#include "model/TraceMerge.h"

namespace wl::io {
namespace {

using testing::findSlice;

// Events out of time order (finalize() reorders slices: their args must follow them), a kernel
// with known and unknown args, a CPU op with nested, huge and escaped-key args, an open "B".
constexpr std::string_view kTrace = R"({"traceEvents":[
  {"ph":"X","cat":"cpu_op","name":"late","pid":1,"tid":1,"ts":50,"dur":5,
   "args":{"External id":  7, "Input Dims": [[64, 64], [ 64 ]],
           "Sequence number": 18446744073709551615, "k\"ey": {"a": [1, 2.50, null]}}},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":10,"dur":20,
   "args":{"device":0,"stream":7,"correlation":3,"grid":[1,2,3],"block":[32,1,1],
           "queued": 0, "context": 1, "blocks per SM": 0.25}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":8,"dur":1,
   "args":{"correlation":3,"cbid":211,"External id":9}},
  {"ph":"B","name":"open","pid":1,"tid":2,"ts":1,"args":{"note":"kept \u00e9"}},
  {"ph":"E","pid":1,"tid":2,"ts":70},
  {"ph":"X","cat":"cpu_op","name":"plain","pid":1,"tid":3,"ts":2,"dur":1}
]})";

model::TracePtr read(std::string_view json) {
    auto result = ChromeTraceReader().read(json, "args.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

std::string extra(const model::Trace& t, std::string_view slice) {
    const model::SliceRef ref = findSlice(t, slice);
    EXPECT_TRUE(ref.valid()) << slice;
    return ref.valid() ? std::string(t.extraArgs(t.slice(ref))) : std::string();
}

TEST(ExtraArgs, KeptAsWrittenWithTheirSlices) {
    const auto trace = read(kTrace);
    ASSERT_TRUE(trace);
    // Values byte for byte (a uint64 above 2^63, 2.50 not 2.5); white space inside objects and
    // arrays dropped; the escaped key as written.
    EXPECT_EQ(extra(*trace, "late"),
              R"("External id":7,"Input Dims":[[64,64],[64]],)"
              R"("Sequence number":18446744073709551615,"k\"ey":{"a":[1,2.50,null]})");
    // Known args stay in the model, the rest is kept.
    EXPECT_EQ(extra(*trace, "gemm"), R"("queued":0,"context":1,"blocks per SM":0.25)");
    EXPECT_EQ(extra(*trace, "cudaLaunchKernel"), R"("External id":9)");
    EXPECT_EQ(extra(*trace, "open"), R"("note":"kept \u00e9")");
    EXPECT_EQ(extra(*trace, "plain"), "");
}

TEST(ExtraArgs, ExportWritesThemBackOnceAndTheyReadBackTheSame) {
    const auto trace = read(kTrace);
    ASSERT_TRUE(trace);
    const std::string exported = ChromeTraceWriter(*trace).toString();
    EXPECT_NE(exported.find(R"("Sequence number":18446744073709551615)"), std::string::npos);
    EXPECT_NE(exported.find(R"("context":1)"), std::string::npos);
    // No key twice in one args object: "correlation" comes from the model only.
    EXPECT_EQ(exported.find(R"("correlation":3,"cbid":211,"correlation")"), std::string::npos);
    const auto again = read(exported);
    ASSERT_TRUE(again);
    for (std::string_view name : {"late", "gemm", "cudaLaunchKernel", "open", "plain"}) {
        EXPECT_EQ(extra(*again, name), extra(*trace, name)) << name;
    }
    EXPECT_EQ(ChromeTraceWriter(*again).toString(), exported);
}

// Args the reader reads but the model keeps no field for on this kind of slice, and slices made
// away from the usual path (async "b"/"e" pairs, "n" instants): all kept (found by converting
// the external traces and comparing their args).
TEST(ExtraArgs, KeptOnEveryKindOfSlice) {
    const auto trace = read(R"js([
      {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,
       "args":{"correlation":5,"grid":[3,1,1],"block":[256,1,1]}},
      {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":4,"dur":0,
       "args":{"device":0,"stream":7,"correlation":6,"bytes":8,"memory bandwidth (GB/s)":0.5}},
      {"ph":"b","cat":"gfx","id":3,"name":"frame","pid":2,"tid":2,"ts":1,"args":{"frame#":9621}},
      {"ph":"e","cat":"gfx","id":3,"pid":2,"tid":2,"ts":9},
      {"ph":"n","cat":"gfx","id":3,"name":"mark","pid":2,"tid":2,"ts":5,"args":{"name":"x"}}])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(extra(*trace, "hipLaunchKernel"), R"("grid":[3,1,1],"block":[256,1,1])");
    // A copy of no duration gets no computed bandwidth: the producer's value is kept.
    EXPECT_EQ(extra(*trace, "Memcpy HtoD"), R"js("memory bandwidth (GB/s)":0.5)js");
    EXPECT_EQ(extra(*trace, "frame"), R"("frame#":9621)");
    EXPECT_EQ(extra(*trace, "mark"), R"("name":"x")");
}

TEST(ExtraArgs, ATraceWithoutThemPaysNothingForThem) {
    const auto with = read(kTrace);
    const auto without = read(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
        {"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1,"args":{"correlation":4}}])");
    ASSERT_TRUE(with && without);
    for (const auto& track : without->tracks()) {
        for (const auto& s : track.slices) {
            EXPECT_TRUE(without->extraArgs(s).empty());
            // An arg the model has a field for is still kept as written, for an export that
            // writes the event back as its producer did.
            if (without->str(s.nameId) == "b")
                EXPECT_EQ(without->producerArgs(s), R"("correlation":4)");
            else
                EXPECT_EQ(s.argsIndex, model::kNoDetail);
        }
    }
    EXPECT_EQ(sizeof(model::Slice), 40u);
}

TEST(ExtraArgs, AMergeKeepsThem) {
    const auto first = read(kTrace);
    const auto second = read(kTrace);
    ASSERT_TRUE(first && second);
    auto merged = model::mergeTraces({{first, "a.json"}, {second, "b.json"}});
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    int kept = 0;
    for (const auto& track : merged.value()->tracks()) {
        for (const auto& s : track.slices) {
            if (merged.value()->str(s.nameId) == "late") {
                EXPECT_EQ(merged.value()->extraArgs(s), extra(*first, "late"));
                ++kept;
            }
        }
    }
    EXPECT_EQ(kept, 2);
}

}  // namespace
}  // namespace wl::io
