#include "app/gui/GuiOptions.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "app/RunOptions.h"

namespace wl::app {
namespace {

// Qt's own command-line options that take a value; QApplication consumes them later.
constexpr std::array<std::string_view, 13> kQtOptionsWithValue = {
    "-platform", "-platformpluginpath", "-platformtheme", "-plugin",      "-style",   "-stylesheet",
    "-session",  "-qwindowgeometry",    "-qwindowtitle",  "-qwindowicon", "-display", "-geometry",
    "-title"};
constexpr std::array<std::string_view, 3> kQtFlags = {"-reverse", "-widgetcount", "-nograb"};

model::Error usageError(std::string text) {
    return model::Error{std::move(text), {}, -1};
}

// The whole of `text` as a number of type T (an int, or a double for milliseconds).
template <class T>
bool parseNumber(const std::string& text, T& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

}  // namespace

const char* guiUsage() {
    // The run options' lines come from the run catalog, as in `warpline run --help`.
    static const std::string usage =
        std::string(R"(Usage: warpline [--open FILE] [RUN OPTIONS] [--run] [--find TEXT] [--events]
                [--compare [A B]]
                [--window-size WxH] [--screenshot FILE.png]
  --open FILE          open a trace (Chrome trace JSON, plain or .gz)
  --open A B ...|DIR   open a job's per-rank traces together (files, or a folder of them)
)") + workloads::runOptionsUsage(23) +
        R"(  --run                press Run at start
  --compare            press Compare at start: baseline, then async, side by side
  --compare A B        open the traces A and B side by side in Compare
  --compare-with FILE  put the trace FILE beside the --open one in Compare
  --find TEXT          search the trace for slices named like TEXT (the Find panel)
  --events             show the events table (every slice, sortable) at start
  --query SQL          show the Query panel at start, running SQL over the trace
                       (the tables of `warpline query`)
  --summary[=PAGE]     show the Summary at start, on PAGE: overview (the default), kernels,
                       operators, memory or ranks
  --select START:END   select and analyse that time (ms since the trace's start), as a drag on
                       the ruler does: the statistics show each row's work in it
  --flag MS[:NAME]     drop a flag on the timeline at MS ms since the trace's start (repeatable)
  --window-size WxH    the window's size in pixels (e.g. 1024x700; screenshots check layouts)
  --screenshot FILE    save the window once loading/running is done, then exit
                       (exit code 1 when the run failed)
)";
    return usage.c_str();
}

model::Result<GuiOptions> parseGuiOptions(const std::vector<std::string>& args) {
    GuiOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::string inlineValue;
        bool hasInlineValue = false;
        if (arg.rfind("--", 0) == 0) {
            if (auto eq = arg.find('='); eq != std::string::npos) {
                inlineValue = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                hasInlineValue = true;
            }
        }
        // Returns the option's value (inline or the next argument), or sets `missing`.
        bool missing = false;
        auto value = [&]() -> std::string {
            if (hasInlineValue)
                return inlineValue;
            if (i + 1 >= args.size()) {
                missing = true;
                return {};
            }
            return args[++i];
        };
        auto needValue = [&](const std::string& v) -> std::optional<model::Error> {
            if (missing || v.empty())
                return usageError("option " + arg + " needs a value");
            return std::nullopt;
        };

        if (arg == "--open") {
            options.openPath = value();
            if (auto e = needValue(options.openPath))
                return *e;
            // More files after it: a job's per-rank traces, opened together.
            while (!hasInlineValue && i + 1 < args.size() && !args[i + 1].empty() &&
                   args[i + 1][0] != '-') {
                options.moreOpenPaths.push_back(args[++i]);
            }
        } else if (arg == "--screenshot") {
            options.screenshotPath = value();
            if (auto e = needValue(options.screenshotPath))
                return *e;
        } else if (arg == "--find") {
            options.findText = value();
            if (auto e = needValue(options.findText))
                return *e;
        } else if (arg == "--window-size") {
            const std::string v = value();
            if (auto e = needValue(v))
                return *e;
            const auto x = v.find('x');
            int w = 0;
            int h = 0;
            if (x == std::string::npos || !parseNumber(v.substr(0, x), w) ||
                !parseNumber(v.substr(x + 1), h)) {
                w = 0;
            }
            if (w < 200 || h < 200 || w > 10000 || h > 10000)
                return usageError("--window-size must be WIDTHxHEIGHT in pixels, got '" + v + "'");
            options.windowWidthPx = w;
            options.windowHeightPx = h;
        } else if (arg == "--select") {
            const std::string v = value();
            if (auto e = needValue(v))
                return *e;
            const auto colon = v.find(':');
            double fromMs = -1.0;
            double toMs = -1.0;
            if (colon != std::string::npos && (!parseNumber(v.substr(0, colon), fromMs) ||
                                               !parseNumber(v.substr(colon + 1), toMs)))
                fromMs = toMs = -1.0;
            if (!(fromMs >= 0.0 && toMs > fromMs && toMs < 1e9))
                return usageError("--select must be START:END in ms with START < END, got '" + v +
                                  "'");
            options.selectRange =
                model::TimeRange{static_cast<model::TimeNs>(std::llround(fromMs * 1e6)),
                                 static_cast<model::TimeNs>(std::llround(toMs * 1e6))};
        } else if (arg == "--flag") {
            const std::string v = value();
            if (auto e = needValue(v))
                return *e;
            const auto colon = v.find(':');
            double atMs = -1.0;
            if (!parseNumber(v.substr(0, colon), atMs) || !(atMs >= 0.0 && atMs < 1e9))
                return usageError("--flag must be MS[:NAME] with MS >= 0, got '" + v + "'");
            options.flags.push_back(
                {static_cast<model::TimeNs>(std::llround(atMs * 1e6)),
                 colon == std::string::npos ? std::string() : v.substr(colon + 1)});
        } else if (arg == "--query") {
            options.querySql = value();
            if (auto e = needValue(options.querySql))
                return *e;
        } else if (arg == "--events") {
            options.showEvents = true;
        } else if (arg == "--summary") {
            // The page only inline (--summary=kernels): a bare --summary takes no argument.
            static const char* kPages[] = {"overview", "kernels", "operators", "memory", "ranks"};
            const std::string page = hasInlineValue ? inlineValue : std::string("overview");
            const auto* at = std::find(std::begin(kPages), std::end(kPages), page);
            if (at == std::end(kPages))
                return usageError(
                    "--summary's page must be overview, kernels, operators, memory "
                    "or ranks, got '" +
                    page + "'");
            options.summaryPage = static_cast<int>(at - std::begin(kPages));
        } else if (arg == "--run") {
            options.run = true;
        } else if (arg == "--compare") {
            // `--compare A B` compares two files (as --open A --compare-with B); a bare
            // --compare runs the workload's baseline then async.
            const auto isFile = [&](std::size_t k) {
                return k < args.size() && !args[k].empty() && args[k][0] != '-';
            };
            if (!hasInlineValue && isFile(i + 1) && isFile(i + 2)) {
                options.openPath = args[i + 1];
                options.compareWithPath = args[i + 2];
                i += 2;
            } else if (!hasInlineValue && isFile(i + 1)) {
                return usageError(
                    "--compare takes two trace files (or none, to run a comparison), got only '" +
                    args[i + 1] + "'");
            } else {
                options.compare = true;
            }
        } else if (arg == "--compare-with") {
            options.compareWithPath = value();
            if (auto e = needValue(options.compareWithPath))
                return *e;
        } else if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (const workloads::OptionSpec* option = workloads::findRunOption(arg)) {
            // The run panel's parameters: parsed as `warpline run` parses them.
            std::optional<std::string> text;
            if (!option->isFlag()) {
                text = value();
                if (missing)
                    text.reset();
            }
            if (const model::Status status = applyRunOption(*option, text, options.request);
                !status.ok())
                return usageError(status.error().message);
            if (hasInlineValue && option->isFlag())
                return usageError("option " + arg + " takes no value");
            options.requestGiven = true;
        } else if (std::find(kQtOptionsWithValue.begin(), kQtOptionsWithValue.end(), arg) !=
                   kQtOptionsWithValue.end()) {
            ++i;  // Qt's option and its value: QApplication handles them
        } else if (std::find(kQtFlags.begin(), kQtFlags.end(), arg) != kQtFlags.end()) {
            // Qt's flag
        } else if (!arg.empty() && arg[0] == '-') {
            return usageError("unknown option '" + args[i] + "' (see warpline --help)");
        } else {
            return usageError("unexpected argument '" + arg +
                              "' (use --open FILE to open a trace)");
        }
        if (hasInlineValue && (arg == "--run" || arg == "--compare")) {
            return usageError("option " + arg + " takes no value");
        }
    }
    if (!options.compareWithPath.empty() && options.openPath.empty())
        return usageError("--compare-with needs --open FILE: the trace to compare it with");
    if (!options.compareWithPath.empty() && (options.run || options.compare))
        return usageError(
            "--compare-with compares two files; it cannot be used with --run or "
            "--compare");
    return options;
}

}  // namespace wl::app
