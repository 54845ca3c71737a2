// What one NVTX call costs the program under Warpline's NVTX tool (cupti/NvtxInjection.h): a
// push/pop pair and a mark, through the recorder directly and through NVTX's own loader (the
// static injection hook, as in `warpline run`; `record` reaches the same handlers through
// NVTX_INJECTION64_PATH), on CUPTI's clock and on a clock that costs nothing (to tell the
// clock's share). Needs CUPTI, not a GPU. Every 2^16 iterations the recorder is emptied, outside
// the timing, so memory stays bounded.
#include <benchmark/benchmark.h>
#include <cupti.h>
#include <nvtx3/nvtx3.hpp>

#include <atomic>
#include <cstdint>

#include "cupti/CuptiTracer.h"
#include "cupti/NvtxRecorder.h"

namespace {

using wl::cupti::NvtxAttributes;
using wl::cupti::NvtxRecorder;

constexpr std::int64_t kCollectEvery = 1 << 16;

std::atomic<std::uint64_t> g_tick{0};
std::uint64_t freeClock() {
    return g_tick.fetch_add(1, std::memory_order_relaxed);
}

void drainNow(benchmark::State& state, NvtxRecorder& recorder) {
    state.PauseTiming();
    benchmark::DoNotOptimize(recorder.collect());
    state.ResumeTiming();
}

NvtxAttributes named(const char* text) {
    NvtxAttributes a;
    a.message = text;
    return a;
}

// Runs `call` once per iteration with `recorder` recording, emptying it every kCollectEvery
// iterations outside the timing.
template <typename Call>
void recorded(benchmark::State& state, NvtxRecorder& recorder, Call call) {
    recorder.setRecording(true);
    std::int64_t n = 0;
    for (auto _ : state) {
        call();
        if (++n % kCollectEvery == 0) {
            drainNow(state, recorder);
        }
    }
    recorder.setRecording(false);
    (void)recorder.collect();
}

void pushPop(benchmark::State& state, NvtxRecorder& recorder, const char* name) {
    const NvtxAttributes step = named(name);
    recorded(state, recorder, [&] {
        benchmark::DoNotOptimize(recorder.push(nullptr, step));
        benchmark::DoNotOptimize(recorder.pop(nullptr));
    });
}

void BM_RecorderPushPopFreeClock(benchmark::State& state) {
    static NvtxRecorder recorder(&freeClock);
    pushPop(state, recorder, "step");
}
BENCHMARK(BM_RecorderPushPopFreeClock);

void BM_RecorderPushPopCuptiClock(benchmark::State& state) {
    pushPop(state, NvtxRecorder::instance(), "step");
}
BENCHMARK(BM_RecorderPushPopCuptiClock);

void BM_RecorderPushPopLongName(benchmark::State& state) {
    // A name past the string's inline capacity: one allocation per range.
    pushPop(state, NvtxRecorder::instance(), "forward pass of the transformer block 17");
}
BENCHMARK(BM_RecorderPushPopLongName);

// The program's own calls, through NVTX's loader and the installed handlers.
void BM_NvtxRangePushAPop(benchmark::State& state) {
    recorded(state, NvtxRecorder::instance(), [] {
        nvtxRangePushA("step");
        nvtxRangePop();
    });
}
BENCHMARK(BM_NvtxRangePushAPop);

struct BenchDomain {
    static constexpr char const* name{"bench"};
};

void BM_Nvtx3ScopedRangeInDomain(benchmark::State& state) {
    recorded(state, NvtxRecorder::instance(),
             [] { nvtx3::scoped_range_in<BenchDomain> r{"step"}; });
}
BENCHMARK(BM_Nvtx3ScopedRangeInDomain);

void BM_NvtxMarkA(benchmark::State& state) {
    recorded(state, NvtxRecorder::instance(), [] { nvtxMarkA("tick"); });
}
BENCHMARK(BM_NvtxMarkA);

// Between `warpline run`'s runs: handlers installed, nothing recorded.
void BM_NvtxRangePushAPopNotRecording(benchmark::State& state) {
    NvtxRecorder::instance().setRecording(false);
    for (auto _ : state) {
        nvtxRangePushA("step");
        nvtxRangePop();
    }
}
BENCHMARK(BM_NvtxRangePushAPopNotRecording);

void BM_CuptiClock(benchmark::State& state) {
    for (auto _ : state) {
        std::uint64_t now = 0;
        benchmark::DoNotOptimize(cuptiGetTimestamp(&now));
        benchmark::DoNotOptimize(now);
    }
}
BENCHMARK(BM_CuptiClock);

}  // namespace

int main(int argc, char** argv) {
    // Before the first NVTX call: NVTX must attach to Warpline's handlers.
    wl::cupti::CuptiTracer::ensureNvtxInjection();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
