// `warpline record [-o FILE] -- PROGRAM [ARGS...]`: runs another CUDA program with the injection
// library as its CUDA and NVTX tool (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH); the library
// writes the trace when the program exits. The program's exit code is passed through.
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/Commands.h"
#include "io/RankJob.h"
#include "io/RecordOutput.h"
#include "io/TraceFile.h"
#ifdef WARPLINE_HAS_CUDA
#include "cupti/RecordSettings.h"
#include "cupti/SpillRecovery.h"
#include "model/TraceMerge.h"
#endif

namespace wl::app {
namespace {

constexpr const char* kRecordHelp = R"(Usage: warpline record [OPTIONS] -- PROGRAM [ARGS...]

Runs PROGRAM under the CUPTI tracer and writes its trace when it exits: kernels, copies, memsets,
synchronisations, CUDA runtime and driver API calls and NVTX ranges. Every process of the program
that uses CUDA writes a trace of its own; when there are several, one merged trace of all of them
is written too. Nothing recorded is lost to a signal: SIGTERM, SIGHUP, Ctrl+C the program does not
handle, abort() and crashes still write the trace; after SIGKILL (or the OOM killer) the trace is
recovered from a spill file, less about the last second.

Options:
  -o, --output FILE        where to write the trace (Chrome trace JSON; gzip-compressed when FILE
                           ends in .gz). Default: PROGRAM-PID.json.gz in the current folder.
                           Processes the program starts write FILE's name with their pid before
                           the extension (mp.json.gz -> mp.4242.json.gz). FILE may hold Nsight
                           Systems' patterns instead: %p (pid), %h (host name), %q{VAR} (an
                           environment variable: RANK, LOCAL_RANK, OMPI_COMM_WORLD_RANK,
                           SLURM_PROCID), %n (the first free number), %% ('%').
  -f, --force-overwrite    replace existing files; otherwise record refuses to start when FILE
                           exists, and a process whose pattern names an existing file writes
                           its pid before the extension instead
  --capture-range=none|cudaProfilerApi|nvtx:NAME[@DOMAIN]
                           keep only the spans between cudaProfilerStart and cudaProfilerStop
                           (as cupyx.profiler.profile() and torch.cuda.profiler.profile() mark
                           them), or the NVTX range NAME; default none (the whole run). Work
                           launched inside a span is kept until it ends. The trace carries the
                           spans, and analysis uses them as its window.
  --capture-range-end=stop|repeat
                           stop: the first span only (default); repeat: every span
  --delay SEC              keep nothing from the first SEC seconds of tracing
  --duration SEC           keep nothing after SEC seconds (counted from the end of --delay)
  --trace LIST             what to record, comma-separated: cuda (always), nvtx; default cuda,nvtx
  --cuda-api runtime|driver|both|none
                           which CUDA API calls to record; default both (launch arrows need one)
  --cuda-api-queries       also record calls that only read state (cudaGetDevice,
                           cudaGetLastError, cuPointerGetAttribute, ...): left out by default, as
                           PyTorch makes tens of them per kernel and each recorded call slows it
  --buffer-size MIB        CUPTI activity buffer size, 1-256 MiB; default 8
  --gpu-metrics            also sample warp occupancy % and SM active % of each GPU the program
                           uses, every 100 us (CUPTI PM sampling; locks the GPU clocks while on,
                           one process per GPU). The program's first kernel on each GPU waits
                           for sampling to start (about half a second)
  --cuda-um-migrations=true|false
                           unified (managed) memory migrations: the bytes the driver moved
                           between the host and each GPU, when and why (with thrashing, throttling
                           and remote maps where the GPU reports them); default false. Any
                           unified-memory counter slows the whole recording, even of a program
                           that uses no managed memory (3.6x its time on an H200)
  --cuda-um-gpu-page-faults=true|false
                           page faults of kernels on managed memory that is not on their GPU,
                           counted per batch the driver services; default false. A kernel that
                           faults on every page makes thousands of records: it may run
                           noticeably slower while recorded
  --cuda-um-cpu-page-faults=true|false
                           page faults of host code on managed memory that is on a GPU; default
                           false. One record per fault: host loops over managed memory may run
                           noticeably slower while recorded
  --no-merge               do not write the merged trace of several processes
  -h, --help               this text
Records left out by a capture range, delay or duration are counted and reported.

PROGRAM finds its CUDA library as usual; Python programs work too (python3 script.py). NVTX
ranges are recorded unless NVTX_INJECTION64_PATH is already set to another tool; tracing starts
at the program's first CUDA call, so ranges opened before it are not recorded.
Only one CUPTI client may trace a process: a program already run under Nsight Systems, Nsight
Compute or the PyTorch profiler cannot be recorded.

Exit code: the program's own (128+N when signal N ended it); 1 when no trace could be written for
a program that succeeded; 2 for bad usage or a program that cannot be started.
Then open the trace with `warpline --open FILE` or summarise it with `warpline analyze FILE`.
)";

#ifdef WARPLINE_HAS_CUDA
std::string executableDir() {
    char path[PATH_MAX] = {};
    const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (length <= 0) {
        return {};
    }
    std::string text(path, static_cast<std::size_t>(length));
    const auto slash = text.rfind('/');
    return slash == std::string::npos ? std::string(".") : text.substr(0, slash);
}

std::string baseName(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> readLines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            lines.push_back(line);
        }
    }
    return lines;
}

struct RecordArgs {
    std::string output;
    bool merge = true;
    cupti::RecordSettings settings;
    std::vector<std::string> command;
};

// "--name=value" or "--name value"; true when `arg` is the option (value then set, or an error
// printed and `bad` set).
bool optionValue(const std::vector<std::string>& args, std::size_t& i, std::string_view name,
                 std::string& value, bool& bad) {
    const std::string& arg = args[i];
    if (arg == name) {
        if (i + 1 >= args.size()) {
            printError("record: " + arg + " needs a value (see warpline record --help)");
            bad = true;
            return true;
        }
        value = args[++i];
        return true;
    }
    if (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 &&
        arg[name.size()] == '=') {
        value = arg.substr(name.size() + 1);
        return true;
    }
    return false;
}

bool fileExists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

// Returns false (after printing why) on bad usage.
bool parseArgs(const std::vector<std::string>& args, RecordArgs& out, bool& help) {
    std::size_t i = 0;
    bool bad = false;
    std::string traceList;  // --trace and --buffer-size, checked after the loop
    std::string bufferMiB;
    std::vector<std::pair<std::string, std::string>> unifiedMemory;  // (option, value)
    for (; i < args.size() && !bad; ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg == "-h" || arg == "--help") {
            help = true;
            return true;
        }
        if (optionValue(args, i, "-o", out.output, bad) ||
            optionValue(args, i, "--output", out.output, bad)) {
            continue;
        }
        if (arg == "-f" || arg == "--force-overwrite") {
            out.settings.forceOverwrite = true;
            continue;
        }
        if (arg == "--cuda-api-queries") {
            out.settings.cudaApiQueries = true;
            continue;
        }
        if (arg == "--gpu-metrics") {
            out.settings.gpuMetrics = true;
            continue;
        }
        if (arg == "--no-merge") {
            out.merge = false;
            continue;
        }
        if (optionValue(args, i, "--capture-range", out.settings.captureRange, bad) ||
            optionValue(args, i, "--capture-range-end", out.settings.captureEnd, bad) ||
            optionValue(args, i, "--delay", out.settings.delaySeconds, bad) ||
            optionValue(args, i, "--duration", out.settings.durationSeconds, bad) ||
            optionValue(args, i, "--cuda-api", out.settings.cudaApi, bad)) {
            continue;
        }
        if (optionValue(args, i, "--trace", traceList, bad) ||
            optionValue(args, i, "--buffer-size", bufferMiB, bad)) {
            continue;
        }
        bool unifiedMemoryOption = false;
        for (const char* name :
             {"--cuda-um-migrations", "--cuda-um-cpu-page-faults", "--cuda-um-gpu-page-faults"}) {
            std::string value;
            if (optionValue(args, i, name, value, bad)) {
                unifiedMemory.emplace_back(name, value);
                unifiedMemoryOption = true;
                break;
            }
        }
        if (unifiedMemoryOption) {
            continue;
        }
        if (arg.rfind("-", 0) == 0) {
            printError("record: unknown option '" + arg + "' (see warpline record --help)");
            return false;
        }
        break;  // the program, without a "--"
    }
    if (bad) {
        return false;
    }
    model::Status status;
    if (!traceList.empty()) {
        status = out.settings.setTrace(traceList);
    }
    if (status.ok() && !bufferMiB.empty()) {
        status = out.settings.setBufferSize(bufferMiB);
    }
    for (const auto& [option, value] : unifiedMemory) {
        if (status.ok()) {
            status = out.settings.setUnifiedMemory(option, value);
        }
    }
    if (status.ok()) {
        status = out.settings.check();
    }
    if (!status.ok()) {
        printError("record: " + status.error().message);
        return false;
    }
    if (!out.output.empty()) {
        // The pattern's syntax is checked now; variables are the traced processes' own.
        io::RecordProcess probe;
        probe.env = [](const char*) { return ""; };
        const auto named = io::recordOutputPath(out.output, probe);
        if (!named.ok()) {
            printError("record: " + named.error().message);
            return false;
        }
    }
    out.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
    if (out.command.empty()) {
        printError(
            "record: no program given (usage: warpline record [OPTIONS] -- PROGRAM "
            "[ARGS...])");
        return false;
    }
    return true;
}

// One traced process's outcome, from its status line ("ok PATH key=value ...").
struct WrittenTrace {
    std::string path;
    std::string stats;  // "slices=N kernels=K dropped=D pid=P ..."
    bool recovered = false;
};

std::string statValue(const std::string& stats, const std::string& key) {
    const std::string needle = key + "=";
    std::size_t at = 0;
    while ((at = stats.find(needle, at)) != std::string::npos) {
        if (at == 0 || stats[at - 1] == ' ') {
            const auto begin = at + needle.size();
            return stats.substr(begin, stats.find(' ', begin) - begin);
        }
        at += needle.size();
    }
    return {};
}

void reportWritten(const WrittenTrace& written) {
    std::fprintf(stderr, "warpline: trace %s %s (%s)\n",
                 written.recovered ? "recovered to" : "written to", written.path.c_str(),
                 written.stats.c_str());
    if (const std::string sig = statValue(written.stats, "signal"); !sig.empty()) {
        std::fprintf(stderr,
                     "warpline: that process was ended by signal %s: its trace holds what ran "
                     "until then\n",
                     sig.c_str());
    }
    if (const std::string outside = statValue(written.stats, "outside_capture"); !outside.empty()) {
        const std::string windows = statValue(written.stats, "windows");
        std::fprintf(stderr,
                     "warpline: capture range: %s span(s) kept; %s events outside them were not "
                     "kept\n",
                     windows.c_str(), outside.c_str());
        if (windows == "0") {
            std::fprintf(stderr,
                         "warpline: warning: the capture range never began in that process: its "
                         "trace holds no GPU work\n");
        }
    }
    if (const std::string dropped = statValue(written.stats, "dropped");
        !dropped.empty() && dropped != "0") {
        std::fprintf(stderr,
                     "warpline: warning: CUPTI dropped %s records: the trace is incomplete "
                     "(a larger --buffer-size helps)\n",
                     dropped.c_str());
    }
}

// Traces of processes that died without writing theirs (SIGKILL): rebuilt from their spill files.
// Spill files of processes that wrote their trace are gone already.
std::vector<WrittenTrace> recoverKilled(const std::string& spillDir, bool forceOverwrite) {
    std::vector<WrittenTrace> recovered;
    DIR* dir = opendir(spillDir.c_str());
    if (dir == nullptr) {
        return recovered;
    }
    std::vector<std::string> spills;
    while (const dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.size() > 6 && name.compare(name.size() - 6, 6, ".spill") == 0) {
            spills.push_back(spillDir + "/" + name);
        }
    }
    closedir(dir);
    std::sort(spills.begin(), spills.end());
    for (const std::string& spill : spills) {
        auto result = cupti::recoverSpilledTrace(spill);
        if (!result.ok()) {
            printError("could not recover a killed process's trace: " + result.error().message);
            continue;
        }
        const cupti::RecoveredTrace& r = result.value();
        std::string path = r.outputPath.empty() ? "warpline-recovered.json.gz" : r.outputPath;
        if (!forceOverwrite && fileExists(path)) {
            path = io::mergedOutputPath(path);  // never over a trace written meanwhile
        }
        if (auto saved = io::saveTrace(*r.trace, path); !saved.ok()) {
            printError("could not write a killed process's recovered trace: " +
                       saved.error().describe());
            continue;
        }
        unlink(spill.c_str());
        WrittenTrace written;
        written.path = path;
        written.recovered = true;
        written.stats = "slices=" + std::to_string(r.trace->counts().slices) +
                        " kernels=" + std::to_string(r.trace->counts().kernel) +
                        " pid=" + r.trace->metadataValue("pid", "?") + " killed";
        recovered.push_back(std::move(written));
    }
    return recovered;
}

// One trace of every process of the run, beside the trace of the program `record` started
// (`rootPid`; processes share the host clock).
void writeMerged(const std::vector<WrittenTrace>& written, std::int64_t rootPid,
                 const std::string& pattern, bool forceOverwrite) {
    std::vector<model::TracePtr> traces;
    for (const WrittenTrace& w : written) {
        auto trace = io::loadTrace(w.path);
        if (!trace.ok()) {
            printError("merged trace not written: " + trace.error().describe());
            return;
        }
        traces.push_back(std::move(trace.value()));
    }
    // The ranks of a torchrun job stay ranks (their rows apart, the Ranks view and the rank
    // comparison); the processes of one program are merged as processes.
    const std::vector<std::int32_t> ranks = io::distinctRanksOf(traces);
    std::vector<model::MergeInput> inputs;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        model::MergeInput input;  // a process: labelled by its name and pid
        if (ranks[i] >= 0) {
            input.label = io::rankLabelOf(*traces[i], ranks[i]);  // as `analyze` of its ranks
        }
        input.trace = std::move(traces[i]);
        input.rank = ranks[i];
        inputs.push_back(std::move(input));
    }
    std::map<std::string, std::string> metadata;
    if (ranks.front() >= 0) {
        // How the ranks were put on one axis, as `analyze` and the Ranks view say it.
        metadata["rank alignment"] = "recorded together on one clock";
        metadata["rank alignment mode"] = io::toString(io::RankAlignment::OneClock);
    }
    auto merged = model::mergeTraces(std::move(inputs), metadata);  // each input goes once merged
    if (!merged.ok()) {
        printError("merged trace not written: " + merged.error().message);
        return;
    }
    const auto root = std::find_if(written.begin(), written.end(), [&](const WrittenTrace& w) {
        return statValue(w.stats, "pid") == std::to_string(rootPid);
    });
    // Beside the processes' traces: a pattern that names them apart names it too (under a
    // launcher such as torchrun, which traces nothing of its own); else beside the root's.
    std::string path = io::mergedPatternOutputPath(pattern);
    if (path.empty()) {
        path = io::mergedOutputPath(root != written.end() ? root->path : written.front().path);
    }
    if (!forceOverwrite && fileExists(path)) {
        printError("merged trace not written: " + path +
                   " exists already (pass --force-overwrite to replace it)");
        return;
    }
    if (auto saved = io::saveTrace(*merged.value(), path); !saved.ok()) {
        printError("merged trace not written: " + saved.error().describe());
        return;
    }
    std::fprintf(stderr, "warpline: merged trace of all %zu processes written to %s\n",
                 written.size(), path.c_str());
}

void removeTree(const std::string& dirPath) {
    if (DIR* dir = opendir(dirPath.c_str())) {
        while (const dirent* entry = readdir(dir)) {
            const std::string name = entry->d_name;
            if (name != "." && name != "..") {
                unlink((dirPath + "/" + name).c_str());
            }
        }
        closedir(dir);
    }
    rmdir(dirPath.c_str());
}

#endif  // WARPLINE_HAS_CUDA

}  // namespace

#ifndef WARPLINE_HAS_CUDA
int recordCommand(const std::vector<std::string>& args) {
    if (!args.empty() && (args.front() == "-h" || args.front() == "--help")) {
        std::fputs(kRecordHelp, stdout);
        return kExitOk;
    }
    printError(
        "record: this build of warpline has no CUDA support (built without the CUDA toolkit)");
    return kExitFailure;
}
#else
int recordCommand(const std::vector<std::string>& args) {
    RecordArgs parsed;
    bool help = false;
    if (!parseArgs(args, parsed, help)) {
        return kExitBadInput;
    }
    if (help) {
        std::fputs(kRecordHelp, stdout);
        return kExitOk;
    }
    const std::string injection = executableDir() + "/libwarpline_inject.so";
    if (!fileExists(injection)) {
        printError(injection + ": the injection library is missing (it is built next to warpline)");
        return kExitFailure;
    }
    const bool plainName = !parsed.output.empty() && parsed.output.find('%') == std::string::npos;
    if (plainName && !parsed.settings.forceOverwrite && fileExists(parsed.output)) {
        printError("record: " + parsed.output +
                   " exists already; choose another -o or pass --force-overwrite");
        return kExitBadInput;
    }

    // A private folder for the status lines and the spill files of this run.
    const char* tmp = std::getenv("TMPDIR");
    std::string work =
        std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/warpline-record-XXXXXX";
    if (mkdtemp(work.data()) == nullptr) {
        printError("record: cannot create a working folder in " + work.substr(0, work.rfind('/')) +
                   ": " + std::strerror(errno));
        return kExitFailure;
    }
    const std::string statusPath = work + "/status";

    // exec failures come back through a close-on-exec pipe: nothing arrives when exec succeeds.
    int execPipe[2];
    if (pipe2(execPipe, O_CLOEXEC) != 0) {
        printError(std::string("record: pipe: ") + std::strerror(errno));
        removeTree(work);
        return kExitFailure;
    }
    const pid_t child = fork();
    if (child < 0) {
        printError(std::string("record: fork: ") + std::strerror(errno));
        removeTree(work);
        return kExitFailure;
    }
    if (child == 0) {
        close(execPipe[0]);
        const std::string output = parsed.output.empty() ? baseName(parsed.command[0]) + "-" +
                                                               std::to_string(getpid()) + ".json.gz"
                                                         : parsed.output;
        setenv("CUDA_INJECTION64_PATH", injection.c_str(), 1);
        const char* userNvtx = std::getenv("NVTX_INJECTION64_PATH");
        // The injection library records NVTX itself (a user's own NVTX tool wins). A libcupti
        // named there (left by another CUPTI tool) is replaced: NVTX would go to CUPTI's own
        // records, which the trace is not made from.
        const bool userTool = userNvtx != nullptr && userNvtx[0] != '\0' &&
                              std::strstr(userNvtx, "libcupti") == nullptr;
        if (!userTool) {
            setenv("NVTX_INJECTION64_PATH", injection.c_str(), 1);
        }
        setenv("WARPLINE_RECORD_OUTPUT", output.c_str(), 1);
        setenv("WARPLINE_RECORD_ROOT_PID", std::to_string(getpid()).c_str(), 1);
        setenv("WARPLINE_RECORD_STATUS", statusPath.c_str(), 1);
        setenv("WARPLINE_RECORD_SPILL_DIR", work.c_str(), 1);
        parsed.settings.exportToEnvironment();
        std::vector<char*> argv;
        for (auto& arg : parsed.command) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        const int error = errno;
        (void)!write(execPipe[1], &error, sizeof(error));
        _exit(127);
    }
    close(execPipe[1]);
    int execError = 0;
    const bool execFailed = read(execPipe[0], &execError, sizeof(execError)) == sizeof(execError);
    close(execPipe[0]);

    // Ctrl+C goes to the program; we stay to report what it left behind.
    struct sigaction ignore {};
    struct sigaction oldInt {};
    struct sigaction oldQuit {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ignore, &oldInt);
    sigaction(SIGQUIT, &ignore, &oldQuit);
    int waitStatus = 0;
    while (waitpid(child, &waitStatus, 0) < 0 && errno == EINTR) {
    }
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);

    if (execFailed) {
        removeTree(work);
        printError(parsed.command[0] + ": cannot run the program: " + std::strerror(execError));
        return kExitBadInput;
    }

    int exitCode = 0;
    if (WIFEXITED(waitStatus)) {
        exitCode = WEXITSTATUS(waitStatus);
    } else if (WIFSIGNALED(waitStatus)) {
        exitCode = 128 + WTERMSIG(waitStatus);
        std::fprintf(stderr, "warpline: %s was ended by signal %d (%s)\n",
                     parsed.command[0].c_str(), WTERMSIG(waitStatus),
                     strsignal(WTERMSIG(waitStatus)));
    }

    const std::vector<std::string> lines = readLines(statusPath);
    std::vector<WrittenTrace> written;
    std::size_t skipped = 0;  // processes that ran no GPU work (a launcher): no trace
    for (const std::string& line : lines) {
        if (line.rfind("ok ", 0) == 0) {
            const std::string rest = line.substr(3);
            const auto space = rest.find(' ');
            WrittenTrace w;
            w.path = rest.substr(0, space);
            w.stats = space == std::string::npos ? std::string() : rest.substr(space + 1);
            written.push_back(std::move(w));
        } else if (line.rfind("error ", 0) == 0) {
            printError(parsed.command[0] + ": " + line.substr(6));
        } else if (line.rfind("skipped ", 0) == 0) {
            ++skipped;
            std::fprintf(stderr, "warpline: no trace of process %s: %s\n",
                         statValue(line.substr(8), "pid").c_str(),
                         "it launched no GPU work and made no NVTX call");
        }
    }
    for (WrittenTrace& w : recoverKilled(work, parsed.settings.forceOverwrite)) {
        written.push_back(std::move(w));
    }
    removeTree(work);
    for (const WrittenTrace& w : written) {
        reportWritten(w);
    }
    if (written.size() > 1) {
        std::fprintf(stderr, "warpline: %zu processes wrote traces:\n", written.size());
        for (const WrittenTrace& w : written) {
            std::fprintf(stderr, "  %s\n", w.path.c_str());
        }
        if (parsed.merge) {
            writeMerged(written, child, parsed.output, parsed.settings.forceOverwrite);
        }
    }
    if (written.empty() && skipped > 0 && skipped == lines.size()) {
        printError(parsed.command[0] +
                   ": no trace was written: the program launched no GPU work and made no NVTX "
                   "call");
    }
    if (written.empty() && lines.empty()) {
        if (WIFSIGNALED(waitStatus)) {
            printError(parsed.command[0] + ": no trace was written: signal " +
                       std::to_string(WTERMSIG(waitStatus)) +
                       " ended the program before it made its first CUDA call");
        } else {
            printError(parsed.command[0] +
                       ": no trace was written: the program never initialised CUDA (or ran under "
                       "another CUDA injection tool)");
        }
    }
    if (written.empty() && exitCode == 0) {
        return kExitFailure;
    }
    return exitCode;
}
#endif  // WARPLINE_HAS_CUDA

}  // namespace wl::app
