// `warpline query TRACE "SQL" [--csv | --json]`: one SQL statement over a trace's tables
// (tracer/query; README.md, "SQL").
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/Commands.h"
#include "io/TraceFile.h"
#include "query/ResultFormat.h"
#include "query/TraceQuery.h"

namespace wl::app {

namespace {

constexpr const char* kQueryUsage =
    "usage: warpline query TRACE \"SQL\" [--csv | --json]\n"
    "  Runs one read-only SQL statement (SQLite) over the trace's tables: slice, kernel, memcpy,\n"
    "  track, process, thread, counter, flow, args; and the analysis of its default window:\n"
    "  idle_gap, finding, analysis_window (times in ns from the trace's start). Prints an\n"
    "  aligned table (long text cut in the middle), --csv RFC 4180 CSV or --json an array of\n"
    "  objects. Example:\n"
    "    warpline query t.json \"SELECT name, count(*), sum(dur) FROM kernel GROUP BY name\"";

}  // namespace

int queryCommand(const std::vector<std::string>& args) {
    enum class Format { Table, Csv, Json } format = Format::Table;
    std::vector<std::string> positional;
    for (const std::string& a : args) {
        if (a == "--csv" || a == "--json") {
            const Format f = a == "--csv" ? Format::Csv : Format::Json;
            if (format != Format::Table && format != f) {
                printError("query: give one of --csv and --json\n" + std::string(kQueryUsage));
                return kExitBadInput;
            }
            format = f;
        } else if (a == "--help" || a == "-h") {
            std::cout << kQueryUsage << "\n";
            return kExitOk;
        } else if (!a.empty() && a[0] == '-' && a != "-" && positional.size() != 1) {
            // (the SQL, the second positional, may start with "--": a comment)
            printError("query: unknown option '" + a + "'\n" + kQueryUsage);
            return kExitBadInput;
        } else {
            positional.push_back(a);
        }
    }
    if (positional.size() != 2) {
        printError(std::string(positional.empty()       ? "query: no trace file given\n"
                               : positional.size() == 1 ? "query: no SQL given\n"
                                                        : "query: give one trace and one SQL "
                                                          "statement (quote the SQL)\n") +
                   kQueryUsage);
        return kExitBadInput;
    }
    auto loaded = io::loadTrace(positional[0]);
    if (!loaded.ok()) {
        printError(loaded.error().describe());
        return kExitBadInput;
    }
    auto db = query::TraceDatabase::open(loaded.value());
    if (!db.ok()) {
        printError(db.error().describe());
        return kExitFailure;
    }
    std::optional<query::QueryError> error;
    if (format == Format::Table) {
        query::QueryResult result;
        error = (*db)->run(positional[1], result);
        if (!error)
            query::writeTable(std::cout, result);
    } else if (format == Format::Csv) {
        query::CsvSink sink(std::cout);
        error = (*db)->run(positional[1], sink);
    } else {
        query::JsonSink sink(std::cout);
        error = (*db)->run(positional[1], sink);
        if (!error)
            sink.finish();
    }
    if (error) {
        std::cout.flush();
        printError("query: " + error->message);
        return kExitFailure;
    }
    std::cout.flush();
    return std::cout.good() ? kExitOk : kExitFailure;
}

}  // namespace wl::app
