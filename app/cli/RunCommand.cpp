// `warpline run`: a workload under the tracer, headless. Prints the result check and a summary,
// writes the trace with -o. Exit 0 when the check passes, 1 when it fails or the GPU side fails,
// 2 for bad parameters.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app/RunSession.h"
#include "app/cli/Commands.h"
#include "io/TraceFile.h"

namespace wl::app {
namespace {

constexpr const char* kRunUsage =
    R"(Usage: warpline run --workload reduce|power --mode baseline|async [options] [-o trace.json]

Runs one of Warpline's CUDA workloads under the CUPTI tracer, prints the result check and a
summary (wall time, GPU time, copies and their GB/s), and writes the trace with -o (.json or
.json.gz, Chrome trace JSON).

  --workload reduce|power   reduce/normalize (float32) or power iteration (float64)
  --mode baseline|async     one stream with blocking copies, or the asynchronous version
  --streams N               async: streams, 1..64 (reduce: one chunk per stream; power: one
                            compute stream plus copy streams)
  --pinned | --pageable     host memory for the copies (default pageable)
  --size N                  reduce: elements (default 100000000); power: matrix dimension (8192)
  --repeat N                reduce: reductions per chunk (default 1; the seed uses 50)
  --steps N                 power: most steps (default 1000)
  --shared-stream           reduce async: every chunk on one stream (the [stream] * n bug)
  --devices N               reduce: split the array over GPUs 0..N-1 (1..8; baseline one GPU
                            after another, async all at once with peer copies of the sums)
  --graph                   power async: capture each batch of steps once as a CUDA graph and
                            replay it (one launch per batch instead of two per step)
  --gpu-metrics             also sample warp occupancy and SM active % (locks GPU clocks)
  -o, --output FILE         write the trace
)";

struct Parsed {
    RunRequest request;
    std::string output;
    bool help = false;
};

std::optional<long long> parseInteger(const std::string& text) {
    if (text.empty()) {
        return std::nullopt;
    }
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end == nullptr || *end != '\0') {
        return std::nullopt;
    }
    return value;
}

// Fills `parsed` or returns the usage error.
std::optional<std::string> parseArgs(const std::vector<std::string>& args, Parsed& parsed) {
    RunRequest& r = parsed.request;
    bool sawWorkload = false;
    bool sawMode = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                return std::nullopt;
            }
            return args[++i];
        };
        auto integer = [&](long long min, long long max,
                           long long& out) -> std::optional<std::string> {
            const auto text = value();
            if (!text) {
                return arg + " needs a value";
            }
            const auto number = parseInteger(*text);
            if (!number) {
                return arg + ": not a whole number: '" + *text + "'";
            }
            if (*number < min || *number > max) {
                return arg + " must be between " + std::to_string(min) + " and " +
                       std::to_string(max) + " (got " + *text + ")";
            }
            out = *number;
            return std::nullopt;
        };
        long long number = 0;
        if (arg == "--help" || arg == "-h") {
            parsed.help = true;
        } else if (arg == "--workload") {
            const auto text = value();
            if (!text) {
                return "--workload needs a value (reduce or power)";
            }
            r.workload = *text;
            sawWorkload = true;
        } else if (arg == "--mode") {
            const auto text = value();
            if (!text) {
                return "--mode needs a value (baseline or async)";
            }
            r.mode = *text;
            sawMode = true;
        } else if (arg == "--streams") {
            if (auto error = integer(1, 64, number)) {
                return error;
            }
            r.streams = static_cast<int>(number);
        } else if (arg == "--size") {
            if (auto error = integer(1, static_cast<long long>(1) << 40, number)) {
                return error;
            }
            r.size = number;
        } else if (arg == "--repeat") {
            if (auto error = integer(1, 100000, number)) {
                return error;
            }
            r.repeat = static_cast<int>(number);
        } else if (arg == "--steps") {
            if (auto error = integer(1, 10000000, number)) {
                return error;
            }
            r.steps = static_cast<int>(number);
        } else if (arg == "--pinned") {
            r.pinned = true;
        } else if (arg == "--pageable") {
            r.pinned = false;
        } else if (arg == "--shared-stream") {
            r.sharedStreamBug = true;
        } else if (arg == "--graph") {
            r.graph = true;
        } else if (arg == "--devices") {
            if (auto error = integer(1, 8, number)) {
                return error;
            }
            r.devices = static_cast<int>(number);
        } else if (arg == "--gpu-metrics") {
            r.gpuMetrics = true;
        } else if (arg == "-o" || arg == "--output") {
            const auto text = value();
            if (!text || text->empty()) {
                return arg + " needs a file name";
            }
            parsed.output = *text;
        } else {
            return "unknown option '" + arg + "' for run (see warpline run --help)";
        }
    }
    if (!parsed.help && (!sawWorkload || !sawMode)) {
        return "run needs --workload reduce|power and --mode baseline|async (see warpline run "
               "--help)";
    }
    return std::nullopt;
}

}  // namespace

int runCommand(const std::vector<std::string>& args) {
    Parsed parsed;
    if (const auto error = parseArgs(args, parsed)) {
        printError(*error);
        return kExitBadInput;
    }
    if (parsed.help) {
        std::fputs(kRunUsage, stdout);
        return kExitOk;
    }
    if (const model::Status request = checkRequest(parsed.request); !request.ok()) {
        printError(request.error().describe());
        return kExitBadInput;
    }
    if (const auto device = runDevice(); !device.ok()) {
        printError(device.error().describe());
        return kExitFailure;
    }
    if (const model::Status valid = validateRun(parsed.request); !valid.ok()) {
        printError(valid.error().describe());
        return kExitBadInput;
    }
    auto outcome = runTraced(parsed.request);
    if (!outcome.ok()) {
        printError(outcome.error().describe());
        return kExitFailure;
    }
    std::printf("check: %s\n%s", outcome->checkText.c_str(), outcome->summaryText.c_str());
    if (!parsed.output.empty()) {
        if (const model::Status saved = io::saveTrace(*outcome->trace, parsed.output);
            !saved.ok()) {
            printError(saved.error().describe());
            return kExitFailure;
        }
        std::printf("  written      %s\n", parsed.output.c_str());
    }
    std::fflush(stdout);
    return outcome->checkPassed ? kExitOk : kExitFailure;
}

}  // namespace wl::app
