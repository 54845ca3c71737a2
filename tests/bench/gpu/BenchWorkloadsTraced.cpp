// Tracing overhead on the workloads: each configuration runs untraced and under the CUPTI tracer,
// alternating, in the same process; prints the medians and their ratio (target <= 1.05x).
// The first traced run pays CUPTI's one-time start-up and is reported apart.
// Needs a GPU; prints a note and exits 0 without one.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cupti/CuptiTracer.h"
#include "workloads/Workload.h"

namespace {

using namespace wl::workloads;

struct Config {
    const char* name;
    const char* workload;
    Mode mode;
    int streams;
    bool pinned;
    int repeat;
};

const Config kConfigs[] = {
    {"reduce baseline pinned 100M", "reduce", Mode::Baseline, 1, true, 1},
    {"reduce async 8 streams pinned 100M", "reduce", Mode::Async, 8, true, 1},
    {"reduce async 8 streams pinned 100M repeat 50", "reduce", Mode::Async, 8, true, 50},
    {"power baseline pinned 8192", "power", Mode::Baseline, 1, true, 0},
    {"power async 2 streams pinned 8192", "power", Mode::Async, 2, true, 0},
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Times {
    double wallMs = 0.0;  // the whole run() call
    double loopMs = 0.0;  // the timed part
};

Times runOnce(Workload& w, const WorkloadParams& p, wl::cupti::CuptiTracer* tracer) {
    if (tracer != nullptr) {
        const auto started = tracer->start();
        if (!started.ok()) {
            std::fprintf(stderr, "tracer: %s\n", started.error().describe().c_str());
            std::exit(1);
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = w.run(p);
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (tracer != nullptr) {
        const auto trace = tracer->stop();
        if (!trace.ok()) {
            std::fprintf(stderr, "tracer: %s\n", trace.error().describe().c_str());
            std::exit(1);
        }
    }
    if (!result.ok() || !result->passed) {
        std::fprintf(stderr, "run failed: %s\n",
                     result.ok() ? result->checkText.c_str() : result.error().message.c_str());
        std::exit(1);
    }
    return {wallMs, result->loopMs};
}

}  // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA device: nothing to measure\n");
        return 0;
    }
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    wl::cupti::CuptiTracer tracer;
    {
        // CUPTI's one-time cost: first start/stop around a small run.
        auto w = makeWorkload("reduce");
        WorkloadParams p;
        p.size = 1'000'000;
        const auto t0 = std::chrono::steady_clock::now();
        runOnce(**w, p, &tracer);
        std::printf("first traced run (1M reduce, includes CUPTI start-up): %.1f ms\n",
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count());
    }
    std::printf("%-46s %11s %11s %7s %11s %11s %7s\n", "configuration", "wall untr.", "wall traced",
                "ratio", "timed untr.", "timed trac.", "ratio");
    for (const Config& c : kConfigs) {
        auto w = makeWorkload(c.workload);
        WorkloadParams p;
        p.mode = c.mode;
        p.streams = c.streams;
        p.pinned = c.pinned;
        p.repeat = c.repeat;
        p.quiet = true;
        std::vector<double> wallU, wallT, loopU, loopT;
        runOnce(**w, p, nullptr);  // warm caches, page pools
        for (int r = 0; r < rounds; ++r) {
            const Times u = runOnce(**w, p, nullptr);
            const Times t = runOnce(**w, p, &tracer);
            wallU.push_back(u.wallMs);
            wallT.push_back(t.wallMs);
            loopU.push_back(u.loopMs);
            loopT.push_back(t.loopMs);
        }
        std::printf("%-46s %9.2fms %9.2fms %6.3fx %9.2fms %9.2fms %6.3fx\n", c.name, median(wallU),
                    median(wallT), median(wallT) / median(wallU), median(loopU), median(loopT),
                    median(loopT) / median(loopU));
    }
    return 0;
}
