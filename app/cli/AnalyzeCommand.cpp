// `warpline analyze FILE [--json] [--gap-threshold-us X]`: import summary, then analysis.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/Options.h"
#include "app/cli/AnalysisReport.h"
#include "app/cli/Commands.h"
#include "io/JsonWriter.h"
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
        << " API calls, " << counts.nvtx << " NVTX ranges, " << counts.other << " other slices, "
        << counts.counterSamples << " counter samples, " << counts.flows << " flows, "
        << counts.dependencies << " waits through events\n";
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
    "usage: warpline analyze FILE [--json] [--range NAME[#K]] [--window START_MS:END_MS]\n"
    "                        [--whole-trace] [--gap-threshold-us X]\n"
    "  The analysis describes one window of the trace: by default its capture range\n"
    "  (cudaProfilerStart/Stop, record --capture-range) when it has one, else the whole trace\n"
    "  (first to last GPU op). --range: the K-th NVTX range named exactly NAME (1-based, in\n"
    "  start order), or every one of them without #K. --window: a time range in ms of trace\n"
    "  time, as the ruler shows it. --whole-trace: ignore the capture range.";

bool parsePositive(const std::string& text, double& value) {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    return r.ec == std::errc() && r.ptr == text.data() + text.size() && std::isfinite(value) &&
           value >= 0.0;
}

}  // namespace

int analyzeCommand(const std::vector<std::string>& args) {
    std::string file;
    bool json = false;
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
        } else if (file.empty()) {
            file = a;
        } else {
            printError("analyze: one trace file at a time ('" + a + "' is extra)\n" +
                       kAnalyzeUsage);
            return kExitBadInput;
        }
    }
    if (file.empty()) {
        printError(std::string("analyze: no trace file given\n") + kAnalyzeUsage);
        return kExitBadInput;
    }
    if (windowOptions > 1) {
        printError("analyze: give one of --range, --window and --whole-trace\n" +
                   std::string(kAnalyzeUsage));
        return kExitBadInput;
    }

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
    analysis::AnalysisOptions options;
    options.gapThresholdNs = static_cast<model::TimeNs>(std::llround(gapThresholdUs * 1e3));
    const analysis::AnalysisResult result = analysis::analyzeTrace(trace, options, window.value());
    const ImportSummary summary = ImportSummary::of(trace);
    if (json) {
        std::string out;
        io::JsonWriter w(out, true);
        w.beginObject();
        w.field("file", file);
        summary.appendJson(w);
        appendAnalysisJson(w, trace, result);
        w.endObject();
        out.push_back('\n');
        std::cout << out;
    } else {
        std::cout << file << "\n";
        summary.printText(std::cout);
        printAnalysisText(std::cout, trace, result);
    }
    std::cout.flush();
    return std::cout.good() ? kExitOk : kExitFailure;
}

}  // namespace wl::app
