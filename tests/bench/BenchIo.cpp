// Import/export throughput of Chrome trace JSON on a generated trace of about 1.5M events, and
// the model's memory per slice. Rates are per CPU second of the one thread doing the work, so a
// busy machine does not hide what one core achieves; wall time is reported too.
#include <benchmark/benchmark.h>

#include <string>

#include "io/ChromeTraceReader.h"
#include "io/ChromeTraceWriter.h"
#include "support/TraceFactory.h"

namespace {

using wl::io::ChromeTraceReader;
using wl::io::ChromeTraceWriter;

// About 800k slices (kernels, copies, memsets, syncs with their launching API calls, NVTX),
// ~380k launch flows (760k flow events) and 10k counter samples: ~1.6M JSON events.
const wl::model::TracePtr& benchTrace() {
    static const wl::model::TracePtr trace = [] {
        wl::test::SyntheticTraceSpec spec;
        spec.kernels = 300'000;
        spec.memcpys = 60'000;
        spec.memsets = 20'000;
        spec.syncs = 10'000;
        spec.nvtxRanges = 20'000;
        spec.counterSamples = 10'000;
        spec.streams = 8;
        spec.devices = 2;
        return wl::test::makeSyntheticTrace(spec);
    }();
    return trace;
}

// Our export, with padding capacity so the reader parses in place.
const std::string& benchJson() {
    static const std::string json = [] {
        std::string s = ChromeTraceWriter(*benchTrace()).toString();
        s.reserve(s.size() + ChromeTraceReader::kPadding);
        return s;
    }();
    return json;
}

// The same events without our "warpline" block: the path any other producer's file takes
// (tracks from categories and args, flows paired from s/f events).
const std::string& foreignJson() {
    static const std::string json = [] {
        std::string s = benchJson();
        const auto begin = s.find("\n\"warpline\":");
        const auto end = s.find('\n', begin + 1);
        s.erase(begin, end - begin);
        s.reserve(s.size() + ChromeTraceReader::kPadding);
        return s;
    }();
    return json;
}

void BM_Export(benchmark::State& state) {
    const auto& trace = *benchTrace();
    std::string out;
    out.reserve(benchJson().size() + (1 << 20));
    for (auto _ : state) {
        out.clear();
        const auto status = ChromeTraceWriter(trace).write([&](std::string_view chunk) {
            out.append(chunk);
            return true;
        });
        benchmark::DoNotOptimize(status.ok());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
    state.counters["MB"] = static_cast<double>(out.size()) / 1e6;
    state.counters["events"] = static_cast<double>(
        trace.counts().slices + 2 * trace.counts().flows + trace.counts().counterSamples);
}

void importBench(benchmark::State& state, const std::string& json) {
    wl::model::TracePtr trace;
    for (auto _ : state) {
        trace.reset();  // freeing the previous model is part of the loop, as in an app reopening
        auto result = ChromeTraceReader().read(json, "bench.json", json.capacity());
        if (!result.ok()) {
            state.SkipWithError(result.error().describe().c_str());
            return;
        }
        trace = std::move(result.value());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * json.size()));
    state.counters["MB"] = static_cast<double>(json.size()) / 1e6;
    state.counters["slices"] = static_cast<double>(trace->counts().slices);
    state.counters["bytes_per_slice"] =
        static_cast<double>(trace->memoryBytes()) / static_cast<double>(trace->counts().slices);
}

void BM_ImportOwnFormat(benchmark::State& state) {
    importBench(state, benchJson());
}
void BM_ImportOtherProducer(benchmark::State& state) {
    importBench(state, foreignJson());
}

BENCHMARK(BM_Export)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportOwnFormat)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportOtherProducer)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
