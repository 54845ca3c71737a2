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
#include "io/Gzip.h"
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

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!wl::io::isGzip(bytes))
        return bytes;
    std::string json;
    if (!wl::io::gunzip(bytes, json, 0).ok())
        return {};
    return json;
}

// The position of the ']' that closes the array whose '[' is at `open` (strings skipped).
std::size_t closingBracket(std::string_view text, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    ++i;
            }
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth == 0)
                return i;
        }
    }
    return std::string_view::npos;
}

// Calls `f(position of the number, its whole part)` for every "ts" value in `events`.
template <class F>
void forEachTs(std::string_view events, F f) {
    for (std::size_t at = events.find("\"ts\":"); at != std::string_view::npos;
         at = events.find("\"ts\":", at + 5)) {
        std::size_t p = at + 5;
        while (p < events.size() && events[p] == ' ')
            ++p;
        std::size_t end = p;
        while (end < events.size() && events[end] >= '0' && events[end] <= '9')
            ++end;
        if (end > p)
            f(p, end, std::strtoll(std::string(events.substr(p, end - p)).c_str(), nullptr, 10));
    }
}

// Writes `copies` of the source's events, each moved along time past the one before, into one
// trace; returns the bytes written (0: the source is not a JSON object with "traceEvents").
std::uint64_t writeRepeated(const std::string& json, std::uint64_t targetBytes,
                            const std::string& path) {
    const std::size_t key = json.find("\"traceEvents\"");
    const std::size_t open = key == std::string::npos ? key : json.find('[', key);
    const std::size_t close = open == std::string::npos ? open : closingBracket(json, open);
    if (close == std::string::npos)
        return 0;
    const std::string_view events(json.data() + open + 1, close - open - 1);
    long long first = -1;
    long long last = 0;
    forEachTs(events, [&](std::size_t, std::size_t, long long ts) {
        first = first < 0 ? ts : std::min(first, ts);
        last = std::max(last, ts);
    });
    const long long shiftUs = last - first + 1000;  // one copy after the other, 1 ms apart
    std::ofstream out(path, std::ios::binary);
    out.write(json.data(), static_cast<std::streamsize>(open + 1));
    std::uint64_t written = open + 1;
    std::string copy;
    for (long long k = 0; written + events.size() < targetBytes || k == 0; ++k) {
        copy.clear();
        std::size_t from = 0;
        forEachTs(events, [&](std::size_t p, std::size_t end, long long ts) {
            copy.append(events.substr(from, p - from));
            copy += std::to_string(ts + k * shiftUs);
            from = end;
        });
        copy.append(events.substr(from));
        if (k > 0)
            out.put(',');
        out.write(copy.data(), static_cast<std::streamsize>(copy.size()));
        written += copy.size() + (k > 0 ? 1 : 0);
    }
    out.write(json.data() + close, static_cast<std::streamsize>(json.size() - close));
    written += json.size() - close;
    return out ? written : 0;
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
        const std::string json = readText(opt.source);
        bytes = json.empty()
                    ? 0
                    : writeRepeated(json, static_cast<std::uint64_t>(opt.gigabytes * 1e9), big);
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
