// warpline_inject: loaded into a CUDA program through CUDA_INJECTION64_PATH (set by
// `warpline record`). The driver calls InitializeInjection() inside cuInit(), before the program's
// first CUDA work; the library starts the CUPTI tracer there and writes the trace when the program
// exits: at exit, and also when a signal that would end the program arrives (SIGTERM from a
// launcher, SIGHUP, Ctrl+C where the program has no handler of its own, abort(), a crash), so what
// was recorded up to then is kept. Every traced process (the program and the processes it starts)
// writes a trace of its own. NVTX_INJECTION64_PATH names this library too: its
// InitializeInjectionNvtx2 records the program's NVTX calls itself (cupti/NvtxInjection.h), from
// the first one on, and a process that used NVTX but never CUDA still writes a trace of them.
//
// Environment (set by `warpline record`):
//   WARPLINE_RECORD_OUTPUT    the -o name or pattern (io::recordOutputPath; default
//                             warpline-record-<pid>.json.gz)
//   WARPLINE_RECORD_ROOT_PID  the pid of the process `record` started: it alone writes the plain
//                             -o name, the others write beside it
//   WARPLINE_RECORD_STATUS    a file that receives one line per traced process: "ok <path> ..." or
//                             "error <message>", so the recorder can tell the user what happened
//   WARPLINE_RECORD_SPILL_DIR a folder for each process's spill file (<pid>.spill): every
//                             activity buffer is appended there as it arrives, so a process killed
//                             without warning (SIGKILL) still leaves its records for the recorder
//   WARPLINE_RECORD_*         the record options (cupti::RecordSettings)
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <thread>

#include "cupti/CaptureFilter.h"
#include "cupti/CuptiTracer.h"
#include "cupti/NvtxInjection.h"
#include "cupti/NvtxRecorder.h"
#include "cupti/RecordSettings.h"
#include "cupti/RecordTranslator.h"
#include "cupti/SpillRecovery.h"
#include "io/RecordOutput.h"
#include "io/TraceFile.h"

namespace {

std::atomic<bool> g_initialized{false};
std::atomic<bool> g_written{false};
wl::cupti::CuptiTracer* g_tracer = nullptr;  // never destroyed: it must outlive every exit handler
std::string g_outputPath;                    // chosen at start: the spill file names it too
std::string g_outputNote;  // why g_outputPath is the fallback name, said when it is written
pid_t g_tracedPid = 0;  // a process forked without exec inherits the tracer's memory, not its use

// While a spill file is kept, CUPTI is asked for its buffers this often: a kill loses at most
// about this much of the end of the run.
constexpr std::uint32_t kSpillFlushPeriodMs = 1000;

std::string hostName() {
    char name[256] = {};
    return gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : std::string();
}

// Where the trace goes without an -o name, or when this process cannot make its -o name.
std::string fallbackOutputPath() {
    return "warpline-record-" + std::to_string(getpid()) + ".json.gz";
}

wl::model::Result<std::string> outputPath(bool overwrite) {
    const char* pattern = std::getenv("WARPLINE_RECORD_OUTPUT");
    const char* rootPid = std::getenv("WARPLINE_RECORD_ROOT_PID");
    wl::io::RecordProcess process;
    process.pid = getpid();
    process.root = rootPid == nullptr || std::atoll(rootPid) == process.pid;
    process.host = hostName();
    process.env = [](const char* name) { return std::getenv(name); };
    process.exists = [](const std::string& path) {
        struct stat info {};
        return stat(path.c_str(), &info) == 0;
    };
    process.overwrite = overwrite;
    if (pattern == nullptr || pattern[0] == '\0') {
        return fallbackOutputPath();
    }
    return wl::io::recordOutputPath(pattern, process);
}

// Wall clock and CUPTI's clock read together: traces of one job from several hosts can be put on
// one time axis by these pairs ("wall ns,trace ns").
std::string clockPair() {
    timespec wall{};
    clock_gettime(CLOCK_REALTIME, &wall);
    const std::uint64_t traceNs = wl::cupti::CuptiTracer::clockNs();
    const auto wallNs = static_cast<std::uint64_t>(wall.tv_sec) * 1'000'000'000ull +
                        static_cast<std::uint64_t>(wall.tv_nsec);
    return std::to_string(wallNs) + "," + std::to_string(traceNs);
}

void reportStatus(const std::string& line) {
    const char* statusPath = std::getenv("WARPLINE_RECORD_STATUS");
    if (statusPath == nullptr || statusPath[0] == '\0') {
        return;
    }
    // Appends: a program that forks writes one line per traced process.
    if (FILE* file = std::fopen(statusPath, "a")) {
        std::fprintf(file, "%s\n", line.c_str());
        std::fclose(file);
    }
}

std::string commandName() {
    char buffer[256] = {};
    FILE* file = std::fopen("/proc/self/comm", "r");
    if (file == nullptr) {
        return {};
    }
    std::string name;
    if (std::fgets(buffer, sizeof(buffer), file) != nullptr) {
        name = buffer;
    }
    std::fclose(file);
    while (!name.empty() && name.back() == '\n') {
        name.pop_back();
    }
    return name;
}

std::string commandLine() {
    std::string text;
    if (FILE* file = std::fopen("/proc/self/cmdline", "r")) {
        char buffer[4096];
        const std::size_t length = std::fread(buffer, 1, sizeof(buffer), file);
        std::fclose(file);
        for (std::size_t i = 0; i < length; ++i) {
            text += buffer[i] == '\0' ? ' ' : buffer[i];
        }
    }
    while (!text.empty() && text.back() == ' ') {
        text.pop_back();
    }
    return text;
}

// What the trace says about the process: who made it, and which process of which job it is.
std::map<std::string, std::string> processMetadata() {
    std::map<std::string, std::string> metadata;
    metadata["producer"] = "warpline record";
    metadata["command"] = commandLine();
    // Which process of which job this is: traces of one job's ranks are told apart by these
    // (written as Kineto's distributedInfo too).
    metadata["host"] = hostName();
    metadata["pid"] = std::to_string(getpid());
    struct LauncherVariable {
        const char* key;
        const char* names[4];  // the first one set wins
    };
    static constexpr LauncherVariable kLauncherVariables[] = {
        {"rank", {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}},
        {"world_size", {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}},
        {"local_rank", {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", nullptr}},
    };
    for (const LauncherVariable& v : kLauncherVariables) {
        for (const char* name : v.names) {
            const char* value = name != nullptr ? std::getenv(name) : nullptr;
            if (value != nullptr && value[0] != '\0') {
                metadata[v.key] = value;
                break;
            }
        }
    }
    return metadata;
}

// The signal that ended the program, when one did (0: it exited).
std::atomic<int> g_endingSignal{0};

void writeTrace() {
    if (g_tracer == nullptr || getpid() != g_tracedPid || g_written.exchange(true)) {
        return;
    }
    g_tracer->setMetadata("clock_sync_end", clockPair());
    if (const int sig = g_endingSignal.load(); sig != 0) {
        // The trace says it holds the run only until then.
        g_tracer->setMetadata("ended", "by signal " + std::to_string(sig) + " (" +
                                           sigabbrev_np(sig) + "): the run until then");
    }
    auto trace = g_tracer->stop();
    if (!trace.ok()) {
        std::fprintf(stderr, "warpline: error: tracing failed: %s\n",
                     trace.error().message.c_str());
        reportStatus("error tracing failed: " + trace.error().message);
        return;
    }
    const std::string& path = g_outputPath;
    const auto& metadata = trace.value()->metadata();
    // A process that initialised CUDA but gave the GPU nothing to do and marked nothing (a
    // launcher such as torchrun, which only counts the devices) leaves no trace of its own.
    const auto& counts = trace.value()->counts();
    const std::uint64_t recorded = counts.kernel + counts.memcpy + counts.memset + counts.memory +
                                   counts.sync + counts.nvtx + counts.unifiedMemory;
    if (recorded == 0 && metadata.find(wl::cupti::kCaptureRemovedKey) == metadata.end()) {
        g_tracer->discardSpill();
        reportStatus("skipped pid=" + std::to_string(getpid()) +
                     " api_calls=" + std::to_string(counts.api));
        return;
    }
    if (!g_outputNote.empty()) {
        std::fprintf(stderr, "warpline: warning: %s\n", g_outputNote.c_str());
    }
    auto saved = wl::io::saveTrace(*trace.value(), path);
    if (!saved.ok()) {
        std::fprintf(stderr, "warpline: error: %s\n", saved.error().describe().c_str());
        reportStatus("error " + saved.error().describe());
        return;
    }
    g_tracer->discardSpill();
    const auto& diagnostics = trace.value()->diagnostics();
    std::string line = "ok " + path + " slices=" + std::to_string(trace.value()->counts().slices) +
                       " kernels=" + std::to_string(trace.value()->counts().kernel) +
                       " dropped=" + std::to_string(diagnostics.droppedRecords) +
                       " pid=" + std::to_string(getpid());
    if (const auto it = metadata.find(wl::cupti::kCaptureRemovedKey); it != metadata.end()) {
        line += " outside_capture=" + it->second;
        const auto windows = metadata.find(wl::cupti::kCaptureWindowsKey);
        line += " windows=" + (windows != metadata.end() ? windows->second : std::string("0"));
    }
    if (g_endingSignal != 0) {
        line += " signal=" + std::to_string(g_endingSignal.load());
    }
    reportStatus(line + " cupti=" + wl::cupti::CuptiTracer::loadedCuptiPath());
}

// Signals that end a program by default. When one arrives and the program has no handler of its
// own for it, the handler asks the writer thread to write the trace, waits for it (at most
// kSignalWriteTimeoutMs), and lets the signal end the program as it would have. Programs' own
// handlers are called instead (Python's Ctrl+C raises KeyboardInterrupt; the program then exits
// and the trace is written at exit). The handler itself only writes to and polls pipes, which
// are async-signal-safe; the writing happens on a thread of its own with these signals blocked.
constexpr int kEndingSignals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS};
constexpr int kSignalWriteTimeoutMs = 60'000;
struct sigaction g_previous[NSIG];
int g_requestPipe[2] = {-1, -1};  // handler -> writer thread: one byte, the signal number
int g_donePipe[2] = {-1, -1};     // writer thread -> handler: the trace is written

void onEndingSignal(int sig, siginfo_t* info, void* context) {
    const struct sigaction& previous = g_previous[sig];
    const bool ownHandler = (previous.sa_flags & SA_SIGINFO) != 0
                                ? previous.sa_sigaction != nullptr
                                : previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN;
    if (ownHandler) {
        if ((previous.sa_flags & SA_SIGINFO) != 0) {
            previous.sa_sigaction(sig, info, context);
        } else {
            previous.sa_handler(sig);
        }
        return;
    }
    if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler == SIG_IGN) {
        return;
    }
    const int savedErrno = errno;
    if (getpid() == g_tracedPid && !g_written.load()) {
        g_endingSignal.store(sig);
        const unsigned char byte = static_cast<unsigned char>(sig);
        if (write(g_requestPipe[1], &byte, 1) == 1) {
            pollfd done{g_donePipe[0], POLLIN, 0};
            while (poll(&done, 1, kSignalWriteTimeoutMs) < 0 && errno == EINTR) {
            }
        }
    }
    // End the program as the signal would have: with the default action, now unblocked.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, nullptr);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, sig);
    pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
    raise(sig);
    errno = savedErrno;
}

void writerThread() {
    unsigned char byte = 0;
    while (read(g_requestPipe[0], &byte, 1) == 1) {
        writeTrace();
        const unsigned char done = 1;
        (void)!write(g_donePipe[1], &done, 1);
    }
}

void installSignalHandlers() {
    if (pipe2(g_requestPipe, O_CLOEXEC) != 0 || pipe2(g_donePipe, O_CLOEXEC) != 0) {
        return;  // the trace is still written at a normal exit
    }
    // The writer thread must never run a handler (it would wait for itself): it starts with
    // every ending signal blocked, and keeps that mask.
    sigset_t blocked;
    sigset_t previousMask;
    sigemptyset(&blocked);
    for (int sig : kEndingSignals) {
        sigaddset(&blocked, sig);
    }
    pthread_sigmask(SIG_BLOCK, &blocked, &previousMask);
    std::thread(writerThread).detach();
    pthread_sigmask(SIG_SETMASK, &previousMask, nullptr);
    for (int sig : kEndingSignals) {
        struct sigaction handler {};
        handler.sa_sigaction = &onEndingSignal;
        handler.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&handler.sa_mask);
        sigaction(sig, &handler, &g_previous[sig]);
    }
}

}  // namespace

namespace {

// NVTX's first call in this process (of any of its NVTX instances) happened: NVTX is recorded
// from then on, also in a process that never initialises CUDA.
std::atomic<bool> g_nvtxStarted{false};
pid_t g_nvtxPid = 0;

// A process that made NVTX calls and never initialised CUDA (no tracer was started) still gets a
// trace of them: its ranges say what it did. One that made none writes nothing (a launcher).
void writeNvtxOnlyTrace() {
    if (g_tracer != nullptr || getpid() != g_nvtxPid || g_written.exchange(true)) {
        return;
    }
    auto& recorder = wl::cupti::NvtxRecorder::instance();
    wl::cupti::NvtxCapture capture = recorder.collect();
    recorder.setRecording(false);
    if (capture.ranges.empty() && capture.neverEnded + capture.unmatchedEnds == 0) {
        return;
    }
    const auto settings = wl::cupti::RecordSettings::fromEnvironment();
    const auto named = outputPath(settings.forceOverwrite);
    const std::string path = named.ok() ? named.value() : fallbackOutputPath();
    wl::cupti::RecordTranslator translator(
        [](CUpti_CallbackDomain, CUpti_CallbackId) { return std::string(); });
    translator.setHostProcessName(commandName());
    translator.addNvtx(capture);
    translator.complete();
    auto& builder = translator.builder();
    for (const auto& [key, value] : processMetadata()) {
        builder.setMetadata(key, value);
    }
    builder.setMetadata("clock_sync_end", clockPair());
    builder.setMetadata("cuda", "not initialised: NVTX only");
    const wl::model::TracePtr trace = builder.finalize();
    auto saved = wl::io::saveTrace(*trace, path);
    if (!saved.ok()) {
        std::fprintf(stderr, "warpline: error: %s\n", saved.error().describe().c_str());
        reportStatus("error " + saved.error().describe());
        return;
    }
    reportStatus("ok " + path + " slices=" + std::to_string(trace->counts().slices) +
                 " kernels=0 dropped=0 pid=" + std::to_string(getpid()) + " nvtx_only=1");
}

}  // namespace

// NVTX's entry point (NVTX_INJECTION64_PATH, set by `warpline record`): Warpline records NVTX
// itself (cupti/NvtxInjection.h), in every domain and form, on CUPTI's clock. Called once per
// NVTX instance of the program (each library with NVTX headers of its own has one).
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    wl::cupti::NvtxExportTableFn exportTable) {
    if (!wl::cupti::RecordSettings::fromEnvironment().traceNvtx) {
        return 0;  // `--trace cuda`: NVTX runs without a tool, at no cost
    }
    if (wl::cupti::installNvtxInjection(exportTable) == 0) {
        return 0;
    }
    if (!g_nvtxStarted.exchange(true)) {
        g_nvtxPid = getpid();
        wl::cupti::NvtxRecorder::instance().setRecording(true);
        std::atexit(&writeNvtxOnlyTrace);
    }
    return 1;
}

// NVTX's entry point for its extensions, in the same library: the payload extension's ranges
// (NCCL pops every API range through nvtxRangePopPayload).
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(
    void* moduleInfo) {
    if (!wl::cupti::RecordSettings::fromEnvironment().traceNvtx) {
        return 0;
    }
    return wl::cupti::installNvtxExtension(moduleInfo);
}

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    if (g_initialized.exchange(true)) {
        return 1;
    }
    wl::cupti::TracerOptions options;
    // Inside cuInit(): no CUDA runtime calls. At exit the program's contexts are going away, so
    // stop() only flushes.
    options.checkDevices = false;
    options.synchronizeAtStop = false;
    options.queryDeviceProperties = false;
    options.hostName = commandName();
    options.metadata = processMetadata();
    g_tracedPid = getpid();
    const auto settings = wl::cupti::RecordSettings::fromEnvironment();
    if (auto applied = settings.applyTo(options); !applied.ok()) {
        // The recorder checked these before starting the program: only a hand-made environment
        // gets here. Trace everything rather than nothing.
        std::fprintf(stderr, "warpline: warning: %s; recording the whole run\n",
                     applied.error().message.c_str());
    }
    // A name that cannot be made in this process (a %q{VAR} it lacks) must not lose its trace:
    // it goes to the default name in the current folder, and the recorder says so when it is
    // written (a launcher without the variable writes none).
    const auto named = outputPath(settings.forceOverwrite);
    g_outputPath = named.ok() ? named.value() : fallbackOutputPath();
    if (!named.ok()) {
        g_outputNote = named.error().message + "; writing " + g_outputPath + " instead";
    }
    options.metadata["clock_sync_start"] = clockPair();
    if (const char* spillDir = std::getenv("WARPLINE_RECORD_SPILL_DIR");
        spillDir != nullptr && spillDir[0] != '\0') {
        options.spillPath = std::string(spillDir) + "/" + std::to_string(getpid()) + ".spill";
        options.flushPeriodMs = kSpillFlushPeriodMs;
        options.spillMetadata = options.metadata;
        options.spillMetadata[wl::cupti::kSpillOutputKey] = g_outputPath;
        options.spillMetadata[wl::cupti::kSpillProcessNameKey] = options.hostName;
        options.spillMetadata[wl::cupti::kSpillCaptureRangeKey] = settings.captureRange;
        options.spillMetadata[wl::cupti::kSpillCaptureEndKey] = settings.captureEnd;
        options.spillMetadata[wl::cupti::kSpillDelayKey] = settings.delaySeconds;
        options.spillMetadata[wl::cupti::kSpillDurationKey] = settings.durationSeconds;
    }
    // Written at exit before the CUDA runtime tears itself down, and before CUPTI's profiler
    // host library does (GPU metrics): registered again once the program's first context exists
    // and once each device's GPU metrics started, so it runs first (TracerOptions::
    // onExitHandlersAdded); the registration below stays for programs that never create one.
    options.onExitHandlersAdded = [] { std::atexit(&writeTrace); };
    // What CUPTI would not record (unified-memory counters on a platform without them) is said
    // while the program runs, and again in the trace's warnings.
    options.onSettingRefused = [](const std::string& warning) {
        std::fprintf(stderr, "warpline: warning: %s\n", warning.c_str());
    };
    g_tracer = new wl::cupti::CuptiTracer();
    wl::model::Status status = g_tracer->start(options);
    if (!status.ok()) {
        std::fprintf(stderr, "warpline: error: %s\n", status.error().message.c_str());
        reportStatus("error " + status.error().message);
        return 1;  // the program runs on untraced
    }
    std::atexit(&writeTrace);
    installSignalHandlers();
    return 1;
}
