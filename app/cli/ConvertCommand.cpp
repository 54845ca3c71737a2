// `warpline convert IN -o OUT`: read any trace we read, write our Chrome trace JSON (".gz" for
// gzip, "-" for standard output). Several inputs, or a folder, are a job's ranks: their merged
// trace is written (io::loadRankJob).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/Commands.h"
#include "io/ChromeTraceWriter.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"

namespace wl::app {

namespace {

constexpr const char* kConvertUsage =
    "usage: warpline convert IN -o OUT.json[.gz]\n"
    "       warpline convert IN IN... | DIR -o OUT.json[.gz]   (a job's ranks, merged)";

// The trace to write: the one input, or the job that several inputs (or a folder) make.
model::Result<model::TracePtr> loadInput(const std::vector<std::string>& in) {
    std::error_code ec;
    if (in.size() == 1 && !std::filesystem::is_directory(in.front(), ec))
        return io::loadTrace(in.front());
    const auto files = io::rankJobFiles(in);
    if (!files.ok())
        return files.error();
    if (files.value().size() == 1)
        return io::loadTrace(files.value().front());
    auto job = io::loadRankJob(files.value());
    if (!job.ok())
        return job.error();
    std::cerr << "warpline: " << job.value().ranks.size() << " ranks, " << job.value().alignmentText
              << "\n";
    for (const std::string& w : job.value().warnings)
        std::cerr << "warpline: warning: " << w << "\n";
    return job.value().trace;
}

}  // namespace

int convertCommand(const std::vector<std::string>& args) {
    std::vector<std::string> in;
    std::string out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o" || a == "--output") {
            if (i + 1 >= args.size()) {
                printError(a + " needs a file name\n" + kConvertUsage);
                return kExitBadInput;
            }
            out = args[++i];
        } else if (a.rfind("--output=", 0) == 0) {
            out = a.substr(9);
        } else if (a == "--help" || a == "-h") {
            std::cout << kConvertUsage << "\n";
            return kExitOk;
        } else if (!a.empty() && a[0] == '-') {
            printError("convert: unknown option '" + a + "'\n" + kConvertUsage);
            return kExitBadInput;
        } else {
            in.push_back(a);
        }
    }
    if (in.empty() || out.empty()) {
        printError(std::string("convert: ") +
                   (in.empty() ? "no input file" : "no output file (-o)") + "\n" + kConvertUsage);
        return kExitBadInput;
    }

    const auto loaded = loadInput(in);
    if (!loaded.ok()) {
        printError(loaded.error().describe());
        return kExitBadInput;
    }
    const model::Trace& trace = *loaded.value();
    if (out == "-") {
        const auto status = io::ChromeTraceWriter(trace).write([](std::string_view chunk) {
            return std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size();
        });
        if (!status.ok() || std::fflush(stdout) != 0) {
            printError("-: cannot write to standard output");
            return kExitFailure;
        }
        return kExitOk;
    }
    if (const auto status = io::saveTrace(trace, out); !status.ok()) {
        printError(status.error().describe());
        return kExitFailure;
    }
    std::cerr << "warpline: wrote " << out << " (" << trace.counts().slices << " slices, "
              << trace.counts().flows << " flows, " << trace.counts().counterSamples
              << " counter samples)\n";
    return kExitOk;
}

}  // namespace wl::app
