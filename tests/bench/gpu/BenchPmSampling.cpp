// What GPU metrics (CUPTI PM sampling) cost on the workloads' wall time: each workload run
// untraced, traced, traced with GPU metrics, and with PM sampling alone. The manual time of an
// iteration is the whole run including the tracer's or sampler's start and stop, which is what
// `warpline run --gpu-metrics` adds to a run; loop_ms is the workload's own timed part.
// GPU machine: BenchPmSampling --benchmark_min_time=... (see docs/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cupti/CuptiTracer.h"
#include "cupti/PmSampler.h"
#include "workloads/Workload.h"

namespace {

using wl::cupti::CuptiTracer;
using wl::cupti::PmSampler;
using wl::cupti::TracerOptions;
using wl::workloads::Mode;
using wl::workloads::WorkloadParams;

enum Instrument : int { kNone = 0, kTracer = 1, kTracerWithMetrics = 2, kSamplerOnly = 3 };

const char* instrumentName(int instrument) {
    switch (instrument) {
        case kNone:
            return "untraced";
        case kTracer:
            return "traced";
        case kTracerWithMetrics:
            return "traced+gpu-metrics";
        default:
            return "pm-sampling-only";
    }
}

CuptiTracer& tracer() {
    static CuptiTracer instance;  // CUPTI allows one subscriber per process
    return instance;
}

WorkloadParams paramsFor(const std::string& workload) {
    WorkloadParams params;
    if (workload == "reduce") {
        // The case: reduce async (v3) on 4 pinned streams, default 100M floats.
        params.mode = Mode::Async;
        params.streams = 4;
        params.pinned = true;
        params.repeat = 10;
    } else {
        params.mode = Mode::Baseline;
        params.quiet = true;
    }
    return params;
}

// Mean warp occupancy over the samples that start inside kernels whose name contains `kernel`
// (how deep the occupancy row dips under, say, single_thread_sum); NAN when none.
double occupancyUnder(const wl::model::Trace& trace, std::string_view kernel) {
    std::vector<std::pair<wl::model::TimeNs, wl::model::TimeNs>> spans;
    for (const auto& track : trace.tracks()) {
        if (track.kind != wl::model::TrackKind::GpuStream) {
            continue;
        }
        for (const auto& slice : track.slices) {
            if (trace.str(slice.nameId).find(kernel) != std::string_view::npos) {
                spans.emplace_back(slice.startNs, slice.endNs());
            }
        }
    }
    std::sort(spans.begin(), spans.end());
    double sum = 0.0;
    int n = 0;
    for (const auto& counter : trace.counters()) {
        if (trace.str(counter.seriesId) != "warp occupancy %") {
            continue;
        }
        for (const auto& sample : counter.samples) {
            auto it = std::upper_bound(
                spans.begin(), spans.end(),
                std::make_pair(sample.timestampNs, std::numeric_limits<wl::model::TimeNs>::max()));
            if (it != spans.begin() && sample.timestampNs < std::prev(it)->second) {
                sum += sample.value;
                ++n;
            }
        }
    }
    return n > 0 ? sum / n : NAN;
}

void runWorkload(benchmark::State& state, const std::string& name) {
    const int instrument = static_cast<int>(state.range(0));
    auto made = wl::workloads::makeWorkload(name);
    if (!made.ok()) {
        state.SkipWithError(made.error().message.c_str());
        return;
    }
    auto workload = std::move(made.value());
    const WorkloadParams params = workload->withDefaults(paramsFor(name));
    if (auto ok = wl::workloads::validateOnDevice(*workload, params); !ok) {
        state.SkipWithError(ok.error().message.c_str());
        return;
    }
    if (auto warm = workload->run(params); !warm.ok()) {  // module loading, first allocations
        state.SkipWithError(warm.error().message.c_str());
        return;
    }
    double loopMs = 0.0;
    double samples = 0.0;
    bool reported = false;
    for (auto _ : state) {
        const auto started = std::chrono::steady_clock::now();
        PmSampler sampler;
        if (instrument == kTracer || instrument == kTracerWithMetrics) {
            TracerOptions options;
            options.gpuMetrics = instrument == kTracerWithMetrics;
            if (auto ok = tracer().start(options); !ok) {
                state.SkipWithError(ok.error().message.c_str());
                return;
            }
        } else if (instrument == kSamplerOnly) {
            if (auto ok = sampler.start(0); !ok) {
                state.SkipWithError(ok.error().message.c_str());
                return;
            }
        }
        auto result = workload->run(params);
        if (instrument == kTracer || instrument == kTracerWithMetrics) {
            auto trace = tracer().stop();
            if (!trace.ok()) {
                state.SkipWithError(trace.error().message.c_str());
                return;
            }
            for (const auto& counter : trace.value()->counters()) {
                samples += static_cast<double>(counter.samples.size()) / 2.0;  // two series
            }
            if (instrument == kTracerWithMetrics && name == "reduce" && !reported) {
                reported = true;
                std::printf(
                    "occupancy under kernels (%s): single_thread_sum %.3f%%, "
                    "partial_reduce %.3f%%, divide_by %.3f%%\n",
                    name.c_str(), occupancyUnder(*trace.value(), "single_thread_sum"),
                    occupancyUnder(*trace.value(), "partial_reduce"),
                    occupancyUnder(*trace.value(), "divide_by"));
            }
        } else if (instrument == kSamplerOnly) {
            auto series = sampler.stop();
            if (!series.ok()) {
                state.SkipWithError(series.error().message.c_str());
                return;
            }
            samples += static_cast<double>(series.value()[0].samples.size());
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (!result.ok() || !result.value().passed) {
            state.SkipWithError(result.ok() ? result.value().checkText.c_str()
                                            : result.error().message.c_str());
            return;
        }
        loopMs += result.value().loopMs;
        state.SetIterationTime(seconds);
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["loop_ms"] = loopMs / n;
    state.counters["samples"] = samples / n;
    state.SetLabel(std::string(name) + " " + instrumentName(instrument));
}

void BM_Reduce(benchmark::State& state) {
    runWorkload(state, "reduce");
}
void BM_Power(benchmark::State& state) {
    runWorkload(state, "power");
}

// Start + stop of PM sampling alone around ~nothing: the fixed cost per run, by hardware buffer
// size (MiB), with the steps of the last iteration.
void BM_SamplerStartStop(benchmark::State& state) {
    std::vector<std::pair<std::string, double>> steps;
    for (auto _ : state) {
        PmSampler sampler;
        sampler.setHardwareBufferBytes(static_cast<std::size_t>(state.range(0)) << 20);
        if (auto ok = sampler.start(0); !ok) {
            state.SkipWithError(ok.error().message.c_str());
            return;
        }
        auto series = sampler.stop();
        if (!series.ok()) {
            state.SkipWithError(series.error().message.c_str());
            return;
        }
        steps = sampler.stats().stepMs;
    }
    std::printf("PM start/stop steps, %lld MiB buffer (last iteration):",
                static_cast<long long>(state.range(0)));
    for (const auto& [name, ms] : steps) {
        std::printf(" %s %.1f ms;", name.c_str(), ms);
    }
    std::printf("\n");
}

// Small hardware buffers at the 5 µs minimum interval for 200 ms: no overflow with N MiB means
// one sample takes at most N MiB / (10 ms drain / 5 µs) = N MiB / 2000 of the buffer.
void BM_SamplerBufferHeadroom(benchmark::State& state) {
    double overflows = 0.0;
    double samples = 0.0;
    for (auto _ : state) {
        PmSampler sampler;
        sampler.setHardwareBufferBytes(static_cast<std::size_t>(state.range(0)) << 20);
        if (auto ok = sampler.start(0, PmSampler::kMinIntervalNs); !ok) {
            state.SkipWithError(ok.error().message.c_str());
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        auto series = sampler.stop();
        if (!series.ok()) {
            state.SkipWithError(series.error().message.c_str());
            return;
        }
        overflows += static_cast<double>(sampler.stats().overflows);
        samples += static_cast<double>(series.value()[0].samples.size());
    }
    state.counters["overflows"] = overflows;
    state.counters["samples"] = samples / static_cast<double>(state.iterations());
}

BENCHMARK(BM_Reduce)
    ->DenseRange(kNone, kSamplerOnly)
    ->Iterations(3)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Power)
    ->DenseRange(kNone, kSamplerOnly)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SamplerBufferHeadroom)
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SamplerStartStop)
    ->Arg(16)
    ->Arg(32)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
