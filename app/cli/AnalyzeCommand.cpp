// `warpline analyze FILE|DIR... [--json] [--gap-threshold-us X]`: import summary, then analysis;
// several traces (or a folder of them) are the ranks of one job: merged, then compared.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <filesystem>

#include "analysis/Options.h"
#include "analysis/Ranks.h"
#include "analysis/Summary.h"
#include "app/cli/AnalysisReport.h"
#include "app/cli/Commands.h"
#include "app/cli/RankReport.h"
#include "io/JsonWriter.h"
#include "io/RankJob.h"
#include "io/TraceFile.h"

namespace wl::app {

namespace {

// What `warpline analyze` says about an imported trace before any analysis: its span, counts by
// kind, devices with their streams, and the import diagnostics. Plain value computed once.
struct ImportSummary {
    struct Device {
        std::int32_t id = 0;
        std::string name;
        std::vector<std::int64_t> streams;  // ascending
    };
    model::TimeNs spanNs = 0;
    model::TraceCounts counts;
    std::vector<Device> devices;  // by id
    std::uint64_t droppedRecords = 0;
    std::uint64_t spilledOverlaps = 0;
    std::uint64_t warningCount = 0;
    std::vector<std::string> warnings;
    std::uint64_t noteCount = 0;  // routine producer quirks, counted quietly
    std::vector<std::string> notes;

    static ImportSummary of(const model::Trace& trace);

    // The stable keys: "span_ns", "counts", "devices", "import" (inside an open object).
    void appendJson(io::JsonWriter& out) const;
    void printText(std::ostream& out) const;
};

ImportSummary ImportSummary::of(const model::Trace& trace) {
    ImportSummary s;
    s.spanNs = trace.spanNs();
    s.counts = trace.counts();
    std::map<std::int32_t, Device> devices;
    for (const auto& d : trace.devices()) {
        devices[d.id].id = d.id;
        devices[d.id].name = d.name;
    }
    for (const auto& p : trace.processes()) {
        if (p.deviceId < 0)
            continue;
        Device& d = devices[p.deviceId];
        d.id = p.deviceId;
        if (d.name.empty())
            d.name = std::string(trace.str(p.nameId));
    }
    for (const auto& t : trace.tracks()) {
        if (t.kind != model::TrackKind::GpuStream)
            continue;
        Device& d = devices[t.deviceId];
        d.id = t.deviceId;
        d.streams.push_back(t.streamId);
    }
    for (auto& [id, d] : devices) {
        std::sort(d.streams.begin(), d.streams.end());
        d.streams.erase(std::unique(d.streams.begin(), d.streams.end()), d.streams.end());
        s.devices.push_back(std::move(d));
    }
    const auto& diag = trace.diagnostics();
    s.droppedRecords = diag.droppedRecords;
    s.spilledOverlaps = diag.spilledOverlaps;
    s.warningCount = diag.warningCount;
    s.warnings = diag.warnings;
    s.noteCount = diag.noteCount;
    s.notes = diag.notes;
    return s;
}

void ImportSummary::appendJson(io::JsonWriter& out) const {
    out.field("span_ns", spanNs);
    out.key("counts").beginObject();
    out.field("kernel", counts.kernel);
    out.field("memcpy", counts.memcpy);
    out.field("memset", counts.memset);
    out.field("sync", counts.sync);
    out.field("api", counts.api);
    out.field("nvtx", counts.nvtx);
    out.field("counter_samples", counts.counterSamples);
    out.field("flows", counts.flows);
    out.field("dependencies", counts.dependencies);
    out.field("cpu_op", counts.cpuOp);
    out.field("other", counts.other);
    out.field("slices", counts.slices);
    out.endObject();
    out.key("devices").beginArray();
    for (const auto& d : devices) {
        out.beginObject();
        out.field("id", d.id).field("name", d.name);
        out.key("streams").beginArray();
        for (auto stream : d.streams)
            out.value(stream);
        out.endArray();
        out.endObject();
    }
    out.endArray();
    out.key("import").beginObject();
    out.field("dropped_records", droppedRecords);
    out.field("spilled_overlaps", spilledOverlaps);
    out.field("warnings", warningCount);
    out.key("warning_messages").beginArray();
    for (const auto& w : warnings)
        out.value(w);
    out.endArray();
    out.field("notes", noteCount);
    out.key("note_messages").beginArray();
    for (const auto& n : notes)
        out.value(n);
    out.endArray();
    out.endObject();
}

void ImportSummary::printText(std::ostream& out) const {
    char span[64];
    std::snprintf(span, sizeof span, "%.3f ms", static_cast<double>(spanNs) / 1e6);
    out << "span: " << span << " (" << spanNs << " ns)\n";
    out << "events: " << counts.kernel << " kernels, " << counts.memcpy << " copies, "
        << counts.memset << " memsets, " << counts.sync << " syncs, " << counts.api
        << " API calls, " << counts.nvtx << " NVTX ranges, " << counts.cpuOp << " CPU ops, "
        << counts.other << " other slices, " << counts.counterSamples << " counter samples, "
        << counts.flows << " flows, " << counts.dependencies << " waits through events\n";
    if (devices.empty())
        out << "devices: none\n";
    for (const auto& d : devices) {
        out << "device " << d.id << ": " << (d.name.empty() ? "(unnamed)" : d.name);
        if (d.streams.empty()) {
            out << ", no streams\n";
            continue;
        }
        out << ", " << d.streams.size() << (d.streams.size() == 1 ? " stream (" : " streams (");
        for (std::size_t i = 0; i < d.streams.size(); ++i)
            out << (i ? ", " : "") << d.streams[i];
        out << ")\n";
    }
    out << "import: " << droppedRecords << " dropped records, " << spilledOverlaps
        << " spilled overlaps, " << warningCount
        << (warningCount == 1 ? " warning\n" : " warnings\n");
    for (const auto& w : warnings)
        out << "  warning: " << w << "\n";
    if (warningCount > warnings.size()) {
        out << "  (" << warningCount - warnings.size() << " more warnings not kept)\n";
    }
    // Routine quirks of the producer: one line, the first of them named.
    if (noteCount > 0) {
        out << "  " << noteCount << (noteCount == 1 ? " note" : " notes")
            << " (routine producer quirks; --json lists them)" << (notes.empty() ? "" : ": ")
            << (notes.empty() ? std::string() : notes.front()) << "\n";
    }
}

constexpr const char* kAnalyzeUsage =
    "usage: warpline analyze FILE|DIR... [--json] [--range NAME[#K]] [--window START_MS:END_MS]\n"
    "                        [--whole-trace] [--gap-threshold-us X]\n"
    "                        [--align auto|clock|range|start] [--align-range NAME]\n"
    "                        [--rank-buckets N]\n"
    "  The analysis describes one window of the trace: by default its capture range\n"
    "  (cudaProfilerStart/Stop, record --capture-range) when it has one, else a training\n"
    "  loop's iterations when NVTX ranges mark them ('step 3', 'ProfilerStep#551', ...; a\n"
    "  warm-up step far longer than the others left out), else the launches of the CUDA graph\n"
    "  launched most often (a replay loop: warm-up, capture and module loading left out), else\n"
    "  the steady state (the span of the program's repeated GPU work, without its one-off\n"
    "  start-up and tear-down), else the whole trace (first to last GPU op). --range: the K-th\n"
    "  NVTX range named exactly NAME (1-based, in start order), or every one of them without\n"
    "  #K. --window: a time range in ms of trace time, as the ruler shows it. --whole-trace:\n"
    "  ignore the capture range, the iterations, the graph launches and the steady state.\n"
    "  Several traces, or a folder of them (*.json, *.json.gz), are the ranks of one job: merged\n"
    "  on one time axis (host wall clock when every trace has it, else each rank's first\n"
    "  --align-range NAME when set, else the traces' starts; --align forces one) and compared\n"
    "  rank by rank, and collective by collective: each NCCL collective matched across the\n"
    "  ranks, who arrived last (its kernel started last), how late and what the others waited;\n"
    "  --rank-buckets: columns of the rank x time overview (default 50).";

// The value of an option given as "--name VALUE" or "--name=VALUE"; false when it is missing.
bool optionValue(const std::vector<std::string>& args, std::size_t& i, const std::string& name,
                 std::string& value) {
    const std::string& a = args[i];
    if (a == name) {
        if (i + 1 >= args.size())
            return false;
        value = args[++i];
        return true;
    }
    value = a.substr(name.size() + 1);
    return true;
}

bool isOption(const std::string& arg, const std::string& name) {
    return arg == name || arg.rfind(name + "=", 0) == 0;
}

bool parsePositive(const std::string& text, double& value) {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(value) &&
           value >= 0.0;
}

// The job part of the command: the traces merged as ranks, the usual report of the merged trace,
// then the ranks compared.
int analyzeJob(const std::vector<std::string>& files, bool json,
               const analysis::WindowRequest& windowRequest,
               const analysis::AnalysisOptions& options, const io::RankJobOptions& jobOptions,
               std::int32_t buckets) {
    const auto job = io::loadRankJob(files, jobOptions);
    if (!job.ok()) {
        printError(job.error().describe());
        return kExitBadInput;
    }
    const model::Trace& trace = *job.value().trace;
    const auto window = analysis::resolveWindow(trace, windowRequest);
    if (!window.ok()) {
        printError("the job's merged trace: " + window.error().describe());
        return kExitBadInput;
    }
    const analysis::AnalysisResult result = analysis::analyzeTrace(trace, options, window.value());
    const std::optional<analysis::Summary> overview = analysis::computeSummary(trace, result);
    const ImportSummary summary = ImportSummary::of(trace);
    analysis::RankOptions rankOptions;
    rankOptions.analysis = options;
    rankOptions.overviewBuckets = buckets;
    const analysis::RankStats ranks =
        analysis::computeRankStats(trace, window.value(), rankOptions);
    if (json) {
        std::string out;
        io::JsonWriter w(out, true);
        w.beginObject();
        w.key("files").beginArray();
        for (const io::RankSource& r : job.value().ranks)
            w.value(r.path);
        w.endArray();
        summary.appendJson(w);
        appendAnalysisJson(w, trace, result, overview ? &*overview : nullptr);
        appendRankJson(w, trace, ranks, &job.value());
        w.endObject();
        out.push_back('\n');
        std::cout << out;
    } else {
        std::cout << "job of " << job.value().ranks.size() << " ranks:\n";
        for (const io::RankSource& r : job.value().ranks)
            std::cout << "  rank " << r.rank << ": " << r.path << "\n";
        summary.printText(std::cout);
        printAnalysisText(std::cout, trace, result, overview ? &*overview : nullptr);
        printRankText(std::cout, trace, ranks, &job.value());
    }
    std::cout.flush();
    return std::cout.good() ? kExitOk : kExitFailure;
}

}  // namespace

int analyzeCommand(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    bool json = false;
    io::RankJobOptions jobOptions;
    std::int32_t buckets = 50;
    analysis::WindowRequest windowRequest;
    int windowOptions = 0;
    double gapThresholdUs =
        static_cast<double>(analysis::AnalysisOptions{}.gapThresholdNs) / model::kNsPerUs;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") {
            json = true;
        } else if (a == "--gap-threshold-us" || a.rfind("--gap-threshold-us=", 0) == 0) {
            std::string value;
            if (a == "--gap-threshold-us") {
                if (i + 1 >= args.size()) {
                    printError("--gap-threshold-us needs a value\n" + std::string(kAnalyzeUsage));
                    return kExitBadInput;
                }
                value = args[++i];
            } else {
                value = a.substr(std::string("--gap-threshold-us=").size());
            }
            if (!parsePositive(value, gapThresholdUs)) {
                printError("--gap-threshold-us: '" + value + "' is not a non-negative number");
                return kExitBadInput;
            }
        } else if (a == "--range" || a.rfind("--range=", 0) == 0 || a == "--window" ||
                   a.rfind("--window=", 0) == 0) {
            const bool range = a.rfind("--range", 0) == 0;
            const std::string option = range ? "--range" : "--window";
            std::string value;
            if (a == option) {
                if (i + 1 >= args.size()) {
                    printError(option + " needs a value\n" + kAnalyzeUsage);
                    return kExitBadInput;
                }
                value = args[++i];
            } else {
                value = a.substr(option.size() + 1);
            }
            auto request = range ? analysis::WindowRequest::nvtx(value)
                                 : analysis::WindowRequest::timeMs(value);
            if (!request.ok()) {
                printError(request.error().describe());
                return kExitBadInput;
            }
            windowRequest = request.value();
            ++windowOptions;
        } else if (isOption(a, "--align") || isOption(a, "--align-range") ||
                   isOption(a, "--rank-buckets")) {
            const std::string option = a.substr(0, a.find('='));
            std::string value;
            if (!optionValue(args, i, option, value)) {
                printError(option + " needs a value\n" + kAnalyzeUsage);
                return kExitBadInput;
            }
            if (option == "--align-range") {
                jobOptions.alignRange = value;
            } else if (option == "--rank-buckets") {
                double n = 0;
                if (!parsePositive(value, n) || n < 1 || n > 100000 || n != std::floor(n)) {
                    printError("--rank-buckets: '" + value + "' is not a whole number 1-100000");
                    return kExitBadInput;
                }
                buckets = static_cast<std::int32_t>(n);
            } else if (value == "auto" || value == "clock" || value == "range" ||
                       value == "start") {
                using Align = io::RankJobOptions::Align;
                jobOptions.align = value == "auto"    ? Align::Auto
                                   : value == "clock" ? Align::WallClock
                                   : value == "range" ? Align::Range
                                                      : Align::Start;
            } else {
                printError("--align: '" + value + "' is not one of auto, clock, range, start");
                return kExitBadInput;
            }
        } else if (a == "--whole-trace") {
            windowRequest = {};
            windowRequest.kind = analysis::WindowRequest::Kind::WholeTrace;
            ++windowOptions;
        } else if (a == "--help" || a == "-h") {
            std::cout << kAnalyzeUsage << "\n";
            return kExitOk;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            printError("analyze: unknown option '" + a + "'\n" + kAnalyzeUsage);
            return kExitBadInput;
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) {
        printError(std::string("analyze: no trace file given\n") + kAnalyzeUsage);
        return kExitBadInput;
    }
    if (windowOptions > 1) {
        printError("analyze: give one of --range, --window and --whole-trace\n" +
                   std::string(kAnalyzeUsage));
        return kExitBadInput;
    }
    if (jobOptions.align == io::RankJobOptions::Align::Range && jobOptions.alignRange.empty()) {
        printError("analyze: --align range needs --align-range NAME\n" +
                   std::string(kAnalyzeUsage));
        return kExitBadInput;
    }
    analysis::AnalysisOptions options;
    options.gapThresholdNs = static_cast<model::TimeNs>(std::llround(gapThresholdUs * 1e3));

    std::error_code ec;
    if (files.size() > 1 || std::filesystem::is_directory(files.front(), ec)) {
        const auto expanded = io::rankJobFiles(files);
        if (!expanded.ok()) {
            printError(expanded.error().describe());
            return kExitBadInput;
        }
        if (expanded.value().size() > 1) {
            return analyzeJob(expanded.value(), json, windowRequest, options, jobOptions, buckets);
        }
        files = expanded.value();  // a folder of one trace: that trace
    }
    const std::string& file = files.front();
    const auto loaded = io::loadTrace(file);
    if (!loaded.ok()) {
        printError(loaded.error().describe());
        return kExitBadInput;
    }
    const model::Trace& trace = *loaded.value();
    const auto window = analysis::resolveWindow(trace, windowRequest);
    if (!window.ok()) {
        printError(file + ": " + window.error().describe());
        return kExitBadInput;
    }
    const analysis::AnalysisResult result = analysis::analyzeTrace(trace, options, window.value());
    const std::optional<analysis::Summary> overview = analysis::computeSummary(trace, result);
    const ImportSummary summary = ImportSummary::of(trace);
    // A job's merged trace opened again: its ranks are compared as when it was merged.
    std::optional<analysis::RankStats> ranks;
    if (!analysis::jobRanks(trace).empty()) {
        analysis::RankOptions rankOptions;
        rankOptions.analysis = options;
        rankOptions.overviewBuckets = buckets;
        ranks = analysis::computeRankStats(trace, window.value(), rankOptions);
    }
    if (json) {
        std::string out;
        io::JsonWriter w(out, true);
        w.beginObject();
        w.field("file", file);
        summary.appendJson(w);
        appendAnalysisJson(w, trace, result, overview ? &*overview : nullptr);
        if (ranks)
            appendRankJson(w, trace, *ranks);
        w.endObject();
        out.push_back('\n');
        std::cout << out;
    } else {
        std::cout << file << "\n";
        summary.printText(std::cout);
        printAnalysisText(std::cout, trace, result, overview ? &*overview : nullptr);
        if (ranks)
            printRankText(std::cout, trace, *ranks);
    }
    std::cout.flush();
    return std::cout.good() ? kExitOk : kExitFailure;
}

}  // namespace wl::app
