// Opening big traces: import time, peak memory and the model's bytes per slice, on a real trace
// and on traces made big from it, with Perfetto's trace_processor_shell side by side when given.
//
//   BenchBigTrace [--source FILE] [--gb G]... [--trace FILE]... [--dir PATH] [--keep]
//                 [--rounds N] [--perfetto SHELL] [--queries]
//
// --source (default the external traces' hta_df_index_resolver.json.gz, HTA's largest, 54 MB of
// PyTorch profiler JSON) is measured as it is, then repeated along time to each --gb size
// (wl::bench::writeRepeatedTrace, plain JSON under --dir, default $TMPDIR, removed at the end
// unless --keep); --trace adds files as they are. Each import runs in a child process of its own
// (fork, wait4), so its peak resident memory is its own; the best of --rounds (default 3) is
// printed. Perfetto is run as `SHELL -q QUERY FILE` with QUERY "SELECT count(*) FROM slice", the
// least it answers after an import. --queries also times the five questions of
// docs/PERFORMANCE.md on each trace: Warpline's over its SQL tables in this process (the trace
// loaded once), Perfetto's through the shell's --perf-file (its query time alone).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "bench/support/BigTrace.h"
#include "io/TraceFile.h"
#include "query/TraceQuery.h"

#ifndef WARPLINE_EXTERNAL_TRACES_DIR
#define WARPLINE_EXTERNAL_TRACES_DIR "../shared/external-traces"
#endif

namespace {

namespace fs = std::filesystem;
using wl::bench::ChildUsage;

struct Options {
    std::string source;
    std::vector<double> gigabytes;
    std::vector<std::string> traces;
    std::string dir;
    bool keep = false;
    int rounds = 3;
    std::string perfetto;
    bool queries = false;
};

// One question asked of both tools, each in its own tables' words.
struct Question {
    const char* what;
    const char* warpline;
    const char* perfetto;
};

// Kernels are Perfetto's slices of category "kernel", CPU operators "cpu_op" and the
// profiler's annotations "user_annotation" (Kineto's categories; Warpline's kinds say the same).
const Question kQuestions[] = {
    {"the kernels that ran longest inside the longest annotation",
     "WITH r AS (SELECT ts, dur FROM slice WHERE kind = 'nvtx' AND device IS NULL "
     "ORDER BY dur DESC LIMIT 1) SELECT k.name, count(*), max(k.dur) FROM kernel k, r "
     "WHERE k.ts >= r.ts AND k.ts + k.dur <= r.ts + r.dur GROUP BY k.name ORDER BY 3 DESC LIMIT 10",
     "WITH r AS (SELECT ts, dur FROM slice WHERE category = 'user_annotation' "
     "ORDER BY dur DESC LIMIT 1) SELECT k.name, count(*), max(k.dur) FROM slice k, r "
     "WHERE k.category = 'kernel' AND k.ts >= r.ts AND k.ts + k.dur <= r.ts + r.dur "
     "GROUP BY k.name ORDER BY 3 DESC LIMIT 10"},
    {"time per kernel name",
     "SELECT name, count(*), sum(dur) FROM kernel GROUP BY name ORDER BY 3 DESC LIMIT 10",
     "SELECT name, count(*), sum(dur) FROM slice WHERE category = 'kernel' GROUP BY name "
     "ORDER BY 3 DESC LIMIT 10"},
    {"time per CPU operator between 10 % and 20 % of the trace",
     "SELECT name, count(*), sum(dur) FROM slice, (SELECT min(ts) AS t0, max(ts) - min(ts) AS "
     "span FROM slice) WHERE kind = 'cpu_op' AND ts >= t0 + span / 10 AND ts < t0 + span / 5 "
     "GROUP BY name ORDER BY 3 DESC LIMIT 10",
     "SELECT name, count(*), sum(dur) FROM slice, (SELECT min(ts) AS t0, max(ts) - min(ts) AS "
     "span FROM slice) WHERE category = 'cpu_op' AND ts >= t0 + span / 10 AND ts < t0 + span / 5 "
     "GROUP BY name ORDER BY 3 DESC LIMIT 10"},
    {"slices per thread",
     "SELECT process_id, thread_id, count(*) FROM slice WHERE thread_id IS NOT NULL "
     "GROUP BY 1, 2 ORDER BY 3 DESC",
     "SELECT upid, tid, count(*) FROM slice JOIN thread_track t ON slice.track_id = t.id "
     "JOIN thread USING (utid) GROUP BY 1, 2 ORDER BY 3 DESC"},
    {"the 10 longest CPU operators",
     "SELECT name, dur FROM slice WHERE kind = 'cpu_op' ORDER BY dur DESC LIMIT 10",
     "SELECT name, dur FROM slice WHERE category = 'cpu_op' ORDER BY dur DESC LIMIT 10"},
};

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (a == "--source" && (v = value())) {
            o.source = v;
        } else if (a == "--gb" && (v = value())) {
            o.gigabytes.push_back(std::atof(v));
        } else if (a == "--trace" && (v = value())) {
            o.traces.push_back(v);
        } else if (a == "--dir" && (v = value())) {
            o.dir = v;
        } else if (a == "--keep") {
            o.keep = true;
        } else if (a == "--rounds" && (v = value())) {
            o.rounds = std::max(1, std::atoi(v));
        } else if (a == "--perfetto" && (v = value())) {
            o.perfetto = v;
        } else if (a == "--queries") {
            o.queries = true;
        } else {
            std::fprintf(stderr,
                         "usage: BenchBigTrace [--source FILE] [--gb G]... [--trace FILE]... "
                         "[--dir PATH] [--keep] [--rounds N] [--perfetto SHELL] [--queries]\n");
            return false;
        }
    }
    if (o.source.empty())
        o.source = WARPLINE_EXTERNAL_TRACES_DIR "/hta_df_index_resolver.json.gz";
    return true;
}

// What a Warpline import gave, written by the child for the parent.
struct ModelFigures {
    double slices = 0;
    double bytesPerSlice = 0;
    std::string parts;  // "what: B/slice; ..." of the parts over 1 byte per slice
    std::string error;
};

ChildUsage best(const std::vector<ChildUsage>& rounds) {
    return *std::min_element(
        rounds.begin(), rounds.end(),
        [](const ChildUsage& a, const ChildUsage& b) { return a.wallS < b.wallS; });
}

double largestPeak(const std::vector<ChildUsage>& rounds) {
    double peak = 0;
    for (const auto& r : rounds)
        peak = std::max(peak, r.peakRssMiB);
    return peak;
}

ModelFigures importWithWarpline(const std::string& path, const std::string& figuresPath,
                                std::vector<ChildUsage>& rounds, int count) {
    for (int k = 0; k < count; ++k) {
        rounds.push_back(wl::bench::runForked([&] {
            const auto trace = wl::io::loadTrace(path);
            std::ofstream out(figuresPath);
            if (!trace.ok()) {
                out << "error " << trace.error().describe() << "\n";
                return 1;
            }
            const auto& t = *trace.value();
            const auto perSlice = [&](std::size_t bytes) {
                return static_cast<double>(bytes) / static_cast<double>(t.counts().slices);
            };
            out << t.counts().slices << " " << perSlice(t.memoryBytes()) << "\n";
            for (const auto& part : t.memoryParts()) {
                if (perSlice(part.bytes) >= 1.0)
                    out << part.what << " " << std::fixed << std::setprecision(1)
                        << perSlice(part.bytes) << "; ";
            }
            out << "\n";
            return 0;
        }));
    }
    ModelFigures figures;
    std::ifstream in(figuresPath);
    std::string first;
    in >> first;
    if (first == "error") {
        std::getline(in, figures.error);
    } else {
        figures.slices = std::atof(first.c_str());
        in >> figures.bytesPerSlice;
        in >> std::ws;
        std::getline(in, figures.parts);
    }
    return figures;
}

void importWithPerfetto(const std::string& shell, const std::string& path,
                        const std::string& queryPath, std::vector<ChildUsage>& rounds, int count) {
    const char* argv[] = {shell.c_str(), "-q", queryPath.c_str(), path.c_str(), nullptr};
    for (int k = 0; k < count; ++k)
        rounds.push_back(wl::bench::runChild(argv, "/dev/null"));
}

// Milliseconds each question took over a loaded trace, best of `rounds`.
std::vector<double> warplineQueryMs(const std::string& path, int rounds) {
    std::vector<double> ms;
    auto trace = wl::io::loadTrace(path);
    if (!trace.ok())
        return ms;
    auto db = wl::query::TraceDatabase::open(trace.value());
    if (!db.ok())
        return ms;
    for (const Question& q : kQuestions) {
        double bestMs = 1e300;
        for (int k = 0; k < rounds; ++k) {
            wl::query::QueryResult result;
            const auto start = std::chrono::steady_clock::now();
            const auto status = db.value()->run(q.warpline, result);
            const double took =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
            bestMs = std::min(bestMs, status ? -1.0 : took);
        }
        ms.push_back(bestMs);
    }
    return ms;
}

// Perfetto's query time of each question, from its --perf-file ("load ns,query ns").
std::vector<double> perfettoQueryMs(const std::string& shell, const std::string& path,
                                    const fs::path& dir, int rounds) {
    std::vector<double> ms;
    const std::string queryPath = dir / "warpline-bench-question.sql";
    const std::string perfPath = dir / "warpline-bench-perf.txt";
    for (const Question& q : kQuestions) {
        std::ofstream(queryPath) << q.perfetto << ";\n";
        double bestMs = 1e300;
        for (int k = 0; k < rounds; ++k) {
            const char* argv[] = {
                shell.c_str(), "-q",   queryPath.c_str(), "--perf-file", perfPath.c_str(),
                path.c_str(),  nullptr};
            const ChildUsage usage = wl::bench::runChild(argv, "/dev/null");
            std::ifstream perf(perfPath);
            double loadNs = 0;
            double queryNs = 0;
            char comma = 0;
            perf >> loadNs >> comma >> queryNs;
            bestMs = std::min(bestMs, usage.exitStatus == 0 ? queryNs / 1e6 : -1.0);
        }
        ms.push_back(bestMs);
    }
    fs::remove(queryPath);
    fs::remove(perfPath);
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parseArgs(argc, argv, opt))
        return 2;
    const fs::path dir = opt.dir.empty() ? fs::temp_directory_path() : fs::path(opt.dir);
    const std::string stem = "warpline-big-" + std::to_string(::getpid());
    std::vector<std::string> made;
    std::vector<std::string> traces{opt.source};
    if (!opt.gigabytes.empty()) {
        const auto start = std::chrono::steady_clock::now();
        const std::string json = wl::bench::readTraceText(opt.source);
        for (const double gb : opt.gigabytes) {
            const std::string path =
                dir / (stem + "-" + std::to_string(gb).substr(0, 4) + "gb.json");
            const auto bytes = json.empty() ? 0
                                            : wl::bench::writeRepeatedTrace(
                                                  json, static_cast<std::uint64_t>(gb * 1e9), path);
            if (bytes == 0) {
                std::fprintf(stderr, "cannot make a %.2f GB trace from %s in %s\n", gb,
                             opt.source.c_str(), dir.c_str());
                return 1;
            }
            made.push_back(path);
            traces.push_back(path);
        }
        std::printf(
            "made %zu trace(s) from %s in %.1f s\n", made.size(), opt.source.c_str(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    traces.insert(traces.end(), opt.traces.begin(), opt.traces.end());
    const std::string figuresPath = dir / (stem + "-figures.txt");
    const std::string queryPath = dir / (stem + "-count.sql");
    std::ofstream(queryPath) << "SELECT count(*) FROM slice;\n";

    std::printf("| trace | MB | Warpline wall / CPU / peak | slices | model B/slice |%s\n",
                opt.perfetto.empty() ? "" : " Perfetto wall / CPU / peak | speed | memory |");
    std::printf("|---|---:|---:|---:|---:|%s\n", opt.perfetto.empty() ? "" : "---:|---:|---:|");
    int failures = 0;
    for (const auto& path : traces) {
        const double mb = static_cast<double>(fs::file_size(path)) / 1e6;
        std::vector<ChildUsage> ours;
        const ModelFigures figures = importWithWarpline(path, figuresPath, ours, opt.rounds);
        const ChildUsage w = best(ours);
        if (!figures.error.empty() || w.exitStatus != 0) {
            std::printf("| %s | %.1f | failed:%s |\n", fs::path(path).filename().c_str(), mb,
                        figures.error.c_str());
            ++failures;
            continue;
        }
        std::printf("| %s | %.1f | %.2f s / %.2f s / %.0f MiB | %.0f | %.1f |",
                    fs::path(path).filename().c_str(), mb, w.wallS, w.cpuS, largestPeak(ours),
                    figures.slices, figures.bytesPerSlice);
        if (!opt.perfetto.empty()) {
            std::vector<ChildUsage> theirs;
            importWithPerfetto(opt.perfetto, path, queryPath, theirs, opt.rounds);
            const ChildUsage p = best(theirs);
            if (p.exitStatus == 0)
                std::printf(" %.2f s / %.2f s / %.0f MiB | %.2fx | %.2fx |", p.wallS, p.cpuS,
                            largestPeak(theirs), p.wallS / w.wallS,
                            largestPeak(ours) / largestPeak(theirs));
            else
                std::printf(" failed (exit %d) | | |", p.exitStatus);
        }
        std::printf("\n");
        std::printf("  model bytes per slice by part: %s\n", figures.parts.c_str());
        std::fflush(stdout);
    }
    if (opt.queries) {
        for (const auto& path : traces) {
            std::printf("\nqueries on %s (ms, best of %d)\n", fs::path(path).filename().c_str(),
                        opt.rounds);
            const auto ours = warplineQueryMs(path, opt.rounds);
            const auto theirs = opt.perfetto.empty()
                                    ? std::vector<double>{}
                                    : perfettoQueryMs(opt.perfetto, path, dir, opt.rounds);
            for (std::size_t q = 0; q < std::size(kQuestions); ++q) {
                std::printf("| %s | %.1f |", kQuestions[q].what, q < ours.size() ? ours[q] : -1.0);
                if (q < theirs.size())
                    std::printf(" %.1f |", theirs[q]);
                std::printf("\n");
            }
        }
    }
    fs::remove(figuresPath);
    fs::remove(queryPath);
    if (!opt.keep) {
        for (const auto& path : made)
            fs::remove(path);
    } else {
        for (const auto& path : made)
            std::printf("kept %s\n", path.c_str());
    }
    return failures == 0 ? 0 : 1;
}
