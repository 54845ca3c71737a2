// The args table (io/ArgKeys.h) that the reader, the writer and the import's "export writes it
// again" check all follow: every key is found, read into its field, written for the kinds that
// carry it, and comes back the same; no key is written twice.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ImportTestHelpers.h"
#include "io/ArgKeys.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "io/chrome/Importer.h"
#include "model/TraceBuilder.h"
#include "model/TraceMerge.h"

namespace wl::io {
namespace {

using format::ArgField;
using format::ArgType;
using format::kArgKeys;
using model::SliceKind;
using testing::findSlice;

constexpr SliceKind kKinds[] = {SliceKind::Kernel,    SliceKind::Memcpy, SliceKind::Memset,
                                SliceKind::Memory,    SliceKind::Sync,   SliceKind::RuntimeApi,
                                SliceKind::DriverApi, SliceKind::Nvtx,   SliceKind::Overhead,
                                SliceKind::Instant,   SliceKind::Other,  SliceKind::UnifiedMemory,
                                SliceKind::CpuOp};
static_assert(std::size(kKinds) == model::kSliceKindCount, "a kind the checks below miss");

bool inLayout(SliceKind kind, ArgField f) {
    for (ArgField g : format::writtenArgs(kind)) {
        if (g == f)
            return true;
    }
    return false;
}

TEST(ArgKeys, EveryKeyHasOneRowThatTheLookupFinds) {
    std::set<std::string_view> keys;
    for (const auto& row : kArgKeys) {
        EXPECT_TRUE(keys.insert(row.key).second) << row.key << " twice";
        EXPECT_EQ(format::findArgKey(row.key), &row) << row.key;
    }
    EXPECT_EQ(format::findArgKey("External id"), nullptr);
    EXPECT_EQ(format::findArgKey(""), nullptr);
    EXPECT_EQ(format::findArgKey("Correlation"), nullptr);  // keys are case sensitive
}

TEST(ArgKeys, TheWriterWritesAKeyForExactlyTheKindsWhoseLayoutHasIt) {
    for (SliceKind kind : kKinds) {
        std::set<ArgField> seen;
        for (ArgField f : format::writtenArgs(kind)) {
            EXPECT_TRUE(seen.insert(f).second) << "a layout writes a key twice";
        }
        for (const auto& row : kArgKeys)
            EXPECT_EQ(format::writerWritesArg(kind, row.key), inLayout(kind, row.field)) << row.key;
        EXPECT_FALSE(format::writerWritesArg(kind, "External id"));
    }
    // Kineto's three on every piece of GPU work, and the read-only keys on none.
    for (SliceKind kind : {SliceKind::Kernel, SliceKind::Memcpy, SliceKind::Memset}) {
        EXPECT_TRUE(format::writerWritesArg(kind, "device"));
        EXPECT_TRUE(format::writerWritesArg(kind, "stream"));
        EXPECT_TRUE(format::writerWritesArg(kind, "correlation"));
    }
    for (SliceKind kind : kKinds) {
        for (std::string_view key : {"name", "sort_index", "Device Id", "Total Allocated"})
            EXPECT_FALSE(format::writerWritesArg(kind, key)) << key;
    }
}

// The reader's half: a value of the row's type lands in a field of EventArgs, with the row's bit.
TEST(ArgKeys, TheReaderStoresEveryReadableRowInItsField) {
    for (const auto& row : kArgKeys) {
        chrome::EventArgs a;
        switch (row.type) {
            case ArgType::Int:
                a.set(row.field, std::int64_t{5});
                break;
            case ArgType::UInt:
            case ArgType::Hex:
            case ArgType::Color:
                a.set(row.field, std::uint64_t{5});
                break;
            case ArgType::Float:
                a.set(row.field, 5.0f);
                break;
            case ArgType::Double:
                a.set(row.field, 5.0);
                break;
            case ArgType::Text:
                a.set(row.field, std::string_view("five"));
                break;
            case ArgType::IntTriple:
                a.triple(row.field)[0] = 5;
                a.has |= format::argBit(row.field);
                break;
            case ArgType::Computed:
                continue;  // never read
        }
        EXPECT_EQ(a.has, format::argBit(row.field)) << row.key;
    }
    chrome::EventArgs a;
    a.set(ArgField::Grid, std::int64_t{5});  // not a signed field: nothing stored
    EXPECT_EQ(a.has, 0u);
    EXPECT_NE(&a.triple(ArgField::Grid), &a.triple(ArgField::Block));
}

// One slice of each kind with every field the writer writes set to a value that is not its
// default ("none"), so that every key of every layout is written.
model::TracePtr everyKeyTrace() {
    model::TraceBuilder b;
    const auto host = b.hostProcess(10, "host");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, 11);
    const auto nvtx = b.nvtxTrack(host, 11, "dom");
    const auto stream = b.gpuStreamTrack(gpu, 7);
    const auto sync = b.syncTrack(gpu);
    const auto memory = b.memoryTrack(gpu);
    const auto other = b.hostTrack(host, 12);

    model::KernelDetail k;
    k.grid = {3, 4, 5};
    k.block = {32, 2, 1};
    k.registersPerThread = 40;
    k.staticSharedBytes = 1024;
    k.dynamicSharedBytes = 4096;
    k.warpsPerSm = 12.5f;
    k.estimatedOccupancyPct = 33.333332f;
    k.graph = {9, 99};
    b.addKernel(stream, 1000, 2000, "k-kernel", 21, k);
    model::MemcpyDetail m;
    m.bytes = 1 << 20;
    m.copyKind = model::CopyKind::PeerToPeer;
    m.srcKind = model::MemoryKind::Device;
    m.dstKind = model::MemoryKind::Pinned;
    m.srcDevice = 1;
    m.dstDevice = 2;
    m.graph = {9, 100};
    b.addMemcpy(stream, 3000, 4000, "k-memcpy", 22, m);
    model::MemsetDetail ms;
    ms.bytes = 4096;
    ms.value = 0xab;
    ms.memoryKind = model::MemoryKind::Managed;
    ms.graph = {9, 101};
    b.addMemset(stream, 5000, 6000, "k-memset", 23, ms);
    model::MemoryDetail mem;
    mem.op = model::MemoryOp::Allocation;
    mem.memoryKind = model::MemoryKind::Device;
    mem.address = 0x7f0000001000;
    mem.bytes = 8192;
    mem.streamId = 7;
    mem.fromPool = true;
    mem.poolAddress = 0x7f0000000000;
    mem.poolReservedBytes = 2 << 20;
    b.addMemory(memory, 1500, "k-memory", 24, mem);
    model::SyncDetail y;
    y.syncKind = model::SyncKind::StreamWaitEvent;
    y.streamId = 7;
    y.eventId = 77;
    y.recordStreamId = 3;
    y.recordCorrelationId = 21;
    b.addSync(sync, 2500, 2600, "k-sync", 25, y);
    model::ApiDetail a;
    a.callbackId = 211;
    a.returnCode = 2;
    b.addApi(api, 500, 900, "k-runtime", 21, a);
    model::ApiDetail d;
    d.apiKind = model::ApiKind::Driver;
    d.callbackId = 7;
    d.returnCode = 4;
    b.addApi(api, 950, 990, "k-driver", 26, d);
    model::NvtxDetail n;
    n.colorArgb = 0xff112233u;
    n.domainId = b.intern("dom");
    n.category = 3;
    n.categoryNameId = b.intern("cat three");
    n.hasPayload = true;
    n.payload = 2.5;
    // (an annotation with a correlation id: a GPU range's, say)
    b.addSliceId(nvtx, 400, 7000, b.intern("k-nvtx"), SliceKind::Nvtx, 30, b.addNvtxDetail(n));
    b.addSlice(other, 100, 200, "k-other", SliceKind::Other, 27);
    b.addSlice(other, 300, 300, "k-instant", SliceKind::Instant, 28);
    b.addSlice(other, 350, 360, "k-overhead", SliceKind::Overhead, 29);
    model::UnifiedMemoryDetail u;
    u.kind = model::UnifiedMemoryKind::MigrationHtoD;
    u.bytes = 65536;
    u.address = 0x7f0000010000;
    u.srcDevice = model::kUnifiedMemoryCpu;
    u.dstDevice = 0;
    u.cause = model::UnifiedMemoryCause::Coherence;
    u.access = model::UnifiedMemoryAccess::Read;
    u.faultCount = 5;
    u.pc = 0x401000;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, u.kind), 700, 800, "k-unified-memory", u);
    return b.finalize();
}

// The args keys of each event of the file whose name starts with "k-", by the event's name (one
// entry per event of that name), with how often each is written.
using ArgCounts = std::map<std::string, int>;
std::map<std::string, std::vector<ArgCounts>> argsByEvent(const std::string& json) {
    std::map<std::string, std::vector<ArgCounts>> out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    EXPECT_EQ(parser.parse(json).get(root), simdjson::SUCCESS);
    for (simdjson::dom::element e : root["traceEvents"].get_array()) {
        std::string_view name;
        if (e["name"].get(name) != simdjson::SUCCESS || !name.starts_with("k-"))
            continue;
        auto& keys = out[std::string(name)].emplace_back();
        simdjson::dom::object args;
        if (e["args"].get(args) != simdjson::SUCCESS)
            continue;
        for (auto field : args)
            ++keys[std::string(field.key)];
    }
    return out;
}

const std::map<std::string, SliceKind> kEventKinds = {
    {"k-kernel", SliceKind::Kernel},     {"k-memcpy", SliceKind::Memcpy},
    {"k-memset", SliceKind::Memset},     {"k-memory", SliceKind::Memory},
    {"k-sync", SliceKind::Sync},         {"k-runtime", SliceKind::RuntimeApi},
    {"k-driver", SliceKind::DriverApi},  {"k-nvtx", SliceKind::Nvtx},
    {"k-other", SliceKind::Other},       {"k-instant", SliceKind::Instant},
    {"k-overhead", SliceKind::Overhead}, {"k-unified-memory", SliceKind::UnifiedMemory}};

TEST(ArgKeys, EveryKeyOfEveryLayoutIsWrittenOnce) {
    const std::string json = ChromeTraceWriter(*everyKeyTrace()).toString();
    const auto events = argsByEvent(json);
    ASSERT_EQ(events.size(), kEventKinds.size());
    for (const auto& [name, kind] : kEventKinds) {
        ASSERT_EQ(events.at(name).size(), 1u) << name;
        const auto& keys = events.at(name).front();
        for (ArgField f : format::writtenArgs(kind)) {
            const auto it = keys.find(std::string(format::argKey(f).key));
            EXPECT_TRUE(it != keys.end() && it->second == 1)
                << name << ": " << format::argKey(f).key;
        }
        EXPECT_EQ(keys.size(), format::writtenArgs(kind).size()) << name;
    }
}

model::TracePtr read(std::string_view json) {
    auto result = ChromeTraceReader().read(json, "args.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

const model::Slice& slice(const model::Trace& t, std::string_view name) {
    const model::SliceRef ref = findSlice(t, name);
    EXPECT_TRUE(ref.valid()) << name;
    return t.slice(ref.valid() ? ref : findSlice(t, "k-kernel"));
}

// Write -> read gives each field back: the table's key, type and field agree on both sides.
TEST(ArgKeys, EveryWrittenKeyReadsBackIntoTheSameField) {
    const auto original = everyKeyTrace();
    const auto back = read(ChromeTraceWriter(*original).toString());
    ASSERT_TRUE(back);
    const model::Trace& o = *original;
    const model::Trace& r = *back;
    for (const auto& [name, kind] : kEventKinds) {
        EXPECT_EQ(slice(r, name).correlationId, slice(o, name).correlationId) << name;
        EXPECT_EQ(slice(r, name).kind, kind) << name;
        EXPECT_TRUE(r.extraArgs(slice(r, name)).empty())
            << name << ": " << r.extraArgs(slice(r, name));
    }
    const auto* k0 = o.kernel(slice(o, "k-kernel"));
    const auto* k1 = r.kernel(slice(r, "k-kernel"));
    ASSERT_TRUE(k0 && k1);
    EXPECT_EQ(k1->grid, k0->grid);
    EXPECT_EQ(k1->block, k0->block);
    EXPECT_EQ(k1->registersPerThread, k0->registersPerThread);
    EXPECT_EQ(k1->staticSharedBytes, k0->staticSharedBytes);
    EXPECT_EQ(k1->dynamicSharedBytes, k0->dynamicSharedBytes);
    EXPECT_EQ(k1->warpsPerSm, k0->warpsPerSm);
    EXPECT_EQ(k1->estimatedOccupancyPct, k0->estimatedOccupancyPct);
    EXPECT_EQ(k1->graph.graphId, k0->graph.graphId);
    EXPECT_EQ(k1->graph.nodeId, k0->graph.nodeId);
    const auto* m0 = o.memcpy(slice(o, "k-memcpy"));
    const auto* m1 = r.memcpy(slice(r, "k-memcpy"));
    ASSERT_TRUE(m0 && m1);
    EXPECT_EQ(m1->bytes, m0->bytes);
    EXPECT_EQ(m1->copyKind, m0->copyKind);
    EXPECT_EQ(m1->srcKind, m0->srcKind);
    EXPECT_EQ(m1->dstKind, m0->dstKind);
    EXPECT_EQ(m1->srcDevice, m0->srcDevice);
    EXPECT_EQ(m1->dstDevice, m0->dstDevice);
    EXPECT_EQ(m1->graph.nodeId, m0->graph.nodeId);
    const auto* s0 = o.memset(slice(o, "k-memset"));
    const auto* s1 = r.memset(slice(r, "k-memset"));
    ASSERT_TRUE(s0 && s1);
    EXPECT_EQ(s1->bytes, s0->bytes);
    EXPECT_EQ(s1->value, s0->value);
    EXPECT_EQ(s1->memoryKind, s0->memoryKind);
    EXPECT_EQ(s1->graph.nodeId, s0->graph.nodeId);
    const auto* a0 = o.memory(slice(o, "k-memory"));
    const auto* a1 = r.memory(slice(r, "k-memory"));
    ASSERT_TRUE(a0 && a1);
    EXPECT_EQ(a1->op, a0->op);
    EXPECT_EQ(a1->memoryKind, a0->memoryKind);
    EXPECT_EQ(a1->address, a0->address);
    EXPECT_EQ(a1->bytes, a0->bytes);
    EXPECT_EQ(a1->streamId, a0->streamId);
    EXPECT_EQ(a1->fromPool, a0->fromPool);
    EXPECT_EQ(a1->poolAddress, a0->poolAddress);
    EXPECT_EQ(a1->poolReservedBytes, a0->poolReservedBytes);
    const auto* y0 = o.sync(slice(o, "k-sync"));
    const auto* y1 = r.sync(slice(r, "k-sync"));
    ASSERT_TRUE(y0 && y1);
    EXPECT_EQ(y1->syncKind, y0->syncKind);
    EXPECT_EQ(y1->streamId, y0->streamId);
    EXPECT_EQ(y1->eventId, y0->eventId);
    EXPECT_EQ(y1->recordStreamId, y0->recordStreamId);
    EXPECT_EQ(y1->recordCorrelationId, y0->recordCorrelationId);
    for (std::string_view name : {"k-runtime", "k-driver"}) {
        const auto* p0 = o.api(slice(o, name));
        const auto* p1 = r.api(slice(r, name));
        ASSERT_TRUE(p0 && p1);
        EXPECT_EQ(p1->callbackId, p0->callbackId) << name;
        EXPECT_EQ(p1->returnCode, p0->returnCode) << name;
    }
    const auto* n0 = o.nvtx(slice(o, "k-nvtx"));
    const auto* n1 = r.nvtx(slice(r, "k-nvtx"));
    ASSERT_TRUE(n0 && n1);
    EXPECT_EQ(n1->colorArgb, n0->colorArgb);
    EXPECT_EQ(r.str(n1->domainId), o.str(n0->domainId));
    EXPECT_EQ(n1->category, n0->category);
    EXPECT_EQ(r.str(n1->categoryNameId), o.str(n0->categoryNameId));
    EXPECT_EQ(n1->hasPayload, n0->hasPayload);
    EXPECT_EQ(n1->payload, n0->payload);
}

// A producer's args that repeat a key the model has (Kineto writes "correlation" on every
// event; a file may say a key twice) are not kept beside the model's: an export that writes the
// slice from the model (here, merged traces) writes the key once, and the producer's own keys
// once too.
TEST(ArgKeys, AProducersRepeatedModelKeysAreWrittenOnce) {
    constexpr std::string_view kTrace = R"js({"traceEvents":[
      {"ph":"X","cat":"kernel","name":"k-kernel","pid":0,"tid":7,"ts":10,"dur":20,
       "args":{"device":0,"stream":7,"correlation":3,"grid":[1,2,3],"block":[32,1,1],
               "registers per thread":32,"correlation":3,"grid":[1,2,3],"mine":1}},
      {"ph":"X","cat":"gpu_memcpy","name":"k-memcpy","pid":0,"tid":7,"ts":40,"dur":2,
       "args":{"device":0,"stream":7,"correlation":4,"bytes":8,"copy kind":"HtoD",
               "memory bandwidth (GB/s)":4,"bytes":8,"mine":1}},
      {"ph":"X","cat":"cuda_runtime","name":"k-runtime","pid":1,"tid":1,"ts":8,"dur":1,
       "args":{"correlation":3,"cbid":211,"correlation":3,"mine":1}},
      {"ph":"X","cat":"cpu_op","name":"k-other","pid":1,"tid":1,"ts":2,"dur":1,
       "args":{"correlation":5,"correlation":5,"mine":1}}]})js";
    const auto first = read(kTrace);
    const auto second = read(kTrace);
    ASSERT_TRUE(first && second);
    auto merged = model::mergeTraces({{first, "a.json"}, {second, "b.json"}});
    ASSERT_TRUE(merged.ok()) << merged.error().message;
    const std::string json = ChromeTraceWriter(*merged.value()).toString();
    const auto events = argsByEvent(json);
    ASSERT_EQ(events.size(), 4u);
    for (const auto& [name, each] : events) {
        ASSERT_EQ(each.size(), 2u) << name;  // one per input
        for (const ArgCounts& keys : each) {
            for (const auto& [key, count] : keys)
                EXPECT_EQ(count, 1) << name << ": " << key;
            EXPECT_EQ(keys.count("mine"), 1u) << name;
            EXPECT_EQ(keys.count("correlation"), 1u) << name;
        }
    }
    EXPECT_EQ(events.at("k-kernel").front().count("grid"), 1u);
    EXPECT_EQ(events.at("k-memcpy").front().count("bytes"), 1u);
    EXPECT_EQ(events.at("k-memcpy").front().count(std::string(format::kArgBandwidth)), 1u);
}

}  // namespace
}  // namespace wl::io
