#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/TraceBuilder.h"
#include "model/TraceMerge.h"
#include "support/ProcessTraceFactory.h"

using namespace wl::model;
using wl::test::makeProcessTrace;
using wl::test::processKernelName;
using wl::test::ProcessTraceSpec;

namespace {

constexpr TimeNs kClock = 1'790'857'026'123'456'789;  // a CUPTI clock value: beyond 2^53

// Three processes of one run: the program and two workers started later, each with correlation
// ids 1..3 of its own.
std::vector<ProcessTraceSpec> threeProcesses() {
    return {
        {4242, kClock + 5'000, 3, "0", "GPU-0c6e9a51"},
        {4300, kClock, 3, "1", "GPU-0c6e9a51"},
        {4311, kClock + 123'457, 2, "2", "GPU-0c6e9a51"},
    };
}

std::vector<MergeInput> inputsOf(const std::vector<ProcessTraceSpec>& specs) {
    std::vector<MergeInput> inputs;
    for (const auto& spec : specs) {
        inputs.push_back(
            {makeProcessTrace(spec), "python3 (pid " + std::to_string(spec.pid) + ")"});
    }
    return inputs;
}

TracePtr mergeOrFail(const std::vector<MergeInput>& inputs) {
    auto merged = mergeTraces(inputs);
    EXPECT_TRUE(merged.ok()) << (merged.ok() ? "" : merged.error().describe());
    return merged.ok() ? merged.value() : nullptr;
}

// The pid a process group belongs to: a host's own, a GPU process's owner.
std::int64_t pidOf(const Trace& t, ProcessIndex p) {
    const Process& process = t.processes()[p];
    return process.deviceId >= 0 ? process.ownerPid : process.pid;
}

// The pid of the process an input's track belongs to: GPU processes of a single-process trace
// have no owner; `record` writes the pid into the metadata.
std::int64_t inputPidOf(const Trace& t, const Track& track) {
    const std::int64_t pid = pidOf(t, track.process);
    return pid >= 0 ? pid : std::stoll(t.metadataValue("pid"));
}

// Where each kernel (by name) landed: its start and track.
std::map<std::string, std::pair<TimeNs, TrackIndex>> kernelsByName(const Trace& t) {
    std::map<std::string, std::pair<TimeNs, TrackIndex>> out;
    for (TrackIndex ti = 0; ti < t.tracks().size(); ++ti) {
        for (const Slice& s : t.track(ti).slices) {
            if (s.kind == SliceKind::Kernel)
                out[std::string(t.str(s.nameId))] = {s.startNs, ti};
        }
    }
    return out;
}

}  // namespace

TEST(TraceMerge, NoInputsOrANullTraceIsAnError) {
    const auto none = mergeTraces({});
    ASSERT_FALSE(none.ok());
    EXPECT_EQ(none.error().message, "no traces to merge");

    auto inputs = inputsOf(threeProcesses());
    inputs[1].trace = nullptr;
    const auto missing = mergeTraces(inputs);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("trace 2 (python3 (pid 4300))"), std::string::npos)
        << missing.error().message;
}

TEST(TraceMerge, PlacesEveryEventAtItsAbsoluteTime) {
    const auto specs = threeProcesses();
    const auto inputs = inputsOf(specs);
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    // The earliest origin (the second process started tracing first) is the merged origin.
    EXPECT_EQ(merged->originNs(), kClock);
    EXPECT_EQ(merged->spanNs(), 123'457 + (2 + 2) * 1000);  // the last input's NVTX range end

    const auto kernels = kernelsByName(*merged);
    std::size_t checked = 0;
    for (const auto& input : inputs) {
        for (const Track& track : input.trace->tracks()) {
            for (const Slice& s : track.slices) {
                if (s.kind != SliceKind::Kernel || s.correlationId == 0)
                    continue;
                const TimeNs absolute = input.trace->originNs() + s.startNs;
                const auto it = kernels.find(std::string(input.trace->str(s.nameId)));
                ASSERT_NE(it, kernels.end());
                EXPECT_EQ(it->second.first, absolute - merged->originNs());
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 3u + 3u + 2u);
    // Spelled out for one kernel: the third process's first launch ran 123457 + 1200 ns after
    // the clock value kClock.
    EXPECT_EQ(kernels.at(processKernelName(4311, 1)).first, 123'457 + 1'200);
    // Counter samples and capture windows move the same way. (Each GPU group also gets its
    // launch queue, made again from the merged events.)
    std::set<TimeNs> firstSamples;
    std::size_t recorded = 0;
    for (const auto& c : merged->counters()) {
        if (c.derived)
            continue;
        ++recorded;
        firstSamples.insert(c.samples.front().timestampNs);
    }
    EXPECT_EQ(recorded, 3u);
    EXPECT_EQ(firstSamples, (std::set<TimeNs>{500, 5'500, 123'957}));
    // [900, 2500] of each input, absolute, in start order.
    ASSERT_EQ(merged->captureWindows().size(), 3u);
    EXPECT_EQ(merged->captureWindows()[0], (TimeRange{900, 2'500}));
    EXPECT_EQ(merged->captureWindows()[1], (TimeRange{5'900, 7'500}));
    EXPECT_EQ(merged->captureWindows()[2], (TimeRange{124'357, 125'957}));
}

TEST(TraceMerge, KeepsHostPidsAndOneGpuGroupPerProcessOnTheSameOrdinal) {
    const auto merged = mergeOrFail(inputsOf(threeProcesses()));
    ASSERT_TRUE(merged);
    const auto processes = merged->processes();
    ASSERT_EQ(processes.size(), 6u);
    std::vector<std::int64_t> hostPids;
    std::vector<std::int64_t> gpuOwners;
    for (const Process& p : processes) {
        if (p.deviceId < 0) {
            hostPids.push_back(p.pid);
            EXPECT_EQ(merged->str(p.nameId), "python3 (pid " + std::to_string(p.pid) + ")");
            EXPECT_EQ(p.ownerPid, -1);
        } else {
            EXPECT_EQ(p.deviceId, 0);
            gpuOwners.push_back(p.ownerPid);
            EXPECT_EQ(merged->str(p.nameId),
                      "python3 (pid " + std::to_string(p.ownerPid) + ") · GPU 0 (NVIDIA H200)");
        }
    }
    EXPECT_EQ(hostPids, (std::vector<std::int64_t>{4242, 4300, 4311}));  // hosts first, by pid
    EXPECT_EQ(gpuOwners, (std::vector<std::int64_t>{4242, 4300, 4311}));

    // Every GPU row keeps the CUDA ordinal and holds only its own process's kernels.
    std::size_t streams = 0;
    for (const Track& t : merged->tracks()) {
        if (t.kind != TrackKind::GpuStream)
            continue;
        ++streams;
        EXPECT_EQ(t.deviceId, 0);
        const std::string prefix = "kernel_" + std::to_string(pidOf(*merged, t.process)) + "_";
        for (const Slice& s : t.slices) {
            const std::string name(merged->str(s.nameId));
            if (t.streamId == 7) {
                EXPECT_EQ(name.rfind(prefix, 0), 0u) << name;
            }
        }
    }
    EXPECT_EQ(streams, 6u);  // streams 7 and 8 of each process
}

TEST(TraceMerge, LaunchFlowsStayInsideTheirProcess) {
    const auto inputs = inputsOf(threeProcesses());
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    // Per process: 3, 3 and 2 launch flows plus one explicit flow.
    ASSERT_EQ(merged->flows().size(), 4u + 4u + 3u);
    std::size_t launches = 0;
    for (const Flow& f : merged->flows()) {
        const Track& from = merged->track(f.from.track);
        const Track& to = merged->track(f.to.track);
        EXPECT_EQ(pidOf(*merged, from.process), pidOf(*merged, to.process));
        const Slice& call = merged->slice(f.from);
        const Slice& work = merged->slice(f.to);
        if (call.kind != SliceKind::RuntimeApi)
            continue;
        ++launches;
        // The kernel the call launched: same process, same launch number.
        const std::int64_t pid = pidOf(*merged, from.process);
        const std::uint64_t offset = pid == 4242 ? 0 : pid == 4300 ? 3 : 6;
        const auto launch = static_cast<int>(call.correlationId - offset);
        EXPECT_EQ(merged->str(work.nameId), processKernelName(pid, launch));
        EXPECT_EQ(call.correlationId, work.correlationId);
        EXPECT_EQ(f.id, call.correlationId);
    }
    EXPECT_EQ(launches, 8u);
    // Correlation ids were moved per input so they no longer collide.
    std::set<std::uint64_t> ids;
    for (const Track& t : merged->tracks()) {
        for (const Slice& s : t.slices) {
            if (s.kind == SliceKind::Kernel && s.correlationId != 0) {
                EXPECT_TRUE(ids.insert(s.correlationId).second) << s.correlationId;
            }
        }
    }
    EXPECT_EQ(ids, (std::set<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(merged->metadataValue("process 2.correlation offset"), "3");
    EXPECT_EQ(merged->metadataValue("process 3.correlation offset"), "6");
}

TEST(TraceMerge, ExplicitFlowsKeepTheirEndpoints) {
    const auto merged = mergeOrFail(inputsOf(threeProcesses()));
    ASSERT_TRUE(merged);
    std::size_t explicitFlows = 0;
    for (const Flow& f : merged->flows()) {
        const Slice& from = merged->slice(f.from);
        if (from.kind != SliceKind::Other)
            continue;
        ++explicitFlows;
        // "enqueue", not its child that starts at the same time.
        EXPECT_EQ(merged->str(from.nameId), "enqueue");
        const std::int64_t pid = pidOf(*merged, merged->track(f.from.track).process);
        EXPECT_EQ(merged->str(merged->slice(f.to).nameId), processKernelName(pid, 1));
    }
    EXPECT_EQ(explicitFlows, 3u);
    EXPECT_EQ(merged->diagnostics().warningCount, 3u * 2u);  // each input's two warnings
}

TEST(TraceMerge, CountsDetailsAndDiagnosticsAreTheInputsSum) {
    const auto inputs = inputsOf(threeProcesses());
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    TraceCounts sum;
    Diagnostics diag;
    for (const auto& input : inputs) {
        const TraceCounts& c = input.trace->counts();
        sum.kernel += c.kernel;
        sum.api += c.api;
        sum.nvtx += c.nvtx;
        sum.other += c.other;
        sum.counterSamples += c.counterSamples;
        sum.flows += c.flows;
        sum.slices += c.slices;
        diag.droppedRecords += input.trace->diagnostics().droppedRecords;
        diag.spilledOverlaps += input.trace->diagnostics().spilledOverlaps;
        diag.truncatedStrings += input.trace->diagnostics().truncatedStrings;
    }
    const TraceCounts& n = merged->counts();
    EXPECT_EQ(n.kernel, sum.kernel);
    EXPECT_EQ(n.kernel, 3u + 3u + 2u + 3u * 2u);
    EXPECT_EQ(n.api, sum.api);
    EXPECT_EQ(n.nvtx, sum.nvtx);
    EXPECT_EQ(n.other, sum.other);
    EXPECT_EQ(n.counterSamples, sum.counterSamples);
    EXPECT_EQ(n.flows, sum.flows);
    EXPECT_EQ(n.slices, sum.slices);

    // Spills are found again when the merged trace is laid out, not counted twice.
    const Diagnostics& d = merged->diagnostics();
    EXPECT_EQ(d.droppedRecords, diag.droppedRecords);
    EXPECT_EQ(d.droppedRecords, 6u);
    EXPECT_EQ(d.spilledOverlaps, diag.spilledOverlaps);
    EXPECT_EQ(d.spilledOverlaps, 3u);
    EXPECT_EQ(d.truncatedStrings, 3u);
    const auto has = [&](const std::string& message) {
        return std::find(d.warnings.begin(), d.warnings.end(), message) != d.warnings.end();
    };
    EXPECT_TRUE(has("python3 (pid 4242): 2 CUPTI records were dropped"));
    EXPECT_TRUE(has("python3 (pid 4311): 2 CUPTI records were dropped"));
    EXPECT_TRUE(
        has("1 overlapping slice(s) on track 'Stream 8' did not nest; moved to extra lanes"));

    // Details come along, strings re-interned.
    std::size_t kernels = 0;
    std::size_t ranges = 0;
    for (const Track& t : merged->tracks()) {
        if (t.kind == TrackKind::NvtxProjection)
            continue;  // made from the ranges, counted there
        for (const Slice& s : t.slices) {
            if (s.kind == SliceKind::Kernel && s.correlationId != 0) {
                const KernelDetail* k = merged->kernel(s);
                ASSERT_NE(k, nullptr);
                EXPECT_EQ(k->grid[0], pidOf(*merged, t.process) % 1000);
                EXPECT_EQ(k->block[0], 256);
                ++kernels;
            } else if (s.kind == SliceKind::RuntimeApi) {
                ASSERT_NE(merged->api(s), nullptr);
                EXPECT_EQ(merged->api(s)->callbackId, 211u);
            } else if (s.kind == SliceKind::Nvtx) {
                const NvtxDetail* r = merged->nvtx(s);
                ASSERT_NE(r, nullptr);
                EXPECT_EQ(merged->str(s.nameId), "Loop");
                EXPECT_EQ(r->colorArgb, 0xff00aa00u);
                EXPECT_EQ(merged->str(r->domainId), "app");
                EXPECT_EQ(merged->str(r->categoryNameId), "training");
                EXPECT_EQ(merged->str(t.domainId), "app");
                ++ranges;
            }
        }
    }
    EXPECT_EQ(kernels, 8u);
    EXPECT_EQ(ranges, 3u);
    // Track names and explicit sort indexes survive.
    std::size_t pythonTracks = 0;
    for (const Track& t : merged->tracks()) {
        if (t.kind == TrackKind::Host) {
            EXPECT_EQ(merged->str(t.nameId), "python");
            EXPECT_EQ(t.threadId, pidOf(*merged, t.process) + 1);
            ++pythonTracks;
        }
    }
    EXPECT_EQ(pythonTracks, 3u);
    for (const auto& c : merged->counters()) {
        if (c.derived)
            continue;
        EXPECT_EQ(merged->str(c.seriesId), "sm active %");
        EXPECT_EQ(merged->str(c.unitId), "%");
        EXPECT_EQ(c.deviceId, 0);
        ASSERT_EQ(c.samples.size(), 2u);
        EXPECT_EQ(c.samples[1].value, 75.5);
    }
}

// Unified-memory rows and their details come along with each process's GPU.
TEST(TraceMerge, UnifiedMemoryRowsAndDetailsAreKept) {
    std::vector<MergeInput> withMigrations;
    for (std::size_t i = 0; i < 2; ++i) {
        TraceBuilder b;
        const auto row = b.unifiedMemoryTrack(b.gpuProcess(0), UnifiedMemoryKind::MigrationDtoH);
        UnifiedMemoryDetail d;
        d.kind = UnifiedMemoryKind::MigrationDtoH;
        d.bytes = 4096 * (i + 1);
        d.address = 0x1000;
        b.addUnifiedMemory(row, kClock, kClock + 100, "Migration DtoH", d);
        b.setMetadata("pid", std::to_string(5000 + i));
        withMigrations.push_back({b.finalize(), "p" + std::to_string(i)});
    }
    const auto merged = mergeOrFail(withMigrations);
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->counts().unifiedMemory, 2u);
    std::set<std::uint64_t> bytes;
    std::set<ProcessIndex> gpus;
    for (const Track& t : merged->tracks()) {
        if (t.kind != TrackKind::UnifiedMemory)
            continue;
        EXPECT_EQ(t.unifiedMemoryKind, UnifiedMemoryKind::MigrationDtoH);
        EXPECT_EQ(merged->str(t.nameId), "Unified memory DtoH");
        gpus.insert(t.process);
        for (const Slice& s : t.slices) {
            const UnifiedMemoryDetail* d = merged->unifiedMemory(s);
            ASSERT_NE(d, nullptr);
            bytes.insert(d->bytes);
        }
    }
    EXPECT_EQ(gpus.size(), 2u);  // one GPU group per process
    EXPECT_EQ(bytes, (std::set<std::uint64_t>{4096, 8192}));
}

TEST(TraceMerge, TrackSortIndexesOfTheInputsAreKept) {
    const auto inputs = inputsOf(threeProcesses());
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    std::map<std::pair<std::int64_t, std::string>, std::int32_t> expected;
    for (const auto& input : inputs) {
        for (const Track& t : input.trace->tracks()) {
            expected[{inputPidOf(*input.trace, t), std::string(input.trace->str(t.nameId))}] =
                t.sortIndex;
        }
    }
    ASSERT_EQ(expected.size(), merged->tracks().size());
    for (const Track& t : merged->tracks()) {
        const auto key = std::pair(pidOf(*merged, t.process), std::string(merged->str(t.nameId)));
        ASSERT_TRUE(expected.count(key)) << key.second;
        EXPECT_EQ(t.sortIndex, expected.at(key)) << key.second;
    }
}

TEST(TraceMerge, MetadataKeepsAgreedFactsAndEachProcesssOwn) {
    const auto merged = mergeOrFail(inputsOf(threeProcesses()));
    ASSERT_TRUE(merged);
    const auto& m = merged->metadata();
    EXPECT_EQ(merged->metadataValue("producer"), "warpline record");
    EXPECT_EQ(merged->metadataValue("host"), "node1");
    // Per-process facts are not flattened into one (wrong) value.
    EXPECT_EQ(m.count("pid"), 0u);
    EXPECT_EQ(m.count("rank"), 0u);
    EXPECT_EQ(merged->metadataValue("process 1.pid"), "4242");
    EXPECT_EQ(merged->metadataValue("process 2.pid"), "4300");
    EXPECT_EQ(merged->metadataValue("process 3.rank"), "2");
    EXPECT_EQ(merged->metadataValue("process 2.label"), "python3 (pid 4300)");
    EXPECT_EQ(merged->metadataValue("merged processes"),
              "python3 (pid 4242); python3 (pid 4300); python3 (pid 4311)");
    EXPECT_EQ(m.count("process 1.correlation offset"), 0u);  // the first input's ids are kept
}

TEST(TraceMerge, DevicesAreOnePerOrdinalAndAConflictIsReported) {
    const auto same = mergeOrFail(inputsOf(threeProcesses()));
    ASSERT_TRUE(same);
    ASSERT_EQ(same->devices().size(), 1u);
    EXPECT_EQ(same->devices()[0].name, "NVIDIA H200");
    EXPECT_EQ(same->devices()[0].smCount, 132);
    EXPECT_EQ(same->devices()[0].uuid, "GPU-0c6e9a51");

    // CUDA_VISIBLE_DEVICES differed: device 0 was another GPU in the second process.
    auto specs = threeProcesses();
    specs[1].deviceUuid = "GPU-77aa0001";
    const auto conflict = mergeOrFail(inputsOf(specs));
    ASSERT_TRUE(conflict);
    ASSERT_EQ(conflict->devices().size(), 1u);
    EXPECT_EQ(conflict->devices()[0].uuid, "GPU-0c6e9a51");
    const auto& warnings = conflict->diagnostics().warnings;
    const bool reported = std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
        return w.rfind("python3 (pid 4300): device 0 is NVIDIA H200 GPU-77aa0001", 0) == 0;
    });
    EXPECT_TRUE(reported);
}

TEST(TraceMerge, AnInputWithoutALabelIsNamedAfterItsHostProcess) {
    std::vector<MergeInput> inputs = inputsOf(threeProcesses());
    inputs[0].label.clear();
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->metadataValue("process 1.label"), "python3 (pid 4242)");
}

TEST(TraceMerge, OneInputGivesTheSameEvents) {
    const auto input = makeProcessTrace({});
    const auto merged = mergeOrFail({{input, "solo"}});
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->originNs(), input->originNs());
    EXPECT_EQ(merged->spanNs(), input->spanNs());
    ASSERT_EQ(merged->tracks().size(), input->tracks().size());
    for (std::size_t t = 0; t < input->tracks().size(); ++t) {
        const Track& a = input->tracks()[t];
        const Track& b = merged->tracks()[t];
        ASSERT_EQ(a.slices.size(), b.slices.size());
        EXPECT_EQ(a.laneBegin, b.laneBegin);
        for (std::size_t i = 0; i < a.slices.size(); ++i) {
            EXPECT_EQ(a.slices[i].startNs, b.slices[i].startNs);
            EXPECT_EQ(a.slices[i].durationNs, b.slices[i].durationNs);
            EXPECT_EQ(a.slices[i].depth, b.slices[i].depth);
            EXPECT_EQ(a.slices[i].flags, b.slices[i].flags);
            EXPECT_EQ(a.slices[i].correlationId, b.slices[i].correlationId);
            EXPECT_EQ(input->str(a.slices[i].nameId), merged->str(b.slices[i].nameId));
        }
    }
    ASSERT_EQ(merged->flows().size(), input->flows().size());
    for (std::size_t f = 0; f < input->flows().size(); ++f) {
        EXPECT_EQ(merged->flows()[f].from, input->flows()[f].from);
        EXPECT_EQ(merged->flows()[f].to, input->flows()[f].to);
        EXPECT_EQ(merged->flows()[f].id, input->flows()[f].id);
    }
    EXPECT_EQ(merged->metadataValue("pid"), "4242");  // one process: nothing to tell apart
    EXPECT_EQ(merged->diagnostics().spilledOverlaps, input->diagnostics().spilledOverlaps);
    EXPECT_EQ(merged->diagnostics().warningCount, input->diagnostics().warningCount);
}

TEST(TraceMerge, AReusedPidSharesOneGroupAndIsReported) {
    auto specs = threeProcesses();
    specs[2].pid = 4242;  // a worker got the pid of a process that had exited
    const auto merged = mergeOrFail(inputsOf(specs));
    ASSERT_TRUE(merged);
    std::size_t hosts = 0;
    for (const Process& p : merged->processes())
        hosts += p.deviceId < 0 ? 1 : 0;
    EXPECT_EQ(hosts, 2u);
    const auto& warnings = merged->diagnostics().warnings;
    EXPECT_NE(std::find(warnings.begin(), warnings.end(),
                        "python3 (pid 4242): pid 4242 is also in python3 (pid 4242); their rows "
                        "share one process group"),
              warnings.end());
    // Still no launch arrow between the two processes: their correlation ids were moved apart.
    std::size_t launches = 0;
    for (const Flow& f : merged->flows()) {
        const Slice& call = merged->slice(f.from);
        const Slice& work = merged->slice(f.to);
        if (call.kind == SliceKind::RuntimeApi) {
            ++launches;
            EXPECT_EQ(call.correlationId, work.correlationId);
            // Ids 1-3: the first process; 4-6: pid 4300; 7-8: the second process with pid 4242.
            const std::uint64_t offset = call.correlationId > 6   ? 6
                                         : call.correlationId > 3 ? 3
                                                                  : 0;
            const std::int64_t pid = offset == 3 ? 4300 : 4242;
            EXPECT_EQ(pidOf(*merged, merged->track(f.from.track).process), pid);
            EXPECT_EQ(pidOf(*merged, merged->track(f.to.track).process), pid);
            EXPECT_EQ(merged->str(work.nameId),
                      processKernelName(pid, static_cast<int>(call.correlationId - offset)));
        }
    }
    EXPECT_EQ(launches, 8u);
}

// Two ranks of a job on two hosts: the same pid, the same ordinal, each on its own clock.
std::vector<MergeInput> twoRanks(TimeNs offset1Ns) {
    ProcessTraceSpec rank0{4242, kClock, 3, "0", "GPU-aaaa", "node1"};
    ProcessTraceSpec rank1{4242, 5'000'000'000, 2, "1", "GPU-bbbb", "node2"};
    std::vector<MergeInput> inputs;
    inputs.push_back({makeProcessTrace(rank0), "rank 0 · node1 · pid 4242", 0, 0});
    inputs.push_back({makeProcessTrace(rank1), "rank 1 · node2 · pid 4242", offset1Ns, 1});
    return inputs;
}

TEST(TraceMerge, ARankInputIsMovedByItsClockOffset) {
    // Rank 1's clock reads 5 s where rank 0's reads kClock - 2000: rank 1 started 2 us earlier.
    const TimeNs offset = kClock - 2'000 - 5'000'000'000;
    const auto inputs = twoRanks(offset);
    const auto merged = mergeOrFail(inputs);
    ASSERT_TRUE(merged);
    EXPECT_EQ(merged->originNs(), kClock - 2'000);
    const auto kernels = kernelsByName(*merged);
    // Both traces have a kernel_4242_1 at their origin + 1200: the later one (rank 0) is kept by
    // name, so check rank 0's third launch (rank 1 has two) and rank 1's through its track.
    EXPECT_EQ(kernels.at(processKernelName(4242, 3)).first, 2'000 + 3'200);
    std::set<TimeNs> firstKernelStarts;
    for (const Track& t : merged->tracks()) {
        if (t.kind == TrackKind::GpuStream && t.streamId == 7)
            firstKernelStarts.insert(t.slices.front().startNs);
    }
    EXPECT_EQ(firstKernelStarts, (std::set<TimeNs>{1'200, 2'000 + 1'200}));
}

TEST(TraceMerge, RanksKeepTheirOwnProcessGroupsAndNames) {
    const auto merged = mergeOrFail(twoRanks(0));
    ASSERT_TRUE(merged);
    std::vector<std::pair<std::int32_t, std::string>> hosts, gpus;
    for (const Process& p : merged->processes()) {
        EXPECT_GE(p.rank, 0);
        (p.deviceId < 0 ? hosts : gpus).emplace_back(p.rank, std::string(merged->str(p.nameId)));
    }
    // The same pid and ordinal on two hosts: two host and two GPU groups, in rank order.
    EXPECT_EQ(hosts, (std::vector<std::pair<std::int32_t, std::string>>{
                         {0, "rank 0 · python3 (pid 4242)"}, {1, "rank 1 · python3 (pid 4242)"}}));
    EXPECT_EQ(gpus, (std::vector<std::pair<std::int32_t, std::string>>{
                        {0, "rank 0 · node1 · pid 4242 · GPU 0 (NVIDIA H200)"},
                        {1, "rank 1 · node2 · pid 4242 · GPU 0 (NVIDIA H200)"}}));
    // Every track of a rank lives in that rank's groups: 3 + 2 kernels on the streams 7.
    std::map<std::int32_t, std::size_t> launched;
    for (const Track& t : merged->tracks()) {
        if (t.kind == TrackKind::GpuStream && t.streamId == 7)
            launched[merged->processes()[t.process].rank] += t.slices.size();
    }
    EXPECT_EQ(launched, (std::map<std::int32_t, std::size_t>{{0, 3}, {1, 2}}));
    // Launch arrows never cross ranks (each rank's correlation ids 1.. were shifted apart).
    for (const Flow& f : merged->flows()) {
        EXPECT_EQ(merged->processes()[merged->track(f.from.track).process].rank,
                  merged->processes()[merged->track(f.to.track).process].rank);
    }
    // No "share one process group" warning: ranks never share one.
    for (const std::string& w : merged->diagnostics().warnings)
        EXPECT_EQ(w.find("share one process group"), std::string::npos) << w;
    // Per-rank facts under "rank R.", agreed ones as they are, and the merge's own.
    EXPECT_EQ(merged->metadataValue("rank 0.host"), "node1");
    EXPECT_EQ(merged->metadataValue("rank 1.host"), "node2");
    EXPECT_EQ(merged->metadataValue("rank 1.label"), "rank 1 · node2 · pid 4242");
    EXPECT_EQ(merged->metadataValue("pid"), "4242");
}

TEST(TraceMerge, MergeFactsAreSetLast) {
    const auto merged =
        mergeTraces(twoRanks(0), {{"rank alignment", "aligned by test"}, {"host", "replaced"}});
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    EXPECT_EQ(merged.value()->metadataValue("rank alignment"), "aligned by test");
    EXPECT_EQ(merged.value()->metadataValue("host"), "replaced");
}

TEST(TraceMerge, TwoInputsOfOneRankAreAnError) {
    auto inputs = twoRanks(0);
    inputs[1].rank = 0;
    const auto merged = mergeTraces(inputs);
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().message,
              "rank 0 is both rank 0 · node1 · pid 4242 and rank 1 · node2 · pid 4242");
}

TEST(TraceMerge, AClockOffsetOutOfRangeIsAnError) {
    auto inputs = twoRanks(std::numeric_limits<TimeNs>::max());
    const auto merged = mergeTraces(inputs);
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("clock offset"), std::string::npos);
}

TEST(TraceMerge, InputsMovedInAreReleasedAndOthersKept) {
    auto inputs = twoRanks(0);
    const std::weak_ptr<const Trace> first = inputs[0].trace;
    const auto kept = mergeTraces(inputs);  // a copy of the list: the caller still holds them
    ASSERT_TRUE(kept.ok());
    EXPECT_FALSE(first.expired());
    const auto moved = mergeTraces(std::move(inputs));
    ASSERT_TRUE(moved.ok());
    EXPECT_TRUE(first.expired());  // gone once copied, not kept beside the merged trace
    // The same merged trace either way.
    EXPECT_EQ(moved.value()->counts().slices, kept.value()->counts().slices);
    EXPECT_EQ(moved.value()->metadata(), kept.value()->metadata());
}
