// `warpline run`: a workload under the tracer, headless. Prints the result check and a summary,
// writes the trace with -o. Exit 0 when the check passes, 1 when it fails or the GPU side fails,
// 2 for bad parameters.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/RunOptions.h"
#include "app/RunSession.h"
#include "app/cli/Commands.h"
#include "io/TraceFile.h"

namespace wl::app {
namespace {

// The help column of the run options (the catalog writes them) and of -o below them.
constexpr int kUsageColumn = 28;

std::string runUsage() {
    return "Usage: warpline run --workload " + workloads::workloadChoices("|") + " --mode " +
           workloads::modeChoices("|") + R"( [options] [-o trace.json]

Runs one of Warpline's CUDA workloads under the CUPTI tracer, prints the result check and a
summary (wall time, GPU time, copies and their GB/s), and writes the trace with -o (.json or
.json.gz, Chrome trace JSON).

)" + workloads::runOptionsUsage(kUsageColumn) +
           "  -o, --output FILE         write the trace\n";
}

struct Parsed {
    RunRequest request;
    std::string output;
    bool help = false;
};

// Fills `parsed` or returns the usage error.
std::optional<std::string> parseArgs(const std::vector<std::string>& args, Parsed& parsed) {
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
        if (arg == "--help" || arg == "-h") {
            parsed.help = true;
        } else if (const workloads::OptionSpec* option = workloads::findRunOption(arg)) {
            const std::optional<std::string> text = option->isFlag() ? std::nullopt : value();
            if (const model::Status status = applyRunOption(*option, text, parsed.request);
                !status.ok()) {
                return status.error().message;
            }
            sawWorkload = sawWorkload || option->id == workloads::RunOption::Workload;
            sawMode = sawMode || option->id == workloads::RunOption::Mode;
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
        return "run needs --workload " + workloads::workloadChoices("|") + " and --mode " +
               workloads::modeChoices("|") + " (see warpline run --help)";
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
        std::fputs(runUsage().c_str(), stdout);
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
