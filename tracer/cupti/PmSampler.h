#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/Result.h"
#include "model/Track.h"

namespace wl::cupti {

class PmSamplingApi;

// One sampled GPU metric over time, ready for TraceBuilder::counterTrack/addCounterSample.
struct MetricSeries {
    std::string name;  // "warp occupancy %" or "SM active %"
    std::string unit;  // "%"
    // Timestamps in the CUPTI activity clock (ns, the clock of kernel records, not rebased); each
    // sample is the average over [timestamp, next sample's timestamp).
    std::vector<model::CounterSample> samples;
};

// What happened to the samples of one run, for the trace's diagnostics.
struct PmSamplingStats {
    std::uint64_t decodedSamples = 0;   // samples read from the hardware buffer
    std::uint64_t invalidSamples = 0;   // zero/reversed timestamps or non-finite values (dropped)
    std::uint64_t overflows = 0;        // times the hardware buffer was full: samples were lost
    std::uint64_t counterDataFull = 0;  // decode passes that filled the host image: samples that
                                        // did not fit may be lost (a hole in the series)
    std::uint64_t decodePasses = 0;     // decode calls (the decode thread plus the final one)
    double decodeMs = 0.0;              // time in cuptiPmSamplingDecodeData
    double evaluateMs = 0.0;  // time reading decoded samples (sample info, metric evaluation)
    std::vector<std::string> warnings;  // for the trace's diagnostics (lost samples, late errors)
    // Duration of each start() and stop() step, in order (ms), for performance notes.
    std::vector<std::pair<std::string, double>> stepMs;
};

// A metric that PmSampler collects: its CUPTI name (GH100 and later) and its series name.
struct PmMetric {
    const char* cuptiName;
    const char* seriesName;
};
inline constexpr PmMetric kPmMetrics[] = {
    {"sm__warps_active.avg.pct_of_peak_sustained_elapsed", "warp occupancy %"},
    {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "SM active %"},
};

// CUPTI PM sampling of achieved warp occupancy % and SM active % on one device. start()
// configures the counters and starts a decode thread that keeps the hardware buffer drained into
// host memory; stop() stops sampling, decodes the rest, tears everything down (also after errors)
// and returns one series per metric. Owns its CUPTI PM sampling session (one per device per
// process: a second start() on a device that is being sampled is an error). start/stop from one
// thread; the decode thread is internal. PM sampling locks the GPU clocks while active, so the
// caller makes it opt-in.
class PmSampler {
public:
    // Default interval: 100 µs (10 kHz, Nsight Systems' default for GPU metrics). Decoding costs
    // the host 20-35 µs per sample (CUPTI's decode plus the metric evaluation, measured on an
    // H100 host): at 20 µs the decode thread fell behind, the series got holes and, once the
    // hardware buffer overflowed, stopped (PERFORMANCE.md). At 100 µs it uses a third of a core.
    static constexpr std::int64_t kDefaultIntervalNs = 100'000;
    // Bounds of start()'s interval: Nsight Systems samples at most at 200 kHz (5 µs); above 1 s
    // the series says nothing about kernels.
    static constexpr std::int64_t kMinIntervalNs = 5'000;
    static constexpr std::int64_t kMaxIntervalNs = 1'000'000'000;
    // Hardware buffer the GPU writes samples into between two drains. On an H200 a sample of these
    // two metrics takes ~8 KiB of it, and once it overflows nothing more arrives (PERFORMANCE.md):
    // 128 MiB holds ~16k samples, 1.6 s at 100 µs, so a stalled decode thread has room. Larger
    // buffers make start() slower (setConfig: 70 ms at 16 MiB, 124 ms at 128 MiB).
    static constexpr std::size_t kDefaultHardwareBufferBytes = std::size_t{128} << 20;
    static constexpr std::size_t kMinHardwareBufferBytes = std::size_t{1} << 20;

    PmSampler();                                             // uses CUPTI
    explicit PmSampler(std::unique_ptr<PmSamplingApi> api);  // tests pass a fake
    ~PmSampler();  // stops and tears down if still running
    PmSampler(const PmSampler&) = delete;
    PmSampler& operator=(const PmSampler&) = delete;

    // Errors: interval out of range, no such device, GPU or driver without PM sampling, counters
    // held by another profiler (Nsight, DCGM, another session), insufficient permissions.
    model::Status start(int deviceId, std::int64_t intervalNs = kDefaultIntervalNs);
    // Series in kPmMetrics order. An error only when nothing usable was collected; lost samples
    // are counted in stats().
    model::Result<std::vector<MetricSeries>> stop();

    // For tuning and benchmarks: the hardware buffer size of the next start() (bytes).
    void setHardwareBufferBytes(std::size_t bytes);

    bool running() const;
    int deviceId() const;
    std::int64_t intervalNs() const;
    PmSamplingStats stats() const;  // of the current or last run

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace wl::cupti
