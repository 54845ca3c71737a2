#pragma once

#include <cstddef>
#include <cstdint>

#include "model/Trace.h"

namespace wl::test {

// What makeSyntheticTrace generates. Counts are totals over all devices and streams.
struct SyntheticTraceSpec {
    std::size_t kernels = 1000;
    std::size_t memcpys = 200;  // H2D, D2H and D2D mixed, pinned and pageable
    std::size_t memsets = 50;
    std::size_t syncs = 20;          // cudaStreamSynchronize: an API call plus a Sync slice
    std::size_t nvtxRanges = 100;    // half top-level ranges, half nested inside them
    std::size_t counterSamples = 0;  // samples of one "sm active %" counter per device
    int streams = 4;                 // per device
    int devices = 1;                 // one host thread launches on each device
    bool launchApiCalls = true;      // a runtime API call with a correlation id per GPU op
    std::uint64_t seed = 1;
};

// A deterministic, realistic-looking trace built through the model's TraceBuilder (no io): kernels,
// copies and memsets on S streams of D devices, launched by runtime API calls on one host thread
// per device (so launch flows exist), stream synchronisations, nested NVTX ranges, counters and
// device properties. The same spec always gives the same trace. Slice count is about
// 2 * (kernels + memcpys + memsets) + 2 * syncs + nvtxRanges with launchApiCalls on.
model::TracePtr makeSyntheticTrace(const SyntheticTraceSpec& spec);

// The analysis benchmarks' mix for `gpuOps` GPU operations on 4 streams: 80 % kernels, 15 % copies,
// 5 % memsets, one stream sync per 100 ops and one NVTX range per 50 (500k ops: about 1.0M slices).
SyntheticTraceSpec gpuOpsSpec(std::size_t gpuOps);

// One wait through a CUDA event: "producer" [100,500) on stream 7, the event recorded after it
// (correlation 2), stream 9 waiting for it (event 5, correlation 3) before "consumer" [510,900).
model::TracePtr makeEventWaitTrace();

// Two GPUs of one program, times in µs: GPU 0 runs "early" [100,200) on stream 7; GPU 1 runs
// "producer" [100,1000) on stream 27, an event is recorded after it (correlation 3) and GPU 0's
// stream 7 waits for it (correlation 4) before "consumer" [1010,1100): GPU 0 idles [200,1010)
// for GPU 1.
model::TracePtr makeCrossDeviceWaitTrace();

// CUDA graph 4 launched twice from thread 100 (cudaGraphLaunch at [0,10) correlation 10 and
// [20,30) correlation 20), two nodes each on stream 7: "a" [100,150) and "b" [160,200), then
// "a" [300,350) and "b2" [320,400).
model::TracePtr makeGraphLaunchTrace();

// An H100 SXM (80 GB HBM3) as cudaGetDeviceProperties reports it, with the given ordinal.
model::DeviceProperties h100Properties(std::int32_t id);

}  // namespace wl::test
