#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/RunSession.h"
#include "model/Result.h"
#include "model/Time.h"

namespace wl::app {

// The window's command line: `warpline [--open FILE] [run options] [--run] [--screenshot FILE]`.
// Parsed before Qt starts so bad usage fails fast (exit 2) even without a display. Qt's own
// options (-platform, -style, ...) are passed through untouched.
struct GuiOptions {
    std::string openPath;  // empty: no file to open; a folder: its per-rank traces
    // `--open A B C`: the files after the first, opened with it as one job's per-rank traces.
    std::vector<std::string> moreOpenPaths;
    RunRequest request;           // run panel parameters given on the command line
    bool requestGiven = false;    // at least one run option was given (overrides saved settings)
    bool run = false;             // press Run at start
    bool compare = false;         // press Compare at start (baseline then async)
    std::string compareWithPath;  // File > Compare With at start: beside the --open trace
    std::string screenshotPath;   // save the window there once loading/running is done, then exit
    std::string findText;         // Edit > Find at start: search the opened trace for it
    std::string querySql;         // --query SQL: the Query panel at start, running it
    bool showEvents = false;      // bring the events table to the front at start
    // --summary[=PAGE]: show the Summary at start, on that page (0 Overview, 1 Kernels, 2
    // Operators, 3 Memory, 4 Ranks).
    std::optional<int> summaryPage;
    // --select START:END (ms since the trace's start): select and analyse that time at start.
    std::optional<model::TimeRange> selectRange;
    // --flag MS[:NAME] (repeatable): flags dropped on the timeline at start (ms since the trace's
    // start; an empty name: "Flag N").
    struct Flag {
        model::TimeNs timeNs = 0;
        std::string name;
    };
    std::vector<Flag> flags;
    int windowWidthPx = 0;  // --window-size WxH: the window's size (0: the default)
    int windowHeightPx = 0;
    bool help = false;
};

// Parses argv[1..]; an Error names the bad option or value.
model::Result<GuiOptions> parseGuiOptions(const std::vector<std::string>& args);

// One-screen usage of the window's options.
const char* guiUsage();

}  // namespace wl::app
