// A job of many ranks at scale: writes N PyTorch-profiler-like traces (Kineto's JSON) of about S MB
// each into a folder, then times what `warpline analyze FOLDER` does with them: reading them in
// parallel and merging them into one trace (io::loadRankJob), then the cross-rank analysis
// (analysis::computeRankStats) and, with --usual, the usual analysis of the merged trace. Prints
// the times, the events and the peak resident memory of the process.
//
//   BenchRankJob [--ranks N] [--mb S] [--threads T] [--dir PATH] [--keep] [--usual]
//
// Defaults: 64 ranks of 100 MB (6.4 GB of JSON in a fresh folder under $TMPDIR, removed at the
// end unless --keep). --dir with trace files already in it (a kept run) reads those instead of
// writing new ones. Each rank's trace: steps ("ProfilerStep#k", user annotations) that begin with
// 1.5 ms of data loading (the GPU idles), then 200 kernels on two compute streams (gemms of 40 us
// and elementwise kernels of 4 us), each with its aten::mm CPU op, its cudaLaunchKernel and the
// launch flow, a "forward_backward" range over the compute, then an NCCL all-reduce on a third
// stream that ends when the slowest rank's compute is done: the last rank computes 30% slower, so
// every other rank waits in NCCL and it is the straggler.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/Ranks.h"
#include "analysis/Window.h"
#include "io/RankJob.h"

namespace {

namespace fs = std::filesystem;
using wl::model::TimeNs;

struct Options {
    int ranks = 64;
    double megabytes = 100.0;
    unsigned threads = 0;
    std::string dir;
    bool keep = false;
    bool usual = false;
};

constexpr int kKernelsPerStep = 200;
constexpr TimeNs kKernelNs = 40'000;       // a gemm on a normal rank
constexpr TimeNs kSmallKernelNs = 4'000;   // an elementwise kernel
constexpr TimeNs kLaunchGapNs = 12'000;    // host time between launches
constexpr TimeNs kDataLoadNs = 1'500'000;  // host work at each step's start
constexpr TimeNs kAllReduceNs = 900'000;   // the all-reduce itself, once every rank is there
constexpr double kSlowFactor = 1.3;        // the last rank's kernels take this much longer
constexpr TimeNs kStartNs = 1'700'000'000'000'000'000;  // epoch ns: on the wall clock, as Kineto

// Appends JSON text without the cost of streams.
class Out {
public:
    void text(std::string_view s) { m_buf.append(s); }
    void integer(std::int64_t v) {
        char tmp[24];
        const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        m_buf.append(tmp, r.ptr);
    }
    // Microseconds with three decimals, exactly, from ns (Kineto's "ts" and "dur").
    void micros(TimeNs ns) {
        integer(ns / 1000);
        char frac[5] = {'.', '0', '0', '0', 0};
        const TimeNs rest = ns % 1000;
        frac[1] = static_cast<char>('0' + rest / 100);
        frac[2] = static_cast<char>('0' + rest / 10 % 10);
        frac[3] = static_cast<char>('0' + rest % 10);
        m_buf.append(frac, 4);
    }
    std::string& buf() { return m_buf; }

private:
    std::string m_buf;
};

// The events of one step of one rank; returns the step's end (when the all-reduce finished).
struct StepWriter {
    int rank;
    int ranks;
    std::int64_t pid;
    int device;
    std::int64_t correlation = 1;
    std::int64_t external = 1;

    static TimeNs scaled(TimeNs ns, int r, int ranks) {
        return r == ranks - 1 ? static_cast<TimeNs>(static_cast<double>(ns) * kSlowFactor) : ns;
    }
    // About when rank r's compute ends, from the step's start: data loading, then pairs of
    // kernels that queue behind each other (a 40 us gemm outlasts the launches of the pair).
    TimeNs computeNs(int r) const {
        const TimeNs pair = std::max(scaled(kKernelNs, r, ranks) + scaled(kSmallKernelNs, r, ranks),
                                     2 * kLaunchGapNs);
        return kDataLoadNs + 30'000 + (kKernelsPerStep / 2) * pair;
    }

    void x(Out& o, const char* cat, std::string_view name, std::int64_t p, std::int64_t tid,
           TimeNs ts, TimeNs dur) {
        o.text("{\"ph\":\"X\",\"cat\":\"");
        o.text(cat);
        o.text("\",\"name\":\"");
        o.text(name);
        o.text("\",\"pid\":");
        o.integer(p);
        o.text(",\"tid\":");
        o.integer(tid);
        o.text(",\"ts\":");
        o.micros(ts);
        o.text(",\"dur\":");
        o.micros(dur);
    }

    void launch(Out& o, TimeNs hostNs, TimeNs gpuNs, TimeNs durNs, std::int64_t stream,
                std::string_view kernel) {
        const std::int64_t c = correlation++;
        const std::int64_t e = external++;
        x(o, "cpu_op", "aten::mm", pid, pid, hostNs, 6'500);
        o.text(",\"args\":{\"External id\":");
        o.integer(e);
        o.text(
            ",\"Input Dims\":[[2048,1024],[1024,4096]],\"Input type\":[\"float\",\"float\"],"
            "\"Sequence number\":");
        o.integer(e);
        o.text(",\"Fwd thread id\":0}},\n");
        x(o, "cuda_runtime", "cudaLaunchKernel", pid, pid, hostNs + 1'000, 4'000);
        o.text(",\"args\":{\"External id\":");
        o.integer(e);
        o.text(",\"cbid\":211,\"correlation\":");
        o.integer(c);
        o.text("}},\n");
        x(o, "kernel", kernel, device, stream, gpuNs, durNs);
        o.text(",\"args\":{\"External id\":");
        o.integer(e);
        o.text(",\"queued\":0,\"device\":");
        o.integer(device);
        o.text(",\"context\":1,\"stream\":");
        o.integer(stream);
        o.text(",\"correlation\":");
        o.integer(c);
        o.text(
            ",\"registers per thread\":128,\"shared memory\":49152,\"blocks per SM\":2,"
            "\"warps per SM\":16,\"grid\":[264,1,1],\"block\":[256,1,1],"
            "\"est. achieved occupancy %\":25}},\n");
        o.text("{\"ph\":\"s\",\"id\":");
        o.integer(c);
        o.text(",\"pid\":");
        o.integer(pid);
        o.text(",\"tid\":");
        o.integer(pid);
        o.text(",\"ts\":");
        o.micros(hostNs + 1'000);
        o.text(",\"cat\":\"ac2g\",\"name\":\"ac2g\"},\n{\"ph\":\"f\",\"id\":");
        o.integer(c);
        o.text(",\"pid\":");
        o.integer(device);
        o.text(",\"tid\":");
        o.integer(stream);
        o.text(",\"ts\":");
        o.micros(gpuNs);
        o.text(",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},\n");
    }

    // Step k starts at `startNs` on every rank (the previous all-reduce ended there).
    TimeNs step(Out& o, int k, TimeNs startNs) {
        TimeNs slowest = 0;
        for (int r = 0; r < ranks; ++r)
            slowest = std::max(slowest, computeNs(r));
        const TimeNs own = computeNs(rank);
        const TimeNs stepEnd = startNs + slowest + kAllReduceNs + 100'000;
        x(o, "user_annotation", "ProfilerStep#" + std::to_string(k), pid, pid, startNs,
          stepEnd - startNs);
        o.text(",\"args\":{\"External id\":");
        o.integer(external++);
        o.text("}},\n");
        x(o, "user_annotation", "data_load", pid, pid, startNs, kDataLoadNs);
        o.text(",\"args\":{\"External id\":");
        o.integer(external++);
        o.text("}},\n");
        const TimeNs computeStart = startNs + kDataLoadNs;
        x(o, "user_annotation", "forward_backward", pid, pid, computeStart, own - kDataLoadNs);
        o.text(",\"args\":{\"External id\":");
        o.integer(external++);
        o.text("}},\n");
        TimeNs gpuFree = computeStart;
        for (int i = 0; i < kKernelsPerStep; ++i) {
            const TimeNs hostNs = computeStart + 10'000 + i * kLaunchGapNs;
            const TimeNs gpuNs = std::max(gpuFree, hostNs + 8'000);
            const bool gemm = i % 2 == 1;
            const TimeNs kernelNs = scaled(gemm ? kKernelNs : kSmallKernelNs, rank, ranks);
            launch(o, hostNs, gpuNs, kernelNs, i % 5 == 4 ? 20 : 7,
                   gemm ? "ampere_sgemm_128x64_nn" : "void at::native::elementwise_kernel<128, 4>");
            gpuFree = gpuNs + kernelNs;
        }
        // Every rank's all-reduce ends together, once the slowest rank joined.
        const TimeNs ncclStart = gpuFree + 5'000;
        const TimeNs ncclEnd = startNs + slowest + kAllReduceNs;
        launch(o, ncclStart - 20'000, ncclStart, std::max<TimeNs>(ncclEnd - ncclStart, 1'000), 24,
               "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
        return stepEnd;
    }
};

bool writeRank(const std::string& path, int rank, int ranks, int steps) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    Out o;
    o.text("{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":");
    o.integer(rank % 8);
    o.text(
        ",\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":85029158912,\"computeMajor\":9,"
        "\"computeMinor\":0,\"maxThreadsPerBlock\":1024,\"maxThreadsPerMultiprocessor\":2048,"
        "\"regsPerBlock\":65536,\"regsPerMultiprocessor\":65536,\"warpSize\":32,"
        "\"sharedMemPerBlock\":49152,\"sharedMemPerMultiprocessor\":233472,\"numSms\":132,"
        "\"sharedMemPerBlockOptin\":232448}],\n\"distributedInfo\":{\"backend\":\"nccl\","
        "\"rank\":");
    o.integer(rank);
    o.text(",\"world_size\":");
    o.integer(ranks);
    o.text("},\n\"traceEvents\":[\n");
    StepWriter w{rank, ranks, 100'000 + rank, rank % 8};
    TimeNs t = kStartNs;
    bool ok = true;
    for (int k = 1; k <= steps && ok; ++k) {
        t = w.step(o, k, t);
        if (o.buf().size() > (std::size_t{4} << 20)) {
            ok = std::fwrite(o.buf().data(), 1, o.buf().size(), f) == o.buf().size();
            o.buf().clear();
        }
    }
    // Kineto ends its event list with an empty-named instant after the last comma; we close with
    // a last metadata event instead.
    o.text("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
    o.integer(w.pid);
    o.text(",\"tid\":0,\"args\":{\"name\":\"python\"}}\n],\"traceName\":\"rank");
    o.integer(rank);
    o.text("\",\"displayTimeUnit\":\"ms\"}\n");
    ok = ok && std::fwrite(o.buf().data(), 1, o.buf().size(), f) == o.buf().size();
    return std::fclose(f) == 0 && ok;
}

// Steps per rank for about `megabytes` of JSON (every rank writes as many).
int stepsFor(double megabytes, int ranks) {
    Out o;
    StepWriter w{0, ranks, 100'000, 0};
    w.step(o, 1, kStartNs);
    const double perStep = static_cast<double>(o.buf().size());
    return std::max(1, static_cast<int>(megabytes * 1e6 / perStep));
}

double peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (a == "--ranks") {
            const char* v = value();
            o.ranks = v ? std::atoi(v) : 0;
        } else if (a == "--mb") {
            const char* v = value();
            o.megabytes = v ? std::atof(v) : 0.0;
        } else if (a == "--threads") {
            const char* v = value();
            o.threads = v ? static_cast<unsigned>(std::atoi(v)) : 0;
        } else if (a == "--dir") {
            const char* v = value();
            o.dir = v ? v : "";
        } else if (a == "--keep") {
            o.keep = true;
        } else if (a == "--usual") {
            o.usual = true;
        } else {
            std::fprintf(stderr,
                         "usage: BenchRankJob [--ranks N] [--mb S] [--threads T] [--dir PATH] "
                         "[--keep] [--usual]\n");
            return false;
        }
    }
    if (o.ranks < 1 || o.megabytes <= 0.0) {
        std::fprintf(stderr, "BenchRankJob: --ranks and --mb must be positive\n");
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parseArgs(argc, argv, opt))
        return 2;
    const bool fresh = opt.dir.empty();
    if (fresh) {
        opt.dir = (fs::temp_directory_path() / ("warpline-rankbench-" + std::to_string(::getpid())))
                      .string();
    }
    fs::create_directories(opt.dir);
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());

    auto files = wl::io::rankJobFiles({opt.dir});
    if (!files.ok()) {  // nothing there yet: write the job
        const int steps = stepsFor(opt.megabytes, opt.ranks);
        const auto t0 = std::chrono::steady_clock::now();
        std::atomic<int> next{0};
        std::atomic<bool> failed{false};
        {
            std::vector<std::jthread> pool;
            for (unsigned t = 0; t < std::min<unsigned>(hw, static_cast<unsigned>(opt.ranks));
                 ++t) {
                pool.emplace_back([&] {
                    for (int r = next++; r < opt.ranks; r = next++) {
                        const std::string path =
                            opt.dir + "/rank-" + std::to_string(r) + ".pt.trace.json";
                        if (!writeRank(path, r, opt.ranks, steps))
                            failed = true;
                    }
                });
            }
        }
        if (failed) {
            std::fprintf(stderr, "BenchRankJob: cannot write the traces into %s\n",
                         opt.dir.c_str());
            return 1;
        }
        std::printf("wrote %d ranks x %d steps in %.1f s into %s\n", opt.ranks, steps,
                    secondsSince(t0), opt.dir.c_str());
        files = wl::io::rankJobFiles({opt.dir});
        if (!files.ok()) {
            std::fprintf(stderr, "BenchRankJob: %s\n", files.error().describe().c_str());
            return 1;
        }
    }
    std::uintmax_t bytes = 0;
    for (const auto& f : files.value())
        bytes += fs::file_size(f);
    const double rssBefore = peakRssMb();

    wl::io::RankJobOptions jobOptions;
    jobOptions.threads = opt.threads;
    auto mergeStart = std::chrono::steady_clock::time_point{};
    jobOptions.progress = [&](double fraction, const std::string&) {
        if (fraction == 0.9 && mergeStart == std::chrono::steady_clock::time_point{})
            mergeStart = std::chrono::steady_clock::now();
    };
    const auto t0 = std::chrono::steady_clock::now();
    auto job = wl::io::loadRankJob(files.value(), jobOptions);
    const double loadMergeS = secondsSince(t0);
    if (!job.ok()) {
        std::fprintf(stderr, "BenchRankJob: %s\n", job.error().describe().c_str());
        return 1;
    }
    const double mergeS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - mergeStart).count();
    const double rssLoaded = peakRssMb();
    const wl::model::Trace& trace = *job.value().trace;

    const auto window = wl::analysis::resolveWindow(trace);
    if (!window.ok()) {
        std::fprintf(stderr, "BenchRankJob: %s\n", window.error().describe().c_str());
        return 1;
    }
    const auto t1 = std::chrono::steady_clock::now();
    const wl::analysis::RankStats stats = wl::analysis::computeRankStats(trace, window.value());
    const double ranksS = secondsSince(t1);
    double usualS = 0.0;
    if (opt.usual) {
        const auto t2 = std::chrono::steady_clock::now();
        const auto result = wl::analysis::analyzeTrace(trace, {}, window.value());
        usualS = secondsSince(t2);
        std::printf("usual analysis: GPU busy %.1f%%\n", result.gpuBusyPct());
    }

    const auto& c = trace.counts();
    std::printf(
        "ranks %zu, %.0f MB of JSON (%.1f MB each), %llu slices (%llu kernels), %llu flows; "
        "%s\n",
        job.value().ranks.size(), static_cast<double>(bytes) / 1e6,
        static_cast<double>(bytes) / 1e6 / static_cast<double>(files.value().size()),
        static_cast<unsigned long long>(c.slices), static_cast<unsigned long long>(c.kernel),
        static_cast<unsigned long long>(c.flows), job.value().alignmentText.c_str());
    std::printf(
        "threads %u of %u; load + merge %.2f s (merge %.2f s), %.0f MB/s; cross-rank "
        "analysis %.2f s",
        opt.threads ? opt.threads : hw, hw, loadMergeS, mergeS,
        static_cast<double>(bytes) / 1e6 / loadMergeS, ranksS);
    if (opt.usual)
        std::printf("; usual analysis %.2f s", usualS);
    std::printf(
        "\npeak RSS %.0f MB (before loading %.0f MB, after load + merge %.0f MB); merged "
        "trace %.0f MB\n",
        peakRssMb(), rssBefore, rssLoaded, static_cast<double>(trace.memoryBytes()) / 1e6);
    // What the job was made to show: the last rank is the straggler of the compute ranges.
    bool found = opt.ranks < 2;
    for (const auto& s : stats.stragglers) {
        if (s.name != "forward_backward")
            continue;
        std::printf("straggler of '%s': rank %d, slowest in %llu of %zu iterations\n",
                    s.name.c_str(), stats.ranks[s.mostOftenSlowest].rank,
                    static_cast<unsigned long long>(s.slowestCount[s.mostOftenSlowest]),
                    s.iterations.size());
        found = stats.ranks[s.mostOftenSlowest].rank == opt.ranks - 1;
    }
    std::printf("GPU busy: rank 0 %.1f%%, rank %d %.1f%%\n", stats.utilization.front().busyPct(),
                stats.ranks.back().rank, stats.utilization.back().busyPct());
    if (fresh && !opt.keep)
        fs::remove_all(opt.dir);
    if (!found) {
        std::fprintf(stderr,
                     "BenchRankJob: the last rank is not the straggler it was made to be\n");
        return 1;
    }
    return 0;
}
