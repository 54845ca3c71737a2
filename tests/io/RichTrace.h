#pragma once

#include "model/TraceBuilder.h"

namespace wl::io::testing {

// A trace that uses every model field the format carries: two devices, overlaps that spill,
// NVTX in domains with colours, async NVTX ranges, counters with units, explicit and launch
// flows, instants, metadata, diagnostics, and ns values a double-µs conversion would break.
inline model::TracePtr richTrace() {
    using model::TimeNs;
    model::TraceBuilder b;
    constexpr TimeNs kBase = 1'790'857'026'123'456'789;  // absolute epoch ns: beyond 2^53
    const auto host = b.hostProcess(4242, "app \"quoted\"\n");
    const auto gpu0 = b.gpuProcess(0, "GPU 0");
    const auto gpu1 = b.gpuProcess(1);
    const auto api = b.hostApiTrack(host, 4243);
    const auto nvtx = b.nvtxTrack(host, 4243, "my domain");
    const auto nvtxAsync = b.nvtxAsyncTrack(host, "async");
    const auto s7 = b.gpuStreamTrack(gpu0, 7);
    const auto s0 = b.gpuStreamTrack(gpu1, 0);  // stream 0 must not become tid 0
    const auto sync = b.syncTrack(gpu0);
    const auto other = b.hostTrack(host, 99);
    b.setTrackName(other, "python thread");

    model::ApiDetail launch;
    launch.callbackId = 211;
    b.addApi(api, kBase + 1, kBase + 5001, "cudaLaunchKernel", 11, launch);
    model::ApiDetail failed;
    failed.apiKind = model::ApiKind::Driver;
    failed.callbackId = 7;
    failed.returnCode = 2;
    b.addApi(api, kBase + 6000, kBase + 6999, "cuLaunchKernel", 12, failed);
    model::KernelDetail k;
    k.grid = {120, 2, 1};
    k.block = {256, 1, 1};
    k.registersPerThread = 40;
    k.staticSharedBytes = 1024;
    k.dynamicSharedBytes = 4096;
    k.warpsPerSm = 12.5f;
    k.estimatedOccupancyPct = 33.333332f;
    b.addKernel(s7, kBase + 7001, kBase + 9002, "reduce<256>(float*)", 11, k);
    // Two kernels on one stream that overlap without nesting: the second spills.
    b.addKernel(s7, kBase + 9001, kBase + 12003, "overlap A", 0, model::KernelDetail{});
    b.addKernel(s7, kBase + 10001, kBase + 14003, "overlap B", 0, model::KernelDetail{});
    model::MemcpyDetail m;
    m.bytes = 1 << 20;
    m.copyKind = model::CopyKind::PeerToPeer;
    m.srcKind = model::MemoryKind::Device;
    m.dstKind = model::MemoryKind::Device;
    m.srcDevice = 1;
    m.dstDevice = 0;
    b.addMemcpy(s0, kBase + 3, kBase + 8004, "Memcpy PtoP (Device -> Device)", 12, m);
    model::MemsetDetail ms;
    ms.bytes = 4096;
    ms.value = 0xff;
    ms.memoryKind = model::MemoryKind::Managed;
    b.addMemset(s0, kBase + 9000, kBase + 9001, "Memset (Managed)", 0, ms);
    model::SyncDetail sd;
    sd.syncKind = model::SyncKind::StreamWaitEvent;
    sd.streamId = 7;
    sd.eventId = 77;
    b.addSync(sync, kBase + 100, kBase + 2000, "Stream Wait Event", 0, sd);
    b.addSync(sync, kBase + 150, kBase + 2500, "Context Sync", 0, model::SyncDetail{});
    model::NvtxDetail n;
    n.colorArgb = 0xff112233u;
    n.domainId = b.intern("my domain");
    n.category = 3;
    b.addNvtx(nvtx, kBase, kBase + 20000, "outer \\ range", n);
    b.addNvtx(nvtx, kBase + 10, kBase + 200, "inner", model::NvtxDetail{});
    b.addNvtx(nvtxAsync, kBase + 5, kBase + 500, "async 1", model::NvtxDetail{});
    b.addNvtx(nvtxAsync, kBase + 400, kBase + 900, "async 2", model::NvtxDetail{});
    b.addSlice(other, kBase + 1234, kBase + 1234, "mark", model::SliceKind::Instant);
    b.addSlice(other, kBase + 2000, kBase + 3000, "cpu op", model::SliceKind::CpuOp, 5);
    b.addSlice(other, kBase + 2100, kBase + 2200, "python frame", model::SliceKind::Other);
    b.addSlice(other, kBase + 3000, kBase + 3001, "profiler overhead", model::SliceKind::Overhead);
    b.addFlow(900, other, kBase + 2500, s0, kBase + 9000);
    // A pool allocation made by its API call, then its release (no call recorded for it).
    const auto memory = b.memoryTrack(gpu0);
    b.addApi(api, kBase + 15000, kBase + 15100, "cudaMallocAsync", 13, model::ApiDetail{});
    model::MemoryDetail alloc;
    alloc.memoryKind = model::MemoryKind::Device;
    alloc.address = 0x7f0000001000;
    alloc.bytes = 4096;
    alloc.streamId = 7;
    alloc.fromPool = true;
    alloc.poolAddress = 0x7f0000000000;
    alloc.poolReservedBytes = 2 << 20;
    b.addMemory(memory, kBase + 15050, "Allocate (Device, pool)", 13, alloc);
    model::MemoryDetail release = alloc;
    release.op = model::MemoryOp::Release;
    release.fromPool = false;
    release.poolAddress = 0;
    release.poolReservedBytes = 0;
    release.streamId = -1;
    b.addMemory(memory, kBase + 16000, "Release (Device)", 0, release);
    const auto counter = b.counterTrack(gpu0, "GPU metrics", "warp occupancy %", "%");
    b.addCounterSample(counter, kBase + 0, 12.5);
    b.addCounterSample(counter, kBase + 1000, 0.1 + 0.2);
    b.counterTrack(gpu1, "GPU metrics", "sm active %", "%");  // no samples yet
    model::DeviceProperties d;
    d.id = 0;
    d.name = "NVIDIA H100 80GB HBM3";
    d.smCount = 132;
    d.maxThreadsPerSm = 2048;
    d.maxWarpsPerSm = 64;
    d.memoryBandwidthGBps = 3352.32;
    d.pcieGeneration = 5;
    b.addDevice(d);
    b.setMetadata("producer", "warpline test");
    b.setMetadata("workload", "reduce");
    b.diagnostics().droppedRecords = 3;
    b.diagnostics().invalidTimestamps = 4;
    b.diagnostics().unknownPhases = 5;
    b.diagnostics().unmatchedEnds = 6;
    b.diagnostics().unknownRecords = 7;
    b.diagnostics().truncatedStrings = 8;
    b.diagnostics().warn("3 CUPTI records were dropped");
    return b.finalize();
}

}  // namespace wl::io::testing
