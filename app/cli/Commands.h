#pragma once

#include <string>
#include <vector>

namespace wl::app {

// Exit codes of every command (docs/ARCHITECTURE.md, "Conventions").
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // failed while running (run check failed, GPU error)
inline constexpr int kExitBadInput = 2;  // bad usage or bad input

// Subcommands. Each gets the arguments after its name, prints results to stdout and errors to
// stderr as "warpline: error: ...", and returns an exit code. None needs a display.
int analyzeCommand(const std::vector<std::string>& args);
int convertCommand(const std::vector<std::string>& args);
int runCommand(const std::vector<std::string>& args);
int recordCommand(const std::vector<std::string>& args);
int diffCommand(const std::vector<std::string>& args);
int queryCommand(const std::vector<std::string>& args);

// Prints "warpline: error: <text>" to stderr.
void printError(const std::string& text);

}  // namespace wl::app
