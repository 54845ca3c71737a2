// `warpline record [-o FILE] -- PROGRAM [ARGS...]`: runs another CUDA program with the injection
// library (CUDA_INJECTION64_PATH) and NVTX pointed at CUPTI (NVTX_INJECTION64_PATH); the library
// writes the trace when the program exits. The program's exit code is passed through.
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "io/RecordOutput.h"

namespace wl::app {
namespace {

constexpr const char* kRecordHelp = R"(Usage: warpline record [-o FILE] -- PROGRAM [ARGS...]

Runs PROGRAM under the CUPTI tracer and writes its trace when it exits: kernels, copies, memsets,
synchronisations, CUDA runtime and driver API calls and NVTX ranges, from every process start
until exit. Every process of the program that uses CUDA writes a trace of its own. A signal that
ends the program (SIGTERM, SIGHUP, Ctrl+C where the program does not handle it, abort(), a crash)
still leaves the trace of what ran until then; only SIGKILL loses it.

Options:
  -o, --output FILE  where to write the trace (Chrome trace JSON; gzip-compressed when FILE ends
                     in .gz). Default: PROGRAM-PID.json.gz in the current folder, PROGRAM being
                     the program's file name and PID its process id. Processes the program starts
                     write FILE's name with their pid before the extension (mp.json.gz ->
                     mp.4242.json.gz). FILE may hold Nsight Systems' patterns instead: %p (pid),
                     %h (host name), %q{VAR} (an environment variable: RANK, LOCAL_RANK,
                     OMPI_COMM_WORLD_RANK, SLURM_PROCID), %n (the first free number), %% ('%').
  -h, --help         this text

PROGRAM finds its CUDA library as usual; Python programs work too (python3 script.py). NVTX
ranges are recorded unless NVTX_INJECTION64_PATH is already set to another tool; tracing starts
at the program's first CUDA call, so ranges opened before it are not recorded.
Only one CUPTI client may trace a process: a program already run under Nsight Systems, Nsight
Compute or the PyTorch profiler cannot be recorded.

Exit code: the program's own (128+N when signal N ended it); 1 when no trace could be written for
a program that succeeded; 2 for bad usage or a program that cannot be started.
Then open the trace with `warpline --open FILE` or summarise it with `warpline analyze FILE`.
)";

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
    std::vector<std::string> command;
};

// Returns false (after printing why) on bad usage.
bool parseArgs(const std::vector<std::string>& args, RecordArgs& out, bool& help) {
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg == "-h" || arg == "--help") {
            help = true;
            return true;
        }
        if (arg == "-o" || arg == "--output") {
            if (i + 1 >= args.size()) {
                printError("record: " + arg + " needs a file name");
                return false;
            }
            out.output = args[++i];
            continue;
        }
        if (arg.rfind("-", 0) == 0) {
            printError("record: unknown option '" + arg + "' (see warpline record --help)");
            return false;
        }
        break;  // the program, without a "--"
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
            "record: no program given (usage: warpline record [-o FILE] -- PROGRAM [ARGS...])");
        return false;
    }
    return true;
}

}  // namespace

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
#ifndef WARPLINE_HAS_CUDA
    printError(
        "record: this build of warpline has no CUDA support (built without the CUDA toolkit)");
    return kExitFailure;
#else
    const std::string injection = executableDir() + "/libwarpline_inject.so";
    struct stat info {};
    if (stat(injection.c_str(), &info) != 0) {
        printError(injection + ": the injection library is missing (it is built next to warpline)");
        return kExitFailure;
    }

    char statusTemplate[] = "/tmp/warpline-record-XXXXXX";
    const int statusFd = mkstemp(statusTemplate);
    if (statusFd < 0) {
        printError(std::string("record: cannot create a status file: ") + std::strerror(errno));
        return kExitFailure;
    }
    close(statusFd);
    const std::string statusPath = statusTemplate;

    // exec failures come back through a close-on-exec pipe: nothing arrives when exec succeeds.
    int execPipe[2];
    if (pipe2(execPipe, O_CLOEXEC) != 0) {
        printError(std::string("record: pipe: ") + std::strerror(errno));
        unlink(statusPath.c_str());
        return kExitFailure;
    }
    const pid_t child = fork();
    if (child < 0) {
        printError(std::string("record: fork: ") + std::strerror(errno));
        unlink(statusPath.c_str());
        return kExitFailure;
    }
    if (child == 0) {
        close(execPipe[0]);
        const std::string output = parsed.output.empty() ? baseName(parsed.command[0]) + "-" +
                                                               std::to_string(getpid()) + ".json.gz"
                                                         : parsed.output;
        setenv("CUDA_INJECTION64_PATH", injection.c_str(), 1);
        const char* userNvtx = std::getenv("NVTX_INJECTION64_PATH");
        if (userNvtx == nullptr || userNvtx[0] == '\0') {
            // The injection library forwards NVTX to the libcupti the program ends up using (a
            // user's own NVTX tool wins).
            setenv("NVTX_INJECTION64_PATH", injection.c_str(), 1);
        }
        setenv("WARPLINE_RECORD_OUTPUT", output.c_str(), 1);
        setenv("WARPLINE_RECORD_ROOT_PID", std::to_string(getpid()).c_str(), 1);
        setenv("WARPLINE_RECORD_STATUS", statusPath.c_str(), 1);
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

    const std::vector<std::string> lines = readLines(statusPath);
    unlink(statusPath.c_str());
    if (execFailed) {
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

    bool wrote = false;
    for (const std::string& line : lines) {
        if (line.rfind("ok ", 0) == 0) {
            // "ok PATH slices=N kernels=K dropped=D"
            const std::string rest = line.substr(3);
            const auto space = rest.find(' ');
            const std::string path = rest.substr(0, space);
            const std::string stats =
                space == std::string::npos ? std::string() : rest.substr(space + 1);
            std::fprintf(stderr, "warpline: trace written to %s (%s)\n", path.c_str(),
                         stats.c_str());
            if (const auto at = stats.find(" signal="); at != std::string::npos) {
                std::fprintf(stderr,
                             "warpline: that process was ended by signal %d: its trace holds "
                             "what ran until then\n",
                             std::atoi(stats.c_str() + at + 8));
            }
            if (stats.find("dropped=0") == std::string::npos) {
                std::fprintf(stderr,
                             "warpline: warning: CUPTI dropped records: the trace is incomplete\n");
            }
            wrote = true;
        } else if (line.rfind("error ", 0) == 0) {
            printError(parsed.command[0] + ": " + line.substr(6));
        }
    }
    if (!wrote && lines.empty()) {
        if (WIFSIGNALED(waitStatus)) {
            printError(parsed.command[0] + ": no trace was written: signal " +
                       std::to_string(WTERMSIG(waitStatus)) +
                       " ended the program before its trace could be written (SIGKILL cannot "
                       "be caught)");
        } else {
            printError(parsed.command[0] +
                       ": no trace was written: the program never initialised CUDA (or ran under "
                       "another CUDA injection tool)");
        }
    }
    if (!wrote && exitCode == 0) {
        return kExitFailure;
    }
    return exitCode;
#endif
}

}  // namespace wl::app
