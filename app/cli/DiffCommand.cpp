// `warpline diff A B [--json] [--whole-trace]`: two traces side by side, each over its own
// analysis window (its capture range by default): window, GPU busy and idle by cause, kernels,
// copies and NVTX ranges with their deltas, and the findings that appeared or went away.
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/Analysis.h"
#include "analysis/Format.h"
#include "analysis/TraceDiff.h"
#include "analysis/Window.h"
#include "app/cli/Commands.h"
#include "io/JsonWriter.h"
#include "io/TraceFile.h"

namespace wl::app {

namespace {

constexpr const char* kDiffUsage =
    "usage: warpline diff A B [--json] [--whole-trace]\n"
    "  Compares trace B (after) with trace A (before), each over its own analysis window: the\n"
    "  capture range when it has one, else the whole trace (--whole-trace: always the whole\n"
    "  trace). Prints the window, GPU busy and idle by cause, kernels by name, copies by kind\n"
    "  and NVTX ranges (numbers folded) with their deltas, and the findings that appeared or\n"
    "  went away.";

constexpr std::size_t kTextRows = 15;  // rows per table in the text form (--json has all)

std::string signedDuration(model::TimeNs ns) {
    if (ns == 0)
        return "0";
    return (ns > 0 ? "+" : "-") + analysis::formatDuration(ns > 0 ? ns : -ns);
}

std::string meanText(double ns) {
    return analysis::formatDuration(static_cast<model::TimeNs>(std::llround(ns)));
}

void printRows(std::ostream& out, const char* title,
               const std::vector<analysis::TraceDiff::Row>& rows, bool bytes) {
    out << "\n" << title << " (count a -> b, total a -> b, change";
    out << (bytes ? ", bytes a -> b):\n" : ", mean a -> b):\n");
    if (rows.empty()) {
        out << "  none\n";
        return;
    }
    for (std::size_t i = 0; i < rows.size() && i < kTextRows; ++i) {
        const auto& r = rows[i];
        std::string name = r.name;
        if (name.size() > 40)
            name = name.substr(0, 37) + "...";
        out << "  " << std::left << std::setw(41) << name << std::right << std::setw(7) << r.countA
            << " -> " << std::left << std::setw(7) << r.countB << std::right << std::setw(11)
            << analysis::formatDuration(r.totalA) << " -> " << std::left << std::setw(11)
            << analysis::formatDuration(r.totalB) << std::right << std::setw(12)
            << signedDuration(r.deltaNs()) << "   ";
        if (bytes)
            out << analysis::formatBytes(r.bytesA) << " -> " << analysis::formatBytes(r.bytesB);
        else
            out << meanText(r.meanA()) << " -> " << meanText(r.meanB());
        out << "\n";
    }
    if (rows.size() > kTextRows)
        out << "  (" << rows.size() - kTextRows << " more; --json lists all)\n";
}

std::string joined(const std::vector<std::string>& items) {
    if (items.empty())
        return "none";
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

void printText(std::ostream& out, const std::string& fileA, const std::string& fileB,
               const analysis::TraceDiff& d) {
    out << "a: " << fileA << " (" << d.a.window << ")\n";
    out << "b: " << fileB << " (" << d.b.window << ")\n\n";
    const double speedup = d.speedup();
    out << "window:     " << analysis::formatDuration(d.a.windowNs) << " -> "
        << analysis::formatDuration(d.b.windowNs);
    if (speedup > 0.0) {
        std::ostringstream s;
        s << std::fixed << std::setprecision(2) << (speedup >= 1.0 ? speedup : 1.0 / speedup);
        out << "  (b "
            << (speedup >= 1.0 ? "is " + s.str() + "x faster" : "takes " + s.str() + "x as long")
            << ")";
    }
    out << "\n";
    std::ostringstream points;
    points << std::showpos << std::fixed << std::setprecision(1) << d.b.busyPct - d.a.busyPct;
    out << "GPU busy:   " << analysis::formatPercent(d.a.busyPct) << " -> "
        << analysis::formatPercent(d.b.busyPct) << "  (" << points.str() << " points)\n";
    out << "GPU idle:   " << analysis::formatDuration(d.a.idleNs) << " -> "
        << analysis::formatDuration(d.b.idleNs) << "\n";
    const char* causeText[] = {"waiting on queued work (gpu_wait)", "after a blocking call",
                               "host not issuing work"};
    const analysis::GapCause causes[] = {analysis::GapCause::GpuWait,
                                         analysis::GapCause::AfterBlockingCall,
                                         analysis::GapCause::Host};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto c = static_cast<std::size_t>(causes[i]);
        out << "  " << std::left << std::setw(36) << causeText[i] << std::right
            << analysis::formatDuration(d.a.idleByCause[c]) << " -> "
            << analysis::formatDuration(d.b.idleByCause[c]) << "\n";
    }
    out << "kernels:    " << d.a.kernels << " -> " << d.b.kernels << " launches\n";
    out << "copies:     " << d.a.copies << " -> " << d.b.copies << " ("
        << analysis::formatBytes(d.a.copyBytes) << " at "
        << analysis::formatRate(d.a.copyGbPerSecond) << " -> "
        << analysis::formatBytes(d.b.copyBytes) << " at "
        << analysis::formatRate(d.b.copyGbPerSecond) << ")\n";
    printRows(out, "kernels by name, largest change first", d.kernels, false);
    printRows(out, "copies by kind", d.copies, true);
    printRows(out, "NVTX ranges in the window", d.ranges, false);
    out << "\nfindings gone: " << joined(d.findingsGone) << "\n";
    out << "findings new:  " << joined(d.findingsNew) << "\n";
    out << "findings kept: " << joined(d.findingsKept) << "\n";
}

void appendSide(io::JsonWriter& w, const char* name, const std::string& file,
                const analysis::TraceDiff::Side& s) {
    w.key(name).beginObject();
    w.field("file", file);
    w.field("window", s.window);
    w.field("window_ns", static_cast<std::int64_t>(s.windowNs));
    w.field("gpu_busy_pct", std::isfinite(s.busyPct) ? s.busyPct : 0.0);
    w.field("busy_ns", static_cast<std::int64_t>(s.busyNs));
    w.field("idle_ns", static_cast<std::int64_t>(s.idleNs));
    w.key("idle_by_cause_ns").beginObject();
    for (auto c : {analysis::GapCause::GpuWait, analysis::GapCause::AfterBlockingCall,
                   analysis::GapCause::Host})
        w.field(analysis::toString(c),
                static_cast<std::int64_t>(s.idleByCause[static_cast<std::size_t>(c)]));
    w.endObject();
    w.field("kernels", s.kernels);
    w.field("copies", s.copies);
    w.field("copy_bytes", s.copyBytes);
    w.field("copy_gb_per_s", std::isfinite(s.copyGbPerSecond) ? s.copyGbPerSecond : 0.0);
    w.endObject();
}

void appendRows(io::JsonWriter& w, const char* name,
                const std::vector<analysis::TraceDiff::Row>& rows, bool bytes) {
    w.key(name).beginArray();
    for (const auto& r : rows) {
        w.beginObject();
        w.field("name", r.name);
        w.field("count_a", r.countA).field("count_b", r.countB);
        w.field("total_ns_a", static_cast<std::int64_t>(r.totalA));
        w.field("total_ns_b", static_cast<std::int64_t>(r.totalB));
        w.field("delta_ns", static_cast<std::int64_t>(r.deltaNs()));
        w.field("mean_ns_a", r.meanA()).field("mean_ns_b", r.meanB());
        if (bytes)
            w.field("bytes_a", r.bytesA).field("bytes_b", r.bytesB);
        w.endObject();
    }
    w.endArray();
}

void appendStrings(io::JsonWriter& w, const char* name, const std::vector<std::string>& items) {
    w.key(name).beginArray();
    for (const auto& s : items)
        w.value(s);
    w.endArray();
}

}  // namespace

int diffCommand(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    bool json = false;
    analysis::WindowRequest request;
    for (const std::string& a : args) {
        if (a == "--json") {
            json = true;
        } else if (a == "--whole-trace") {
            request.kind = analysis::WindowRequest::Kind::WholeTrace;
        } else if (a == "--help" || a == "-h") {
            std::cout << kDiffUsage << "\n";
            return kExitOk;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            printError("diff: unknown option '" + a + "'\n" + kDiffUsage);
            return kExitBadInput;
        } else {
            files.push_back(a);
        }
    }
    if (files.size() != 2) {
        printError("diff: give two trace files, A (before) and B (after)\n" +
                   std::string(kDiffUsage));
        return kExitBadInput;
    }
    model::TracePtr traces[2];
    analysis::AnalysisResult results[2];
    for (int i = 0; i < 2; ++i) {
        auto loaded = io::loadTrace(files[i]);
        if (!loaded.ok()) {
            printError(loaded.error().describe());
            return kExitBadInput;
        }
        traces[i] = loaded.value();
        const auto window = analysis::resolveWindow(*traces[i], request);
        if (!window.ok()) {
            printError(files[i] + ": " + window.error().describe());
            return kExitBadInput;
        }
        results[i] = analysis::analyzeTrace(*traces[i], {}, window.value());
    }
    const analysis::TraceDiff d =
        analysis::diffTraces(*traces[0], results[0], *traces[1], results[1]);
    if (json) {
        std::string out;
        io::JsonWriter w(out, true);
        w.beginObject();
        appendSide(w, "a", files[0], d.a);
        appendSide(w, "b", files[1], d.b);
        w.field("speedup", d.speedup());
        appendRows(w, "kernels", d.kernels, false);
        appendRows(w, "copies", d.copies, true);
        appendRows(w, "nvtx_ranges", d.ranges, false);
        w.key("findings").beginObject();
        appendStrings(w, "gone", d.findingsGone);
        appendStrings(w, "new", d.findingsNew);
        appendStrings(w, "kept", d.findingsKept);
        w.endObject();
        w.endObject();
        out.push_back('\n');
        std::cout << out;
    } else {
        printText(std::cout, files[0], files[1], d);
    }
    std::cout.flush();
    return std::cout.good() ? kExitOk : kExitFailure;
}

}  // namespace wl::app
