// Opening a second file while a large trace loads: how soon the window's loader (TraceLoader, as
// File > Open uses it) stops the first read, and whether the first read's memory is given back.
//
//   BenchAppCancelLoad [--source FILE] [--gb G] [--at F] [--dir PATH] [--keep] [--full]
//
// Makes the large trace by repeating a real trace along time: the events of --source (default
// the external traces' hta_df_index_resolver.json.gz, 54 MB of PyTorch profiler JSON) written
// again and again, each copy's timestamps moved past the one before, up to --gb GB (default 2) of
// plain JSON in a fresh file under --dir (default $TMPDIR), removed at the end unless --keep. Then
// it opens that file, and once the reader reports --at of it read (default 0.10) opens the source
// itself; prints when the first read returned after that, the process's resident memory before,
// at the switch and after, and when the second file was shown. --full first times a whole load
// of the large file, for scale.
#include <malloc.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "app/gui/TraceLoader.h"
#include "bench/support/BigTrace.h"
#include "io/TraceFile.h"

#ifndef WARPLINE_EXTERNAL_TRACES_DIR
#define WARPLINE_EXTERNAL_TRACES_DIR "../shared/external-traces"
#endif

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string source = WARPLINE_EXTERNAL_TRACES_DIR "/hta_df_index_resolver.json.gz";
    double gigabytes = 2.0;
    double at = 0.10;
    std::string dir;
    bool keep = false;
    bool full = false;
};

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Resident memory of this process, in MiB.
double residentMiB() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0;
    long resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* v = nullptr;
        if (a == "--source" && (v = value())) {
            o.source = v;
        } else if (a == "--gb" && (v = value())) {
            o.gigabytes = std::atof(v);
        } else if (a == "--at" && (v = value())) {
            o.at = std::atof(v);
        } else if (a == "--dir" && (v = value())) {
            o.dir = v;
        } else if (a == "--keep") {
            o.keep = true;
        } else if (a == "--full") {
            o.full = true;
        } else {
            std::fprintf(stderr,
                         "usage: BenchAppCancelLoad [--source FILE] [--gb G] [--at F] [--dir PATH] "
                         "[--keep] [--full]\n");
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parseArgs(argc, argv, opt))
        return 2;
    QCoreApplication app(argc, argv);
    const fs::path dir = opt.dir.empty() ? fs::temp_directory_path() : fs::path(opt.dir);
    const std::string big = (dir / ("warpline-cancel-" + std::to_string(::getpid()) + ".json"));

    auto t = Clock::now();
    std::uint64_t bytes = 0;
    {
        const std::string json = wl::bench::readTraceText(opt.source);
        bytes = json.empty() ? 0
                             : wl::bench::writeRepeatedTrace(
                                   json, static_cast<std::uint64_t>(opt.gigabytes * 1e9), big);
    }
    if (bytes == 0) {
        std::fprintf(stderr, "cannot make the large trace from %s\n", opt.source.c_str());
        return 1;
    }
    std::printf("large trace: %.2f GB of JSON, written in %.1f s\n", bytes / 1e9, msSince(t) / 1e3);
    const auto cleanUp = [&] {
        if (!opt.keep)
            fs::remove(big);
    };

    if (opt.full) {
        t = Clock::now();
        const double before = residentMiB();
        auto whole = wl::io::loadTrace(big);
        std::printf("whole load: %.2f s, %s, resident %.0f -> %.0f MiB\n", msSince(t) / 1e3,
                    whole.ok() ? "ok" : whole.error().describe().c_str(), before, residentMiB());
        whole = wl::model::Error{"dropped"};
        ::malloc_trim(0);
    }

    const double baselineMiB = residentMiB();
    std::atomic<double> bigReturnedMs{-1.0};  // since the start of the first load
    std::atomic<double> residentAfterBigMiB{0.0};
    wl::app::TraceLoader loader;
    const wl::app::TraceLoadFn read = wl::app::defaultTraceLoader();
    const QString bigPath = QString::fromStdString(big);
    const auto start = Clock::now();
    loader.setLoadFunction([&](const QString& path, const wl::io::ReadControl& control) {
        auto result = read(path, control);
        if (path == bigPath) {
            const bool cancelled = !result.ok() && result.error().message == wl::io::kReadCancelled;
            result = wl::model::Error{cancelled ? "cancelled" : "not cancelled"};
            bigReturnedMs = msSince(start);
            residentAfterBigMiB = residentMiB();
            if (!cancelled)
                std::printf("the first load was not cancelled\n");
        }
        return result;
    });
    double switchMs = -1.0;
    double residentAtSwitchMiB = 0.0;
    QObject::connect(
        &loader, &wl::app::TraceLoader::progressChanged, [&](double fraction, const QString&) {
            if (switchMs >= 0.0 || fraction < opt.at)
                return;
            switchMs = msSince(start);
            residentAtSwitchMiB = residentMiB();
            loader.load({wl::app::LoadIntent::Source::Open, {QString::fromStdString(opt.source)}});
        });
    double shownMs = -1.0;
    QObject::connect(&loader, &wl::app::TraceLoader::loaded,
                     [&](const wl::app::LoadIntent& intent,
                         const wl::model::Result<wl::model::TracePtr>& result) {
                         if (intent.path() != bigPath && result.ok())
                             shownMs = msSince(start);
                         app.quit();
                     });
    loader.load({wl::app::LoadIntent::Source::Open, {bigPath}});
    QTimer::singleShot(600'000, &app, &QCoreApplication::quit);
    app.exec();
    // The pool's threads are done with the first read once bigReturnedMs is set.
    while (bigReturnedMs.load() < 0.0)
        QThread::msleep(10);
    const double trimmedBefore = residentMiB();
    ::malloc_trim(0);
    std::printf("second file opened at %.0f ms (%.0f%% of the first read)\n", switchMs,
                100.0 * opt.at);
    std::printf("first read returned %.1f ms after the second file was opened\n",
                bigReturnedMs.load() - switchMs);
    std::printf("second file shown at %.0f ms\n", shownMs);
    std::printf(
        "resident memory: %.0f MiB before, %.0f MiB at the switch, %.0f MiB once the "
        "first read returned, %.0f MiB with the second trace shown (%.0f MiB after "
        "malloc_trim)\n",
        baselineMiB, residentAtSwitchMiB, residentAfterBigMiB.load(), trimmedBefore, residentMiB());
    cleanUp();
    return switchMs >= 0.0 ? 0 : 1;
}
