#include <gtest/gtest.h>

#include "RichTrace.h"
#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "model/TraceBuilder.h"
#include "support/TraceFactory.h"

namespace wl::io {
namespace {

using model::TimeNs;

model::TracePtr import(const std::string& json) {
    auto result = ChromeTraceReader().read(json, "roundtrip.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().describe());
    return result.ok() ? result.value() : nullptr;
}

TEST(RoundTrip, ExportImportExportIsByteIdentical) {
    const auto original = testing::richTrace();
    const std::string first = ChromeTraceWriter(*original).toString();
    const auto imported = import(first);
    ASSERT_TRUE(imported);
    const std::string second = ChromeTraceWriter(*imported).toString();
    EXPECT_EQ(first, second);
    // And once more from the re-import, to catch drift that only shows after two trips.
    const auto again = import(second);
    ASSERT_TRUE(again);
    EXPECT_EQ(second, ChromeTraceWriter(*again).toString());
}

TEST(RoundTrip, ModelFieldsSurvive) {
    const auto a = testing::richTrace();
    const auto b = import(ChromeTraceWriter(*a).toString());
    ASSERT_TRUE(b);
    EXPECT_EQ(a->originNs(), b->originNs());
    EXPECT_EQ(a->spanNs(), b->spanNs());
    EXPECT_EQ(a->metadata(), b->metadata());
    ASSERT_EQ(a->processes().size(), b->processes().size());
    for (std::size_t i = 0; i < a->processes().size(); ++i) {
        EXPECT_EQ(a->processes()[i].pid, b->processes()[i].pid);
        EXPECT_EQ(a->processes()[i].deviceId, b->processes()[i].deviceId);
        EXPECT_EQ(a->str(a->processes()[i].nameId), b->str(b->processes()[i].nameId));
    }
    ASSERT_EQ(a->tracks().size(), b->tracks().size());
    for (std::size_t t = 0; t < a->tracks().size(); ++t) {
        const auto& ta = a->tracks()[t];
        const auto& tb = b->tracks()[t];
        EXPECT_EQ(ta.kind, tb.kind);
        EXPECT_EQ(ta.streamId, tb.streamId);
        EXPECT_EQ(ta.threadId, tb.threadId);
        EXPECT_EQ(ta.deviceId, tb.deviceId);
        EXPECT_EQ(ta.sortIndex, tb.sortIndex);
        EXPECT_EQ(a->str(ta.nameId), b->str(tb.nameId));
        EXPECT_EQ(a->str(ta.domainId), b->str(tb.domainId));
        ASSERT_EQ(ta.slices.size(), tb.slices.size());
        EXPECT_EQ(ta.laneBegin, tb.laneBegin);
        for (std::size_t i = 0; i < ta.slices.size(); ++i) {
            const auto& sa = ta.slices[i];
            const auto& sb = tb.slices[i];
            EXPECT_EQ(sa.startNs, sb.startNs);
            EXPECT_EQ(sa.durationNs, sb.durationNs);
            EXPECT_EQ(sa.kind, sb.kind);
            EXPECT_EQ(sa.depth, sb.depth);
            EXPECT_EQ(sa.flags, sb.flags);
            EXPECT_EQ(sa.correlationId, sb.correlationId);
            EXPECT_EQ(a->str(sa.nameId), b->str(sb.nameId));
            if (const auto* ka = a->kernel(sa)) {
                const auto* kb = b->kernel(sb);
                ASSERT_NE(kb, nullptr);
                EXPECT_EQ(ka->grid, kb->grid);
                EXPECT_EQ(ka->block, kb->block);
                EXPECT_EQ(ka->registersPerThread, kb->registersPerThread);
                EXPECT_EQ(ka->staticSharedBytes, kb->staticSharedBytes);
                EXPECT_EQ(ka->dynamicSharedBytes, kb->dynamicSharedBytes);
                EXPECT_EQ(ka->warpsPerSm, kb->warpsPerSm);
                EXPECT_EQ(ka->estimatedOccupancyPct, kb->estimatedOccupancyPct);
            }
            if (const auto* ma = a->memcpy(sa)) {
                const auto* mb = b->memcpy(sb);
                ASSERT_NE(mb, nullptr);
                EXPECT_EQ(ma->bytes, mb->bytes);
                EXPECT_EQ(ma->copyKind, mb->copyKind);
                EXPECT_EQ(ma->srcKind, mb->srcKind);
                EXPECT_EQ(ma->dstKind, mb->dstKind);
                EXPECT_EQ(ma->srcDevice, mb->srcDevice);
                EXPECT_EQ(ma->dstDevice, mb->dstDevice);
            }
            if (const auto* ma = a->memset(sa)) {
                const auto* mb = b->memset(sb);
                ASSERT_NE(mb, nullptr);
                EXPECT_EQ(ma->bytes, mb->bytes);
                EXPECT_EQ(ma->value, mb->value);
                EXPECT_EQ(ma->memoryKind, mb->memoryKind);
            }
            if (const auto* ma = a->memory(sa)) {
                const auto* mb = b->memory(sb);
                ASSERT_NE(mb, nullptr);
                EXPECT_EQ(ma->op, mb->op);
                EXPECT_EQ(ma->memoryKind, mb->memoryKind);
                EXPECT_EQ(ma->address, mb->address);
                EXPECT_EQ(ma->bytes, mb->bytes);
                EXPECT_EQ(ma->streamId, mb->streamId);
                EXPECT_EQ(ma->fromPool, mb->fromPool);
                EXPECT_EQ(ma->poolAddress, mb->poolAddress);
                EXPECT_EQ(ma->poolReservedBytes, mb->poolReservedBytes);
            }
            if (const auto* ya = a->sync(sa)) {
                const auto* yb = b->sync(sb);
                ASSERT_NE(yb, nullptr);
                EXPECT_EQ(ya->syncKind, yb->syncKind);
                EXPECT_EQ(ya->streamId, yb->streamId);
                EXPECT_EQ(ya->eventId, yb->eventId);
            }
            if (const auto* pa = a->api(sa)) {
                const auto* pb = b->api(sb);
                ASSERT_NE(pb, nullptr);
                EXPECT_EQ(pa->apiKind, pb->apiKind);
                EXPECT_EQ(pa->callbackId, pb->callbackId);
                EXPECT_EQ(pa->returnCode, pb->returnCode);
            }
            if (const auto* na = a->nvtx(sa)) {
                const auto* nb = b->nvtx(sb);
                ASSERT_NE(nb, nullptr);
                EXPECT_EQ(na->colorArgb, nb->colorArgb);
                EXPECT_EQ(a->str(na->domainId), b->str(nb->domainId));
                EXPECT_EQ(na->category, nb->category);
            }
        }
    }
    ASSERT_EQ(a->counters().size(), b->counters().size());
    for (std::size_t c = 0; c < a->counters().size(); ++c) {
        const auto& ca = a->counters()[c];
        const auto& cb = b->counters()[c];
        EXPECT_EQ(a->str(ca.nameId), b->str(cb.nameId));
        EXPECT_EQ(a->str(ca.seriesId), b->str(cb.seriesId));
        EXPECT_EQ(a->str(ca.unitId), b->str(cb.unitId));
        ASSERT_EQ(ca.samples.size(), cb.samples.size());
        for (std::size_t i = 0; i < ca.samples.size(); ++i) {
            EXPECT_EQ(ca.samples[i].timestampNs, cb.samples[i].timestampNs);
            EXPECT_EQ(ca.samples[i].value, cb.samples[i].value);  // exact, not near
        }
    }
    ASSERT_EQ(a->flows().size(), b->flows().size());
    for (std::size_t f = 0; f < a->flows().size(); ++f) {
        EXPECT_EQ(a->flows()[f].id, b->flows()[f].id);
        EXPECT_EQ(a->flows()[f].from, b->flows()[f].from);
        EXPECT_EQ(a->flows()[f].to, b->flows()[f].to);
    }
    ASSERT_EQ(a->devices().size(), b->devices().size());
    EXPECT_EQ(a->devices()[0].name, b->devices()[0].name);
    EXPECT_EQ(a->devices()[0].smCount, b->devices()[0].smCount);
    EXPECT_EQ(a->devices()[0].memoryBandwidthGBps, b->devices()[0].memoryBandwidthGBps);
    const auto& da = a->diagnostics();
    const auto& db = b->diagnostics();
    EXPECT_EQ(da.droppedRecords, db.droppedRecords);
    EXPECT_EQ(da.invalidTimestamps, db.invalidTimestamps);
    EXPECT_EQ(da.unknownPhases, db.unknownPhases);
    EXPECT_EQ(da.unmatchedEnds, db.unmatchedEnds);
    EXPECT_EQ(da.unknownRecords, db.unknownRecords);
    EXPECT_EQ(da.truncatedStrings, db.truncatedStrings);
    EXPECT_EQ(da.warnings, db.warnings);
    EXPECT_EQ(da.spilledOverlaps, db.spilledOverlaps);
    EXPECT_EQ(da.warningCount, db.warningCount);
    EXPECT_EQ(da.warnings.size(), db.warnings.size());
    EXPECT_EQ(a->counts().flows, b->counts().flows);
    EXPECT_EQ(a->counts().slices, b->counts().slices);
}

TEST(RoundTrip, SyntheticTraceIsByteIdentical) {
    test::SyntheticTraceSpec spec;
    spec.kernels = 3000;
    spec.memcpys = 500;
    spec.memsets = 100;
    spec.syncs = 50;
    spec.nvtxRanges = 200;
    spec.counterSamples = 300;
    spec.streams = 5;
    spec.devices = 2;
    const auto original = test::makeSyntheticTrace(spec);
    ASSERT_GT(original->counts().flows, 3000u);
    const std::string first = ChromeTraceWriter(*original).toString();
    const auto imported = import(first);
    ASSERT_TRUE(imported);
    EXPECT_EQ(imported->counts().slices, original->counts().slices);
    EXPECT_EQ(imported->counts().flows, original->counts().flows);
    EXPECT_EQ(first, ChromeTraceWriter(*imported).toString());
}

}  // namespace
}  // namespace wl::io
