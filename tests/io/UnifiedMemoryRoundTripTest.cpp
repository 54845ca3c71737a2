// Unified-memory events through our Chrome JSON: written with their args (kind, bytes, address,
// direction, cause, access, fault count, pc) on rows of their own and read back identically;
// and read from another producer's file that has no "warpline" block.
#include <gtest/gtest.h>

#include <string>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "model/TraceBuilder.h"

namespace wl::io {
namespace {

using model::UnifiedMemoryDetail;
using model::UnifiedMemoryKind;

model::TracePtr import(const std::string& json) {
    auto result = ChromeTraceReader().read(json, "um.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

// A kernel that faults its pages in, the migrations that serve it (two at once: two lanes), an
// eviction, thrashing, and a CPU page fault on the host.
model::TracePtr unifiedMemoryTrace() {
    model::TraceBuilder b;
    constexpr model::TimeNs kBase = 1'790'857'026'123'456'789;
    const auto host = b.hostProcess(4242, "app");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    b.addKernel(b.gpuStreamTrack(gpu, 13), kBase + 1000, kBase + 90'000, "scale", 7, {});
    const auto htod = b.unifiedMemoryTrack(gpu, UnifiedMemoryKind::MigrationHtoD);
    UnifiedMemoryDetail m;
    m.kind = UnifiedMemoryKind::MigrationHtoD;
    m.bytes = 2 << 20;
    m.address = 0x7f0000200000;
    m.srcDevice = model::kUnifiedMemoryCpu;
    m.dstDevice = 0;
    m.cause = model::UnifiedMemoryCause::Coherence;
    b.addUnifiedMemory(htod, kBase + 2000, kBase + 40'001, "Migration HtoD", m);
    m.address = 0x7f0000400000;
    m.cause = model::UnifiedMemoryCause::Prefetch;
    b.addUnifiedMemory(htod, kBase + 30'000, kBase + 70'003, "Migration HtoD", m);
    UnifiedMemoryDetail back;
    back.kind = UnifiedMemoryKind::MigrationDtoH;
    back.bytes = 65536;
    back.address = 0x7f0000600000;
    back.srcDevice = 0;
    back.dstDevice = model::kUnifiedMemoryCpu;
    back.cause = model::UnifiedMemoryCause::Eviction;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, UnifiedMemoryKind::MigrationDtoH), kBase + 80'000,
                       kBase + 80'500, "Migration DtoH", back);
    UnifiedMemoryDetail fault;
    fault.kind = UnifiedMemoryKind::GpuPageFault;
    fault.address = 0x7f0000200000;
    fault.faultCount = 37;
    fault.srcDevice = 0;
    fault.access = model::UnifiedMemoryAccess::Write;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, UnifiedMemoryKind::GpuPageFault), kBase + 1500,
                       kBase + 39'000, "GPU page fault", fault);
    UnifiedMemoryDetail thrashing;
    thrashing.kind = UnifiedMemoryKind::Thrashing;
    thrashing.bytes = 4096;
    thrashing.address = 0x7f0000200000;
    thrashing.srcDevice = 0;
    b.addUnifiedMemory(b.unifiedMemoryTrack(gpu, UnifiedMemoryKind::Thrashing), kBase + 50'000,
                       kBase + 50'000, "Thrashing", thrashing);
    UnifiedMemoryDetail cpu;
    cpu.kind = UnifiedMemoryKind::CpuPageFault;
    cpu.address = 0x7f0000600000;
    cpu.faultCount = 1;
    cpu.pc = 0x401234;
    b.addUnifiedMemory(b.unifiedMemoryTrack(host, UnifiedMemoryKind::CpuPageFault), kBase + 95'000,
                       kBase + 95'000, "CPU page fault", cpu);
    return b.finalize();
}

bool same(const UnifiedMemoryDetail& a, const UnifiedMemoryDetail& b) {
    return a.kind == b.kind && a.address == b.address && a.bytes == b.bytes &&
           a.faultCount == b.faultCount && a.pc == b.pc && a.srcDevice == b.srcDevice &&
           a.dstDevice == b.dstDevice && a.cause == b.cause && a.access == b.access;
}

TEST(UnifiedMemoryRoundTrip, EveryFieldAndRowComesBack) {
    const auto a = unifiedMemoryTrace();
    const std::string first = ChromeTraceWriter(*a).toString();
    EXPECT_NE(first.find("\"cat\":\"gpu_unified_memory\""), std::string::npos);
    EXPECT_NE(first.find("\"um kind\":\"migration HtoD\""), std::string::npos);
    const auto b = import(first);
    ASSERT_TRUE(b);
    EXPECT_EQ(first, ChromeTraceWriter(*b).toString());
    EXPECT_EQ(b->counts().unifiedMemory, 6u);
    ASSERT_EQ(a->tracks().size(), b->tracks().size());
    std::size_t compared = 0;
    for (std::size_t t = 0; t < a->tracks().size(); ++t) {
        const model::Track& ta = a->tracks()[t];
        const model::Track& tb = b->tracks()[t];
        EXPECT_EQ(ta.kind, tb.kind);
        EXPECT_EQ(ta.unifiedMemoryKind, tb.unifiedMemoryKind);
        EXPECT_EQ(ta.deviceId, tb.deviceId);
        EXPECT_EQ(a->processes()[ta.process].pid, b->processes()[tb.process].pid);
        EXPECT_EQ(a->str(ta.nameId), b->str(tb.nameId));
        EXPECT_EQ(ta.laneBegin, tb.laneBegin);
        ASSERT_EQ(ta.slices.size(), tb.slices.size());
        for (std::size_t i = 0; i < ta.slices.size(); ++i) {
            const model::Slice& sa = ta.slices[i];
            const model::Slice& sb = tb.slices[i];
            EXPECT_EQ(sa.kind, sb.kind);
            EXPECT_EQ(sa.startNs, sb.startNs);
            EXPECT_EQ(sa.durationNs, sb.durationNs);
            EXPECT_EQ(a->str(sa.nameId), b->str(sb.nameId));
            if (sa.kind != model::SliceKind::UnifiedMemory)
                continue;
            const UnifiedMemoryDetail* da = a->unifiedMemory(sa);
            const UnifiedMemoryDetail* db = b->unifiedMemory(sb);
            ASSERT_NE(da, nullptr);
            ASSERT_NE(db, nullptr);
            EXPECT_TRUE(same(*da, *db)) << a->str(sa.nameId);
            ++compared;
        }
    }
    EXPECT_EQ(compared, 6u);
    // The two migrations at once are two lanes, each a row (tid) of its own in the file.
    for (const model::Track& t : b->tracks()) {
        if (t.unifiedMemoryKind == UnifiedMemoryKind::MigrationHtoD) {
            EXPECT_EQ(t.laneCount(), 2u);
        }
    }
    EXPECT_NE(first.find("Unified memory HtoD (lane 1)"), std::string::npos);
}

// Another producer's events of our category (no "warpline" block): rows from the args, a GPU's
// by its device, the host's by the pid.
TEST(UnifiedMemoryRoundTrip, AnotherProducersEventsFindTheirRows) {
    const std::string json = R"({"traceEvents":[
{"ph":"X","cat":"gpu_unified_memory","name":"Migration HtoD","pid":0,"tid":5,"ts":10.000,"dur":2.000,"args":{"device":0,"um kind":"migration HtoD","bytes":4096,"address":"0x1000","src device":-1,"dst device":0,"um cause":"coherence"}},
{"ph":"X","cat":"gpu_unified_memory","name":"GPU page fault","pid":0,"tid":6,"ts":9.000,"dur":3.000,"args":{"device":0,"um kind":"gpu page fault","fault count":12,"address":"0x1000","um access":"read"}},
{"ph":"X","cat":"gpu_unified_memory","name":"CPU page fault","pid":777,"tid":3,"ts":20.000,"dur":0,"args":{"um kind":"cpu page fault","fault count":1,"fault pc":"0x401000","address":"0x1000"}}
]})";
    const auto trace = import(json);
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->counts().unifiedMemory, 3u);
    int rows = 0;
    for (const model::Track& t : trace->tracks()) {
        if (t.kind != model::TrackKind::UnifiedMemory)
            continue;
        ++rows;
        ASSERT_EQ(t.slices.size(), 1u);
        const UnifiedMemoryDetail* d = trace->unifiedMemory(t.slices[0]);
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->kind, t.unifiedMemoryKind);
        const model::Process& p = trace->processes()[t.process];
        switch (t.unifiedMemoryKind) {
            case UnifiedMemoryKind::MigrationHtoD:
                EXPECT_EQ(p.deviceId, 0);
                EXPECT_EQ(d->bytes, 4096u);
                EXPECT_EQ(d->srcDevice, model::kUnifiedMemoryCpu);
                EXPECT_EQ(d->cause, model::UnifiedMemoryCause::Coherence);
                break;
            case UnifiedMemoryKind::GpuPageFault:
                EXPECT_EQ(p.deviceId, 0);
                EXPECT_EQ(d->faultCount, 12u);
                EXPECT_EQ(d->access, model::UnifiedMemoryAccess::Read);
                EXPECT_EQ(d->srcDevice, model::kUnifiedMemoryNone);  // not written
                break;
            case UnifiedMemoryKind::CpuPageFault:
                EXPECT_EQ(p.deviceId, -1);
                EXPECT_EQ(p.pid, 777);
                EXPECT_EQ(d->pc, 0x401000u);
                break;
            default:
                ADD_FAILURE() << "unexpected row " << trace->str(t.nameId);
        }
    }
    EXPECT_EQ(rows, 3);
}

}  // namespace
}  // namespace wl::io
