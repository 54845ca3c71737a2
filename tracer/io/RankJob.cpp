#include "io/RankJob.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "io/TraceFile.h"
#include "model/NameFolding.h"
#include "model/TraceMerge.h"

namespace wl::io {

namespace fs = std::filesystem;

const char* toString(RankAlignment alignment) {
    switch (alignment) {
        case RankAlignment::WallClock:
            return "wall_clock";
        case RankAlignment::Range:
            return "range";
        case RankAlignment::OneClock:
            return "one_clock";
        case RankAlignment::Start:
            break;
    }
    return "start";
}

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isTraceFileName(std::string_view name) {
    return !name.empty() && name.front() != '.' &&
           (endsWith(name, ".json") || endsWith(name, ".json.gz") || endsWith(name, ".sqlite") ||
            endsWith(name, ".nsys-rep"));
}

// "rank-2" before "rank-10": runs of digits compare as numbers, the rest byte by byte.
bool naturalLess(std::string_view a, std::string_view b) {
    const auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            std::size_t ie = i;
            std::size_t je = j;
            while (ie < a.size() && isDigit(a[ie]))
                ++ie;
            while (je < b.size() && isDigit(b[je]))
                ++je;
            // Without leading zeros, the longer number is the larger one.
            std::string_view x = a.substr(i, ie - i);
            std::string_view y = b.substr(j, je - j);
            while (x.size() > 1 && x.front() == '0')
                x.remove_prefix(1);
            while (y.size() > 1 && y.front() == '0')
                y.remove_prefix(1);
            if (x.size() != y.size())
                return x.size() < y.size();
            if (x != y)
                return x < y;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// What one trace says about itself, before ranks and alignment are decided.
struct TraceFacts {
    std::optional<std::int32_t> rank;
    std::optional<std::int64_t> worldSize;
    std::string host;
    std::int64_t pid = -1;
    std::optional<model::TimeNs> wallOffsetNs;  // trace clock + offset = host wall clock
    std::string clockProblem;                   // why a clock anchor it has cannot be used
};

// Between 2010 and 2100 in ns since the epoch: a trace whose origin reads as such a date is on
// the wall clock (the PyTorch profiler writes epoch microseconds); monotonic clocks (a browser's,
// CLOCK_MONOTONIC) count from boot and read as 1970.
constexpr model::TimeNs kWallClockFromNs = 1'262'304'000LL * model::kNsPerSecond;
constexpr model::TimeNs kWallClockToNs = 4'102'444'800LL * model::kNsPerSecond;

TraceFacts factsOf(const model::Trace& trace) {
    TraceFacts f;
    if (auto rank = parseInteger(trace.metadataValue("rank"));
        rank && *rank >= 0 && *rank <= std::numeric_limits<std::int32_t>::max()) {
        f.rank = static_cast<std::int32_t>(*rank);
    }
    if (auto size = parseInteger(trace.metadataValue("world_size")); size && *size > 0)
        f.worldSize = *size;
    f.host = trace.metadataValue("host");
    if (auto pid = parseInteger(trace.metadataValue("pid")); pid && *pid >= 0) {
        f.pid = *pid;
    } else {
        // The PyTorch profiler names no pid: its one host process with a real id is the rank's.
        for (const model::Process& p : trace.processes()) {
            if (p.deviceId < 0 && p.pid > 0 && !model::isSyntheticId(p.pid)) {
                f.pid = p.pid;
                break;
            }
        }
    }
    // warpline record: (host wall clock ns, trace clock ns) read together as it started.
    if (const std::string pair = trace.metadataValue("clock_sync_start"); !pair.empty()) {
        const std::size_t comma = pair.find(',');
        const auto wall = parseInteger(std::string_view(pair).substr(0, comma));
        const auto clock = comma == std::string::npos
                               ? std::nullopt
                               : parseInteger(std::string_view(pair).substr(comma + 1));
        model::TimeNs offset = 0;
        if (wall && clock && !__builtin_sub_overflow(*wall, *clock, &offset)) {
            f.wallOffsetNs = offset;
        } else {
            f.clockProblem = "its clock_sync_start '" + pair + "' is not a clock pair";
        }
        return f;
    }
    const std::string producer = trace.metadataValue("producer");
    const bool ours = producer.rfind("warpline", 0) == 0;
    if (!ours && trace.originNs() >= kWallClockFromNs && trace.originNs() < kWallClockToNs)
        f.wallOffsetNs = 0;
    return f;
}

// The start of the trace's first NVTX / user-annotation range on a host that `name` matches, in
// the trace's own clock (origin + time).
std::optional<model::TimeNs> firstRangeStart(const model::Trace& trace, std::string_view name) {
    const std::string folded = model::foldDigits(name);
    std::vector<char> matches(trace.strings().size(), -1);  // per name id: -1 unknown, 0, 1
    std::optional<model::TimeNs> first;
    for (const model::Track& track : trace.tracks()) {
        if (track.kind != model::TrackKind::Nvtx && track.kind != model::TrackKind::NvtxAsync)
            continue;
        if (trace.processes()[track.process].deviceId >= 0)
            continue;  // the GPU's annotations follow the host's, late by the queue
        for (const model::Slice& s : track.slices) {
            if (s.kind != model::SliceKind::Nvtx || (first && s.startNs >= *first))
                continue;
            char& m = matches[s.nameId];
            if (m < 0) {
                const std::string_view n = trace.str(s.nameId);
                m = n == name || model::foldDigits(n) == folded ? 1 : 0;
            }
            if (m == 1)
                first = s.startNs;
        }
    }
    if (!first)
        return std::nullopt;
    return trace.originNs() + *first;
}

std::string fileName(const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    return name.empty() ? path : name;
}

std::string rankLabel(std::int32_t rank, const TraceFacts& f) {
    std::string label = "rank " + std::to_string(rank);
    if (!f.host.empty())
        label += " · " + f.host;
    if (f.pid >= 0)
        label += " · pid " + std::to_string(f.pid);
    return label;
}

// "rank 1 (b.json) has", "rank 1 (b.json) and 2 more have".
std::string listRanks(const std::vector<RankSource>& ranks, const std::vector<std::size_t>& which) {
    const RankSource& first = ranks[which.front()];
    std::string out = "rank " + std::to_string(first.rank) + " (" + fileName(first.path) + ")";
    if (which.size() > 1)
        return out + " and " + std::to_string(which.size() - 1) + " more have";
    return out + " has";
}

}  // namespace

std::vector<std::int32_t> distinctRanksOf(const std::vector<model::TracePtr>& traces) {
    std::vector<std::int32_t> ranks;
    std::set<std::int32_t> seen;
    for (const model::TracePtr& trace : traces) {
        const std::optional<std::int32_t> rank = trace ? factsOf(*trace).rank : std::nullopt;
        if (!rank || !seen.insert(*rank).second)
            return std::vector<std::int32_t>(traces.size(), -1);
        ranks.push_back(*rank);
    }
    return ranks;
}

std::string rankLabelOf(const model::Trace& trace, std::int32_t rank) {
    return rankLabel(rank, factsOf(trace));
}

model::Result<std::vector<std::string>> rankJobFiles(const std::vector<std::string>& paths) {
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        std::error_code ec;
        const fs::file_status status = fs::status(path, ec);
        if (ec || !fs::exists(status))
            return model::Error{"no such file or folder", path, -1};
        if (!fs::is_directory(status)) {
            files.push_back(path);
            continue;
        }
        std::vector<std::string> inFolder;
        for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            std::error_code fileEc;
            if (isTraceFileName(name) && !it->is_directory(fileEc))
                inFolder.push_back(name);
        }
        if (ec)
            return model::Error{"cannot list the folder: " + ec.message(), path, -1};
        if (inFolder.empty())
            return model::Error{
                "no trace files (*.json, *.json.gz, *.sqlite, *.nsys-rep) in the folder", path, -1};
        std::sort(inFolder.begin(), inFolder.end(),
                  [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
        for (const std::string& name : inFolder)
            files.push_back((fs::path(path) / name).string());
    }
    // One file twice would be two ranks with the same rank, or a rank counted twice.
    std::map<std::string, std::string> seen;  // canonical path -> as given
    for (const std::string& file : files) {
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(file, ec);
        const std::string key = ec ? file : canonical.string();
        if (auto [it, fresh] = seen.try_emplace(key, file); !fresh)
            return model::Error{"named twice (also as " + it->second + ")", file, -1};
    }
    return files;
}

model::Result<RankJob> mergeRankJob(std::vector<model::TracePtr> traces,
                                    const std::vector<std::string>& paths,
                                    const RankJobOptions& options) {
    if (traces.empty())
        return model::Error{"no traces to open as a job"};
    if (traces.size() != paths.size())
        return model::Error{"each trace of a job needs its file name"};
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (!traces[i])
            return model::Error{"the trace is missing", paths[i], -1};
        // Its ranks would meet the other traces' numbers: a job's trace is opened on its own.
        const auto processes = traces[i]->processes();
        if (std::any_of(processes.begin(), processes.end(),
                        [](const model::Process& p) { return p.rank >= 0; })) {
            return model::Error{"is a job's merged trace already: open it on its own", paths[i],
                                -1};
        }
    }
    RankJob job;
    std::vector<TraceFacts> facts;
    facts.reserve(traces.size());
    for (const model::TracePtr& trace : traces)
        facts.push_back(factsOf(*trace));

    // Ranks: what the traces say, then the free numbers in file order.
    std::map<std::int32_t, std::size_t> byRank;  // rank -> input index
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (!facts[i].rank)
            continue;
        auto [it, fresh] = byRank.try_emplace(*facts[i].rank, i);
        if (!fresh) {
            return model::Error{"rank " + std::to_string(*facts[i].rank) + " is also in " +
                                    paths[it->second] +
                                    ": a job has one trace per rank (two runs mixed?)",
                                paths[i], -1};
        }
    }
    std::vector<std::int32_t> rankOf(traces.size(), -1);
    std::int32_t nextFree = 0;
    std::vector<std::string> numbered;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (facts[i].rank) {
            rankOf[i] = *facts[i].rank;
            continue;
        }
        while (byRank.count(nextFree) > 0)
            ++nextFree;
        rankOf[i] = nextFree;
        byRank.emplace(nextFree, i);
        numbered.push_back(fileName(paths[i]));
    }
    if (!numbered.empty()) {
        job.warnings.push_back(
            numbered.size() == traces.size()
                ? std::string("no trace names its rank: ranks follow the order of the files")
                : std::to_string(numbered.size()) +
                      " trace(s) name no rank and were numbered in file order, the first " +
                      numbered.front());
    }
    std::set<std::int64_t> worldSizes;
    for (const TraceFacts& f : facts) {
        if (f.worldSize)
            worldSizes.insert(*f.worldSize);
    }
    if (worldSizes.size() > 1) {
        job.warnings.push_back("the traces name " + std::to_string(worldSizes.size()) +
                               " different world sizes: traces of different jobs?");
    } else if (worldSizes.size() == 1 &&
               static_cast<std::int64_t>(byRank.rbegin()->first) >= *worldSizes.begin()) {
        job.warnings.push_back("rank " + std::to_string(byRank.rbegin()->first) +
                               " is not below the world size " +
                               std::to_string(*worldSizes.begin()));
    }

    job.ranks.resize(traces.size());
    for (std::size_t i = 0; i < traces.size(); ++i) {
        RankSource& r = job.ranks[i];
        r.rank = rankOf[i];
        r.path = paths[i];
        r.rankFromTrace = facts[i].rank.has_value();
        r.host = facts[i].host;
        r.pid = facts[i].pid;
        r.label = rankLabel(r.rank, facts[i]);
    }
    // Inputs by rank from here on: rank order is the job's order (the reference is the lowest).
    std::vector<std::size_t> order(traces.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return rankOf[a] < rankOf[b]; });

    // Alignment: the ranks (inputs, in rank order) that each way cannot place.
    using Align = RankJobOptions::Align;
    std::vector<std::size_t> noClock;
    for (std::size_t i : order) {
        if (!facts[i].wallOffsetNs)
            noClock.push_back(i);
    }
    std::vector<std::optional<model::TimeNs>> rangeStarts(traces.size());
    std::vector<std::size_t> noRange;
    const bool tryRange =
        !options.alignRange.empty() &&
        (options.align == Align::Range || (options.align == Align::Auto && !noClock.empty()));
    if (tryRange) {
        for (std::size_t i : order) {
            rangeStarts[i] = firstRangeStart(*traces[i], options.alignRange);
            if (!rangeStarts[i])
                noRange.push_back(i);
        }
    }
    const std::string rangeText = "'" + model::foldDigits(options.alignRange) + "'";
    if (options.align == Align::WallClock && !noClock.empty()) {
        const std::string& problem = facts[noClock.front()].clockProblem;
        return model::Error{
            "no host wall clock to align the ranks by: " +
                (problem.empty() ? std::string("the trace has no clock_sync_start (warpline "
                                               "record) and its times are no "
                                               "dates (PyTorch profiler)")
                                 : problem),
            paths[noClock.front()], -1};
    }
    if (options.align == Align::Range) {
        if (options.alignRange.empty())
            return model::Error{"aligning the ranks by a range needs the range's name"};
        if (!noRange.empty()) {
            return model::Error{"no range " + rangeText + " to align the ranks by",
                                paths[noRange.front()], -1};
        }
    }
    std::string why;  // why Auto could not use the better ways
    if (options.align == Align::Auto && !noClock.empty()) {
        why = listRanks(job.ranks, noClock) + " no clock anchor";
        if (const std::string& problem = facts[noClock.front()].clockProblem; !problem.empty())
            why += " (" + problem + ")";
        if (tryRange && !noRange.empty())
            why += "; " + listRanks(job.ranks, noRange) + " no " + rangeText + " range";
    }
    const bool byClock =
        options.align == Align::WallClock || (options.align == Align::Auto && noClock.empty());
    const bool byRange = !byClock && tryRange && noRange.empty() && options.align != Align::Start;
    const std::size_t reference = order.front();
    std::vector<model::TimeNs> offsets(traces.size(), 0);
    if (byClock) {
        job.alignment = RankAlignment::WallClock;
        job.alignmentText = "aligned by host wall clock";
        for (std::size_t i = 0; i < traces.size(); ++i)
            offsets[i] = *facts[i].wallOffsetNs;
    } else {
        job.alignment = byRange ? RankAlignment::Range : RankAlignment::Start;
        job.alignmentText = byRange ? "aligned at each rank's first " + rangeText
                                    : std::string("aligned at each trace's start");
        if (!why.empty())
            job.alignmentText += ": " + why;
        // Each rank is moved so that its anchor (the range's first start, or its first event)
        // falls where the reference rank's does, on the reference's clock.
        const auto anchor = [&](std::size_t i) {
            return byRange ? *rangeStarts[i] : traces[i]->originNs();
        };
        for (std::size_t i = 0; i < traces.size(); ++i) {
            if (__builtin_sub_overflow(anchor(reference), anchor(i), &offsets[i]))
                return model::Error{"the traces' times are too far apart to align", paths[i], -1};
        }
    }

    std::vector<model::MergeInput> inputs;
    inputs.reserve(traces.size());
    std::map<std::string, std::string> metadata;
    metadata["rank alignment"] = job.alignmentText;
    metadata["rank alignment mode"] = toString(job.alignment);
    for (std::size_t i : order) {
        RankSource& r = job.ranks[i];
        r.clockOffsetNs = offsets[i];
        model::MergeInput in;
        in.trace = std::move(traces[i]);
        in.label = r.label;
        in.clockOffsetNs = offsets[i];
        in.rank = r.rank;
        inputs.push_back(std::move(in));
        const std::string prefix = "rank " + std::to_string(r.rank) + ".";
        metadata[prefix + "file"] = r.path;
        metadata[prefix + "clock offset ns"] = std::to_string(offsets[i]);
    }
    if (options.progress)
        options.progress(0.9, "merging " + std::to_string(traces.size()) + " ranks");
    auto merged = model::mergeTraces(std::move(inputs), metadata);
    if (!merged.ok())
        return merged.error();
    job.trace = std::move(merged.value());
    std::sort(job.ranks.begin(), job.ranks.end(),
              [](const RankSource& a, const RankSource& b) { return a.rank < b.rank; });
    if (options.progress)
        options.progress(1.0, "merged " + std::to_string(traces.size()) + " ranks");
    return job;
}

model::Result<RankJob> loadRankJob(const std::vector<std::string>& files,
                                   const RankJobOptions& options) {
    if (files.empty())
        return model::Error{"no trace files to open as a job"};
    unsigned threads = options.threads != 0 ? options.threads : std::thread::hardware_concurrency();
    threads = std::clamp<unsigned>(threads, 1, static_cast<unsigned>(files.size()));

    std::vector<std::optional<model::Result<model::TracePtr>>> loaded(files.size());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    const auto cancelled = [&] {
        return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed);
    };
    // Progress by input bytes over every file (a job of one large and many small traces moves
    // as its reading does), reported from the reading threads one at a time.
    std::mutex progressMutex;
    std::size_t done = 0;
    std::vector<std::uint64_t> fileBytes(files.size(), 0);
    std::vector<std::uint64_t> bytesRead(files.size(), 0);  // of fileBytes
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        const std::uintmax_t size = fs::file_size(files[i], ec);
        fileBytes[i] = ec ? 0 : static_cast<std::uint64_t>(size);
        bytesTotal += fileBytes[i];
    }
    // File i has read `bytes` of its size (under progressMutex); whether that is news.
    const auto advance = [&](std::size_t i, std::uint64_t bytes) {
        bytes = std::min(bytes, fileBytes[i]);
        if (bytes <= bytesRead[i])
            return false;
        bytesDone += bytes - bytesRead[i];
        bytesRead[i] = bytes;
        return true;
    };
    const auto report = [&] {
        const double read = bytesTotal > 0
                                ? static_cast<double>(bytesDone) / static_cast<double>(bytesTotal)
                                : static_cast<double>(done) / static_cast<double>(files.size());
        options.progress(0.9 * read, "read " + std::to_string(done) + " of " +
                                         std::to_string(files.size()) + " traces");
    };
    const auto work = [&] {
        while (!failed.load(std::memory_order_relaxed) && !cancelled()) {
            const std::size_t i = next.fetch_add(1);
            if (i >= files.size())
                return;
            ReadControl control;
            control.cancel = options.cancel;  // each file's read stops too, not only the next
            if (options.progress) {
                control.progress = [&, i](std::uint64_t doneBytes, std::uint64_t totalBytes) {
                    // The end of a file is reported once it is loaded, below.
                    if (totalBytes == 0 || doneBytes >= totalBytes)
                        return;
                    const std::lock_guard lock(progressMutex);
                    // A compressed file reports its decompressed text: scaled to its file size.
                    if (advance(i, static_cast<std::uint64_t>(static_cast<double>(doneBytes) /
                                                              static_cast<double>(totalBytes) *
                                                              static_cast<double>(fileBytes[i]))))
                        report();
                };
            }
            auto result = loadTrace(files[i], control);
            const bool ok = result.ok();
            if (!ok)
                failed.store(true, std::memory_order_relaxed);  // the others stop early
            loaded[i] = std::move(result);
            if (ok && options.progress) {
                const std::lock_guard lock(progressMutex);
                ++done;
                advance(i, fileBytes[i]);
                report();
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(work);
        work();
    }
    // Before the failures: a read stopped by the flag fails too.
    if (cancelled())
        return model::Error{"opening the job was cancelled"};
    // The first failure in file order, so the same files always give the same error.
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (loaded[i] && !loaded[i]->ok()) {
            model::Error e = loaded[i]->error();
            if (e.file.empty())
                e.file = files[i];
            return e;
        }
    }
    std::vector<model::TracePtr> traces;
    traces.reserve(files.size());
    for (auto& result : loaded)
        traces.push_back(std::move(result->value()));
    loaded.clear();
    return mergeRankJob(std::move(traces), files, options);
}

}  // namespace wl::io
