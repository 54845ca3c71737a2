// Import that behaves like Perfetto's: an anomaly in one event costs that event (counted), the
// rest of the file loads; PyTorch profiler files of every vintage; flows v1 (steps, binding
// points, reused ids) and v2 (bind_id). Shapes taken from real files of other projects (named in
// comments; the files themselves are not part of this repository).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "ImportTestHelpers.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"

namespace wl::io {
namespace {

using testing::findSlice;
using testing::tracksOfKind;

model::TracePtr parse(std::string_view json) {
    auto result = ChromeTraceReader().read(json, "inline.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

bool anyContains(const std::vector<std::string>& messages, std::string_view text) {
    return std::any_of(messages.begin(), messages.end(),
                       [&](const std::string& m) { return m.find(text) != std::string::npos; });
}

// The arrows that end at `to`.
std::vector<const model::Flow*> flowsInto(const model::Trace& t, model::SliceRef to) {
    std::vector<const model::Flow*> out;
    for (const auto& f : t.flows()) {
        if (f.to == to)
            out.push_back(&f);
    }
    return out;
}

// --- One event's anomaly is that event's ---------------------------------------------------

// catapult main_thread_has_unclosed_slices.json: the recording stopped inside slices.
TEST(TolerantImport, UnclosedBeginEndsWithItsThreadsLastEventAndSaysSo) {
    const auto trace = parse(R"js([
        {"ph":"B","name":"outer","pid":1,"tid":1,"ts":1},
        {"ph":"B","name":"inner","pid":1,"tid":1,"ts":2},
        {"ph":"E","pid":1,"tid":1,"ts":3},
        {"ph":"X","name":"last","pid":1,"tid":1,"ts":10,"dur":5},
        {"ph":"X","name":"other thread","pid":1,"tid":2,"ts":100,"dur":5}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 4u);
    const auto outer = findSlice(*trace, "outer (unclosed)");
    ASSERT_TRUE(outer.valid());
    EXPECT_EQ(trace->slice(outer).startNs, 0);
    EXPECT_EQ(trace->slice(outer).durationNs, 14'000);  // to 15 µs, not to tid 2's 105 µs
    EXPECT_EQ(trace->slice(findSlice(*trace, "inner")).durationNs, 1'000);
    const auto& d = trace->diagnostics();
    EXPECT_EQ(d.unmatchedEnds, 1u);
    EXPECT_EQ(d.warningCount, 0u);
    EXPECT_TRUE(anyContains(d.notes, "never ended"));
}

TEST(TolerantImport, StrayEndIsCountedAndTheRestLoads) {
    const auto trace = parse(R"js([
        {"ph":"E","pid":1,"tid":1,"ts":0.5},
        {"ph":"B","name":"a","pid":1,"tid":1,"ts":1},
        {"ph":"E","pid":1,"tid":1,"ts":2},
        {"ph":"E","pid":1,"tid":1,"ts":3}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 1u);
    EXPECT_EQ(trace->slice(findSlice(*trace, "a")).durationNs, 1'000);
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 2u);
    EXPECT_EQ(trace->diagnostics().warningCount, 0u);
    EXPECT_TRUE(anyContains(trace->diagnostics().notes, "without a matching \"B\""));
}

// Begins and ends pair in time order, as Perfetto sorts events before it pairs them.
TEST(TolerantImport, BeginsAndEndsPairInTimeOrderNotFileOrder) {
    const auto trace = parse(R"js([
        {"ph":"E","pid":1,"tid":1,"ts":9},
        {"ph":"E","pid":1,"tid":1,"ts":5},
        {"ph":"B","name":"inner","pid":1,"tid":1,"ts":2},
        {"ph":"B","name":"outer","pid":1,"tid":1,"ts":1},
        {"ph":"B","name":"zero","pid":1,"tid":1,"ts":7},
        {"ph":"E","pid":1,"tid":1,"ts":7}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->slice(findSlice(*trace, "outer")).durationNs, 8'000);
    EXPECT_EQ(trace->slice(findSlice(*trace, "inner")).durationNs, 3'000);
    EXPECT_EQ(trace->slice(findSlice(*trace, "zero")).durationNs, 0);
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 0u);
}

// Chrome's trace writer ends its array with "{}" (Perfetto's test_trailing_empty_event).
TEST(TolerantImport, TrailingEmptyEventIsANoteNotAWarning) {
    const auto trace = parse(R"js({"traceEvents":[
        {"ph":"X","ts":1,"dur":2,"pid":1,"tid":1,"name":"real_event"},
        {}
    ]})js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 1u);
    EXPECT_EQ(trace->diagnostics().skippedEvents, 0u);
    EXPECT_EQ(trace->diagnostics().warningCount, 0u);
    EXPECT_TRUE(anyContains(trace->diagnostics().notes, "empty {}"));
}

TEST(TolerantImport, EventsWithAFieldOfTheWrongTypeAreLeftOutAndCounted) {
    const std::string json = R"js([
        {"ph":"X","name":"good","pid":1,"tid":1,"ts":1,"dur":2},
        {"ph":"X","name":"k","pid":1,"tid":1,"ts":{"us":1},"dur":2},
        {"ph":"X","name":42,"pid":1,"tid":1,"ts":1,"dur":2},
        {"ph":1,"name":"k","pid":1,"tid":1,"ts":1,"dur":2},
        {"ph":"X","name":"k","pid":[1],"tid":1,"ts":1,"dur":2},
        {"ph":"X","name":"k","pid":1,"tid":1,"ts":"NaN","dur":2},
        {"ph":"X","name":"k","pid":1,"tid":1,"ts":1e300,"dur":2},
        {"ph":"X","name":"k","pid":1,"tid":1,"dur":2},
        {"name":"k","pid":1,"tid":1,"ts":1,"dur":2},
        {"ph":"b","name":"a","cat":"c","pid":1,"tid":1,"ts":1},
        {"ph":"s","name":"a","cat":"c","pid":1,"tid":1,"ts":1},
        17,
        {"ph":"X","name":"also good","pid":1,"tid":1,"ts":5,"dur":1}
    ])js";
    const auto trace = parse(json);
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 2u);
    const auto& d = trace->diagnostics();
    EXPECT_EQ(d.skippedEvents, 11u);
    ASSERT_EQ(d.warningCount, 1u);
    // The warning says how many and where the first one is.
    const auto firstBad = json.find("{\"us\"");
    EXPECT_NE(d.warnings[0].find("11 event(s)"), std::string::npos) << d.warnings[0];
    EXPECT_NE(d.warnings[0].find("at byte " + std::to_string(firstBad)), std::string::npos)
        << d.warnings[0];
    EXPECT_NE(d.warnings[0].find("ts must be"), std::string::npos) << d.warnings[0];
}

// Tolerance is per event, never per JSON error: a file that is not JSON is refused even when
// the bad text sits in an event that would have been left out anyway.
TEST(TolerantImport, MalformedJsonInsideALeftOutEventStillFailsTheFile) {
    for (std::string_view json : {
             R"js([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":{"us":tru},"dur":1}])js",
             R"js([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":NaN,"dur":1}])js",
             R"js([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":01,"dur":1}])js",
             R"js([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
                 {"ph":"X","name":"b","pid":[1 2],"tid":1,"ts":1,"dur":1}])js",
         }) {
        const auto result = ChromeTraceReader().read(json, "inline.json");
        EXPECT_FALSE(result.ok()) << json;
    }
}

TEST(TolerantImport, AFileWhoseEveryEventIsUnreadableIsAnErrorAtTheFirstProblem) {
    const std::string json = R"js([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"abc","dur":1},
                                 {"ph":"X","name":"b","pid":1,"tid":1,"ts":{},"dur":1}])js";
    const auto result = ChromeTraceReader().read(json, "inline.json");
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("ts is not a number"), std::string::npos)
        << result.error().describe();
    EXPECT_EQ(result.error().byteOffset, static_cast<std::int64_t>(json.find("\"abc\"")));
}

TEST(TolerantImport, UnknownPhasesAndUnendedAsyncEventsAreNotes) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
        {"ph":"P","name":"sample","pid":1,"tid":1,"ts":1},
        {"ph":"b","cat":"c","id":2,"name":"never","pid":1,"tid":1,"ts":1}
    ])js");
    ASSERT_TRUE(trace);
    const auto& d = trace->diagnostics();
    EXPECT_EQ(d.unknownPhases, 1u);
    EXPECT_EQ(d.unmatchedEnds, 1u);
    EXPECT_EQ(d.warningCount, 0u);
    EXPECT_TRUE(anyContains(d.notes, "unsupported phases"));
    EXPECT_TRUE(anyContains(d.notes, "never ended"));
}

TEST(TolerantImport, ArgsOfTheWrongTypeAreLeftOutNotTheEvent) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"k","pid":1,"tid":1,"ts":1,"dur":2,"args":"x"},
        {"ph":"X","name":"kernel","cat":"kernel","pid":0,"tid":7,"ts":1,"dur":2,
         "args":{"device":0,"stream":7,"grid":[1,"x",1],"block":[32,1,1],"correlation":true}}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 2u);
    EXPECT_EQ(trace->counts().kernel, 1u);
    const auto kernel = findSlice(*trace, "kernel");
    ASSERT_NE(trace->kernel(trace->slice(kernel)), nullptr);
    EXPECT_EQ(trace->kernel(trace->slice(kernel))->grid, (std::array<std::int32_t, 3>{1, 1, 1}));
    EXPECT_EQ(trace->kernel(trace->slice(kernel))->block[0], 32);
    const auto& d = trace->diagnostics();
    EXPECT_EQ(d.skippedEvents, 0u);
    EXPECT_EQ(d.warningCount, 0u);
    EXPECT_TRUE(anyContains(d.notes, "3 arg(s) of an unexpected type"));
}

// --- PyTorch profiler vintages ------------------------------------------------------------

// ROCm builds (HTA's mi250 trace) write "stream": "0x0"; other integers arrive as strings too.
TEST(TolerantImport, IntegerArgsGivenAsDecimalOrHexStringsAreRead) {
    const auto trace = parse(R"js({"traceEvents":[
        {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":10,"tid":10,"ts":1,"dur":5,
         "args":{"stream":"0x0","correlation":"12","cbid":"0x1f"}},
        {"ph":"X","cat":"kernel","name":"k","pid":2,"tid":0,"ts":10,"dur":5,
         "args":{"device":"2","stream":"0x1a","correlation":12,"grid":[1,1,1],"block":[64,1,1]}}
    ]})js");
    ASSERT_TRUE(trace);
    const auto kernel = findSlice(*trace, "k");
    ASSERT_TRUE(kernel.valid());
    EXPECT_EQ(trace->track(kernel.track).streamId, 26);
    EXPECT_EQ(trace->track(kernel.track).deviceId, 2);
    EXPECT_EQ(trace->slice(kernel).correlationId, 12u);
    const auto* arrow = trace->flowTo(kernel);
    ASSERT_NE(arrow, nullptr);
    EXPECT_EQ(arrow->from, findSlice(*trace, "hipLaunchKernel"));
    EXPECT_EQ(trace->api(trace->slice(arrow->from))->callbackId, 31u);
    EXPECT_EQ(trace->diagnostics().noteCount, 0u);
}

// HTA's triton_example: a cpu_op carries the launcher's "grid": "grid(100,)".
TEST(TolerantImport, GridAndBlockAsLauncherTextAreRead) {
    const auto trace = parse(R"js([
        {"ph":"X","cat":"cpu_op","name":"triton_poi","pid":10,"tid":10,"ts":1,"dur":5,
         "args":{"grid":"grid(100,)","stream":0}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":5,
         "args":{"device":0,"stream":7,"grid":"grid(4, 2)","block":[128,1,1]}}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 2u);
    const auto* k = trace->kernel(trace->slice(findSlice(*trace, "k")));
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->grid, (std::array<std::int32_t, 3>{4, 2, 1}));
    EXPECT_EQ(trace->diagnostics().noteCount, 0u);
}

// kineto tb_plugin resnet50 samples (PyTorch 1.8-1.9): categories Kernel/Memcpy/Memset/Runtime,
// GPU rows named by tid strings, launch arrows of cat "async" whose "s" gives the thread id as
// a number where the slices gave it as a string.
TEST(TolerantImport, PyTorch18ProfilerFilesLoadAsGpuWork) {
    const auto trace = parse(R"js([
        {"ph":"X","cat":"Operator","name":"aten::mm","pid":500,"tid":"4093687616","ts":1,"dur":20},
        {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":500,"tid":"4093687616","ts":2,
         "dur":3,"args":{"cbid":211,"correlation":60032}},
        {"ph":"s","id":60032,"pid":500,"tid":4093687616,"ts":2,"cat":"async","name":"launch"},
        {"ph":"X","cat":"Kernel","name":"gemm","pid":0,"tid":"stream 7","ts":10,"dur":4,
         "args":{"device":0,"context":1,"stream":7,"correlation":60032,"grid":[8,1,1],
                 "block":[256,1,1]}},
        {"ph":"f","id":60032,"pid":0,"tid":"stream 7","ts":10,"cat":"async","name":"launch",
         "bp":"e"},
        {"ph":"X","cat":"Memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,
         "tid":"stream 9","ts":20,"dur":4,"args":{"device":0,"correlation":60040,"bytes":1024}},
        {"ph":"X","cat":"Memset","name":"Memset (Device)","pid":0,"tid":"stream 7","ts":30,
         "dur":1,"args":{"device":0,"stream":7,"correlation":60041,"bytes":64}},
        {"name":"thread_name","ph":"M","ts":1,"pid":500,"tid":"4093687616",
         "args":{"name":"thread 1 (python)"}}
    ])js");
    ASSERT_TRUE(trace);
    const auto& c = trace->counts();
    EXPECT_EQ(c.kernel, 1u);
    EXPECT_EQ(c.memcpy, 1u);
    EXPECT_EQ(c.memset, 1u);
    EXPECT_EQ(c.api, 1u);
    std::vector<std::int64_t> streams;
    for (const auto* s : tracksOfKind(*trace, model::TrackKind::GpuStream))
        streams.push_back(s->streamId);
    std::sort(streams.begin(), streams.end());
    EXPECT_EQ(streams, (std::vector<std::int64_t>{7, 9}));  // 9 from the tid "stream 9"
    const auto copy = findSlice(*trace, "Memcpy HtoD (Pageable -> Device)");
    EXPECT_EQ(trace->memcpy(trace->slice(copy))->copyKind, model::CopyKind::HostToDevice);
    const auto gemm = findSlice(*trace, "gemm");
    const auto into = flowsInto(*trace, gemm);
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0]->from, findSlice(*trace, "cudaLaunchKernel"));
    EXPECT_EQ(trace->str(trace->track(findSlice(*trace, "aten::mm").track).nameId),
              "thread 1 (python)");
    EXPECT_EQ(trace->diagnostics().noteCount, 0u);
    EXPECT_EQ(trace->metadataValue("producer"), "PyTorch profiler (Kineto)");
}

// HTA's trace_diff control trace: launch arrows of cat "async_cpu_to_gpu". Read as plain flows
// they drew a second arrow into kernels whose launch call starts with a CPU op.
TEST(TolerantImport, LaunchArrowsOfEveryVintageAreDrawnOnce) {
    const auto trace = parse(R"js({"traceEvents":[
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":9,"tid":9,"ts":10,"dur":5,
         "args":{"cbid":211,"correlation":7}},
        {"ph":"X","cat":"cpu_op","name":"aten::add","pid":9,"tid":9,"ts":10,"dur":8},
        {"ph":"s","id":7,"pid":9,"tid":9,"ts":10,"cat":"async_cpu_to_gpu","name":"async_gpu",
         "bp":"e"},
        {"ph":"X","cat":"kernel","name":"add_kernel","pid":3,"tid":7,"ts":40,"dur":5,
         "args":{"device":3,"stream":7,"correlation":7}},
        {"ph":"f","id":7,"pid":3,"tid":7,"ts":40,"cat":"async_cpu_to_gpu","name":"async_gpu",
         "bp":"e"},
        {"ph":"X","cat":"Runtime","name":"cudaMemsetAsync","pid":9,"tid":9,"ts":20,"dur":2,
         "args":{"cbid":51,"correlation":8}},
        {"ph":"s","id":8,"pid":9,"tid":9,"ts":20,"cat":"async_gpu","name":"cudaMemsetAsync"},
        {"ph":"X","cat":"Memset","name":"Memset (Device)","pid":3,"tid":7,"ts":50,"dur":1,
         "args":{"device":3,"stream":7,"correlation":8,"bytes":4}},
        {"ph":"f","id":8,"pid":3,"tid":7,"ts":50,"cat":"async_gpu","name":"cudaMemsetAsync",
         "bp":"e"}
    ]})js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().flows, 2u);
    const auto kernel = findSlice(*trace, "add_kernel");
    const auto into = flowsInto(*trace, kernel);
    ASSERT_EQ(into.size(), 1u);
    EXPECT_EQ(into[0]->from, findSlice(*trace, "cudaLaunchKernel"));
    EXPECT_EQ(flowsInto(*trace, findSlice(*trace, "Memset (Device)")).size(), 1u);
}

// HTA's cupti_profiler trace has 1758 ac2g "f" for 104 "s": routine, so counted quietly.
TEST(TolerantImport, LaunchArrowEndsWithoutAStartAreNotesNotWarnings) {
    const auto trace = parse(R"js({"traceEvents":[
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":9,"tid":9,"ts":10,"dur":5,
         "args":{"cbid":211,"correlation":7}},
        {"ph":"f","id":7,"pid":9,"tid":9,"ts":10,"cat":"ac2g","name":"ac2g","bp":"e"},
        {"ph":"f","id":99,"pid":9,"tid":9,"ts":11,"cat":"ac2g","name":"ac2g","bp":"e"},
        {"ph":"s","id":5,"pid":9,"tid":9,"ts":100,"cat":"flow","name":"nowhere"}
    ]})js");
    ASSERT_TRUE(trace);
    const auto& d = trace->diagnostics();
    EXPECT_EQ(d.warningCount, 0u);
    EXPECT_TRUE(anyContains(d.notes, "2 launch flow event(s)"));
    EXPECT_TRUE(anyContains(d.notes, "1 flow event(s)"));  // its start lies in no slice
}

// Chrome DevTools traces key async events by "id2" (speedscope's Chrome 116 sample).
TEST(TolerantImport, AsyncEventsKeyedById2) {
    const auto trace = parse(R"js([
        {"ph":"b","cat":"c","name":"local","id2":{"local":"0x1"},"pid":1,"tid":1,"ts":1},
        {"ph":"b","cat":"c","name":"other process","id2":{"local":"0x1"},"pid":2,"tid":1,"ts":2},
        {"ph":"e","cat":"c","name":"local","id2":{"local":"0x1"},"pid":1,"tid":1,"ts":5},
        {"ph":"e","cat":"c","name":"other process","id2":{"local":"0x1"},"pid":2,"tid":1,"ts":9},
        {"ph":"b","cat":"c","name":"global","id2":{"global":7},"pid":1,"tid":1,"ts":3},
        {"ph":"e","cat":"c","name":"global","id2":{"global":7},"pid":2,"tid":1,"ts":6}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->slice(findSlice(*trace, "local")).durationNs, 4'000);
    EXPECT_EQ(trace->slice(findSlice(*trace, "other process")).durationNs, 7'000);
    const auto global = findSlice(*trace, "global");
    ASSERT_TRUE(global.valid());
    EXPECT_EQ(trace->slice(global).durationNs, 3'000);
    EXPECT_EQ(trace->processes()[trace->track(global.track).process].pid, 1);
    EXPECT_EQ(trace->diagnostics().unmatchedEnds, 0u);
}

// --- Flows --------------------------------------------------------------------------------

// Perfetto's flow_events_json_v1.json: its expected result is these 3 arrows.
TEST(TolerantImport, FlowV1StepsAndBindingPoints) {
    const auto trace = parse(R"js({"traceEvents":[
        {"cat":"ipc","pid":15902,"tid":15903,"ts":3002,"ph":"X","name":"SenderA","dur":10},
        {"cat":"ipc","pid":15902,"tid":15903,"ts":3002,"ph":"s","name":"IPC","id":"0x402"},
        {"cat":"ipc","pid":15903,"tid":15904,"ts":0,"ph":"X","name":"SenderB","dur":10},
        {"cat":"ipc","pid":15903,"tid":15904,"ts":1,"ph":"s","name":"IPC","id":"0x403"},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":1001,"ph":"f","name":"IPC","id":"0x403"},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":1002,"ph":"X","name":"Blergh","dur":100},
        {"cat":"ipc","pid":15774,"tid":15794,"ts":3200,"ph":"X","name":"OtherSlice","dur":500},
        {"cat":"ipc","pid":15774,"tid":15794,"ts":3220,"ph":"t","name":"IPC","id":"0x402"},
        {"cat":"ipc","pid":15874,"tid":15894,"ts":3330,"ph":"f","name":"IPC","id":"0x402"},
        {"cat":"ipc","pid":15874,"tid":15894,"ts":3331,"ph":"X","name":"SomeSlice","dur":400}
    ]})js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().flows, 3u);
    // "f" without "bp":"e" binds to the next slice of its thread; "t" to the enclosing one.
    const auto* toBlergh = trace->flowTo(findSlice(*trace, "Blergh"));
    ASSERT_NE(toBlergh, nullptr);
    EXPECT_EQ(toBlergh->from, findSlice(*trace, "SenderB"));
    const auto* toOther = trace->flowTo(findSlice(*trace, "OtherSlice"));
    ASSERT_NE(toOther, nullptr);
    EXPECT_EQ(toOther->from, findSlice(*trace, "SenderA"));
    const auto* toSome = trace->flowTo(findSlice(*trace, "SomeSlice"));
    ASSERT_NE(toSome, nullptr);
    EXPECT_EQ(toSome->from, findSlice(*trace, "OtherSlice"));
    EXPECT_EQ(trace->diagnostics().noteCount, 0u);
}

TEST(TolerantImport, FlowV1EndWithBindPointEnclosingBindsToTheEnclosingSlice) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"from","pid":1,"tid":1,"ts":0,"dur":10},
        {"ph":"s","id":1,"cat":"c","name":"x","pid":1,"tid":1,"ts":5},
        {"ph":"X","name":"around","pid":1,"tid":2,"ts":20,"dur":10},
        {"ph":"f","id":1,"cat":"c","name":"x","pid":1,"tid":2,"ts":25,"bp":"e"},
        {"ph":"X","name":"next","pid":1,"tid":2,"ts":40,"dur":10}
    ])js");
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->counts().flows, 1u);
    EXPECT_EQ(trace->flows()[0].to, findSlice(*trace, "around"));
}

// Perfetto's flow_events_json_v2.json: its expected result is these 4 arrows.
TEST(TolerantImport, FlowV2BindIds) {
    const auto trace = parse(R"js({"traceEvents":[
        {"cat":"ipc","pid":15902,"tid":15903,"ts":3002,"ph":"X","name":"SenderA","dur":10,
         "bind_id":"0x402","flow_out":true},
        {"cat":"ipc","pid":15903,"tid":15904,"ts":0,"ph":"X","name":"SenderB","dur":10,
         "bind_id":"0x403","flow_out":true,"flow_in":false},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":1001,"ph":"X","name":"Blergh","dur":100,
         "bind_id":"0x403","flow_in":true},
        {"cat":"ipc","pid":15774,"tid":15794,"ts":3200,"ph":"X","name":"OtherSlice","dur":500,
         "bind_id":"0x402","flow_in":true,"flow_out":true},
        {"cat":"ipc","pid":15874,"tid":15894,"ts":3331,"ph":"X","name":"SomeSlice","dur":400,
         "bind_id":"0x402","flow_in":true},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":3333,"ph":"B","name":"SomeOtherSlice",
         "bind_id":"0x402","flow_in":true},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":3366,"ph":"i","name":"Instant","s":"t"},
        {"cat":"ipc","pid":15875,"tid":15895,"ts":4330,"ph":"E","name":"SomeOtherSlice"}
    ]})js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().flows, 4u);
    const auto other = findSlice(*trace, "OtherSlice");
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "Blergh"))->from, findSlice(*trace, "SenderB"));
    EXPECT_EQ(trace->flowTo(other)->from, findSlice(*trace, "SenderA"));
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "SomeSlice"))->from, other);
    const auto* toB = trace->flowTo(findSlice(*trace, "SomeOtherSlice"));
    ASSERT_NE(toB, nullptr);
    EXPECT_EQ(toB->from, other);
}

// catapult's fuchsia_trace.json reuses flow ids: each "s" starts the next flow of that id.
TEST(TolerantImport, ReusedFlowIdsBindInTimeOrder) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"send1","pid":1,"tid":1,"ts":0,"dur":10},
        {"ph":"X","name":"recv1","pid":1,"tid":2,"ts":20,"dur":10},
        {"ph":"X","name":"send2","pid":1,"tid":1,"ts":100,"dur":10},
        {"ph":"X","name":"step2","pid":1,"tid":3,"ts":110,"dur":5},
        {"ph":"X","name":"recv2","pid":1,"tid":2,"ts":120,"dur":10},
        {"ph":"f","id":5,"cat":"c","name":"m","pid":1,"tid":2,"ts":125,"bp":"e"},
        {"ph":"s","id":5,"cat":"c","name":"m","pid":1,"tid":1,"ts":105},
        {"ph":"t","id":5,"cat":"c","name":"m","pid":1,"tid":3,"ts":112},
        {"ph":"s","id":5,"cat":"c","name":"m","pid":1,"tid":1,"ts":5},
        {"ph":"f","id":5,"cat":"c","name":"m","pid":1,"tid":2,"ts":25,"bp":"e"}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().flows, 3u);
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "recv1"))->from, findSlice(*trace, "send1"));
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "step2"))->from, findSlice(*trace, "send2"));
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "recv2"))->from, findSlice(*trace, "step2"));
}

// catapult's flow.json: one PostTask "s" and two "f" of its id; each end gets its arrow.
TEST(TolerantImport, SeveralEndsOfOneStart) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"post","pid":1,"tid":1,"ts":0,"dur":10},
        {"ph":"s","id":"0xaf","cat":"task","name":"PostTask","pid":1,"tid":1,"ts":5},
        {"ph":"f","id":"0xaf","cat":"task","name":"PostTask","pid":1,"tid":2,"ts":20},
        {"ph":"X","name":"run1","pid":1,"tid":2,"ts":21,"dur":5},
        {"ph":"f","id":"0xaf","cat":"task","name":"PostTask","pid":1,"tid":2,"ts":30},
        {"ph":"X","name":"run2","pid":1,"tid":2,"ts":31,"dur":5}
    ])js");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().flows, 2u);
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "run1"))->from, findSlice(*trace, "post"));
    EXPECT_EQ(trace->flowTo(findSlice(*trace, "run2"))->from, findSlice(*trace, "post"));
}

// The PyTorch 1.8 profiler wrote a thread's id as a string on slices and as a number on flow
// events; only a number's canonical spelling is that number ("007" stays a name).
TEST(TolerantImport, ThreadIdsGivenAsDecimalStringsAreThoseNumbers) {
    const auto trace = parse(R"js([
        {"ph":"X","name":"from","pid":1,"tid":"12","ts":0,"dur":10},
        {"ph":"s","id":1,"cat":"c","name":"x","pid":1,"tid":12,"ts":5},
        {"ph":"X","name":"to","pid":1,"tid":"007","ts":20,"dur":10},
        {"ph":"f","id":1,"cat":"c","name":"x","pid":1,"tid":"007","ts":25,"bp":"e"},
        {"ph":"X","name":"seven","pid":1,"tid":7,"ts":20,"dur":10}
    ])js");
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->counts().flows, 1u);
    EXPECT_EQ(trace->flows()[0].from, findSlice(*trace, "from"));
    EXPECT_EQ(trace->flows()[0].to, findSlice(*trace, "to"));
    EXPECT_EQ(trace->track(findSlice(*trace, "from").track).threadId, 12);
    EXPECT_NE(findSlice(*trace, "to").track, findSlice(*trace, "seven").track);
}

// Notes and left-out events travel with an export, as warnings do.
TEST(TolerantImport, NotesAndSkippedEventsSurviveExportAndImport) {
    const auto trace = parse(R"js([
        {"ph":"B","name":"open","pid":1,"tid":1,"ts":1},
        {"ph":"X","name":"a","pid":1,"tid":1,"ts":2,"dur":1},
        {"ph":"X","name":"bad","pid":1,"tid":1,"ts":"x","dur":1}
    ])js");
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->diagnostics().noteCount, 1u);
    const auto again = parse(ChromeTraceWriter(*trace).toString());
    ASSERT_TRUE(again);
    const auto& d = again->diagnostics();
    EXPECT_EQ(d.noteCount, 1u);
    EXPECT_EQ(d.notes, trace->diagnostics().notes);
    EXPECT_EQ(d.skippedEvents, 1u);
    EXPECT_EQ(d.warnings, trace->diagnostics().warnings);
    EXPECT_TRUE(findSlice(*again, "open (unclosed)").valid());
}

// Events that are all read but make nothing (unpaired "E"s, a "B" without a time) give an empty
// trace; its export, an empty event list in our own format, must read back (found by the fuzzer).
TEST(TolerantImport, AnEmptyTracesExportReadsBack) {
    const auto trace = parse(R"([{"ph":"B","name":"a","pid":0,"tid":1},
        {"ph":"E","pid":1,"tid":1,"ts":2},{"ph":"E","pid":1,"tid":1,"ts":3}])");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().slices, 0u);
    const std::string exported = ChromeTraceWriter(*trace).toString();
    const auto again = ChromeTraceReader().read(exported, "again.json");
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(ChromeTraceWriter(*again.value()).toString(), exported);
    // Someone else's file with nothing readable is still refused.
    EXPECT_FALSE(ChromeTraceReader().read(R"({"traceEvents":[]})", "x.json").ok());
}

}  // namespace
}  // namespace wl::io
