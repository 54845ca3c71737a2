#pragma once

#include <cstdint>
#include <string>

#include "model/TraceBuilder.h"

namespace wl::test {

// What one traced process of a `record` run looks like, for merge tests: what makeProcessTrace
// puts in its trace.
struct ProcessTraceSpec {
    std::int64_t pid = 4242;
    model::TimeNs originNs = 0;  // absolute clock value of the trace's first event (the NVTX range)
    int launches = 3;            // cudaLaunchKernel calls with correlation ids 1..launches
    std::string rank = "0";      // empty: the trace names no rank
    std::string deviceUuid = "GPU-0c6e9a51";
    std::string host = "node1";
    // record's "wall ns,trace clock ns" pair read as tracing started; empty: none.
    std::string clockSyncStart;
};

// Kernel names say whose launch they are: "kernel_<pid>_<k>" for correlation id k.
inline std::string processKernelName(std::int64_t pid, int launch) {
    return "kernel_" + std::to_string(pid) + "_" + std::to_string(launch);
}

// A trace as `record` writes for one process, on device 0: a host process named
// "python3 (pid P)" whose API thread launches `launches` kernels on stream 7 (correlation ids
// 1..launches, so they collide between processes), an NVTX range "Loop" in domain "app" over
// everything, a "python" thread with an "enqueue" slice (and a child starting with it) that an
// explicit flow joins to the first kernel, two overlapping kernels on stream 8 that spill, an
// "sm active %" counter, a capture window, device properties, metadata and diagnostics. Times
// are `originNs` + small offsets, so the trace's origin is `originNs`.
inline model::TracePtr makeProcessTrace(const ProcessTraceSpec& spec) {
    using model::TimeNs;
    model::TraceBuilder b;
    const TimeNs t0 = spec.originNs;
    const auto host = b.hostProcess(spec.pid, "python3 (pid " + std::to_string(spec.pid) + ")");
    const auto gpu = b.gpuProcess(0, "GPU 0");
    const auto api = b.hostApiTrack(host, spec.pid);
    const auto nvtx = b.nvtxTrack(host, spec.pid, "app");
    const auto python = b.hostTrack(host, spec.pid + 1);
    b.setTrackName(python, "python");
    const auto stream = b.gpuStreamTrack(gpu, 7);
    const auto spill = b.gpuStreamTrack(gpu, 8);

    model::NvtxDetail range;
    range.colorArgb = 0xff00aa00u;
    range.domainId = b.intern("app");
    range.category = 2;
    range.categoryNameId = b.intern("training");
    b.addNvtx(nvtx, t0, t0 + (spec.launches + 2) * 1000, "Loop", range);

    model::ApiDetail launch;
    launch.callbackId = 211;
    model::KernelDetail k;
    k.grid = {static_cast<std::int32_t>(spec.pid % 1000), 1, 1};  // says whose kernel it is
    k.block = {256, 1, 1};
    k.registersPerThread = 32;
    for (int c = 1; c <= spec.launches; ++c) {
        const TimeNs t = t0 + c * 1000;
        b.addApi(api, t, t + 100, "cudaLaunchKernel", static_cast<std::uint64_t>(c), launch);
        b.addKernel(stream, t + 200, t + 700, processKernelName(spec.pid, c),
                    static_cast<std::uint64_t>(c), k);
    }
    // The flow leaves "enqueue" at a time its child does not cover.
    b.addSlice(python, t0 + 50, t0 + 150, "enqueue", model::SliceKind::Other);
    b.addSlice(python, t0 + 50, t0 + 80, "enqueue.child", model::SliceKind::Other);
    b.addFlow(900, python, t0 + 120, stream, t0 + 1200 + 1);
    b.addKernel(spill, t0 + 300, t0 + 600, "overlap A", 0, model::KernelDetail{});
    b.addKernel(spill, t0 + 500, t0 + 800, "overlap B", 0, model::KernelDetail{});

    const auto counter = b.counterTrack(gpu, "GPU metrics", "sm active %", "%");
    b.addCounterSample(counter, t0 + 500, 25.0);
    b.addCounterSample(counter, t0 + 1500, 75.5);
    b.addCaptureWindow(t0 + 900, t0 + 2500);

    model::DeviceProperties d;
    d.id = 0;
    d.name = "NVIDIA H200";
    d.smCount = 132;
    d.maxWarpsPerSm = 64;
    d.uuid = spec.deviceUuid;
    b.addDevice(d);

    b.setMetadata("producer", "warpline record");
    b.setMetadata("host", spec.host);
    b.setMetadata("pid", std::to_string(spec.pid));
    if (!spec.rank.empty())
        b.setMetadata("rank", spec.rank);
    if (!spec.clockSyncStart.empty())
        b.setMetadata("clock_sync_start", spec.clockSyncStart);
    b.diagnostics().droppedRecords = 2;
    b.diagnostics().truncatedStrings = 1;
    b.diagnostics().warn("2 CUPTI records were dropped");
    return b.finalize();
}

}  // namespace wl::test
