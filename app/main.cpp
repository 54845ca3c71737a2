// warpline: no arguments (or GUI options) opens the window; a subcommand runs headless.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "app/gui/GuiMain.h"
#include "workloads/catalog/RunCatalog.h"

namespace {

// The commands, with `run`'s options from the run catalog (every option the workloads take, so the
// line cannot fall behind them).
std::string usage() {
    constexpr int kRunColumn = 15;  // "  warpline run "
    return R"(Warpline: a timeline viewer for CUDA asynchrony.

Usage:
  warpline [--open FILE] [RUN OPTIONS] [--run] [--screenshot FILE.png]
                                   open the window (a sample trace when there is no GPU)
  warpline --compare A B           open two traces side by side in Compare
  warpline --open A B ... | DIR    open a job's per-rank traces together (the Ranks tab)
  warpline run )" +
           wl::workloads::runOptionsSynopsis(kRunColumn, 96, "[-o trace.json]") + R"(
                                   run a workload under the tracer and print a summary
                                   (RUN OPTIONS: see warpline run --help)
  warpline analyze FILE [--json] [--gap-threshold-us X]
                                   import summary and analysis of a trace
  warpline convert IN -o OUT.json  read any supported trace, write Chrome trace JSON
  warpline diff A B [--json] [--whole-trace]
                                   compare two traces: window, GPU busy and idle, kernels,
                                   copies, NVTX ranges, findings
  warpline query FILE "SQL" [--csv | --json]
                                   SQL over the trace's slices, kernels, copies, tracks,
                                   processes, threads, counters and flows
  warpline record [-o FILE] -- PROGRAM [ARGS...]
                                   trace another CUDA program
  warpline --help | --version

Traces: Chrome trace JSON (ours, PyTorch profiler/Kineto, others), plain or .gz.
Exit codes: 0 success, 1 failure while running, 2 bad usage or bad input.
)";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace wl::app;
    if (argc >= 2) {
        const std::string first = argv[1];
        const std::vector<std::string> rest(argv + 2, argv + argc);
        if (first == "--help" || first == "-h" || first == "help") {
            std::fputs(usage().c_str(), stdout);
            return kExitOk;
        }
        if (first == "--version") {
            std::printf("warpline %s\n", WARPLINE_VERSION);
            return kExitOk;
        }
        if (first == "analyze")
            return analyzeCommand(rest);
        if (first == "convert")
            return convertCommand(rest);
        if (first == "run")
            return runCommand(rest);
        if (first == "record")
            return recordCommand(rest);
        if (first == "diff")
            return diffCommand(rest);
        if (first == "query")
            return queryCommand(rest);
        if (first.rfind("-", 0) != 0) {
            printError("unknown command '" + first + "' (see warpline --help)");
            return kExitBadInput;
        }
    }
    return guiMain(argc, argv);
}
