// warpline_inject: loaded into a CUDA program through CUDA_INJECTION64_PATH (set by
// `warpline record`). The driver calls InitializeInjection() inside cuInit(), before the program's
// first CUDA work; the library starts the CUPTI tracer there and writes the trace when the program
// exits (atexit, which also runs when a signal handler of the program calls exit()).
//
// Environment (set by `warpline record`):
//   WARPLINE_RECORD_OUTPUT  where to write the trace (default: warpline-record-<pid>.json.gz)
//   WARPLINE_RECORD_STATUS  a file that receives one line: "ok <path>" or "error <message>", so the
//                           recorder can tell the user what happened in the traced process.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cupti/CuptiTracer.h"
#include "io/TraceFile.h"

namespace {

std::atomic<bool> g_initialized{false};
std::atomic<bool> g_written{false};
wl::cupti::CuptiTracer* g_tracer = nullptr;  // never destroyed: it must outlive every exit handler

std::string outputPath() {
    const char* path = std::getenv("WARPLINE_RECORD_OUTPUT");
    if (path != nullptr && path[0] != '\0') {
        return path;
    }
    return "warpline-record-" + std::to_string(getpid()) + ".json.gz";
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

void writeTrace() {
    if (g_tracer == nullptr || g_written.exchange(true)) {
        return;
    }
    auto trace = g_tracer->stop();
    if (!trace.ok()) {
        std::fprintf(stderr, "warpline: error: tracing failed: %s\n",
                     trace.error().message.c_str());
        reportStatus("error tracing failed: " + trace.error().message);
        return;
    }
    const std::string path = outputPath();
    wl::model::Status saved = wl::io::saveTrace(*trace.value(), path);
    if (!saved.ok()) {
        std::fprintf(stderr, "warpline: error: %s\n", saved.error().describe().c_str());
        reportStatus("error " + saved.error().describe());
        return;
    }
    const auto& diagnostics = trace.value()->diagnostics();
    reportStatus("ok " + path + " slices=" + std::to_string(trace.value()->counts().slices) +
                 " kernels=" + std::to_string(trace.value()->counts().kernel) +
                 " dropped=" + std::to_string(diagnostics.droppedRecords) +
                 " cupti=" + wl::cupti::CuptiTracer::loadedCuptiPath());
}

}  // namespace

namespace {

// NVTX injection entry points, forwarded to the libcupti this library is linked with. `warpline
// record` points NVTX_INJECTION64_PATH here rather than at a libcupti file: a process may already
// have loaded its own copy of libcupti (PyTorch ships one), and NVTX must reach the copy that
// traces, not load a second one (two CUPTI clients in one process make CUPTI refuse the second).
using NvtxInit = int (*)(const void*);

int forwardToCupti(const char* symbol, const void* argument) {
    void* cupti = dlopen(wl::cupti::CuptiTracer::loadedCuptiPath().c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (cupti == nullptr) {
        return 0;  // NVTX then runs without a tool
    }
    auto init = reinterpret_cast<NvtxInit>(dlsym(cupti, symbol));
    const int result = init != nullptr ? init(argument) : 0;
    dlclose(cupti);  // only drops the reference NOLOAD took
    return result;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx(const void* arg) {
    return forwardToCupti("InitializeInjectionNvtx", arg);
}
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* arg) {
    return forwardToCupti("InitializeInjectionNvtx2", arg);
}
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(
    const void* arg) {
    return forwardToCupti("InitializeInjectionNvtxExtension", arg);
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
    options.metadata["producer"] = "warpline record";
    options.metadata["command"] = commandLine();
    g_tracer = new wl::cupti::CuptiTracer();
    wl::model::Status status = g_tracer->start(options);
    if (!status.ok()) {
        std::fprintf(stderr, "warpline: error: %s\n", status.error().message.c_str());
        reportStatus("error " + status.error().message);
        return 1;  // the program runs on untraced
    }
    std::atexit(&writeTrace);
    return 1;
}
